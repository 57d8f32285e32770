"""The forgery matrix (docs/verify.md, "Who can forge what: row MACs"): a database writer without
the server's row key, on SQLite and PostgreSQL, changes one thing at a time in a club with a
finished, signed match: every table whose rows a result depends on, each kind of change (a
field updated, a row inserted with its right digest or a MAC copied from another row, a row
deleted, a player renamed, seats reassigned, a setting changed), the append-only triggers
lifted or left in place. Each change the database lets through is named by ``db audit`` (its
table), no new acta is signed (``sign-due`` signs nothing, the club's log holds no new leaf),
and what reads the changed rows either refuses them (RowForged) or answers as before. A change
a trigger refuses is counted apart.

The compact matrix of the quick suite is tests/service/test_service_row_macs.py.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterator

import pytest
from db_helpers import lifted, record_all, sample_match, sql
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from referee.core import chain
from referee.service import RowForged, Service

pytestmark = pytest.mark.resilience

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]
TALLY: dict[str, dict[str, int]] = {}


@pytest.fixture
def club_with_results(service: Service) -> Iterator[tuple[Service, int, int]]:
    """A club with two finished, signed matches and a rename in its players' history."""
    service.clubs.create_club("casino", "Casino")
    service.keys.init("casino")
    ids = []
    for seed in (4, 5):
        _, evs = sample_match("parejas", seed=seed)
        m = service.recording.create_match("casino", "parejas", PLAYERS)["id"]
        record_all(service, m, evs)
        ids.append(m)
    service.players.rename("casino", "Dani", "Daniela", reason="her name")
    assert service.audit.run().problems == []
    yield service, ids[0], ids[1]


def last(service: Service, m: int) -> tuple[int, str]:
    with service.engine.connect() as conn:
        return conn.execute(text("SELECT seq, digest FROM events WHERE match_id = :m "
                                 "ORDER BY seq DESC"), {"m": m}).first()


def one(service: Service, statement: str, **params: Any) -> Any:
    with service.engine.connect() as conn:
        return conn.execute(text(statement), params).first()


def insert_event(service: Service, m: int, mac: str, bump: bool) -> None:
    seq, link = last(service, m)
    forged = {"type": "penalty", "side": 0, "points": 500, "reason": "forged"}
    digest = chain.extend(link, [forged])[0]
    sql(service, "INSERT INTO events (match_id, seq, type, data, recorded_at, digest, mac) "
                 "VALUES (:m, :s, 'penalty', :d, CURRENT_TIMESTAMP, :g, :x)",
        m=m, s=seq + 1, d=json.dumps(forged), g=digest, x=mac)
    if bump:
        sql(service, "UPDATE matches SET last_seq = :s, head = :g, status = 'finished' "
                     "WHERE id = :m", s=seq + 1, g=digest, m=m)


def copied_mac(service: Service, m: int) -> str:
    return one(service, "SELECT mac FROM events WHERE match_id = :m AND seq = 1", m=m).mac


# Each change: (table expected in the audit, the change); the change gets (service, m, other).
Change = Callable[[Service, int, int], None]
CHANGES: dict[str, tuple[str, Change, str | None]] = {
    # events (append-only: UPDATE and DELETE need the triggers lifted)
    "events: the JSON of a play changed": (
        "events", lambda s, m, o: sql(s, "UPDATE events SET data = :d WHERE match_id = :m AND "
                                         "seq = 3", d='{"type":"note","text":"x"}', m=m),
        "events"),
    "events: who recorded it changed": (
        "events", lambda s, m, o: sql(s, "UPDATE events SET recorded_by = 'Mallory' WHERE "
                                         "match_id = :m AND seq = 2", m=m), "events"),
    "events: a penalty inserted, its digest right, the row moved": (
        "events", lambda s, m, o: insert_event(s, m, "ab" * 32, True), None),
    "events: a penalty inserted, its digest right, the row left": (
        "events", lambda s, m, o: insert_event(s, m, "ab" * 32, False), None),
    "events: a penalty inserted with a MAC copied from event 1": (
        "events", lambda s, m, o: insert_event(s, m, copied_mac(s, m), True), None),
    "events: the last event deleted, the row moved back": (
        "matches", lambda s, m, o: (sql(s, "DELETE FROM events WHERE match_id = :m AND seq = "
                                           ":s", m=m, s=last(s, m)[0]),
                                    sql(s, "UPDATE matches SET last_seq = last_seq - 1, head = "
                                           "(SELECT digest FROM events WHERE match_id = :m AND "
                                           "seq = (SELECT MAX(seq) FROM events WHERE match_id "
                                           "= :m)) WHERE id = :m", m=m)), "events"),
    "events: an event in the middle deleted": (
        "events", lambda s, m, o: sql(s, "DELETE FROM events WHERE match_id = :m AND seq = 5",
                                      m=m), "events"),
    # matches
    "matches: a player renamed in the header": (
        "matches", lambda s, m, o: sql(s, "UPDATE matches SET header = REPLACE(header, "
                                          "'\"Ana\"', '\"Mallory\"') WHERE id = :m", m=m), None),
    "matches: another match's header and MAC copied in": (
        "matches", lambda s, m, o: sql(s, "UPDATE matches SET header = (SELECT header FROM "
                                          "matches WHERE id = :o), mac = (SELECT mac FROM "
                                          "matches WHERE id = :o) WHERE id = :m", m=m, o=o),
        None),
    "matches: the count of events moved": (
        "matches", lambda s, m, o: sql(s, "UPDATE matches SET last_seq = last_seq - 2 WHERE "
                                          "id = :m", m=m), None),
    # match_players
    "match_players: seats 0 and 1 reassigned": (
        "match_players", lambda s, m, o: sql(
            s, "UPDATE match_players SET player_id = CASE seat WHEN 0 THEN (SELECT player_id "
               "FROM match_players WHERE match_id = :m AND seat = 1) ELSE (SELECT player_id "
               "FROM match_players WHERE match_id = :m AND seat = 0) END WHERE match_id = :m "
               "AND seat IN (0, 1)", m=m), None),
    "match_players: a seat's side changed": (
        "match_players", lambda s, m, o: sql(s, "UPDATE match_players SET side = 1 - side "
                                                "WHERE match_id = :m AND seat = 0", m=m), None),
    # players
    "players: Ana renamed Mallory": (
        "players", lambda s, m, o: sql(s, "UPDATE players SET name = 'Mallory', name_key = "
                                          "'mallory' WHERE name = 'Ana'"), None),
    "players: Beto merged into Ana behind the service": (
        "players", lambda s, m, o: sql(s, "UPDATE players SET merged_into = (SELECT id FROM "
                                          "players WHERE name = 'Ana') WHERE name = 'Beto'"),
        None),
    "players: a player inserted with Ana's MAC": (
        "players", lambda s, m, o: sql(s, "INSERT INTO players (club_id, name, name_key, "
                                          "created_at, mac) SELECT club_id, 'Mallory', "
                                          "'mallory', created_at, mac FROM players WHERE name "
                                          "= 'Ana'"), None),
    # player_events (append-only)
    "player_events: a rename inserted": (
        "player_events", lambda s, m, o: sql(
            s, "INSERT INTO player_events (club_id, player_id, kind, old_name, new_name, "
               "reason, recorded_at, mac) SELECT club_id, player_id, kind, 'Mallory', new_name, "
               "reason, recorded_at, mac FROM player_events"), None),
    "player_events: a rename's reason changed": (
        "player_events", lambda s, m, o: sql(s, "UPDATE player_events SET reason = 'forged'"),
        "player_events"),
    # clubs
    "clubs: the tie-breakers changed": (
        "clubs", lambda s, m, o: sql(s, "UPDATE clubs SET tie_breakers = :t",
                                     t=json.dumps(["points_for"])), None),
    "clubs: the unranked hidden": (
        "clubs", lambda s, m, o: sql(s, "UPDATE clubs SET unranked = 'hidden'"), None),
    # the standings and ratings (projections, no MAC: the audit computes them again)
    "standing_rows: a side's points raised": (
        "standing_rows", lambda s, m, o: sql(s, "UPDATE standing_rows SET points_for = "
                                                "points_for + 100 WHERE match_id = :m AND seat "
                                                "= 0", m=m), None),
    "current_ratings: every rating raised": (
        "current_ratings", lambda s, m, o: sql(s, "UPDATE current_ratings SET mu = mu + 10"),
        None),
}
# Projections: what they hold is shown until ``domino db rebuild`` writes them again (no MAC
# refuses the read); the audit names each changed row.
SHOWN_UNTIL_REBUILT = {"standing_rows", "current_ratings"}
CELLS = [(name, lift) for name, (_, _, guarded) in CHANGES.items()
         for lift in ((False, True) if guarded else (False,))]


def reads(service: Service, m: int) -> dict[str, Any]:
    """What the club shows: each read, or the refusal's class."""
    found: dict[str, Any] = {}
    for name, read in (("report", lambda: service.reading.report(m)),
                       ("standings", lambda: service.standings.table("casino")),
                       ("players", lambda: service.players.list("casino")),
                       ("history", lambda: service.players.get("casino", "Daniela"))):
        try:
            found[name] = read()
        except RowForged:
            found[name] = RowForged
    return found


@pytest.mark.parametrize(("change", "lift"), CELLS,
                         ids=[f"{c}{' (triggers lifted)' if lift else ''}" for c, lift in CELLS])
def test_every_change_is_named_and_none_is_signed(club_with_results: tuple[Service, int, int],
                                                  change: str, lift: bool,
                                                  figures: dict[str, Any]) -> None:
    service, m, other = club_with_results
    table, act, guarded = CHANGES[change]
    before_reads = reads(service, m)
    leaves = one(service, "SELECT COUNT(*) AS n FROM acta_leaves").n
    tally = TALLY.setdefault(service.engine.dialect.name, {"cells": 0, "refused by a trigger": 0,
                                                           "named by the audit": 0,
                                                           "actas signed": 0})
    tally["cells"] += 1
    if guarded and not lift:
        with pytest.raises(DBAPIError, match="append-only"):
            act(service, m, other)
        tally["refused by a trigger"] += 1
        assert service.audit.run().problems == []
        figures.update(TALLY)
        return
    if guarded:
        with lifted(service, guarded):
            act(service, m, other)
    else:
        act(service, m, other)
    service.matches.forget_all()
    problems = service.audit.run().problems
    assert any(p.table == table for p in problems), [p.line() for p in problems]
    tally["named by the audit"] += 1
    signed, _ = service.transparency.sign_due()
    tally["actas signed"] += len(signed)
    assert signed == [] and one(service, "SELECT COUNT(*) AS n FROM acta_leaves").n == leaves
    if table in SHOWN_UNTIL_REBUILT:
        figures.update(TALLY)
        return
    now = reads(service, m)
    for name, value in now.items():  # refused, or as it was: never the forgery
        assert value is RowForged or value == before_reads[name], (name, value)
    figures.update(TALLY)
