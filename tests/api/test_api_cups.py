"""The cup calls of the API (/api/v1/clubs/{club}/cups): a cup created and drawn by the secretary
(a scorekeeper 403), a tie's match started and its result recorded, the cup read without a token
for a public club (401 for a private one), and each refusal a problem saying what (422 or 404,
in the reader's language), with nothing changed."""

from __future__ import annotations

from api_helpers import Api
from league_helpers import set_up, win_game

CUPS = "/api/v1/clubs/casino/cups"
TEAMS = ["crown", "anchor", "bell", "swan"]


def test_a_cup_created_drawn_played_and_read(api: Api) -> None:
    set_up(api.service, "casino")
    client = api.client
    body = {"slug": "ko", "name": "Knockout", "season": "2027", "entrants": TEAMS}
    assert client.post(CUPS, json=body, headers=api.auth("scorekeeper")).status_code == 403
    made = client.post(CUPS, json=body, headers=api.auth("admin"))
    assert made.status_code == 201 and made.json["entrants"] == TEAMS
    ranked = client.post(f"{CUPS}/ko/draw", json={"ranking": TEAMS[::-1]},
                         headers=api.auth("admin"))
    assert ranked.status_code == 200 and ranked.json["order"] == TEAMS[::-1]
    bad = client.post(f"{CUPS}/ko/draw", json={"ranking": ["oak"]}, headers=api.auth("admin"))
    assert bad.status_code == 422 and "not an entrant" in bad.json["detail"]
    drawn = client.post(f"{CUPS}/ko/draw", json={"ranking": TEAMS}, headers=api.auth("admin"))
    assert drawn.status_code == 200 and drawn.json["order"] == TEAMS
    assert drawn.json["seed"] is None  # all seeded: nothing drawn by lot
    # a team cup's tie is a fixture of the season: made by the secretary, its legs the
    # season's fixture's; a match of it before then is refused
    game = client.post(f"{CUPS}/ko/ties/W1-1/games", json={"home": ["Ana"], "away": ["Juan"]},
                       headers=api.auth("scorekeeper"))
    assert game.status_code == 422 and "make its fixture first" in game.json["detail"]
    tied = client.post(f"{CUPS}/ko/ties/W1-1/fixture", json={"on": "2027-03-04"},
                       headers=api.auth("scorekeeper"))
    assert tied.status_code == 403
    tied = client.post(f"{CUPS}/ko/ties/W1-1/fixture", json={"on": "2027-03-04"},
                       headers=api.auth("admin"))
    assert tied.status_code == 201, tied.json
    assert (tied.json["home"], tied.json["away"], tied.json["season"]) == ("crown", "swan",
                                                                          "2027")
    again = client.post(f"{CUPS}/ko/ties/W1-1/fixture", json={"on": "2027-03-11"},
                        headers=api.auth("admin"))
    assert again.status_code == 422 and "fixture already" in again.json["detail"]
    legs = f"/api/v1/clubs/casino/seasons/2027/fixtures/{tied.json['fixture']}/legs"
    for leg, (home, away) in enumerate([(["Ana"], ["Juan"]), (["Beto"], ["Kike"]),
                                        (["Ana", "Beto"], ["Juan", "Kike"])], start=1):
        game = client.post(f"{legs}/{leg}/games", json={"home": home, "away": away},
                           headers=api.auth("scorekeeper"))
        assert game.status_code == 201, game.json
        win_game(api.service, game.json["match"], 0)
    assert client.get(f"{CUPS}/ko").status_code == 401  # a private club
    other = client.get(f"{CUPS}/ko", headers=api.auth("admin", club="other"))
    assert other.status_code == 403  # another club's token reads none of this club's cups
    assert client.post(f"{CUPS}/ko/draw", json={}, headers=api.auth("admin", club="other")
                       ).status_code == 403
    api.service.clubs.set_public("casino", True)
    cup = client.get(f"{CUPS}/ko").json
    first = next(t for t in cup["ties"] if t["id"] == "W1-1")
    assert (first["home"], first["away"], first["winner"]) == ("crown", "swan", "crown")
    assert first["fixture"]["legs_won"] == {"home": 3, "away": 0} and first["matches"] == []
    assert [c["slug"] for c in client.get(CUPS, query_string={"season": "2027"}).json] == ["ko"]


def test_each_refusal_is_a_problem_that_changes_nothing(api: Api) -> None:
    client, svc = api.client, api.service
    made = client.post(CUPS, json={"slug": "open", "name": "Open", "kind": "players",
                                   "entrants": ["Ana", "Beto", "Carla"]},
                       headers=api.auth("admin"))
    assert made.status_code == 201, made.json
    not_drawn = client.post(f"{CUPS}/open/ties/W1-2/games", json={},
                            headers=api.auth("scorekeeper"))
    assert not_drawn.status_code == 422 and "not drawn" in not_drawn.json["detail"]
    client.post(f"{CUPS}/open/draw", json={"seeded": 3}, headers=api.auth("admin"))
    match = svc.recording.create_match("casino", "mano-a-mano", ["Beto", "Carla"])["id"]
    win_game(svc, match, 1)  # Carla wins
    before = client.get(f"{CUPS}/open", headers=api.auth("viewer")).json

    def refused(path: str, body: dict, status: int, says: str, **headers: str) -> None:
        answer = client.post(f"{CUPS}/open{path}", json=body,
                             headers=api.auth("admin", **headers))
        assert answer.status_code == status, answer.json
        assert says in answer.json["detail"], answer.json["detail"]
        assert client.get(f"{CUPS}/open", headers=api.auth("viewer")).json == before

    refused("/ties/W1-2/result", {"matches": [match], "winner": "Beto"}, 422, "not won by")
    refused("/ties/W1-2/result", {"matches": [match], "winner": "Zoe"}, 422, "between")
    refused("/ties/W2-1/result", {"matches": [match]}, 422, "not decided")
    refused("/ties/W1-1/result", {"matches": [match]}, 422, "bye")
    refused("/ties/W7-1/result", {"matches": [match]}, 404, "no tie")
    refused("/ties/W1-2/result", {"matches": [match + 1000]}, 404, "no match")
    refused("/ties/W7-1/result", {"matches": [match]}, 404, "ninguna eliminatoria",
            **{"Accept-Language": "es"})
    refused("/draw", {"seed": 2**64}, 422, "expected shape")
    done = client.post(f"{CUPS}/open/ties/W1-2/result", json={"matches": [match],
                                                               "winner": "Carla"},
                       headers=api.auth("scorekeeper"))
    assert done.status_code == 200 and done.json["winner"] == "Carla"
    before = client.get(f"{CUPS}/open", headers=api.auth("viewer")).json
    refused("/draw", {"seed": 5}, 422, "cannot be made again")
    refused("/draw", {"seed": 5}, 422, "no puede repetirse", **{"Accept-Language": "es"})
    refused("/ties/W1-2/games", {}, 422, "decided already")
    refused("/ties/W2-1/games", {"home": ["Ana"]}, 422, "name no players")
    again = client.post(CUPS, json={"slug": "open", "name": "Open", "kind": "players",
                                    "entrants": ["Ana", "Beto"]}, headers=api.auth("admin"))
    assert again.status_code == 409
    bad = client.post(CUPS, json={"slug": "x", "name": "X", "kind": "teams",
                                  "entrants": ["a", "b"]}, headers=api.auth("admin"))
    assert bad.status_code == 422 and "season" in bad.json["detail"]
