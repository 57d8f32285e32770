"""What the club pages give a member to check a result, and how they rank, on both databases:
a public club's finished match gives its log and signed acta without a token, a live one does
not, a private club gives nothing without a token (access.require_record decides); the
rulings sit in the rounds where they count, so the rounds add up to the totals; the standings
rank only those who played, the others apart or hidden as the club sets, an event's table is
its players'."""

from __future__ import annotations

import json

import pytest
from db_helpers import record_all, sample_match

from referee.core.log import read_log
from referee.seal import documents
from referee.seal.keys import read_keys
from referee.service import Caller, Forbidden, Invalid, NotFinished, Service, Unauthorized
from referee.service.access import PUBLIC, public_reader, require_record
from referee.service.pages import Pages

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]
VIEWER = Caller("casino", "viewer", 3, "club screen")
ADMIN = Caller("casino", "admin", 5, "admin")


@pytest.fixture
def keyed(service: Service, club: str) -> str:
    service.keys.init(club)
    return club


def finished_match(service: Service, club: str, seed: int = 4, **header: str) -> int:
    _, evs = sample_match("parejas", seed=seed)
    m = service.recording.create_match(club, "parejas", PLAYERS, **header)["id"]
    record_all(service, m, evs)
    assert service.reading.get_match(m)["status"] == "finished"
    return m


def live_match(service: Service, club: str) -> int:
    _, evs = sample_match("parejas", seed=5)
    m = service.recording.create_match(club, "parejas", PLAYERS)["id"]
    record_all(service, m, evs[:3])
    return m


# ------------------------------------------------------------------ the record to download


def test_the_decision_is_one_rule() -> None:
    reader = public_reader("casino")
    require_record(reader, "casino", True)
    with pytest.raises(Forbidden):
        require_record(reader, "casino", False)
    with pytest.raises(Forbidden):
        require_record(reader, "other", True)
    require_record(VIEWER, "casino", False)  # a token of the club reads a live log as the API does
    assert reader.role == PUBLIC


def test_a_public_clubs_finished_match_gives_its_log_and_acta_without_a_token(
        service: Service, keyed: str) -> None:
    m = finished_match(service, keyed, table="7", event="Otoño")
    service.clubs.set_public(keyed, True)
    pages = Pages(service)
    log = pages.log(keyed, m)
    assert log == service.reading.export_log(m)  # the whole record: every hand was seen
    acta = pages.acta(keyed, m)
    assert acta == service.actas.acta(m)
    assert documents.signature_problems(acta, read_keys(json.dumps(service.keys.listing(keyed))), "acta") == []
    # the log is the acta's record: its chain head
    assert read_log(log).header.fields["club"] == keyed
    page = pages.match(keyed, m)
    assert page["record"] == {"head": acta["chain"]["head"], "acta_leaf": acta["leaf_index"],
                              "public": True}
    printable = pages.acta_page(keyed, m)
    assert printable["acta"] == acta and printable["sides"] == ["Ana & Carla", "Beto & Dani"]


def test_a_live_match_gives_no_log_nor_acta_without_a_token(service: Service, keyed: str) -> None:
    m = live_match(service, keyed)
    service.clubs.set_public(keyed, True)
    pages = Pages(service)
    with pytest.raises(Forbidden):
        pages.log(keyed, m)
    with pytest.raises(Forbidden):
        pages.acta(keyed, m)
    assert pages.match(keyed, m)["record"] is None
    with pytest.raises(NotFinished):  # a viewer's token gets the log, not an acta
        pages.acta(keyed, m, who=VIEWER)
    assert json.loads(pages.log(keyed, m, who=VIEWER).splitlines()[0])["format"] == "domino-log/1"


def test_a_private_club_gives_nothing_without_a_token(service: Service, keyed: str) -> None:
    m = finished_match(service, keyed)
    pages = Pages(service)
    for take in (pages.log, pages.acta, pages.acta_page):
        with pytest.raises(Unauthorized):
            take(keyed, m)
    assert pages.acta(keyed, m, who=VIEWER)["match"] == m
    assert pages.match(keyed, m, who=VIEWER)["record"]["public"] is False


# ------------------------------------------------------------------ rulings in their rounds


def test_a_penalty_counts_in_its_round_and_the_rounds_add_up(service: Service, keyed: str) -> None:
    _, evs = sample_match("parejas", seed=4)
    m = service.recording.create_match(keyed, "parejas", PLAYERS)["id"]
    deals = [i for i, e in enumerate(evs) if e["type"] == "deal"]
    cut = deals[1] + 2  # in the second round, two events after its deal
    record_all(service, m, evs[:cut])
    service.recording.record_event(m, {"type": "penalty", "side": 1, "points": 3,
                                       "reason": "slow play"}, expected_seq=cut)
    record_all(service, m, evs[cut:], start=cut + 1)
    page = Pages(service).match(keyed, m, who=VIEWER)
    rulings = {r["round"]: r["rulings"] for r in page["rounds"]}
    assert rulings[2] == [{"seq": cut + 1, "type": "penalty", "target": None,
                           "reason": "slow play", "side": 1, "points": 3,
                           "side_name": "Beto & Dani"}]
    assert all(not found for number, found in rulings.items() if number != 2)
    added = [sum(r["side_points"][side] for r in page["rounds"]) for side in (0, 1)]
    assert added == page["totals"]
    assert page["rounds"][1]["side_points"][1] >= 3


# ------------------------------------------------------------------ standings


def ranked_names(rows: list[dict]) -> list[str]:
    return [r["player"] for r in rows if r["ranked"]]


def test_only_those_who_played_are_ranked_the_others_apart_or_hidden(
        service: Service, keyed: str) -> None:
    finished_match(service, keyed, date="2026-03-07", event="Liga")
    service.players.create(keyed, "Zoe")
    rows = service.standings.table(keyed)
    assert set(ranked_names(rows)) == set(PLAYERS)
    zoe = rows[-1]
    assert (zoe["player"], zoe["rank"], zoe["ranked"], zoe["played"]) == ("Zoe", None, False, 0)
    assert all(type(r["rank"]) is int for r in rows[:-1])
    # a period nobody played in: nobody is ranked, everybody is listed apart
    empty = service.standings.table(keyed, date_from="2026-04-01")
    assert ranked_names(empty) == [] and len(empty) == 5
    assert service.standings.unranked(keyed) == "apart"
    assert service.standings.set_unranked(keyed, "hidden", who=ADMIN) == {"unranked": "hidden"}
    assert [r["player"] for r in service.standings.table(keyed)] == ranked_names(rows)
    assert service.standings.table(keyed, date_from="2026-04-01") == []
    csv = service.standings.csv(keyed).splitlines()
    assert csv[0].endswith(",provisional,rating_points,ranked") and len(csv) == 5
    service.standings.set_unranked(keyed, None, who=ADMIN)
    assert service.standings.unranked(keyed) == "apart"
    assert service.standings.csv(keyed).splitlines()[-1].startswith(",Zoe,0,")


def test_an_events_table_is_its_players(service: Service, keyed: str) -> None:
    finished_match(service, keyed, date="2026-03-07", event="Liga")
    others = ["Ana", "Elena", "Fede", "Gus"]
    _, evs = sample_match("parejas", seed=6)
    m = service.recording.create_match(keyed, "parejas", others, date="2026-03-08", event="Copa")["id"]
    record_all(service, m, evs)
    copa = service.standings.table(keyed, event="Copa")
    assert sorted(r["player"] for r in copa) == sorted(others)
    assert all(r["ranked"] and r["played"] == 1 for r in copa)
    assert len(service.standings.table(keyed)) == 7  # the whole club without the filter


def test_the_rating_in_points(service: Service, keyed: str) -> None:
    finished_match(service, keyed)
    for row in service.standings.table(keyed):
        assert row["rating_points"] == row["rating"] and type(row["rating"]) is int  # one number
    service.players.create(keyed, "Zoe")
    assert service.standings.table(keyed)[-1]["rating_points"] == 1000


def test_only_an_admin_sets_unranked_and_only_to_a_known_value(service: Service, keyed: str) -> None:
    with pytest.raises(Forbidden):
        service.standings.set_unranked(keyed, "hidden", who=VIEWER)
    for bad in ("gone", "", 1):
        with pytest.raises(Invalid):
            service.standings.set_unranked(keyed, bad, who=ADMIN)  # type: ignore[arg-type]
    assert service.standings.unranked(keyed) == "apart"
