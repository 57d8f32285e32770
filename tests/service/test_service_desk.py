"""The club desk's home (referee.service.desk): which sections each role gets, on both
databases; a lower role never gets a higher one's data."""

from __future__ import annotations

import pytest
from db_helpers import record_all, sample_match

from referee.service import Caller, Forbidden, Service, Unauthorized
from referee.service.desk import Desk

SECTIONS = ("settings", "players", "tokens", "matches", "disputes", "tournaments")


def test_each_role_gets_its_sections(service: Service, club: str) -> None:
    desk = Desk(service)
    fresh = service.recording.create_match(club, "parejas", ["Ana", "Beto", "Carla", "Dani"])
    admin = desk.home(club, who=Caller(club, "admin"))
    assert all(admin["sections"][s] for s in SECTIONS)
    assert [p["name"] for p in admin["players"]] == ["Ana", "Beto", "Carla", "Dani"]
    assert admin["settings"]["tie_breakers"] and "en" in admin["settings"]["languages"]
    assert [m["may_abandon"] for m in admin["matches"]["in_progress"]] == [True]
    assert admin["matches"]["in_progress"][0]["id"] == fresh["id"]

    referee = desk.home(club, who=Caller(club, "referee"))
    assert [s for s in SECTIONS if referee["sections"][s]] == ["matches", "disputes", "tournaments"]
    assert not {"settings", "players", "tokens"} & set(referee)

    for role in ("scorekeeper", "viewer"):
        lower = desk.home(club, who=Caller(club, role))
        assert not any(lower["sections"].values())
        assert not {"settings", "players", "tokens", "matches"} & set(lower)


def test_a_dealt_match_is_not_offered_for_withdrawal(service: Service, club: str) -> None:
    _, events = sample_match("parejas", seed=3)
    m = service.recording.create_match(club, "parejas", ["Ana", "Beto", "Carla", "Dani"])["id"]
    record_all(service, m, events[:1])  # the deal
    rows = Desk(service).home(club, who=Caller(club, "referee"))["matches"]["in_progress"]
    assert [(r["id"], r["may_abandon"]) for r in rows] == [(m, False)]


def test_no_token_or_another_clubs_is_refused(service: Service, club: str) -> None:
    service.clubs.create_club("rival", "Rival")
    with pytest.raises(Unauthorized):
        Desk(service).home(club, who=None)
    with pytest.raises(Forbidden):
        Desk(service).home(club, who=Caller("rival", "admin"))


def test_a_timed_live_match_has_its_clock(service: Service, club: str) -> None:
    """A live match whose rules have a time limit: its start (its first event's), the limit,
    whether time was called and whether this caller may call it; the same start and call as
    its screen, the one a phone shows."""
    desk, referee = Desk(service), Caller(club, "referee")
    timed = service.recording.create_match(club, {"preset": "mano-a-mano", "time_limit": 20},
                                           ["Ana", "Beto"])["id"]
    plain = service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"])["id"]

    def clocks() -> dict[int, dict | None]:
        rows = desk.home(club, who=referee)["matches"]["in_progress"]
        return {r["id"]: r["clock"] for r in rows}

    assert clocks() == {timed: {"limit": 20, "started_at": None, "time_called": None,
                                "may_call": True},
                        plain: None}
    service.recording.record_event(timed, {"type": "deal"}, expected_seq=0)
    clock = clocks()[timed]
    assert clock["started_at"] == service.reading.screen(timed).started_at
    assert clock["started_at"] == service.reading.list_events(timed)[0]["recorded_at"]
    assert clock["time_called"] is None and clock["may_call"] is True
    service.recording.record_event(timed, {"type": "time"}, expected_seq=1)
    clock = clocks()[timed]
    assert clock["time_called"] == 2 and clock["may_call"] is False
    assert clock["started_at"] == service.reading.screen(timed).started_at


def test_a_finished_timed_match_has_no_clock(service: Service, club: str) -> None:
    _, events = sample_match("mano-a-mano", seed=5)
    m = service.recording.create_match(club, {"preset": "mano-a-mano", "time_limit": 20},
                                       ["Ana", "Beto"])["id"]
    record_all(service, m, events)
    rows = Desk(service).home(club, who=Caller(club, "referee"))["matches"]["finished"]
    assert [(r["id"], r["clock"]) for r in rows] == [(m, None)]


def test_a_timed_tournaments_tables_have_their_clock_on_the_desk(service: Service,
                                                                 club: str) -> None:
    """A tournament's tables are the club's matches: the desk lists them live, with the
    tournament's limit."""
    rules = {"preset": "parejas", "target": 500, "time_limit": 30}
    service.tournaments.create(club, "reloj", "Copa del reloj", rules=rules, format="pairs",
                               rounds=1, entrants=[["Ana", "Beto"], ["Carla", "Dani"]])
    (table,) = service.tournaments.pair(club, "reloj")["tables"]
    rows = Desk(service).home(club, who=Caller(club, "referee"))["matches"]["in_progress"]
    assert [(r["id"], r["clock"]["limit"]) for r in rows] == [(table["match"], 30)]


def test_two_live_matches_at_one_table_name_each_other(service: Service, club: str) -> None:
    """Two matches in play at "mesa 2" (and "Mesa  2": case and spaces aside): each row names
    the other; a finished match or another table's is not named, nor named beside."""
    desk, referee = Desk(service), Caller(club, "referee")
    first = service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"], table="mesa 2")["id"]
    second = service.recording.create_match(club, "mano-a-mano", ["Carla", "Dani"], table="Mesa  2")["id"]
    other = service.recording.create_match(club, "mano-a-mano", ["Ana", "Dani"], table="mesa 3")["id"]
    bare = service.recording.create_match(club, "mano-a-mano", ["Beto", "Carla"])["id"]
    rows = {r["id"]: r["same_table"] for r in desk.home(club, who=referee)["matches"]["in_progress"]}
    assert rows == {first: [second], second: [first], other: [], bare: []}
