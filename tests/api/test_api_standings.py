"""GET /api/v1/clubs/{club}/standings (JSON and CSV, per player and per partnership, with the
period and event filters) and PATCH /api/v1/clubs/{club} for the tie-breakers, on SQLite and
PostgreSQL: the HTTP answers are the service's."""

from __future__ import annotations

import csv
import io
import random

from api_helpers import PLAYERS, Api, assert_problem

from referee.core.log import make_log, write_log
from referee.core.simulate import random_match
from referee.service.standings import COLUMNS, DEFAULT_TIE_BREAKERS, PARTNERSHIP_COLUMNS

URL = "/api/v1/clubs/casino/standings"


def season(api: Api) -> None:
    for seed, (order, day, event) in enumerate([
            (PLAYERS, "2026-01-10", "liga"), (PLAYERS[::-1], "2026-02-10", "copa"),
            (["=Eva", "Beto", "+Fede", "Dani"], "2026-03-10", None)]):
        header, events = random_match("parejas", order, random.Random(seed + 20))
        header["date"] = day
        if event:
            header["event"] = event
        r = api.client.post("/api/v1/clubs/casino/matches/import",
                            data=write_log(make_log(header, events)), headers=api.auth("referee"))
        assert r.status_code == 201, r.json


def test_json_and_csv_with_filters(api: Api) -> None:
    season(api)
    svc = api.service.standings
    for query, kwargs in (("", {}), ("?from=2026-02-01", {"date_from": "2026-02-01"}),
                          ("?to=2026-02-10&event=copa", {"date_to": "2026-02-10", "event": "copa"}),
                          ("?group=partnerships", {"group": "partnerships"}),
                          ("?group=partnerships&event=liga", {"group": "partnerships", "event": "liga"})):
        r = api.client.get(URL + query, headers=api.auth("viewer"))
        assert r.status_code == 200 and r.json == svc.table("casino", **kwargs), query
        sep = "&" if query else "?"
        r = api.client.get(URL + query + sep + "format=csv", headers=api.auth("viewer"))
        assert r.status_code == 200 and r.mimetype == "text/csv"
        assert r.get_data(as_text=True) == svc.csv("casino", **kwargs)
    rows = api.client.get(URL, headers=api.auth("viewer")).json
    assert set(rows[0]) == set(COLUMNS) and rows[0]["rank"] == 1
    pairs = api.client.get(URL + "?group=partnerships", headers=api.auth("viewer")).json
    assert all(len(r["partners"]) == 2 and "player" not in r for r in pairs)
    lines = list(csv.reader(io.StringIO(api.client.get(
        URL + "?group=partnerships&format=csv", headers=api.auth("viewer")).get_data(as_text=True))))
    assert lines[0] == list(PARTNERSHIP_COLUMNS)
    assert {"'=Eva", "'+Fede"} <= {c for line in lines[1:] for c in line[1:3]}  # escaped


def test_bad_filters_are_422(api: Api) -> None:
    for query in ("?group=teams", "?from=yesterday", "?to=2026-13-01", "?format=xml", "?event="):
        assert_problem(api.client.get(URL + query, headers=api.auth("viewer")), 422)


def test_patch_tie_breakers(api: Api) -> None:
    r = api.client.patch("/api/v1/clubs/casino", json={"tie_breakers": ["won", "head_to_head"]},
                         headers=api.auth("admin"))
    assert r.status_code == 200
    assert r.json["slug"] == "casino" and r.json["tie_breakers"] == ["won", "head_to_head"]
    assert api.service.standings.tie_breakers("casino") == ["won", "head_to_head"]
    r = api.client.patch("/api/v1/clubs/casino", json={"tie_breakers": None},
                         headers=api.auth("admin"))
    assert r.status_code == 200 and r.json["tie_breakers"] == list(DEFAULT_TIE_BREAKERS)
    for body in ({"tie_breakers": []}, {"tie_breakers": ["luck"]}, {"tie_breakers": "won"},
                 {"tie_breakers": ["won", "won"]}):
        assert_problem(api.client.patch("/api/v1/clubs/casino", json=body,
                                        headers=api.auth("admin")), 422)
    assert_problem(api.client.patch("/api/v1/clubs/casino", json={"tie_breakers": ["won"]},
                                    headers=api.auth("referee")), 403)
    assert api.service.standings.tie_breakers("casino") == list(DEFAULT_TIE_BREAKERS)


def test_patch_unranked_and_the_rows_apart(api: Api) -> None:
    season(api)
    api.service.players.create("casino", "Zoe")
    rows = api.client.get(URL, headers=api.auth("viewer")).json
    assert rows[-1]["player"] == "Zoe" and rows[-1]["rank"] is None and rows[-1]["ranked"] is False
    assert all(r["ranked"] and r["rank"] >= 1 for r in rows[:-1])
    assert all(type(r["rating_points"]) is int for r in rows)
    lines = list(csv.reader(io.StringIO(api.client.get(URL + "?format=csv",
                                                       headers=api.auth("viewer")).get_data(as_text=True))))
    assert lines[0] == list(COLUMNS) and lines[0][-2:] == ["rating_points", "ranked"]
    assert lines[-1][0] == "" and lines[-1][1] == "Zoe" and lines[-1][-1] == "false"
    # an event's table: its players only, whatever the setting
    liga = api.client.get(URL + "?event=liga", headers=api.auth("viewer")).json
    assert sorted(r["player"] for r in liga) == sorted(PLAYERS)
    for role, status in (("viewer", 403), ("referee", 403)):
        assert api.client.patch("/api/v1/clubs/casino", json={"unranked": "hidden"},
                                headers=api.auth(role)).status_code == status
    bad = api.client.patch("/api/v1/clubs/casino", json={"unranked": "gone"}, headers=api.auth("admin"))
    assert_problem(bad, 422)
    done = api.client.patch("/api/v1/clubs/casino", json={"unranked": "hidden"}, headers=api.auth("admin"))
    assert done.status_code == 200 and done.json["unranked"] == "hidden"
    assert [r["player"] for r in api.client.get(URL, headers=api.auth("viewer")).json] == \
        [r["player"] for r in rows[:-1]]
    back = api.client.patch("/api/v1/clubs/casino", json={"unranked": None}, headers=api.auth("admin"))
    assert back.json["unranked"] == "apart"
