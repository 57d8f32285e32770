"""Issue 35's bad-input list at the API, one request each, on SQLite and PostgreSQL: a player
in two squads, a team sheet naming a player twice or a player of the other squad, a leg
recorded under the wrong fixture (a match of other players, or a game of another fixture's
leg already), a confirmation by the wrong captain (another team's, or one naming the other
side), a fixture's date moved outside the season (before its first day, after its last), a
fixture's home and away swapped once it has begun.
Each is refused with a problem saying what (422, or 403 for the wrong captain), in the
caller's language, and changes nothing: the season, its fixtures, the fixture, the table and
the averages read the same before and after."""

from __future__ import annotations

import json
from typing import Any

import pytest
from api_helpers import Api
from league_helpers import DIVISIONS, fixture_id, set_up, win_game

BASE = "/api/v1/clubs/casino/seasons/2027"


def everything(api: Api, f: int) -> str:
    """What the season shows to a viewer, to compare before and after a refused request."""
    get = api.client.get
    headers = api.auth("viewer")
    shown = [get(BASE, headers=headers).json, get(f"{BASE}/fixtures", headers=headers).json,
             get(f"{BASE}/fixtures/{f}", headers=headers).json,
             get(f"{BASE}/averages", headers=headers).json]
    shown += [get(f"{BASE}/divisions/{d}/table", headers=headers).json for d in DIVISIONS]
    return json.dumps(shown, sort_keys=True)


@pytest.fixture
def season(api: Api) -> dict[str, Any]:
    """The helpers' season with a last day, its captains, a leg of crown v anchor played, and
    a match of the club between crown's and bell's players."""
    set_up(api.service, "casino", last_day="2027-04-30")
    client = api.client
    captains = {team: client.post(f"{BASE}/teams/{team}/captains", json={},
                                  headers=api.auth("admin")).json["token"]
                for team in ("crown", "anchor", "bell")}
    f = fixture_id(api.service, "casino", "crown", "anchor")
    played = client.post(f"{BASE}/fixtures/{f}/legs/1/games",
                         json={"home": ["Ana"], "away": ["Dani"]}, headers=api.auth("referee"))
    assert played.status_code == 201, played.json
    win_game(api.service, played.json["match"], 0)
    other = api.service.recording.create_match("casino", "mano-a-mano", ["Beto", "Gabi"])
    return {"fixture": f, "captains": captains, "leg_match": played.json["match"],
            "other_match": other["id"]}


def bearer(token: str, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **headers}


def refusals(api: Api, season: dict[str, Any]) -> list[tuple[str, str, dict[str, Any],
                                                               dict[str, str], int, str]]:
    """Each bad request: (path, what, body, headers, status, what the problem says)."""
    f, captains = season["fixture"], season["captains"]
    crown_bell = fixture_id(api.service, "casino", "crown", "bell")
    game = f"{BASE}/fixtures/{f}/legs"
    return [
        (f"{BASE}/teams/bell/players", "a player in two squads", {"players": ["Carla"]},
         api.auth("admin"), 422, "Carla is in the squad of Crown already"),
        (f"{game}/3/games", "a team sheet naming a player twice",
         {"home": ["Beto", "Beto"], "away": ["Eva", "Fede"]}, api.auth("referee"), 422,
         "names a player twice"),
        (f"{game}/2/games", "a player of the other squad",
         {"home": ["Beto"], "away": ["Carla"]}, api.auth("referee"), 422,
         "Carla is not in the away team's squad"),
        (f"{game}/2/games", "a leg recorded under the wrong fixture (other players)",
         {"match": season["other_match"]}, api.auth("referee"), 422,
         f"is not a leg of fixture {f}"),
        (f"{BASE}/fixtures/{crown_bell}/legs/1/games",
         "a game of another fixture's leg recorded again", {"match": season["leg_match"]},
         api.auth("referee"), 422, "is a game of a leg already"),
        (f"{BASE}/fixtures/{f}/confirm", "a confirmation by another team's captain", {},
         bearer(captains["bell"]), 403, "not that team's captain"),
        (f"{BASE}/fixtures/{f}/confirm", "a captain confirming for the other side",
         {"side": "away"}, bearer(captains["crown"]), 403, "not that team's captain"),
        (f"{BASE}/fixtures/{f}/swap", "home and away swapped once a leg is played",
         {"reason": "the bar is shut"}, api.auth("admin"), 422, f"fixture {f} has begun"),
        (f"{BASE}/fixtures/{f}/postpone", "a date before the season",
         {"to": "2026-12-31", "reason": "rain"}, api.auth("admin"), 422, "2026-12-31"),
        (f"{BASE}/fixtures/{f}/postpone", "a date after the season",
         {"to": "2027-05-06", "reason": "rain"}, api.auth("admin"), 422, "2027-05-06"),
    ]


def test_each_bad_input_is_refused_saying_what_and_changes_nothing(
        api: Api, season: dict[str, Any]) -> None:
    before = everything(api, season["fixture"])
    for path, what, body, headers, status, says in refusals(api, season):
        answer = api.client.post(path, json=body, headers=headers)
        assert answer.status_code == status, (what, answer.status_code, answer.json)
        assert answer.json["status"] == status and says in answer.json["detail"], \
            (what, answer.json)
        assert everything(api, season["fixture"]) == before, what


def test_the_refusals_are_said_in_the_callers_language(api: Api, season: dict[str, Any]
                                                       ) -> None:
    for path, what, body, headers, status, _ in refusals(api, season):
        for language in ("es", "it"):
            answer = api.client.post(path, json=body,
                                     headers={**headers, "Accept-Language": language})
            assert answer.status_code == status, (what, language)
            detail = answer.json["detail"]
            english = api.client.post(path, json=body, headers=headers).json["detail"]
            assert detail != english, (what, language, detail)
