"""Migration 0028 on SQLite and PostgreSQL: on PostgreSQL the procedure ``append_event``, whose
statement is the append's compare-and-set (``referee.store.events._cas_insert(1)``, pinned here
to the procedure's body and arguments: a change to the statement needs a migration of the
procedure), run under generic plans that cannot scan; going down drops it and nothing else, and
appends carry on after going up again. SQLite gets nothing."""

from __future__ import annotations

import re

from sqlalchemy import Engine, text
from sqlalchemy.dialects import postgresql

from migrations import runner
from referee.service import Service
from referee.store.events import _cas_insert
from tests.db_helpers import record_all, sample_match

_PROCEDURE = ("SELECT p.prosrc, pg_get_function_arguments(p.oid), p.proconfig FROM pg_proc p "
              "WHERE p.proname = 'append_event' AND p.prokind = 'p' "
              "AND p.pronamespace = current_schema()::regnamespace")


_TYPES = {"VARCHAR": "character varying", "INTEGER": "integer", "JSONB": "jsonb",
          "TIMESTAMP WITH TIME ZONE": "timestamp with time zone"}


def _procedure(engine: Engine) -> list:
    with engine.connect() as conn:
        return conn.execute(text(_PROCEDURE)).all()


def test_the_procedure_runs_the_appends_statement(engine: Engine) -> None:
    if engine.dialect.name != "postgresql":
        return  # SQLite: the append's two statements as they are, nothing to migrate
    runner.upgrade(engine)
    [(body, arguments, config)] = _procedure(engine)
    declared: dict[str, str] = {}  # each parameter an argument, by first appearance

    def argument(found: re.Match[str]) -> str:
        declared.setdefault(f"a_{found[1]}", _TYPES[found[2]])
        return f"a_{found[1]}"

    statement = _cas_insert(1).compile(dialect=postgresql.psycopg.dialect()).string
    wanted = re.sub(r"%\((\w+)\)s::(TIMESTAMP WITH TIME ZONE|[A-Z]+)", argument, statement)
    assert body == f"BEGIN {wanted} INTO stored; END"
    assert arguments == ", ".join([*(f"IN {name} {type_}" for name, type_ in declared.items()),
                                   "INOUT stored integer DEFAULT NULL::integer"])
    assert config == ["plan_cache_mode=force_generic_plan", "enable_seqscan=off"]


def test_down_and_up_with_appends_stored(engine: Engine) -> None:
    runner.upgrade(engine)
    svc = Service(engine)
    try:
        svc.clubs.create_club("casino", "Casino")
        header, events = sample_match("parejas", seed=3)
        m = svc.recording.create_match("casino", "parejas", header["players"])["id"]
        record_all(svc, m, events[:6])
        runner.downgrade(engine, "0027")
        if engine.dialect.name == "postgresql":
            assert _procedure(engine) == []
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM events")).scalar_one() == 6
        runner.upgrade(engine)
        record_all(Service(engine), m, events[6:12], start=6)
        with engine.connect() as conn:
            assert conn.execute(text("SELECT max(seq) FROM events")).scalar_one() == 12
    finally:
        svc.notifier.close()
