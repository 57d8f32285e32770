"""Which columns each table's row MAC covers (``referee.core.macs``), and where the store finds
the key: an engine carries the service's source of it (:func:`install`), as it carries its
match limits, and every write of such a row computes its MAC with it.

- ``events``: the match, seq, type, JSON text, client event id, time, recorder, token and chain
  digest: every column.
- ``matches`` (``mac``): what never changes once created: the id, the club and the header as
  stored (the service reads the rules and players from the header; the row's columns of them
  are projections, as its status and totals are, put right by a rebuild).
- ``matches`` (``head_mac``): the id, the last seq and the chain head, moved on by every append
  (one HMAC of a few bytes an append): an event removed from the end, or the count moved, no
  longer matches.
"""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any, Callable, Sequence

from sqlalchemy import (
    Connection,
    Engine,
    and_,
    bindparam,
    column,
    inspect,
    literal,
    or_,
    select,
    table,
    update,
)

from ..core.macs import Field, RowKey
from . import schema
from .codec import canonical_json, iso
from .errors import StoreError
from .schema import (
    events,
    matches,
)

_SOURCE = "domino_row_key"  # an engine's execution option: the service's source of the key


class NoRowKey(StoreError):
    """An engine without the service's row key: nothing MAC'd can be written or checked."""


def install(engine: Engine, source: Callable[[Connection], RowKey]) -> None:
    """Give ``engine`` (and every connection of it) the source of the row key."""
    engine.update_execution_options(**{_SOURCE: source})


def row_key(conn: Connection) -> RowKey:
    """The row key of the connection's engine (NoRowKey for an engine not given one)."""
    source = conn.get_execution_options().get(_SOURCE)
    if source is None:
        raise NoRowKey("this engine has no row key: open it through the service")
    return source(conn)


def event_mac(key: RowKey, match_id: int, seq: int, type_: str | None, data: str,
              client_event_id: str | None, recorded_at: dt.datetime, recorded_by: str | None,
              token_id: int | None, digest: str) -> str:
    return key.mac("events", match_id, seq, type_, data, client_event_id, iso(recorded_at),
                   recorded_by, token_id, digest)


def match_mac(key: RowKey, match_id: int, club_id: int, header: str) -> str:
    return key.mac("matches", match_id, club_id, header)


def match_fields(row: Any) -> tuple[Field, ...]:
    """What a matches row's ``mac`` covers, from the row."""
    return (row.id, row.club_id, row.header)


def head_mac(key: RowKey, match_id: int, last_seq: int, head: str) -> str:
    return key.mac("matches.head", match_id, last_seq, head)


def head_fields(row: Any) -> tuple[Field, ...]:
    """What a matches row's ``head_mac`` covers, from the row."""
    return (row.id, row.last_seq, row.head)


def event_fields(row: Any) -> tuple[Field, ...]:
    """What an events row's ``mac`` covers, from the row."""
    return (row.match_id, row.seq, row.type, row.data, row.client_event_id,
            iso(row.recorded_at), row.recorded_by, row.token_id, row.digest)


def match_holds(key: RowKey, row: Any) -> bool:
    return key.holds(row.mac, "matches", *match_fields(row))


def head_holds(key: RowKey, row: Any) -> bool:
    return key.holds(row.head_mac, "matches.head", *head_fields(row))


def event_holds(key: RowKey, row: Any) -> bool:
    return key.holds(row.mac, "events", *event_fields(row))


# The tables whose rows carry a MAC, and the column that holds it.
MAC_COLUMNS = (("matches", "mac"), ("events", "mac"), ("clubs", "mac"), ("players", "mac"),
               ("match_players", "mac"), ("player_events", "mac"), ("league_cups", "mac"),
               ("league_cup_matches", "mac"), ("league_cup_awards", "mac"))


def _first_of(conn: Connection, *, carrying_a_mac: bool) -> bool:
    """Whether a table with MACs holds a row (carrying one, if asked). A table a later
    migration makes holds none yet: a database of an older revision (one being upgraded, say)
    lacks it."""
    tables = inspect(conn)
    for name, col in MAC_COLUMNS:
        if not tables.has_table(name):
            continue
        rows = select(literal(1)).select_from(table(name))
        if carrying_a_mac:
            rows = rows.where(column(col).is_not(None))
        if conn.execute(rows.limit(1)).first():
            return True
    return False


def any_mac(conn: Connection) -> bool:
    """Whether any row of the database carries a MAC (made with the row key there is)."""
    return _first_of(conn, carrying_a_mac=True)


def holds_anything(conn: Connection) -> bool:
    """Whether the database holds a row of a table with MACs (and so anything to seal)."""
    return _first_of(conn, carrying_a_mac=False)


# ------------------------------------------------------------------ the seal (domino db seal)

def unsealed_match_ids(conn: Connection) -> list[int]:
    """The matches with a row or an event row that carries no MAC, in id order."""
    rows = select(matches.c.id).where(or_(matches.c.mac.is_(None),
                                          matches.c.head_mac.is_(None)))
    evs = select(events.c.match_id).where(events.c.mac.is_(None))
    return sorted(set(conn.execute(rows).scalars()) | set(conn.execute(evs).scalars()))


def seal_match(conn: Connection, key: RowKey, row: Any, event_rows: Sequence[Any]) -> int:
    """MAC a match's row and its event rows that carry none, as they are stored; returns how
    many rows it sealed."""
    sealed = 0
    if row.mac is None or row.head_mac is None:
        values = {}
        if row.mac is None:
            values["mac"] = key.mac("matches", *match_fields(row))
        if row.head_mac is None:
            values["head_mac"] = key.mac("matches.head", *head_fields(row))
        conn.execute(update(matches).where(matches.c.id == row.id).values(**values))
        sealed += 1
    bare = [e for e in event_rows if e.mac is None]
    if bare:
        conn.execute(update(events).where(events.c.match_id == bindparam("m"),
                                          events.c.seq == bindparam("s"))
                     .values(mac=bindparam("v")),
                     [{"m": e.match_id, "s": e.seq, "v": key.mac("events", *event_fields(e))}
                      for e in bare])
        sealed += len(bare)
    return sealed


# ------------------------------------------------------------------ the other tables

def _json(value: Any) -> str:
    return canonical_json(value)


# What each table's MAC covers, besides the two above (docs/verify.md): a row's fields, from it.
ROW_FIELDS: dict[str, Callable[[Any], tuple[Field, ...]]] = {
    # the result-changing settings: the tie-breakers and where the unranked go
    "clubs": lambda r: (r.id, r.slug, r.name, _json(r.tie_breakers), r.unranked),
    "players": lambda r: (r.id, r.club_id, r.name, r.name_key, r.merged_into),
    "match_players": lambda r: (r.match_id, r.seat, r.player_id, r.side),
    "player_events": lambda r: (r.id, r.club_id, r.player_id, r.kind, r.old_name, r.new_name,
                                r.into_id, _json(r.moved), r.reason, iso(r.recorded_at),
                                r.recorded_by, r.token_id),
    # a cup: what its draw, and so every tie, is made from (migration 0025)
    "league_cups": lambda r: (r.id, r.club_id, r.season_id, r.slug, r.format, r.best_of,
                              r.entrant_kind, _json(r.rules), _json(r.entrants), r.seed,
                              r.seeded),
    "league_cup_matches": lambda r: (r.match_id, r.cup_id, r.tie, r.game, r.home, r.away),
    # a tie decided without a match (migration 0026): every column
    "league_cup_awards": lambda r: (r.id, r.cup_id, r.tie, r.kind, r.home, r.away,
                                    r.conceded_by, r.reason, iso(r.recorded_at),
                                    r.recorded_by, r.token_id),
}
# The tables of ROW_FIELDS, by name: each looked up in the schema when used, so that importing
# this module builds no cup table (the leagues' group: referee.store.schema.LATER).
TABLES = ("clubs", "players", "match_players", "player_events", "league_cups",
          "league_cup_matches", "league_cup_awards")


def _table(name: str) -> Any:
    return getattr(schema, name)


def row_mac(key: RowKey, table_name: str, row: Any) -> str:
    """The MAC a row of ``table_name`` (one of ROW_FIELDS) should carry."""
    return key.mac(table_name, *ROW_FIELDS[table_name](row))


def row_holds(key: RowKey, table_name: str, row: Any) -> bool:
    return key.holds(row.mac, table_name, *ROW_FIELDS[table_name](row))


def _by_key(table_obj: Any, row: Any) -> Any:
    return and_(*(c == getattr(row, c.name) for c in table_obj.primary_key.columns))


def mac_new(conn: Connection, table_name: str, where: Any) -> None:
    """MAC the rows of ``where`` that carry none: rows this transaction has just inserted
    (an id the database gave is covered too)."""
    table_obj = _table(table_name)
    key = row_key(conn)
    for row in conn.execute(select(table_obj).where(where, table_obj.c.mac.is_(None))).all():
        conn.execute(update(table_obj).where(_by_key(table_obj, row))
                     .values(mac=row_mac(key, table_name, row)))


def update_macd(conn: Connection, table_name: str, where: Any, values: dict[str, Any]) -> None:
    """Update the rows of ``where`` with ``values``, each row's MAC moved on with it only if it
    held before: a row changed behind the service's back stays failing, whatever is done to it
    afterwards."""
    table_obj = _table(table_name)
    key = row_key(conn)
    before = conn.execute(select(table_obj).where(where)).all()
    conn.execute(update(table_obj).where(where).values(**values))
    for row in before:
        if row_holds(key, table_name, row):
            after = SimpleNamespace(**{**row._mapping, **values})
            conn.execute(update(table_obj).where(_by_key(table_obj, row))
                         .values(mac=row_mac(key, table_name, after)))


def seal_rows(conn: Connection, key: RowKey) -> dict[str, int]:
    """MAC every row of the tables above that carries none (``domino db seal``); how many a
    table."""
    sealed = {}
    for name in TABLES:
        table_obj = _table(name)
        rows = conn.execute(select(table_obj).where(table_obj.c.mac.is_(None))).all()
        for row in rows:
            conn.execute(update(table_obj).where(_by_key(table_obj, row))
                         .values(mac=row_mac(key, name, row)))
        sealed[name] = len(rows)
    return sealed


def all_rows(conn: Connection, table_name: str) -> list[Any]:
    """Every row of ``table_name`` (one of TABLES), in key order: what the audit checks."""
    table_obj = _table(table_name)
    return conn.execute(select(table_obj).order_by(*table_obj.primary_key.columns)).all()
