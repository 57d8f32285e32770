"""The tournaments over HTTP, on SQLite and PostgreSQL: created, entered, paired, re-paired,
played and ranked through /api/v1/clubs/{club}/tournaments, with the answers the service gives;
who may do what (401, 403), what is refused (404, 409, 422, as problems), a public club read
without a token, and the page and its JSON twin."""

from __future__ import annotations

import csv
import io
from typing import Any

from api_helpers import Api, assert_problem
from tournament_helpers import NINE, RULES, play_round

BASE = "/api/v1/clubs/casino/tournaments"


def create(api: Api, **body: Any) -> Any:
    settings = {"slug": "noche", "name": "Noche", "format": "rotating", "rules": RULES,
                "rounds": 2, "entrants": NINE[:8], **body}
    return api.client.post(BASE, json=settings, headers=api.auth("admin"))


def test_a_rotating_night_over_http(api: Api) -> None:
    made = create(api, bye={"won": False, "points": 10})
    assert made.status_code == 201, made.json
    assert made.headers["Location"].endswith("/clubs/casino/tournaments/noche")
    assert made.json["bye"] == {"won": False, "points": 10} and len(made.json["entrants"]) == 8
    entered = api.client.post(f"{BASE}/noche/entrants", json={"players": ["Ines"]},
                              headers=api.auth("admin"))
    assert entered.status_code == 201 and entered.json["number"] == 9

    paired = api.client.post(f"{BASE}/noche/rounds", headers=api.auth("referee"))
    assert paired.status_code == 201, paired.json
    assert paired.headers["Location"].endswith("/tournaments/noche/rounds/1")
    assert paired.json == api.client.get(f"{BASE}/noche/rounds/1", headers=api.auth("viewer")).json
    assert [b["name"] for b in paired.json["byes"]] == ["Ines"]
    table = paired.json["tables"][0]
    assert table["reasons"][0].startswith("table 1, the leaders' table")
    match = api.client.get(f"/api/v1/matches/{table['match']}", headers=api.auth("viewer")).json
    assert (match["event"], match["table"], match["players"]) == ("Noche", "1", table["players"])

    gone = api.client.post(f"{BASE}/noche/entrants/1/withdraw", headers=api.auth("admin"))
    assert gone.status_code == 200 and gone.json["repair"] == 1
    assert api.client.post(f"{BASE}/noche/entrants", json={"players": ["Juan"]},
                           headers=api.auth("admin")).status_code == 201
    again = api.client.post(f"{BASE}/noche/rounds/1/repair", headers=api.auth("referee"))
    assert again.status_code == 200 and again.json["version"] == 2
    assert "Ana" not in [p for t in again.json["tables"] for p in t["players"]]

    assert_problem(api.client.post(f"{BASE}/noche/rounds", headers=api.auth("referee")),
                   409, "not-finished")
    play_round(api.service, "casino", "noche", 1, seed=3)
    assert_problem(api.client.post(f"{BASE}/noche/rounds/1/repair", headers=api.auth("referee")),
                   409)
    rows = api.client.get(f"{BASE}/noche/standings", headers=api.auth("viewer")).json
    assert rows == api.service.tournaments.standings("casino", "noche")
    byes = [r for r in rows if r["byes"]]
    assert byes and all((r["won"], r["points_for"]) == (0, 10) for r in byes)
    text = api.client.get(f"{BASE}/noche/standings?format=csv", headers=api.auth("viewer"))
    assert text.mimetype == "text/csv"
    assert [r["player"] for r in csv.DictReader(io.StringIO(text.get_data(as_text=True)))] == \
        [r["player"] for r in rows]
    after = api.client.get(f"{BASE}/noche/standings?after=0", headers=api.auth("viewer")).json
    assert all(r["played"] == 0 for r in after)

    shown = api.client.get(f"{BASE}/noche", headers=api.auth("viewer")).json
    assert shown["status"] == "playing" and shown["paired_rounds"][0]["status"] == "finished"
    listed = api.client.get(BASE, headers=api.auth("viewer")).json
    assert [t["slug"] for t in listed] == ["noche"]
    entrants = api.client.get(f"{BASE}/noche/entrants", headers=api.auth("viewer")).json
    assert entrants[0]["withdrawn"] == 1 and len(entrants) == 10
    second = api.client.post(f"{BASE}/noche/rounds", headers=api.auth("admin"))
    assert second.status_code == 201 and second.json["number"] == 2


def test_who_may_do_what(api: Api) -> None:
    assert_problem(api.client.post(
        BASE, json={"slug": "t", "name": "T", "format": "pairs", "rules": "parejas", "rounds": 1},
        headers=api.auth("scorekeeper")), 403, "forbidden")  # the director is a referee
    assert create(api).status_code == 201
    assert_problem(api.client.post(f"{BASE}/noche/rounds", headers=api.auth("scorekeeper")), 403)
    assert_problem(api.client.post(f"{BASE}/noche/entrants", json={"players": ["Zoe"]},
                                   headers=api.auth("scorekeeper")), 403)
    assert_problem(api.client.get(f"{BASE}/noche", headers=api.auth("viewer", club="other")), 403)
    assert_problem(api.client.get(f"{BASE}/noche"), 401)  # a private club, no token
    assert_problem(api.client.post(f"{BASE}/noche/rounds"), 401)
    api.service.clubs.set_public("casino", True)
    assert api.client.get(f"{BASE}/noche").status_code == 200  # public: read without a token
    assert api.client.get(f"{BASE}/noche/standings").status_code == 200
    assert_problem(api.client.post(f"{BASE}/noche/rounds"), 401)  # writing still takes one


def test_refusals_are_problems(api: Api) -> None:
    assert create(api).status_code == 201
    assert_problem(create(api), 409, "duplicate")
    assert_problem(create(api, slug="b", rules="veracruz"), 422)
    assert_problem(create(api, slug="c", format="swiss"), 422)
    assert_problem(create(api, slug="d", rounds=0), 422)
    assert_problem(api.client.get(f"{BASE}/nope", headers=api.auth("viewer")), 404)
    assert_problem(api.client.get(f"{BASE}/noche/rounds/3", headers=api.auth("viewer")), 404)
    assert_problem(api.client.post(f"{BASE}/noche/entrants/99/withdraw",
                                   headers=api.auth("admin")), 404)
    assert_problem(api.client.post(f"{BASE}/noche/entrants", json={"players": ["ana"]},
                                   headers=api.auth("admin")), 409, "duplicate")
    assert_problem(api.client.get(f"{BASE}/noche/standings?after=x",
                                  headers=api.auth("viewer")), 422)
    few = create(api, slug="few", entrants=["Ana", "Beto"])
    assert few.status_code == 201
    assert_problem(api.client.post(f"{BASE}/few/rounds", headers=api.auth("referee")), 422)


def test_the_page_shows_the_standings_and_its_twin_is_the_same_data(api: Api) -> None:
    assert create(api).status_code == 201
    api.client.post(f"{BASE}/noche/rounds", headers=api.auth("referee"))
    play_round(api.service, "casino", "noche", 1, seed=9)
    page = api.client.get("/clubs/casino/tournaments/noche", headers=api.auth("viewer"))
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    twin = api.client.get("/api/v1/pages/clubs/casino/tournaments/noche",
                          headers=api.auth("viewer"))
    assert twin.status_code == 200
    assert twin.json["standings"] == api.service.tournaments.standings("casino", "noche")
    assert "/api/v1/pages/clubs/casino/tournaments/noche" in page.headers["Link"]
    for row in twin.json["standings"]:
        assert f'data-entrant="{row["entrant"]}"' in html
    assert "Why these tables" in html and "Round 1" in html
    signin = api.client.get("/clubs/casino/tournaments/noche")  # private, no token
    assert signin.status_code == 401 and "Sign in" in signin.get_data(as_text=True)
    assert api.client.get("/clubs/casino/tournaments/nope",
                          headers=api.auth("viewer")).status_code == 404


def test_the_directors_constraints_over_http(api: Api) -> None:
    assert create(api).status_code == 201
    url = f"{BASE}/noche/constraints"
    made = api.client.post(url, json={"kind": "fixed_table", "entrant": "Ana", "table": 3,
                                      "note": "wheelchair"}, headers=api.auth("referee"))
    assert made.status_code == 201, made.json
    assert (made.json["entrant"], made.json["table"], made.json["repair"]) == (1, 3, None)
    listed = api.client.get(url, headers=api.auth("viewer")).json
    assert listed == api.service.tournaments.constraints("casino", "noche")
    paired = api.client.post(f"{BASE}/noche/rounds", headers=api.auth("referee")).json
    ana = next(t for t in paired["tables"] if "Ana" in t["players"])
    assert ana["table"] == 3 and ana["reasons"][0].endswith("by the director (wheelchair)")
    bye = api.client.post(url, json={"kind": "bye", "entrant": 2, "round": 1},
                          headers=api.auth("referee"))
    assert bye.status_code == 201 and bye.json["repair"] == 1  # re-pair for it to apply
    again = api.client.post(f"{BASE}/noche/rounds/1/repair", headers=api.auth("referee")).json
    assert "Beto" in [b["name"] for b in again["byes"]]
    lifted = api.client.delete(f"{url}/{bye.json['id']}", headers=api.auth("referee"))
    assert lifted.status_code == 200 and lifted.json["id"] == bye.json["id"]
    assert_problem(api.client.delete(f"{url}/{bye.json['id']}", headers=api.auth("referee")), 404)
    assert_problem(api.client.post(url, json={"kind": "fixed_table", "entrant": "Beto",
                                              "table": 3}, headers=api.auth("referee")),
                   409, "duplicate")
    assert_problem(api.client.post(url, json={"kind": "forbidden", "entrant": 1},
                                   headers=api.auth("referee")), 422)
    assert_problem(api.client.post(url, json={"kind": "seat", "entrant": 1},
                                   headers=api.auth("referee")), 422)
    assert_problem(api.client.post(url, json={"kind": "bye", "entrant": [1], "round": 2},
                                   headers=api.auth("referee")), 422)
    assert_problem(api.client.post(url, json={"kind": "bye", "entrant": 1, "round": 2},
                                   headers=api.auth("scorekeeper")), 403)
    assert_problem(api.client.get(url), 401)
    shown = api.client.get(f"{BASE}/noche", headers=api.auth("viewer")).json
    assert [c["kind"] for c in shown["constraints"]] == ["fixed_table"]


def test_an_entrant_after_pairing_is_offered_a_re_pair(api: Api) -> None:
    assert create(api).status_code == 201
    api.client.post(f"{BASE}/noche/rounds", headers=api.auth("referee"))
    late = api.client.post(f"{BASE}/noche/entrants", json={"players": ["Ines"]},
                           headers=api.auth("admin"))
    assert late.status_code == 201 and late.json["repair"] == 1
    round_1 = api.client.get(f"{BASE}/noche/rounds/1", headers=api.auth("viewer")).json
    assert [b["name"] for b in round_1["byes"]] == ["Ines"]


def test_a_tournaments_time_limit_reaches_its_tables_over_http(api: Api) -> None:
    """Rules with a time_limit: every table's match has it, and its scorekeeper calls time."""
    made = create(api, rules={**RULES, "time_limit": 40}, rounds=1)
    assert made.status_code == 201, made.json
    assert made.json["rules"]["time_limit"] == 40
    paired = api.client.post(f"{BASE}/noche/rounds", headers=api.auth("referee"))
    assert paired.status_code == 201, paired.json
    for table in paired.json["tables"]:
        match = api.client.get(f"/api/v1/matches/{table['match']}", headers=api.auth("scorekeeper")).json
        assert match["rules"]["time_limit"] == 40 and match["event"] == "Noche"
    first = paired.json["tables"][0]["match"]
    assert api.append(first, {"type": "deal"}, 0).status_code == 201
    called = api.append(first, {"type": "time"}, 1)
    assert called.status_code == 201 and called.json["screen"]["time_called"] == 2
    assert_problem(create(api, slug="mal", rules={**RULES, "time_limit": 0}), 422, "invalid")
