"""A fixture's home and away swapped by the secretary (svc.leagues.swap), on SQLite and
PostgreSQL: the two teams' meetings exchange their rounds and dates, so that on the fixture's
date the away team is at home, and each still meets the other once at each home; both
histories say so; swapped back, all is as before. Refused, with nothing changed, once either
meeting has begun, and for anyone but the secretary."""

from __future__ import annotations

import json

import pytest
from league_helpers import fixture_id, set_up

from referee.service import Forbidden, Invalid, Service

SEASON = "2027"


def shown(service: Service, club: str) -> str:
    return json.dumps(service.leagues.fixtures(club, SEASON), sort_keys=True)


def test_the_two_meetings_exchange_their_dates(service: Service, club: str) -> None:
    set_up(service, club)
    before = shown(service, club)
    first, back = (fixture_id(service, club, h, a) for h, a in (("oak", "elm"), ("elm", "oak")))
    was = {f: service.leagues.fixture(club, SEASON, f) for f in (first, back)}
    done = service.leagues.swap(club, SEASON, first, reason="the pub is shut that week")
    assert done == {"fixture": first, "date": was[back]["date"], "other": back,
                    "other_date": was[first]["date"], "reason": "the pub is shut that week"}
    now = {f: service.leagues.fixture(club, SEASON, f) for f in (first, back)}
    for mine, theirs in ((first, back), (back, first)):
        assert (now[mine]["date"], now[mine]["round"]) == (was[theirs]["date"],
                                                            was[theirs]["round"])
        assert (now[mine]["home"], now[mine]["away"]) == (was[mine]["home"], was[mine]["away"])
        assert now[mine]["history"][-1]["kind"] == "swapped"
        assert now[mine]["history"][-1]["with"] == theirs
    # on the first meeting's date, elm is at home now
    on_day = [f for f in service.leagues.fixtures(club, SEASON, division="two")
              if f["date"] == was[first]["date"]]
    assert [(f["home"], f["away"]) for f in on_day] == [("elm", "oak")]
    pairs = {(f["home"], f["away"]) for f in service.leagues.fixtures(club, SEASON)}
    assert len(pairs) == len(service.leagues.fixtures(club, SEASON))  # once at each home
    service.leagues.swap(club, SEASON, back, reason="open again")
    again = json.loads(shown(service, club))
    assert [{k: f[k] for k in ("id", "date", "round", "home", "away")} for f in again] == [
        {k: f[k] for k in ("id", "date", "round", "home", "away")}
        for f in json.loads(before)]


def test_a_meeting_begun_or_not_the_secretary_changes_nothing(service: Service,
                                                              club: str) -> None:
    set_up(service, club)
    first = fixture_id(service, club, "crown", "anchor")
    back = fixture_id(service, club, "anchor", "crown")
    service.leagues.record_leg(club, SEASON, back, 1, home=["Dani"], away=["Ana"])
    walked = fixture_id(service, club, "bell", "swan")
    service.leagues.walkover(club, SEASON, walked, "away", reason="absent")
    other = fixture_id(service, club, "oak", "ash")
    referee = service.tokens.authenticate(service.tokens.create_token(club, "referee"))
    before = shown(service, club)
    for call, error, says in (
            (lambda: service.leagues.swap(club, SEASON, first, reason="x"), Invalid,
             f"fixture {back} has begun"),
            (lambda: service.leagues.swap(club, SEASON, walked, reason="x"), Invalid,
             f"fixture {walked} has begun"),
            (lambda: service.leagues.swap(club, SEASON, other, reason=" "), Invalid, "reason"),
            (lambda: service.leagues.swap(club, SEASON, other, reason="x", who=referee),
             Forbidden, "secretary|admin|may not|not allowed|permission|role")):
        with pytest.raises(error, match=says):
            call()
    assert shown(service, club) == before
