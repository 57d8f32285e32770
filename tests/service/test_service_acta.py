"""The signed score sheet (svc.actas) and where a chain head may be published: a finished
match's acta, signed with the server's key (made on first use, 0600) and checkable with the
public key alone; nothing for a live match, to anyone but the operator."""

from __future__ import annotations

import json
import stat

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from db_helpers import record_all, sample_match
from referee.core import acta as sheet, chain
from referee.service import Caller, Forbidden, NotFinished, NotFound, Service, Signer, SigningKeyError

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]
VIEWER = Caller("casino", "viewer", 3, "club screen")
REFEREE = Caller("casino", "referee", 4, "referee")
STRANGER = Caller("elsewhere", "admin", 9, "another club")
HANDS = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
         ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"]]


@pytest.fixture(autouse=True)
def key_file(tmp_path, monkeypatch):
    path = tmp_path / "keys" / "signing.pem"
    monkeypatch.setenv("DOMINO_SIGNING_KEY", str(path))
    return path


@pytest.fixture
def finished(service: Service, club: str) -> int:
    _, evs = sample_match("parejas", seed=4)
    m = service.recording.create_match(club, "parejas", PLAYERS, table="7", event="Otoño")["id"]
    record_all(service, m, evs)
    service.recording.record_event(m, {"type": "note", "text": "good game"}, expected_seq=len(evs))
    assert service.reading.get_match(m)["status"] == "finished"
    return m


def check_signature(acta: dict, published: dict) -> None:
    key = Ed25519PublicKey.from_public_bytes(sheet.decode(published["public_key"], "key"))
    key.verify(sheet.decode(acta["signature"], "signature"), sheet.signed_bytes(acta))


def test_a_finished_match_has_a_signed_acta(service: Service, finished: int, key_file) -> None:
    acta = service.actas.acta(finished, who=VIEWER)
    published = service.actas.signer.published()
    check_signature(acta, published)
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert acta["format"] == "domino-acta/1" and acta["match"] == finished
    assert (acta["club"], acta["table"], acta["event"]) == ("casino", "7", "Otoño")
    assert (acta["tournament"], acta["round"]) == (None, None)  # no tournament's table
    assert [p["name"] for p in acta["players"]] == PLAYERS
    assert [p["side"] for p in acta["players"]] == [0, 1, 0, 1]
    report = service.reading.report(finished)
    assert acta["totals"] == report["totals"] and acta["winner"] == report["winner"]
    assert [sum(r["points"]) for r in acta["rounds"]] == [r["points"] for r in report["rounds"]]
    assert acta["started_at"] <= acta["ended_at"]
    assert acta["key_id"] == published["key_id"]
    head = service.actas.head(finished, who=VIEWER)
    assert acta["chain"] == {"algorithm": "domino-chain/1", "head": head}
    log = service.reading.export_log(finished)
    lines = [json.loads(x) for x in log.splitlines()]
    assert head == chain.head(lines[0], lines[1:])
    # The same record, the same key: the same acta, byte for byte (Ed25519 is deterministic).
    assert service.actas.acta(finished) == acta


def test_a_changed_acta_fails_its_signature(service: Service, finished: int) -> None:
    acta = service.actas.acta(finished)
    published = service.actas.signer.published()
    for change in ({"totals": [acta["totals"][0] + 1, acta["totals"][1]]},
                   {"winner": 1 - acta["winner"]}, {"chain": {**acta["chain"], "head": "0" * 64}}):
        with pytest.raises(InvalidSignature):
            check_signature({**acta, **change}, published)


def test_the_key_is_kept_and_shared(service: Service, finished: int, key_file) -> None:
    first = service.actas.signer.published()
    again = Signer(key_file).published()  # another worker, the same file
    assert first == again and first["public_key"] and "BEGIN PUBLIC KEY" in first["pem"]


def test_a_bad_key_file_is_a_clear_error(service: Service, finished: int, key_file) -> None:
    key_file.parent.mkdir(parents=True, exist_ok=True)
    key_file.write_text("not a key")
    with pytest.raises(SigningKeyError, match="not an unencrypted PEM private key"):
        service.actas.acta(finished)


def test_rulings_are_on_the_sheet(service: Service, club: str) -> None:
    m = service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"])["id"]
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


def test_no_acta_and_no_head_while_the_match_is_live(service: Service, club: str) -> None:
    m = service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"])["id"]
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


def test_a_tournament_tables_acta_names_its_round(service: Service, club: str) -> None:
    pairs = [["Ana", "Beto"], ["Carla", "Dani"], ["Eva", "Fede"], ["Gabi", "Hugo"]]
    service.tournaments.create(club, "liga", "Liga", rules="parejas", format="round_robin",
                               rounds=3, entrants=pairs)
    table = service.tournaments.pair(club, "liga")["tables"][1]
    service.recording.record_event(table["match"], {"type": "forfeit", "side": 1,
                                                    "reason": "no show"}, expected_seq=0)
    acta = service.actas.acta(table["match"])
    assert (acta["tournament"], acta["round"], acta["event"]) == ("liga", 1, "Liga")
    assert acta["table"] == str(table["table"])
