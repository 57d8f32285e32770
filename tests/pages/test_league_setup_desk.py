"""The secretary's season set-up on the league desk (docs/leagues.md, "The league desk"): the
seasons page has the new season's form, its leg rules every preset the service accepts for
each kind of leg (fives-and-threes too); a season's page the forms that add a division and a
team with its squad and generate the fixtures, each calling the league API; none of them for a
token below the secretary's, and the season's set-up forms gone once its fixtures are made."""

from __future__ import annotations

import re

from api_helpers import Api
from league_helpers import set_up

from referee.service.seasons.fields import leg_presets

API = "/api/v1/clubs/casino/seasons"


def options(html: str, name: str) -> list[str]:
    select = re.search(rf'<select[^>]* name="{re.escape(name)}"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None, name
    return re.findall(r'<option value="([^"]*)"', select.group(1))


def test_the_new_season_form_is_the_secretarys(api: Api) -> None:
    client = api.client
    for role in ("viewer", "scorekeeper", "referee"):
        assert client.get("/clubs/casino/desk/seasons",
                          headers=api.auth(role)).status_code == 403, role
    page = client.get("/clubs/casino/desk/seasons", headers=api.auth("admin"))
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert f'data-league-setup="season" data-api="{API}"' in html
    for field in ("slug", "name", "first_day", "last_day", "weeks_off", "format.singles",
                  "format.pairs", "format.best_of", "points.win", "points.per_leg",
                  "points.bonus", "promotion", "relegation", "min_legs", "max_squad",
                  "leg_target.singles", "leg_target.pairs"):
        assert f'name="{field}"' in html, field
    offered = leg_presets()
    assert options(html, "leg_rules.singles") == offered["singles"]
    assert options(html, "leg_rules.pairs") == offered["pairs"]
    assert {"fives-and-threes", "all-fives", "muggins", "mano-a-mano"} <= set(offered["singles"])
    assert {"fives-and-threes", "parejas"} <= set(offered["pairs"])
    assert "all-fives" not in offered["pairs"]  # no partnerships: the service refuses it


def test_every_offered_leg_preset_makes_a_season(api: Api) -> None:
    for number, (kind, name) in enumerate((k, n) for k, names in leg_presets().items()
                                          for n in names):
        answer = api.client.post(API, headers=api.auth("admin"), json={
            "slug": f"s{number}", "name": f"Season {number}", "first_day": "2027-01-07",
            "format": {"singles": 1, "pairs": 1}, "leg_rules": {kind: name}})
        assert answer.status_code == 201, (kind, name, answer.json)


def test_a_seasons_set_up_forms_are_the_secretarys(api: Api) -> None:
    client = api.client
    svc = api.service
    svc.leagues.create_season("casino", "2028", "League 2028", format={"singles": 2},
                              first_day="2028-01-06")
    svc.leagues.add_division("casino", "2028", "one", "Division 1")
    desk = "/clubs/casino/desk/seasons/2028"
    assert client.get(desk).status_code == 401
    for role in ("viewer", "scorekeeper", "referee"):
        assert client.get(desk, headers=api.auth(role)).status_code == 403, role
    html = client.get(desk, headers=api.auth("admin")).get_data(as_text=True)
    assert f'data-league-setup="division" data-api="{API}/2028/divisions"' in html
    assert f'data-league-setup="team" data-api="{API}/2028/teams"' in html
    assert f'data-league-setup="generate" data-api="{API}/2028/fixtures"' in html
    assert options(html, "division") == ["one"]
    # No team yet: the captains' section says to add them first, no form with an empty list.
    assert "data-no-captains" in html and "data-league-captain" not in html

    set_up(svc, "casino")  # a season whose fixtures are made: nothing to set up any more
    made = client.get("/clubs/casino/desk/seasons/2027",
                      headers=api.auth("admin")).get_data(as_text=True)
    assert "data-league-setup" not in made
    assert "data-league-captain" in made and "data-no-captains" not in made
    assert 'data-league-action="postpone"' in made


def test_the_set_up_forms_speak_the_readers_language(api: Api) -> None:
    api.service.leagues.create_season("casino", "2028", "League 2028", format={"singles": 2},
                                      first_day="2028-01-06")
    api.service.leagues.add_division("casino", "2028", "one", "Division 1")
    for lang, words in (("es", ["Nueva temporada", "Crear la temporada"]),
                        ("it", ["Nuova stagione", "Crea la stagione"])):
        html = api.client.get("/clubs/casino/desk/seasons",
                              headers=api.auth("admin", **{"Accept-Language": lang})
                              ).get_data(as_text=True)
        assert all(w in html for w in words), lang
    season = api.client.get("/clubs/casino/desk/seasons/2028",
                            headers=api.auth("admin", **{"Accept-Language": "es"})
                            ).get_data(as_text=True)
    assert "Generar los encuentros" in season and "Añadir el equipo" in season


def test_a_leg_target_makes_the_kinds_rules_a_preset_with_it(api: Api) -> None:
    """What the season form sends with a game's target (desk_league.js makes the kind's
    leg_rules {preset, target}; test_league_season_browser sends it from the form): the
    season keeps it, and its legs are played to it."""
    made = api.client.post(API, headers=api.auth("admin"), json={
        "slug": "short", "name": "Short", "first_day": "2027-01-07",
        "format": {"singles": 1, "pairs": 1},
        "leg_rules": {"singles": {"preset": "fives-and-threes", "target": 10},
                      "pairs": {"preset": "parejas", "target": 20}}})
    assert made.status_code == 201, made.json
    assert api.service.leagues.season("casino", "short")["leg_rules"] == {
        "singles": {"preset": "fives-and-threes", "target": 10},
        "pairs": {"preset": "parejas", "target": 20}}


def test_a_team_comes_with_its_squad_or_not_at_all(api: Api) -> None:
    svc = api.service
    svc.leagues.create_season("casino", "2028", "League 2028", format={"singles": 2},
                              first_day="2028-01-06")
    svc.leagues.add_division("casino", "2028", "one", "Division 1")
    made = api.client.post(f"{API}/2028/teams", headers=api.auth("admin"), json={
        "division": "one", "slug": "crown", "name": "Crown", "players": ["Ana", "Beto"]})
    assert made.status_code == 201, made.json
    assert made.json["players"] == ["Ana", "Beto"]
    refused = api.client.post(f"{API}/2028/teams", headers=api.auth("admin", **{
        "Accept-Language": "es"}), json={"division": "one", "slug": "anchor", "name": "Anchor",
                                         "players": ["Dani", "Ana"]})
    assert refused.status_code == 422
    assert "ya está en la plantilla de Crown" in refused.json["detail"]
    season = svc.leagues.season("casino", "2028")
    assert [t["slug"] for t in season["divisions"][0]["teams"]] == ["crown"]  # no Anchor
    bare = api.client.post(f"{API}/2028/teams", headers=api.auth("admin"), json={
        "division": "one", "slug": "bell", "name": "Bell"})
    assert bare.status_code == 201 and bare.json["players"] == []


def test_divisions_and_teams_are_corrected_from_the_desks_forms(api: Api) -> None:
    """The season's desk has each division's and team's forms (rename, change, remove) calling
    the API's PATCH and DELETE; before the fixtures all of them, after only the renames (a
    team's name and venue). The API refuses a caller below the secretary, and says a refusal
    in the reader's language."""
    svc = api.service
    svc.leagues.create_season("casino", "2028", "League 2028", format={"singles": 2},
                              first_day="2028-01-06")
    svc.leagues.add_division("casino", "2028", "one", "Division 1")
    svc.leagues.add_team("casino", "2028", "one", "crown", "Crown", venue="High St")
    desk = "/clubs/casino/desk/seasons/2028"
    html = api.client.get(desk, headers=api.auth("admin")).get_data(as_text=True)
    for kind, method, path in (("division", "PATCH", "divisions/one"),
                               ("division-removed", "DELETE", "divisions/one"),
                               ("team", "PATCH", "teams/crown"),
                               ("team-removed", "DELETE", "teams/crown")):
        assert (f'data-league-edit="{kind}" data-method="{method}" '
                f'data-api="{API}/2028/{path}"') in html, kind
    assert 'value="High St"' in html  # the team's venue, to change
    for role in ("viewer", "scorekeeper", "referee"):
        for method in ("PATCH", "DELETE"):
            answer = api.client.open(f"{API}/2028/teams/crown", method=method,
                                     headers=api.auth(role), json={"name": "Mine"})
            assert answer.status_code == 403, (role, method)
    refused = api.client.delete(f"{API}/2028/divisions/one",
                                headers=api.auth("admin", **{"Accept-Language": "es"}))
    assert refused.status_code == 422
    assert "Division 1 tiene equipos" in refused.json["detail"]
    svc.leagues.add_team("casino", "2028", "one", "bell", "Bell")
    svc.leagues.generate("casino", "2028")
    html = api.client.get(desk, headers=api.auth("admin")).get_data(as_text=True)
    assert html.count('data-league-edit="team"') == 2
    assert 'data-league-edit="division"' in html
    assert "-removed" not in html and 'name="division"' not in html.split("h-captains")[0]
