"""svc.leagues on SQLite and PostgreSQL: the secretary's corrections to a season's set-up. A
division renamed (any time) or removed (before the fixtures, once empty, those below moving
up); a team renamed, its venue changed (any time) or moved to another division (before the
fixtures, numbered last there); a team removed before the fixtures with its squad (its players
free to join another) and its captains' tokens revoked; refusals (a division with teams, a team
in a cup's pot or with a deduction, anything but a rename after the fixtures, a caller below the
secretary) change nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.service import Caller, Forbidden, Invalid, NotFound, Service
from referee.service.errors import Unauthorized

SEASON = "2027"


def layout(service: Service, club: str) -> list[tuple[str, str, list[tuple[str, str, Any]]]]:
    return [(d["slug"], d["name"], [(t["slug"], t["name"], t["venue"]) for t in d["teams"]])
            for d in service.leagues.season(club, SEASON)["divisions"]]


def made(service: Service, club: str) -> None:
    leagues = service.leagues
    leagues.create_season(club, SEASON, "League", format={"singles": 1},
                          first_day="2027-01-07")
    for slug in ("top", "middle", "low"):
        leagues.add_division(club, SEASON, slug, slug.title())
    for slug, players in (("crown", ["Ana"]), ("anchor", ["Dani"]), ("bell", ["Gabi"])):
        leagues.add_team(club, SEASON, "top", slug, slug.title(), players=players)


def test_divisions_renamed_and_removed(service: Service, club: str) -> None:
    made(service, club)
    leagues = service.leagues
    assert leagues.edit_division(club, SEASON, "middle", name="Second")["name"] == "Second"
    with pytest.raises(Invalid, match="Top has teams"):
        leagues.remove_division(club, SEASON, "top")
    assert leagues.remove_division(club, SEASON, "middle")["removed"]
    assert [(d, n) for d, n, _ in layout(service, club)] == [("top", "Top"), ("low", "Low")]
    leagues.add_division(club, SEASON, "extra", "Extra")  # placed last, after the move up
    assert [d for d, _, _ in layout(service, club)] == ["top", "low", "extra"]
    with pytest.raises(NotFound):
        leagues.remove_division(club, SEASON, "middle")


def test_teams_edited_moved_and_removed(service: Service, club: str) -> None:
    made(service, club)
    leagues = service.leagues
    token = leagues.captain(club, SEASON, "anchor")
    assert leagues.edit_team(club, SEASON, "crown", name="The Crown", venue="High St") == {
        "slug": "crown", "name": "The Crown", "venue": "High St", "division": "top",
        "min_players": 1}
    assert leagues.edit_team(club, SEASON, "crown", venue="")["venue"] is None
    assert leagues.edit_team(club, SEASON, "crown", division="low")["division"] == "low"
    assert layout(service, club)[0][2] == [("anchor", "Anchor", None), ("bell", "Bell", None)]
    assert layout(service, club)[2][2] == [("crown", "The Crown", None)]

    removed = leagues.remove_team(club, SEASON, "anchor")
    assert removed == {"slug": "anchor", "name": "Anchor", "removed": True,
                       "captains_revoked": 1}
    with pytest.raises(Unauthorized):  # its captain's token revoked
        service.tokens.authenticate(token)
    leagues.add_team(club, SEASON, "top", "swan", "Swan", players=["Dani"])  # Dani is free
    assert [t for t, _, _ in layout(service, club)[0][2]] == ["bell", "swan"]
    # An empty division or one of a single team stops the fixtures: moved back and removed.
    with pytest.raises(Invalid, match="at least 2 teams"):
        leagues.generate(club, SEASON)
    leagues.edit_team(club, SEASON, "crown", division="top")
    leagues.remove_division(club, SEASON, "middle")
    leagues.remove_division(club, SEASON, "low")
    leagues.generate(club, SEASON)
    fixtures = leagues.fixtures(club, SEASON, division="top")
    assert {f["home"] for f in fixtures} == {"bell", "swan", "crown"}


def test_refusals_change_nothing(service: Service, club: str) -> None:
    made(service, club)
    leagues = service.leagues
    leagues.deduct(club, SEASON, "bell", 2, reason="late sheet")
    leagues.create_cup(club, "cup", "Cup", entrants=["crown", "anchor"], season=SEASON)
    service.leagues.captain(club, SEASON, "crown")
    before = json.dumps(leagues.season(club, SEASON), sort_keys=True)
    with pytest.raises(Invalid, match="Crown is an entrant of the cup cup"):
        leagues.remove_team(club, SEASON, "crown")
    with pytest.raises(Invalid, match="Bell has a points deduction"):
        leagues.remove_team(club, SEASON, "bell")
    with pytest.raises(Invalid):
        leagues.edit_team(club, SEASON, "crown", name="")
    with pytest.raises(NotFound):
        leagues.edit_team(club, SEASON, "crown", division="nowhere")
    referee = service.tokens.authenticate(service.tokens.create_token(club, "referee"))
    assert isinstance(referee, Caller)
    for attempt in (lambda: leagues.edit_team(club, SEASON, "crown", name="Mine", who=referee),
                    lambda: leagues.remove_team(club, SEASON, "crown", who=referee),
                    lambda: leagues.edit_division(club, SEASON, "low", name="L", who=referee),
                    lambda: leagues.remove_division(club, SEASON, "low", who=referee)):
        with pytest.raises(Forbidden):
            attempt()
    assert json.dumps(leagues.season(club, SEASON), sort_keys=True) == before

    leagues.remove_division(club, SEASON, "middle")
    leagues.edit_team(club, SEASON, "bell", division="low")
    leagues.add_team(club, SEASON, "low", "swan", "Swan")
    leagues.generate(club, SEASON)
    with pytest.raises(Invalid, match="fixtures already"):
        leagues.edit_team(club, SEASON, "crown", division="low")
    with pytest.raises(Invalid, match="fixtures already"):
        leagues.remove_division(club, SEASON, "low")
    # after the fixtures: a rename and a venue still (a pub renamed), nothing else
    assert leagues.edit_team(club, SEASON, "crown", name="Crown Inn", venue="Quay")["venue"] == "Quay"
    assert leagues.edit_division(club, SEASON, "top", name="Premier")["name"] == "Premier"


def test_a_captains_token_is_labelled_with_the_teams_name(service: Service, club: str) -> None:
    """The label is shown as it is in every language (the desk's tokens, the phone's "as ..."):
    the team's name, not an English word before its code."""
    made(service, club)
    service.leagues.captain(club, SEASON, "anchor")
    service.leagues.captain(club, SEASON, "bell", label="Bell's table")
    tokens, _ = service.tokens.list_tokens(club)
    assert [t["label"] for t in tokens if t["role"] == "scorekeeper"][-2:] == [
        "Anchor", "Bell's table"]
