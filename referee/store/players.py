"""A club's players: found by name key, registered, renamed and merged, with the audit of it.

Names come here normalised and keyed by the service (``referee.service.checks.player_name`` and
``name_key``); the store matches keys, never names. A merged player's row stays, with
``merged_into`` set, so that its key still finds someone: :func:`resolve` follows it.

On PostgreSQL, the rows a match is about to seat are read ``FOR SHARE`` and the rows a merge or
rename changes ``FOR UPDATE``, so a merge never leaves a new seat behind on the player it merged
away (SQLite's writers are serialised by BEGIN IMMEDIATE already).

**The lock order.** A merge and whatever seats players (a match created or imported, an entrant
entered) take their locks in one order: the club's row first, then the players, by id. At the
club's row they exclude each other (:func:`lock_merges`, FOR NO KEY UPDATE, against
:func:`lock_seating`, FOR SHARE), so one waits there for the other to end and they never hold
players the other wants. Neither mode makes the foreign key checks of the club's inserts wait
(those take FOR KEY SHARE, which only FOR UPDATE blocks). Before, a creation holding its players
FOR SHARE waited at the club's row (its match's foreign key) for a merge that held the row FOR
UPDATE and waited for those players: PostgreSQL broke the cycle by failing one (a 503).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Iterable, Mapping

from sqlalchemy import Connection, Row, and_, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from .dialects import postgresql, sqlite
from .errors import AlreadyExists
from .macs import mac_new, update_macd
from .schema import clubs, match_players, player_events, players

MERGE_DEPTH = 8  # merges flatten chains, so one step is the norm; more means a racing merge


def insert_player(conn: Connection, club_id: int, name: str, key: str,
                  created_at: dt.datetime) -> int:
    """A new player; AlreadyExists when the key (or the name) is the club's already. No
    savepoint: the failed insert ends the caller's transaction, which did nothing else."""
    try:
        result = conn.execute(insert(players).values(
            club_id=club_id, name=name, name_key=key, created_at=created_at))
    except IntegrityError:
        raise AlreadyExists(f"a player {name!r} exists already in this club") from None
    player_id = result.inserted_primary_key[0]
    mac_new(conn, "players", players.c.id == player_id)  # it covers the id: once it is known
    return player_id


def player_by_id(conn: Connection, club_id: int, player_id: int, *,
                 for_update: bool = False) -> Row | None:
    """The club's player ``player_id`` (None for none, or another club's)."""
    query = select(players).where(players.c.club_id == club_id, players.c.id == player_id)
    return conn.execute(query.with_for_update() if for_update else query).first()


def player_by_key(conn: Connection, club_id: int, key: str) -> Row | None:
    """The row holding ``key``: the player, or an alias a merge left (see :func:`resolve`)."""
    return conn.execute(select(players).where(
        players.c.club_id == club_id, players.c.name_key == key)).first()


def player_row(conn: Connection, club_id: int, name: str) -> Row | None:
    """The player named exactly ``name`` as stored (the service finds people by key instead)."""
    return conn.execute(select(players).where(
        players.c.club_id == club_id, players.c.name == name)).first()


def resolve(conn: Connection, row: Row | None, *, share: bool = False) -> Row | None:
    """The player a row stands for: itself, or the player it was merged into. ``share``: read
    the player FOR SHARE (PostgreSQL), so no merge moves it away before the transaction ends."""
    for _ in range(MERGE_DEPTH):
        if row is None or row.merged_into is None:
            return row
        query = select(players).where(players.c.id == row.merged_into)
        row = conn.execute(query.with_for_update(read=True) if share else query).first()
    raise RuntimeError(f"player {row.id}: merged more than {MERGE_DEPTH} times over")


def players_by_key(conn: Connection, club_id: int, keys: Iterable[str], *,
                   share: bool = False) -> dict[str, Row]:
    """The rows holding ``keys`` (players or aliases), by key."""
    query = select(players).where(players.c.club_id == club_id,
                                  players.c.name_key.in_(sorted(set(keys))))
    if share:
        query = query.order_by(players.c.id).with_for_update(read=True)
    return {row.name_key: row for row in conn.execute(query)}


def register(conn: Connection, club_id: int, names: Mapping[str, str],
             created_at: dt.datetime) -> dict[str, Row]:
    """The rows holding each key of ``names`` (key -> normalised name), registering the keys
    the club does not have yet under their names; read FOR SHARE. Concurrent registrations of
    one key are harmless: the insert skips a key that exists (ON CONFLICT DO NOTHING)."""
    found = players_by_key(conn, club_id, names, share=True)
    missing = sorted(set(names) - found.keys())
    if missing:
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        conn.execute(dialect.insert(players).on_conflict_do_nothing(), [
            {"club_id": club_id, "name": names[k], "name_key": k, "created_at": created_at}
            for k in missing])
        mac_new(conn, "players", and_(players.c.club_id == club_id,
                                      players.c.name_key.in_(missing)))
        found.update(players_by_key(conn, club_id, missing, share=True))
    absent = set(names) - found.keys()
    if absent:  # the insert met another unique constraint: a stored name of another key
        raise AlreadyExists("a player of this name exists already under another key: "
                            + ", ".join(repr(names[k]) for k in sorted(absent)))
    return found


def ensure_players(conn: Connection, club_id: int, names: Mapping[str, str],
                   created_at: dt.datetime) -> dict[str, int]:
    """The ids of the players ``names`` (key -> normalised name) stand for, merges followed,
    registering the new keys: :func:`register`, then :func:`resolve`."""
    rows = register(conn, club_id, names, created_at)
    return {key: resolve(conn, row, share=True).id for key, row in rows.items()}


def club_keys(conn: Connection, club_id: int) -> list[Row]:
    """Every key of the club, aliases included: (name_key, id, name, merged_into)."""
    return conn.execute(select(players.c.name_key, players.c.id, players.c.name,
                               players.c.merged_into)
                        .where(players.c.club_id == club_id)).all()


def list_players(conn: Connection, club_id: int, limit: int, offset: int) -> tuple[list[Row], int]:
    """The club's players by name (aliases that merges left are not players any more)."""
    where = and_(players.c.club_id == club_id, players.c.merged_into.is_(None))
    total = conn.execute(select(func.count()).select_from(players).where(where)).scalar_one()
    rows = conn.execute(select(players).where(where).order_by(players.c.name, players.c.id)
                        .limit(limit).offset(offset)).all()
    return rows, total


def aliases_of(conn: Connection, player_id: int) -> list[Row]:
    """The rows merged into ``player_id``."""
    return conn.execute(select(players).where(players.c.merged_into == player_id)
                        .order_by(players.c.id)).all()


def match_ids_of(conn: Connection, player_id: int) -> list[int]:
    """The matches the player sits in."""
    return list(conn.execute(select(match_players.c.match_id).distinct()
                             .where(match_players.c.player_id == player_id)
                             .order_by(match_players.c.match_id)).scalars())


def shared_match_ids(conn: Connection, a: int, b: int) -> list[int]:
    """The matches both players sit in."""
    theirs = select(match_players.c.match_id).where(match_players.c.player_id == b)
    return list(conn.execute(select(match_players.c.match_id).distinct()
                             .where(match_players.c.player_id == a,
                                    match_players.c.match_id.in_(theirs))
                             .order_by(match_players.c.match_id)).scalars())


def rename_player(conn: Connection, player_id: int, name: str, key: str) -> None:
    """Give the player a new name (and key); AlreadyExists when another row of the club holds
    the key (or the name). No savepoint: a failure ends the caller's transaction."""
    try:
        update_macd(conn, "players", players.c.id == player_id, {"name": name, "name_key": key})
    except IntegrityError:
        raise AlreadyExists(f"a player {name!r} exists already in this club") from None


def lock_merges(conn: Connection, club_id: int) -> None:
    """Take the club's merge lock (its row, FOR NO KEY UPDATE, until the transaction ends),
    before any player's: the club's merges run one at a time, and none while players are being
    seated (:func:`lock_seating`). A merge touches rows of both players, of every alias and of
    their standings and ratings; two merges locking those in their own orders deadlocked
    (three round a ring). SQLite's BEGIN IMMEDIATE serialises every write already."""
    conn.execute(select(clubs.c.id).where(clubs.c.id == club_id)
                 .with_for_update(key_share=True))


def lock_seating(conn: Connection, club_id: int) -> None:
    """Hold the club's row FOR SHARE until the transaction ends, before any player's: no merge
    of the club's players runs while this transaction seats them (seatings share the lock)."""
    if conn.dialect.name == "postgresql":
        conn.execute(select(clubs.c.id).where(clubs.c.id == club_id).with_for_update(read=True))


def merge_player(conn: Connection, source: int, into: int) -> list[int]:
    """Move every seat of ``source`` to ``into``, make ``source`` (and whatever was merged into
    it) an alias of ``into``; the ids of the matches whose seats moved."""
    moved = match_ids_of(conn, source)
    update_macd(conn, "match_players", match_players.c.player_id == source, {"player_id": into})
    from .schema import tournament_entrants  # the tournaments' tables: built when first named

    entrants = tournament_entrants.c  # a tournament's entry follows its player's results
    conn.execute(update(tournament_entrants).where(entrants.player_id == source)
                 .values(player_id=into))
    conn.execute(update(tournament_entrants).where(entrants.partner_id == source)
                 .values(partner_id=into))
    update_macd(conn, "players", or_(players.c.id == source, players.c.merged_into == source),
                {"merged_into": into})
    return moved


def shared_tournaments(conn: Connection, a: int, b: int) -> list[str]:
    """The names of the tournaments both players entered (in one partnership or two)."""
    from .schema import tournament_entrants, tournaments  # built when first named

    e = tournament_entrants.c

    def entered(pid: int) -> Any:
        return select(e.tournament_id).where(or_(e.player_id == pid, e.partner_id == pid))

    return list(conn.execute(
        select(tournaments.c.name).where(tournaments.c.id.in_(entered(a)),
                                         tournaments.c.id.in_(entered(b)))
        .order_by(tournaments.c.name)).scalars())


def insert_player_event(conn: Connection, **values: Any) -> int:
    result = conn.execute(insert(player_events).values(**values))
    event_id = result.inserted_primary_key[0]
    # the one update its trigger lets through: the MAC, which covers the id given just now
    mac_new(conn, "player_events", player_events.c.id == event_id)
    return event_id


def player_event_rows(conn: Connection, player_ids: Iterable[int]) -> list[Row]:
    """What was done to the players ``player_ids``, or merged into them, oldest first."""
    ids = sorted(set(player_ids))
    return conn.execute(select(player_events).where(or_(
        player_events.c.player_id.in_(ids), player_events.c.into_id.in_(ids)))
        .order_by(player_events.c.id)).all()
