"""A cup's tie conceded or given as a walkover over the API (POST .../ties/{tie}/concede and
.../walkover): the secretary's (a scorekeeper 403, no token 401), the bracket moved at once in
the answer and the cup read after; every refusal a problem saying what (422 or 404, in the
reader's language), with nothing changed."""

from __future__ import annotations

from api_helpers import Api
from league_helpers import win_game

CUPS = "/api/v1/clubs/casino/cups"


def test_a_tie_conceded_and_another_given_as_a_walkover(api: Api) -> None:
    client = api.client
    made = client.post(CUPS, json={"slug": "open", "name": "Open", "kind": "players",
                                   "entrants": ["Ana", "Beto", "Carla", "Dani"]},
                       headers=api.auth("admin"))
    assert made.status_code == 201, made.json
    client.post(f"{CUPS}/open/draw", json={"seeded": 4}, headers=api.auth("admin"))
    body = {"by": "away", "reason": "injured"}
    assert client.post(f"{CUPS}/open/ties/W1-1/concede", json=body).status_code == 401
    assert client.post(f"{CUPS}/open/ties/W1-1/concede", json=body,
                       headers=api.auth("scorekeeper")).status_code == 403
    done = client.post(f"{CUPS}/open/ties/W1-1/concede", json=body, headers=api.auth("admin"))
    assert done.status_code == 200, done.json
    assert done.json == {"cup": "open", "tie": "W1-1", "kind": "conceded", "by": "away",
                         "entrant": "Dani", "winner": "Ana", "reason": "injured"}
    given = client.post(f"{CUPS}/open/ties/W1-2/walkover",
                        json={"by": "home", "reason": "no show"}, headers=api.auth("admin"))
    assert given.status_code == 200 and given.json["winner"] == "Carla"
    cup = client.get(f"{CUPS}/open", headers=api.auth("viewer")).json
    ties = {t["id"]: t for t in cup["ties"]}
    assert ties["W1-2"]["awards"][0]["kind"] == "walkover"
    assert (ties["W2-1"]["home"], ties["W2-1"]["away"], ties["W2-1"]["status"]) == (
        "Ana", "Carla", "ready")


def test_each_refusal_is_a_problem_that_changes_nothing(api: Api) -> None:
    client, svc = api.client, api.service
    client.post(CUPS, json={"slug": "open", "name": "Open", "kind": "players", "best_of": 3,
                            "entrants": ["Ana", "Beto", "Carla"]}, headers=api.auth("admin"))
    not_drawn = client.post(f"{CUPS}/open/ties/W1-2/concede", json={"by": "home",
                                                                    "reason": "x"},
                            headers=api.auth("admin"))
    assert not_drawn.status_code == 422 and "not drawn" in not_drawn.json["detail"]
    client.post(f"{CUPS}/open/draw", json={"seeded": 3}, headers=api.auth("admin"))
    before = client.get(f"{CUPS}/open", headers=api.auth("viewer")).json

    def refused(path: str, body: dict, status: int, says: str, **headers: str) -> None:
        answer = client.post(f"{CUPS}/open{path}", json=body,
                             headers=api.auth("admin", **headers))
        assert answer.status_code == status, answer.json
        assert says in answer.json["detail"], answer.json["detail"]
        assert client.get(f"{CUPS}/open", headers=api.auth("viewer")).json == before

    for action in ("concede", "walkover"):
        refused(f"/ties/W2-1/{action}", {"by": "home", "reason": "x"}, 422, "not decided")
        refused(f"/ties/W1-1/{action}", {"by": "home", "reason": "x"}, 422, "bye")
        refused(f"/ties/W9-1/{action}", {"by": "home", "reason": "x"}, 404, "no tie")
        refused(f"/ties/W9-1/{action}", {"by": "home", "reason": "x"}, 404,
                "ninguna eliminatoria", **{"Accept-Language": "es"})
        refused(f"/ties/W1-2/{action}", {"by": "nobody", "reason": "x"}, 422, "expected shape")
        refused(f"/ties/W1-2/{action}", {"by": "home"}, 422, "expected shape")
    game = client.post(f"{CUPS}/open/ties/W1-2/games", json={},
                       headers=api.auth("scorekeeper"))
    assert game.status_code == 201
    before = client.get(f"{CUPS}/open", headers=api.auth("viewer")).json
    refused("/ties/W1-2/concede", {"by": "home", "reason": "x"}, 422, "in play")
    win_game(svc, game.json["match"], 0)  # Beto 1-0 in a best of three
    before = client.get(f"{CUPS}/open", headers=api.auth("viewer")).json
    refused("/ties/W1-2/walkover", {"by": "home", "reason": "x"}, 422, "no walkover")
    refused("/ties/W1-2/walkover", {"by": "home", "reason": "x"}, 422, "vittoria a tavolino",
            **{"Accept-Language": "it"})
    done = client.post(f"{CUPS}/open/ties/W1-2/concede", json={"by": "home", "reason": "x"},
                       headers=api.auth("admin"))
    assert done.status_code == 200 and done.json["winner"] == "Carla"
    before = client.get(f"{CUPS}/open", headers=api.auth("viewer")).json
    for action in ("concede", "walkover"):
        refused(f"/ties/W1-2/{action}", {"by": "away", "reason": "x"}, 422, "decided already")
