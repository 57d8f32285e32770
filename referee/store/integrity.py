"""Whether the database still refuses to change what is only ever inserted: the append-only
triggers of migrations 0001 (events), 0003 (player_events) and 0011 (acta_leaves, tree_heads),
present, enabled and still raising. ``db audit`` reports any that is not."""

from __future__ import annotations

from sqlalchemy import Connection, text

APPEND_ONLY = ("events", "player_events", "acta_leaves", "tree_heads")
_PG_TRIGGERS = text(
    "SELECT c.relname AS tab, t.tgname AS name, t.tgenabled AS enabled, p.prosrc AS body, "
    "t.tgtype AS kind FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
    "JOIN pg_proc p ON p.oid = t.tgfoid "
    "WHERE NOT t.tgisinternal AND pg_table_is_visible(c.oid)")
_PG_UPDATE, _PG_DELETE = 16, 8  # tgtype's bits for the events a trigger fires on


def unguarded(conn: Connection) -> list[str]:
    """What no longer guards an append-only table: one sentence each, empty when all do."""
    if conn.dialect.name == "postgresql":
        return _postgresql(conn)
    return _sqlite(conn)


def _postgresql(conn: Connection) -> list[str]:
    found = {(r.tab, r.name): r for r in conn.execute(_PG_TRIGGERS)}
    problems = []
    for table in APPEND_ONLY:
        name = f"{table}_append_only"
        row = found.get((table, name))
        if row is None:
            problems.append(f"{table}: the trigger {name} is missing: rows can be changed")
        elif row.enabled == "D":
            problems.append(f"{table}: the trigger {name} is disabled: rows can be changed")
        elif "RAISE EXCEPTION" not in row.body.upper():
            problems.append(f"{table}: the trigger {name}'s function no longer refuses anything")
        elif row.kind & (_PG_UPDATE | _PG_DELETE) != _PG_UPDATE | _PG_DELETE:
            problems.append(f"{table}: the trigger {name} no longer fires on both UPDATE and "
                            f"DELETE")
    return problems


def _sqlite(conn: Connection) -> list[str]:
    found = {name: sql for name, sql in conn.execute(
        text("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"))}
    problems = []
    for table in APPEND_ONLY:
        for action in ("update", "delete"):
            name = f"{table}_no_{action}"
            sql = found.get(name)
            if sql is None:
                problems.append(f"{table}: the trigger {name} is missing: rows can be changed")
            elif "RAISE(ABORT" not in sql.upper().replace(" ", ""):
                problems.append(f"{table}: the trigger {name} no longer refuses anything")
    return problems
