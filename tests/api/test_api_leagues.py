"""The league calls of the API (/api/v1/clubs/{club}/seasons): the secretary's set-up, a leg's
game recorded and its fixture confirmed by both captains (another team's captain 403), the
table read without a token for a public club (401 for a private one), and bad input a 422
problem saying what, with nothing changed."""

from __future__ import annotations

from api_helpers import Api
from league_helpers import fixture_id, set_up, win_game

BASE = "/api/v1/clubs/casino/seasons"


def test_captains_confirm_and_the_public_reads(api: Api) -> None:
    set_up(api.service, "casino")
    client, f = api.client, fixture_id(api.service, "casino", "crown", "anchor")
    tokens = {team: client.post(f"{BASE}/2027/teams/{team}/captains", json={},
                                headers=api.auth("admin")).json["token"]
              for team in ("crown", "anchor", "bell")}
    refused = client.post(f"{BASE}/2027/teams/bell/captains", json={},
                          headers=api.auth("referee"))
    assert refused.status_code == 403
    path = f"{BASE}/2027/fixtures/{f}"
    for leg, home, away in ((1, ["Ana"], ["Dani"]), (2, ["Beto"], ["Eva"]),
                            (3, ["Ana", "Carla"], ["Dani", "Fede"])):
        made = client.post(f"{path}/legs/{leg}/games", json={"home": home, "away": away},
                           headers={"Authorization": f"Bearer {tokens['crown']}"})
        assert made.status_code == 201, made.json
        win_game(api.service, made.json["match"], 0)
    other = client.post(f"{path}/confirm", json={},
                        headers={"Authorization": f"Bearer {tokens['bell']}"})
    assert other.status_code == 403
    for team in ("crown", "anchor"):
        done = client.post(f"{path}/confirm", json={},
                           headers={"Authorization": f"Bearer {tokens[team]}"})
        assert done.status_code == 200, done.json
    assert done.json["sheet"]["legs_won"] == {"home": 3, "away": 0}

    table = f"{BASE}/2027/divisions/one/table"
    assert client.get(table).status_code == 401  # a private club
    api.service.clubs.set_public("casino", True)
    rows = client.get(table).json["rows"]
    assert rows[0]["team"] == "crown" and rows[0]["legs_for"] == 3
    assert client.get(f"{path}/sheet").json["number"] == 1


def test_bad_input_is_a_problem_that_changes_nothing(api: Api) -> None:
    set_up(api.service, "casino")
    client = api.client
    before = client.get(f"{BASE}/2027", headers=api.auth("viewer")).json
    twice = client.post(f"{BASE}/2027/teams/bell/players", json={"players": ["Ana"]},
                        headers=api.auth("admin"))
    assert twice.status_code == 422 and "squad of Crown" in twice.json["detail"]
    f = fixture_id(api.service, "casino", "crown", "anchor")
    wrong = client.post(f"{BASE}/2027/fixtures/{f}/legs/1/games",
                        json={"home": ["Gabi"], "away": ["Dani"]}, headers=api.auth("referee"))
    assert wrong.status_code == 422 and "Gabi" in wrong.json["detail"]
    outside = client.post(f"{BASE}/2027/fixtures/{f}/postpone",
                          json={"to": "2026-01-01", "reason": "rain"}, headers=api.auth("admin"))
    assert outside.status_code == 422 and "2026-01-01" in outside.json["detail"]
    spanish = client.post(f"{BASE}/2027/teams/bell/players", json={"players": ["Ana"]},
                          headers=api.auth("admin", **{"Accept-Language": "es"}))
    assert "ya está en la plantilla de Crown" in spanish.json["detail"]
    assert client.get(f"{BASE}/2027", headers=api.auth("viewer")).json == before
    assert client.get(f"{BASE}/2027/fixtures/{f}/sheet",
                      headers=api.auth("viewer")).status_code == 404
