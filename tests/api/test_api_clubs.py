"""PATCH /api/v1/clubs/{club} with every setting at once, on SQLite and PostgreSQL: the name,
the default rules and target among them; the settings named change together in one use case
(Clubs.settings), and a refused field (422, from the schema or the service) changes none;
GET /clubs/{club} shows the defaults; the OpenAPI document states them as strictly."""

from __future__ import annotations

from typing import Any

import pytest
from api_helpers import Api, assert_problem

URL = "/api/v1/clubs/casino"


def club_now(api: Api) -> dict[str, Any]:
    r = api.client.get(URL, headers=api.auth("viewer"))
    assert r.status_code == 200
    return r.json


def test_patch_every_setting_at_once_and_get_shows_them(api: Api) -> None:
    before = club_now(api)
    assert (before["default_rules"], before["default_target"]) == (None, None)
    body = {"name": "Casino de Ponce", "public": True, "language": "es",
            "tie_breakers": ["won", "head_to_head"], "unranked": "hidden",
            "default_rules": "puerto-rico", "default_target": 250, "timezone": "America/Mexico_City"}
    r = api.client.patch(URL, json=body, headers=api.auth("admin"))
    assert r.status_code == 200, r.json
    assert {k: r.json[k] for k in body} == body and r.json["slug"] == "casino"
    shown = club_now(api)
    assert {k: shown[k] for k in ("name", "public", "language", "default_rules",
                                  "default_target", "timezone")} == \
        {k: body[k] for k in ("name", "public", "language", "default_rules", "default_target",
                              "timezone")}
    r = api.client.patch(URL, json={"default_rules": None, "default_target": None},
                         headers=api.auth("admin"))
    assert r.status_code == 200
    assert (r.json["default_rules"], r.json["default_target"], r.json["name"]) == \
        (None, None, "Casino de Ponce")


@pytest.mark.parametrize("bad", [
    {"language": "fr"}, {"public": "yes"}, {"default_rules": "poker"}, {"default_target": 0},
    {"default_target": 10_001}, {"default_target": True}, {"default_target": "50"},
    {"default_target": 50.5}, {"tie_breakers": ["won", "won"]}, {"name": "  "}, {"name": None},
    {"name": "x" * 1000}, {"colour": "red"}, {"timezone": "Mars/Olympus"}, {"timezone": 1},
    {"timezone": "x" * 65},
])
def test_a_refused_field_changes_nothing(api: Api, bad: dict[str, Any]) -> None:
    before = club_now(api)
    body = {"name": "Renamed", "public": True, "default_rules": "sircle", **bad}
    assert_problem(api.client.patch(URL, json=body, headers=api.auth("admin")), 422)
    assert club_now(api) == before


def test_a_bad_language_with_a_good_name_leaves_the_name(api: Api) -> None:
    problem = assert_problem(api.client.patch(URL, json={"name": "Renamed", "language": "fr"},
                                              headers=api.auth("admin")), 422)
    assert "language" in str(problem)
    assert club_now(api)["name"] != "Renamed"


def test_only_an_admin_patches_and_nothing_named_is_refused(api: Api) -> None:
    before = club_now(api)
    for role in ("referee", "scorekeeper", "viewer"):
        assert_problem(api.client.patch(URL, json={"name": "Mine"}, headers=api.auth(role)), 403)
    assert_problem(api.client.patch(URL, json={}, headers=api.auth("admin")), 422)
    assert club_now(api) == before


def test_the_document_states_the_new_settings(api: Api) -> None:
    spec = api.client.get("/api/openapi.json").json
    schemas = spec["components"]["schemas"]
    settings = next(s for name, s in schemas.items() if name.startswith("ClubSettings")
                    and "default_target" in s.get("properties", {})
                    and "name" in s["properties"] and "required" not in s)
    props = settings["properties"]
    assert props["name"]["minLength"] == 1 and props["name"]["maxLength"] == 200
    assert props["default_rules"]["enum"][:5] == ["mano-a-mano", "parejas", "veracruz", "sircle",
                                                  "puerto-rico"]
    assert (props["default_target"]["minimum"], props["default_target"]["maximum"]) == (1, 10_000)
    assert props["timezone"]["maxLength"] == 64 and "IANA" in props["timezone"]["description"]
    shown = next(s for name, s in schemas.items() if name == "Club")["properties"]
    assert {"default_rules", "default_target", "timezone"} <= set(shown)
