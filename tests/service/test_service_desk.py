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
