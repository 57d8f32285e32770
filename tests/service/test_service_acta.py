"""The signed score sheet (svc.actas): a finished match's acta, read from the chained record
alone, signed by its club's key into its club's log, checkable with the club's public keys;
nothing for a live match, to anyone but the operator; never signed from a broken record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from db_helpers import keyed_finished_match, own_keys
from sqlalchemy import Engine, text
from template_helpers import seeded

from referee.core import chain
from referee.seal import documents
from referee.seal.keys import read_keys
from referee.service import (
    ActaPending,
    Caller,
    NotFinished,
    NotFound,
    RowForged,
    Service,
)

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]
VIEWER = Caller("casino", "viewer", 3, "club screen")
REFEREE = Caller("casino", "referee", 4, "referee")
STRANGER = Caller("elsewhere", "admin", 9, "another club")
HANDS = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
         ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"]]


@pytest.fixture
def keyed(service: Service, club: str) -> str:
    service.keys.init(club)
    return club


@pytest.fixture
def finished(service: Service, club: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    """A finished parejas match of the keyed club, a note after its end. Built once a session
    and copied (template_helpers.seeded), the club's key file into the test's own keys folder
    (db_helpers.own_keys)."""
    name = service.clubs.get_club(club)["name"]

    def build(engine: Engine) -> int:
        built, m, evs = keyed_finished_match(engine, club, name, table="7", event="Otoño")
        built.recording.record_event(m, {"type": "note", "text": "good game"}, expected_seq=len(evs))
        built.notifier.close()
        return m

    m = seeded(service.engine, "acta's finished match", build)
    own_keys(service, [club], tmp_path / "keys", monkeypatch)
    assert service.reading.get_match(m)["status"] == "finished"
    return m


def club_keys(service: Service, club: str = "casino") -> list:
    return read_keys(json.dumps(service.keys.listing(club)))


def test_a_finished_match_has_a_signed_acta(service: Service, finished: int) -> None:
    acta = service.actas.acta(finished, who=VIEWER)
    assert documents.signature_problems(acta, club_keys(service), "the acta") == []
    assert acta["format"] == "domino-acta/2" and acta["match"] == finished
    assert (acta["club"], acta["table"], acta["event"]) == ("casino", "7", "Otoño")
    assert (acta["tournament"], acta["round"]) == (None, None)  # no tournament's table
    assert [p["name"] for p in acta["players"]] == PLAYERS
    assert [p["side"] for p in acta["players"]] == [0, 1, 0, 1]
    report = service.reading.report(finished)
    assert acta["totals"] == report["totals"] and acta["winner"] == report["winner"]
    assert [sum(r["points"]) for r in acta["rounds"]] == [r["points"] for r in report["rounds"]]
    assert acta["started_at"] <= acta["ended_at"] <= acta["signed_at"]
    assert acta["key_id"] == service.keys.listing("casino")["keys"][0]["key_id"]
    head = service.actas.head(finished, who=VIEWER)
    assert acta["chain"] == {"algorithm": "domino-chain/1", "head": head}
    log = service.reading.export_log(finished)
    lines = [json.loads(x) for x in log.splitlines()]
    assert head == chain.head(lines[0], lines[1:])
    # Signed once, kept: asked again, the same acta byte for byte.
    assert service.actas.acta(finished) == acta


def test_each_new_version_is_a_new_leaf(service: Service, finished: int) -> None:
    first = service.actas.acta(finished)
    seq = service.reading.get_match(finished)["last_seq"]
    service.recording.record_event(finished, {"type": "note", "text": "again"}, expected_seq=seq)
    second = service.actas.acta(finished)
    assert (first["leaf_index"], second["leaf_index"]) == (1, 2)  # the note before made leaf 1
    assert second["events"] == first["events"] + 1
    leaves = service.transparency.leaves("casino")
    assert [a["match"] for a in leaves] == [finished] * 3 and leaves[1:] == [first, second]


def test_the_acta_comes_from_the_header_not_the_columns(service: Service, finished: int) -> None:
    """UPDATE matches SET players = ... (no trigger to lift) changes what the listing shows,
    never what is signed."""
    seq = service.reading.get_match(finished)["last_seq"]
    with service.engine.begin() as conn:
        conn.execute(text("UPDATE matches SET players = :p, winner = NULL, status = 'finished' "
                          "WHERE id = :m"), {"p": json.dumps(["Mallory"] * 4), "m": finished})
    service.matches.forget_all()
    service.recording.record_event(finished, {"type": "note", "text": "x"}, expected_seq=seq)
    acta = service.actas.acta(finished)
    assert [p["name"] for p in acta["players"]] == PLAYERS and acta["winner"] is not None


def test_a_broken_record_is_not_signed(service: Service, finished: int) -> None:
    seq = service.reading.get_match(finished)["last_seq"]
    with service.engine.begin() as conn:
        conn.execute(text("UPDATE matches SET header = :h WHERE id = :m"), {"m": finished, "h": json.dumps(
            {"format": "domino-log/1", "rules": "parejas", "players": PLAYERS, "club": "casino",
             "event": "Copa Casino"})})
    service.matches.forget_all()
    with pytest.raises(RowForged, match="header or club was changed"):  # nothing recorded on it
        service.recording.record_event(finished, {"type": "note", "text": "x"}, expected_seq=seq)
    with pytest.raises(RowForged, match="header or club was changed"):
        service.actas.acta(finished)


def test_a_club_without_a_key_records_and_its_acta_waits(service: Service, club: str) -> None:
    m = service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"])["id"]
    service.recording.record_event(m, {"type": "forfeit", "side": 0, "reason": "left"},
                                   expected_seq=0)  # recorded all the same
    with pytest.raises(ActaPending) as pending:
        service.actas.acta(m)
    assert "domino key init --club casino" in pending.value.reason
    service.keys.init(club)
    assert service.transparency.sign_due() == ([(m, 0)], [])
    assert service.actas.acta(m)["leaf_index"] == 0


def test_rulings_are_on_the_sheet(service: Service, keyed: str) -> None:
    m = service.recording.create_match(keyed, "mano-a-mano", ["Ana", "Beto"])["id"]
    record = service.recording.record_event
    record(m, {"type": "note", "text": "x"}, expected_seq=0)
    record(m, {"type": "penalty", "side": 1, "points": 10, "reason": "late"}, expected_seq=1)
    record(m, {"type": "void", "target": 2, "reason": "not late after all"}, expected_seq=2)
    record(m, {"type": "forfeit", "side": 0, "reason": "left"}, expected_seq=3)
    acta = service.actas.acta(m)
    assert acta["rulings"] == [
        {"seq": 2, "type": "penalty", "target": None, "reason": "late", "struck": True,
         "side": 1, "points": 10},
        {"seq": 3, "type": "void", "target": 2, "reason": "not late after all", "struck": False},
        {"seq": 4, "type": "forfeit", "target": None, "reason": "left", "struck": False,
         "side": 0}]
    assert acta["winner"] == 1 and acta["totals"] == [0, 0]


def test_a_lone_surrogate_is_signed_as_a_replacement(service: Service, keyed: str) -> None:
    m = service.recording.create_match(keyed, "mano-a-mano", ["Ana", "Beto"])["id"]
    service.recording.record_event(m, {"type": "forfeit", "side": 0, "reason": "\ud800 left"},
                                   expected_seq=0)
    acta = service.actas.acta(m)
    assert acta["rulings"][0]["reason"] == "\ufffd left"
    assert documents.signature_problems(acta, club_keys(service), "the acta") == []


def test_no_acta_and_no_head_while_the_match_is_live(service: Service, keyed: str) -> None:
    m = service.recording.create_match(keyed, "mano-a-mano", ["Ana", "Beto"])["id"]
    service.recording.record_event(m, {"type": "deal", "hands": HANDS}, expected_seq=0)
    for who in (VIEWER, REFEREE):
        with pytest.raises(NotFinished):
            service.actas.acta(m, who=who)
        assert service.actas.head(m, who=who) is None
    assert service.actas.head(m) is not None  # the operator sees everything


def test_an_acta_is_for_readers_of_the_club(service: Service, finished: int) -> None:
    """Another club's match is no match to a stranger: NotFound, in the words an unknown id gets."""
    with pytest.raises(NotFound, match=f"no match {finished}"):
        service.actas.acta(finished, who=STRANGER)
    with pytest.raises(NotFound):
        service.actas.head(finished, who=STRANGER)
    with pytest.raises(NotFound):
        service.actas.acta(finished + 100)


def test_a_tournament_tables_acta_names_its_round(service: Service, keyed: str) -> None:
    pairs = [["Ana", "Beto"], ["Carla", "Dani"], ["Eva", "Fede"], ["Gabi", "Hugo"]]
    service.tournaments.create(keyed, "liga", "Liga", rules="parejas", format="round_robin",
                               rounds=3, entrants=pairs)
    table = service.tournaments.pair(keyed, "liga")["tables"][1]
    service.recording.record_event(table["match"], {"type": "forfeit", "side": 1,
                                                    "reason": "no show"}, expected_seq=0)
    acta = service.actas.acta(table["match"])
    assert (acta["tournament"], acta["round"], acta["event"]) == ("liga", 1, "Liga")
    assert acta["table"] == str(table["table"])
