"""The players API, on SQLite and PostgreSQL: POST players (with "new"), GET a player with its
history, rename and merge (admin), "did you mean ...?" on players, matches and imports, every
refusal as problem+json."""

from __future__ import annotations

import random
from typing import Any

from api_helpers import PLAYERS, Api, assert_problem

from referee.core.log import make_log, write_log
from referee.core.simulate import random_match

BASE = "/api/v1/clubs/casino/players"


def log_text(players: list[str], seed: int = 1) -> str:
    header, events = random_match("mano-a-mano", players, random.Random(seed))
    return write_log(make_log(header, events))


def ids(api: Api) -> dict[str, int]:
    return {p["name"]: p["id"] for p in api.client.get(f"{BASE}?limit=500",
                                                         headers=api.auth("viewer")).json}


def post(api: Api, path: str, body: Any, role: str = "admin", club: str = "casino"):  # type: ignore[no-untyped-def]
    return api.client.post(path, json=body, headers=api.auth(role, club))


def test_create_player_normalised_and_matched_by_key(api: Api) -> None:
    r = post(api, BASE, {"name": "  Eva   María "})
    assert r.status_code == 201 and r.json["name"] == "Eva María"
    assert r.headers["Location"] == f"{BASE}/{r.json['id']}"
    for same in ("eva maría", "EVA MARÍA", "Eva Mari\u0301a"):  # decomposed í too
        body = assert_problem(post(api, BASE, {"name": same}), 409, "duplicate")
        assert "Eva María" in body["detail"]
    for bad in ("\u202eavE", "Eva\u2066", "Eva\tMaría", "   "):
        assert_problem(post(api, BASE, {"name": bad}), 422, "invalid")
    assert_problem(post(api, BASE, {"name": "Zoe", "new": "maybe"}), 422, "malformed-request")
    assert_problem(post(api, BASE, {"name": "Zoe"}, role="referee"), 403)
    assert_problem(post(api, "/api/v1/clubs/nowhere/players", {"name": "Zoe"}), 403)


def test_did_you_mean_on_players(api: Api) -> None:
    body = assert_problem(post(api, BASE, {"name": "Dany"}), 422, "invalid")
    assert "did you mean Dani?" in body["detail"]
    assert "Dany" not in ids(api)
    r = post(api, BASE, {"name": "Dany", "new": True})
    assert r.status_code == 201 and r.json["name"] == "Dany"
    r = post(api, BASE, {"name": "Zacarías", "new": False})  # far from everyone: no question
    assert r.status_code == 201


def test_did_you_mean_on_matches_and_imports(api: Api) -> None:
    sk, referee = api.auth("scorekeeper"), api.auth("referee")
    matches = "/api/v1/clubs/casino/matches"
    r = api.client.post(matches, json={"rules": "mano-a-mano", "players": ["Carlla", "beto"]},
                        headers=sk)
    body = assert_problem(r, 422, "invalid")
    assert "did you mean Carla?" in body["detail"] and body["line"] == 1
    r = api.client.post(matches, headers=sk, json={"rules": "mano-a-mano",
                                                   "players": ["Carlla", "beto"], "new": True})
    assert r.status_code == 201 and r.json["players"] == ["Carlla", "beto"]  # as typed
    assert "new" not in api.client.get(f"/api/v1/matches/{r.json['id']}/log",
                                       headers=sk).get_data(as_text=True).splitlines()[0]
    known = ids(api)
    assert "Carlla" in known and "beto" not in known  # "beto" sat Beto
    listed = api.client.get(f"{matches}?player=BETO", headers=sk).json
    assert r.json["id"] in {m["id"] for m in listed}

    log = log_text(["Anna", "Dani"])
    r = api.client.post(f"{matches}/import", data=log, headers=referee)
    body = assert_problem(r, 422, "invalid")
    assert "did you mean Ana?" in body["detail"] and body["line"] == 1
    assert_problem(api.client.post(f"{matches}/import?new=perhaps", data=log, headers=referee), 422)
    r = api.client.post(f"{matches}/import?new=true", data=log, headers=referee)
    assert r.status_code == 201 and r.json["players"] == ["Anna", "Dani"]


def test_get_a_player_with_its_history(api: Api) -> None:
    ana = ids(api)["Ana"]
    r = api.client.get(f"{BASE}/{ana}", headers=api.auth("viewer"))
    assert r.status_code == 200
    assert r.json == {"id": ana, "name": "Ana", "created_at": r.json["created_at"],
                      "merged_into": None, "aliases": [], "matches": 1, "history": []}
    assert_problem(api.client.get(f"{BASE}/99999", headers=api.auth("viewer")), 404, "not-found")
    other_ana = api.client.get("/api/v1/clubs/other/players", headers=api.auth("viewer", "other")).json[0]
    assert_problem(api.client.get(f"{BASE}/{other_ana['id']}", headers=api.auth("viewer")), 404)
    assert_problem(api.client.get(f"{BASE}/{ana}", headers=api.auth("viewer", "other")), 403)


def test_rename(api: Api) -> None:
    ana = ids(api)["Ana"]
    path = f"{BASE}/{ana}/rename"
    r = post(api, path, {"name": "Ana  Pérez", "reason": "her surname"})
    assert r.status_code == 200 and r.json["name"] == "Ana Pérez"
    [event] = r.json["history"]
    assert event["kind"] == "rename" and event["old_name"] == "Ana" and event["new_name"] == "Ana Pérez"
    assert event["reason"] == "her surname" and event["recorded_by"].startswith("casino admin")
    assert api.client.get(f"{BASE}/{ana}", headers=api.auth("viewer")).json["history"] == [event]
    # the match keeps the name it was recorded with; the players list has the new one
    match = api.client.get(f"/api/v1/matches/{api.matches['casino']}", headers=api.auth("viewer")).json
    assert match["players"] == PLAYERS
    assert "Ana Pérez" in ids(api) and "Ana" not in ids(api)
    assert_problem(post(api, path, {"name": "beto", "reason": "clash"}), 409, "duplicate")
    assert_problem(post(api, path, {"name": "Ana"}), 422, "malformed-request")
    assert_problem(post(api, path, {"name": "Ana", "reason": ""}), 422)
    assert_problem(post(api, path, {"name": "\u202eanA", "reason": "bidi"}), 422, "invalid")
    assert_problem(post(api, path, {"name": "Ana", "reason": "not mine"}, role="referee"), 403)
    assert_problem(post(api, f"{BASE}/99999/rename", {"name": "Ana", "reason": "x"}), 404)


def test_merge(api: Api) -> None:
    sk = api.auth("scorekeeper")
    r = api.client.post("/api/v1/clubs/casino/matches", headers=sk,
                        json={"rules": "mano-a-mano", "players": ["Ana M", "Hugo"]})
    assert r.status_code == 201
    second = r.json["id"]
    known = ids(api)
    ana, ana_m, beto = known["Ana"], known["Ana M"], known["Beto"]
    r = post(api, f"{BASE}/{ana_m}/merge", {"into": ana, "reason": "one person"})
    assert r.status_code == 200 and r.json["id"] == ana and r.json["matches"] == 2
    assert r.json["aliases"] == [{"id": ana_m, "name": "Ana M"}]
    [event] = r.json["history"]
    assert event["kind"] == "merge" and (event["player"], event["into"]) == (ana_m, ana)
    assert event["moved"] == [second] and event["reason"] == "one person"
    gone = api.client.get(f"{BASE}/{ana_m}", headers=api.auth("viewer")).json
    assert gone["merged_into"] == ana and gone["history"] == [event]
    assert "Ana M" not in ids(api)
    for typed in ("Ana", "ana m"):
        listed = api.client.get("/api/v1/clubs/casino/matches", query_string={"player": typed},
                                headers=sk)
        assert {m["id"] for m in listed.json} == {api.matches["casino"], second}
    # the match's record is not edited
    assert api.client.get(f"/api/v1/matches/{second}", headers=sk).json["players"] == ["Ana M", "Hugo"]
    # a new match naming the alias seats the player
    r = api.client.post("/api/v1/clubs/casino/matches", headers=sk,
                        json={"rules": "mano-a-mano", "players": ["ANA M", "Ivo"]})
    assert r.status_code == 201
    assert api.client.get(f"{BASE}/{ana}", headers=sk).json["matches"] == 3
    assert_problem(post(api, f"{BASE}/{ana_m}/merge", {"into": beto, "reason": "again"}), 422, "invalid")
    assert_problem(post(api, f"{BASE}/{ana}/merge", {"into": ana, "reason": "self"}), 422, "invalid")
    body = assert_problem(post(api, f"{BASE}/{ana}/merge", {"into": beto, "reason": "x"}), 422)
    assert "sat in one match" in body["detail"]
    assert_problem(post(api, f"{BASE}/{ana}/merge", {"into": 99999, "reason": "x"}), 404)
    assert_problem(post(api, f"{BASE}/{ana}/merge", {"into": "Beto", "reason": "x"}), 422,
                   "malformed-request")
    assert_problem(post(api, f"{BASE}/{ana}/merge", {"into": beto, "reason": "x"}, role="referee"), 403)


def test_the_document_names_the_player_operations(api: Api) -> None:
    paths = api.client.get("/api/openapi.json").json["paths"]
    assert set(paths["/api/v1/clubs/{club}/players"]) >= {"get", "post"}
    for path in ("/api/v1/clubs/{club}/players/{player_id}",
                 "/api/v1/clubs/{club}/players/{player_id}/rename",
                 "/api/v1/clubs/{club}/players/{player_id}/merge"):
        assert path in paths
