"""Row MACs (docs/verify.md, "Who can forge what"): a database writer without the server's row
key cannot make a row the service reads. The compact matrix: each table with MACs so far, each
kind of change (a field updated, a row inserted with its right digest, a row deleted), the
append-only triggers lifted where the change needs it: the audit names the row (table and key),
the match is refused with a clear error (409 over HTTP), and no acta is signed for it. The full
matrix is in tests/resilience. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Callable

import pytest
from db_helpers import keyed_finished_match, lifted, sql
from sqlalchemy import Engine, text
from template_helpers import seeded

from referee.core import chain
from referee.service import RowForged, Service

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


@pytest.fixture
def finished(service: Service, club: str) -> int:
    """A finished match of the club, its acta signed. Built once a session and copied
    (template_helpers.seeded); each copy audited clean."""
    name = service.clubs.get_club(club)["name"]

    def build(engine: Engine) -> int:
        built, m, _ = keyed_finished_match(engine, club, name)
        built.notifier.close()
        return m

    m = seeded(service.engine, "row MACs' finished match", build)
    assert service.audit.run().problems == []
    return m


def test_every_row_written_carries_its_mac(service: Service, finished: int) -> None:
    with service.engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM events WHERE mac IS NULL")).scalar() == 0
        assert conn.execute(text("SELECT COUNT(*) FROM matches WHERE mac IS NULL "
                                 "OR head_mac IS NULL")).scalar() == 0
    assert (service.row_keys.path.stat().st_mode & 0o777) == 0o600


def last_link(service: Service, m: int) -> tuple[int, str]:
    with service.engine.connect() as conn:
        return conn.execute(text("SELECT seq, digest FROM events WHERE match_id = :m "
                                 "ORDER BY seq DESC"), {"m": m}).first()


def insert_penalty(service: Service, m: int, bump: bool) -> str:
    """A 500-point penalty slipped in after the last event with its right digest (and the row's
    count and head moved with it when ``bump``), a made-up MAC in place of one."""
    seq, link = last_link(service, m)
    forged = {"type": "penalty", "side": 0, "points": 500, "reason": "forged"}
    digest = chain.extend(link, [forged])[0]
    sql(service, "INSERT INTO events (match_id, seq, type, data, recorded_at, digest, mac) "
                 "VALUES (:m, :s, 'penalty', :d, CURRENT_TIMESTAMP, :g, :x)",
        m=m, s=seq + 1, d=json.dumps(forged), g=digest, x="ab" * 32)
    if bump:
        sql(service, "UPDATE matches SET last_seq = :s, head = :g WHERE id = :m", s=seq + 1,
            g=digest, m=m)
    return f"events row, match {m}, event {seq + 1}: fails its MAC"


def update_event(service: Service, m: int, bump: bool) -> str:
    with lifted(service, "events"):
        sql(service, "UPDATE events SET recorded_by = 'Mallory' WHERE match_id = :m AND seq = 2",
            m=m)
    return f"events row, match {m}, event 2: fails its MAC"


def delete_last(service: Service, m: int, bump: bool) -> str:
    seq, _ = last_link(service, m)
    with lifted(service, "events"):
        sql(service, "DELETE FROM events WHERE match_id = :m AND seq = :s", m=m, s=seq)
    if bump:
        _, digest = last_link(service, m)
        sql(service, "UPDATE matches SET last_seq = :s, head = :g WHERE id = :m", s=seq - 1,
            g=digest, m=m)
        return f"matches row, match {m}: fails its MAC: its count of events ({seq - 1})"
    return f"events row, match {m}: the match counts {seq} events, the record holds {seq - 1}"


def rename_in_header(service: Service, m: int, bump: bool) -> str:
    with service.engine.connect() as conn:
        header = json.loads(conn.execute(text("SELECT header FROM matches WHERE id = :m"),
                                         {"m": m}).scalar_one())
    header["players"] = ["Mallory", *PLAYERS[1:]]
    sql(service, "UPDATE matches SET header = :h, players = :p WHERE id = :m", m=m,
        h=json.dumps(header), p=json.dumps(header["players"]))
    return f"matches row, match {m}: fails its MAC: the match's header"


CHANGES: dict[str, Callable[[Service, int, bool], str]] = {
    "event inserted": insert_penalty, "event updated": update_event,
    "event deleted": delete_last, "header renamed": rename_in_header,
}


@pytest.mark.parametrize("bump", [False, True], ids=["row-as-is", "row-moved-too"])
@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_behind_the_service_is_named_refused_and_never_signed(
        service: Service, finished: int, change: str, bump: bool) -> None:
    m = finished
    before = service.transparency.head("casino")
    report = service.reading.report(m)
    named = CHANGES[change](service, m, bump)
    problems = [p.line() for p in service.audit.run().problems]
    assert any(named in p for p in problems), problems
    try:  # refused, or (a row past the match's count, never read) the record as it was
        assert service.reading.report(m) == report
        assert change == "event inserted" and not bump
    except RowForged as error:
        assert "domino db audit names every such row" in error.message
    with pytest.raises(RowForged):
        service.actas.acta(m)
    signed, _ = service.transparency.sign_due()
    assert signed == [] and service.transparency.head("casino") == before


def test_the_row_key_is_never_made_again_over_macd_rows(service: Service, finished: int,
                                                        tmp_path: object) -> None:
    from referee.service import RowKeyError

    path = service.row_keys.path
    saved = path.read_bytes()
    path.unlink()
    try:
        fresh = Service(service.engine)
        with pytest.raises(RowKeyError, match="restore the file from your backup"):
            fresh.reading.report(finished)
        assert not path.exists()
    finally:
        path.write_bytes(saved)
        path.chmod(0o600)


def rename_player(service: Service, m: int) -> str:
    """Mallory in Ana's place: "Mallory played 2, won 2"."""
    sql(service, "UPDATE players SET name = 'Mallory', name_key = 'mallory' WHERE name = 'Ana'")
    return "players row: player 1 (Mallory) fails its MAC"


def swap_seats(service: Service, m: int) -> str:
    with service.engine.connect() as conn:
        a, b = conn.execute(text("SELECT player_id FROM match_players WHERE match_id = :m "
                                 "AND seat IN (0, 1) ORDER BY seat"), {"m": m}).scalars().all()
    sql(service, "UPDATE match_players SET player_id = CASE seat WHEN 0 THEN :b ELSE :a END "
                 "WHERE match_id = :m AND seat IN (0, 1)", a=a, b=b, m=m)
    return f"match_players row: match {m}, seat 0 fails its MAC"


def forge_rename(service: Service, m: int) -> str:
    sql(service, "INSERT INTO player_events (club_id, player_id, kind, old_name, new_name, "
                 "reason, recorded_at, mac) VALUES (1, 1, 'rename', 'Ana', 'Ana', 'forged', "
                 "CURRENT_TIMESTAMP, :x)", x="cd" * 32)
    return "player_events row: player event 1 (rename of player 1) fails its MAC"


def change_tie_breakers(service: Service, m: int) -> str:
    sql(service, "UPDATE clubs SET tie_breakers = :t", t=json.dumps(["points_for"]))
    return "clubs row: club casino fails its MAC"


ROW_CHANGES: dict[str, Callable[[Service, int], str]] = {
    "player renamed": rename_player, "seats swapped": swap_seats,
    "rename inserted": forge_rename, "tie-breakers changed": change_tie_breakers,
}


@pytest.mark.parametrize("change", list(ROW_CHANGES))
def test_a_row_of_the_club_changed_behind_the_service_is_named_and_refused(
        service: Service, finished: int, change: str) -> None:
    table = service.standings.table("casino")
    named = ROW_CHANGES[change](service, finished)
    problems = [p.line() for p in service.audit.run().problems]
    assert any(named in p for p in problems), problems
    if change == "seats swapped":  # the seats make the standing rows: a rebuild refuses them
        with pytest.raises(RowForged, match="seats"):
            service.rebuild(force=True)
        assert service.standings.table("casino") == table
        return
    if change == "rename inserted":  # the player's history
        with pytest.raises(RowForged, match="renames and merges"):
            service.players.get("casino", 1)
        return
    with pytest.raises(RowForged):
        service.standings.table("casino")


def test_renames_merges_and_settings_keep_their_macs(service: Service, finished: int) -> None:
    service.players.rename("casino", "Ana", "Ana María", reason="her full name")
    service.players.create("casino", "Zoe", confirm_new=True)
    m = service.recording.create_match("casino", "mano-a-mano", ["Zoe", "Beto"])["id"]
    service.players.merge("casino", "Zoe", "Carla", reason="one person")
    service.standings.set_tie_breakers("casino", ["points_for", "won"])
    assert service.audit.run().problems == []
    assert service.reading.get_match(m)["players"] == ["Zoe", "Beto"]  # as the header says
    assert service.standings.table("casino")
