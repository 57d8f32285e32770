"""A team cup's tie made a fixture from the desks, through the flask client, on both databases:
the cups desk's form lists the ready ties without a fixture (its ids stable), the made fixture
listed with its legs won and a link to the league desk; the league desk shows the season's
cup ties apart from the weeks, each with its postpone, concede and walkover forms (no swap);
the captain's desk gives its team sheet and, once complete, its confirmation. In en, es, it."""

from __future__ import annotations

import re

import pytest
from api_helpers import Api
from league_helpers import set_up, win_game

CUP_DESK = "/clubs/casino/desk/cups/ko"
SEASON_DESK = "/clubs/casino/desk/seasons/2027"
CAPTAIN_DESK = SEASON_DESK + "/captain"
API = "/api/v1/clubs/casino/seasons/2027"


@pytest.fixture
def cup(api: Api) -> Api:
    set_up(api.service, "casino")
    api.service.leagues.create_cup("casino", "ko", "KO", season="2027",
                                   entrants=["crown", "anchor", "bell", "swan"])
    api.service.leagues.draw("casino", "ko", seeded=4)  # crown v swan, anchor v bell
    return api


def options(html: str, select: str) -> list[str]:
    found = re.search(rf'<select id="{select}"[^>]*>(.*?)</select>', html, re.S)
    assert found, select
    return re.findall(r'<option value="([^"]*)"', found.group(1))


def page(api: Api, path: str, lang: str = "en", **headers: str) -> str:
    answer = api.client.get(path, headers={**(headers or api.auth("admin")),
                                           "Accept-Language": lang})
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    return answer.get_data(as_text=True)


def test_the_desks_make_and_run_a_cup_tie_fixture(cup: Api) -> None:
    html = page(cup, CUP_DESK)
    assert 'data-cup-action="fixture"' in html
    assert 'data-api="/api/v1/clubs/casino/cups/ko/ties/"' in html
    assert options(html, "fixture-tie") == ["W1-1", "W1-2"]
    assert 'id="fixture-on"' in html and 'value="fixture" data-path' in html
    assert re.search(r'<input id="fixture-on" [^>]*value=""', html)  # no round date yet
    assert 'id="fixture-on-help"' not in html
    assert "comes from its fixture's legs" in html and "comes from its matches" not in html
    made = cup.client.post("/api/v1/clubs/casino/cups/ko/ties/W1-1/fixture",
                           json={"on": "2027-03-04"}, headers=cup.auth("admin"))
    assert made.status_code == 201, made.json
    f = made.json["fixture"]
    html = page(cup, CUP_DESK)
    assert options(html, "fixture-tie") == ["W1-2"]
    # the round's other tie offered on the day this one was made for
    assert 'data-on="2027-03-04"' in html
    assert re.search(r'<input id="fixture-on" name="on" type="date" required value="2027-03-04"',
                     html)
    assert 'id="fixture-on-help"' in html
    listed = re.search(r'<li data-tie-fixture="W1-1">(.*?)</li>', html, re.S)
    assert listed and f"fixture {f}" in listed.group(1) and "Crown 0–0 Swan" in listed.group(1)
    assert f'href="{SEASON_DESK}#cup-ties"' in listed.group(1)

    # the league desk: the cup's tie apart, its forms the league fixture's, no swap
    season = page(cup, SEASON_DESK)
    ties = season[season.index('id="cup-ties"'):season.index('class="week" data-round')]
    assert 'data-cup-tie="ko/W1-1"' in ties and f'data-fixture="{f}"' in ties
    assert ">KO, Round 1, tie 1</a>" in ties
    for action in ("postpone", "concede", "walkover"):
        assert f'data-api="{API}/fixtures/{f}/' in ties and \
            f'data-league-action="{action}"' in ties, action
    assert 'data-league-action="swap"' not in ties
    assert f'id="to-{f}"' in ties and f'id="wb-{f}"' in ties  # the ids the weeks' have
    weeks = season[season.index('class="week" data-round'):]
    assert f'data-fixture="{f}"' not in weeks  # not among the league's weeks

    # the captain's desk: the team sheet, then the confirmation once complete
    crown = {"Authorization": "Bearer " + cup.service.leagues.captain("casino", "2027",
                                                                      "crown")}
    desk = page(cup, CAPTAIN_DESK, **crown)
    assert 'data-cup-tie="ko/W1-1">KO, Round 1, tie 1</p>' in desk
    assert f'data-api="{API}/fixtures/{f}/legs/1/games"' in desk
    for leg, (home, away) in enumerate([(["Ana"], ["Juan"]), (["Beto"], ["Kike"]),
                                        (["Ana", "Beto"], ["Juan", "Kike"])], start=1):
        win_game(cup.service, cup.service.leagues.record_leg(
            "casino", "2027", f, leg, home=home, away=away)["match"], 0)
    desk = page(cup, CAPTAIN_DESK, **crown)
    assert f'data-api="{API}/fixtures/{f}/confirm"' in desk
    html = page(cup, CUP_DESK)
    listed = re.search(r'<li data-tie-fixture="W1-1">(.*?)</li>', html, re.S)
    assert listed and "Crown 3–0 Swan" in listed.group(1)
    # the bracket's box and the ties' list score the legs won, not matches never played
    row = re.search(r'<tr data-tie="W1-1"[^>]*>(.*?)</tr>', html, re.S)
    assert row and '<td class="num">3–0</td>' in row.group(1)
    box = re.search(r'<g class="tie played" data-tie="W1-1">(.*?)</g>', html, re.S)
    assert box and re.findall(r'class="score[^"]*">([^<]*)</text>', box.group(1)) == ["3", "0"]
    assert cup.client.get(CUP_DESK, headers=cup.auth("scorekeeper")).status_code == 403


def test_the_public_ties_list_names_a_fixtures_matches(cup: Api) -> None:
    """The cup's public page: a tie played as a fixture lists its legs' matches in the ties'
    list's "Matches" column (it was empty: the legs showed only in the score), each a link to
    its match's page; a tie's fixture given as a walkover says so."""
    f = cup.service.leagues.fixture_tie("casino", "ko", "W1-1", on="2027-03-04")["fixture"]
    played = []
    for leg, (home, away) in enumerate([(["Ana"], ["Juan"]), (["Beto"], ["Kike"]),
                                        (["Ana", "Beto"], ["Juan", "Kike"])], start=1):
        played.append(cup.service.leagues.record_leg("casino", "2027", f, leg, home=home,
                                                     away=away)["match"])
        win_game(cup.service, played[-1], 0)
    other = cup.service.leagues.fixture_tie("casino", "ko", "W1-2", on="2027-03-05")["fixture"]
    cup.service.leagues.walkover("casino", "2027", other, by="away", reason="no van")
    twin = cup.client.get("/api/v1/pages/clubs/casino/cups/ko", headers=cup.auth("viewer")).json
    tie = next(t for t in twin["cup"]["ties"] if t["id"] == "W1-1")
    assert [(m["leg"], m["match"]) for m in tie["fixture"]["matches"]] == [
        (1, played[0]), (2, played[1]), (3, played[2])]
    said = {"en": ("fixture", "leg 1: match", "a walkover: Bell did not turn up"),
            "es": ("encuentro", "manga 1: partida", "Bell no se presentó"),
            "it": ("incontro", "manche 1: partita", "Bell non si è presentato")}
    for lang, (fixture, leg, walkover) in said.items():
        html = page(cup, "/clubs/casino/cups/ko", lang, **cup.auth("viewer"))
        row = re.search(r'<tr data-tie="W1-1"[^>]*>(.*?)</tr>', html, re.S)
        assert row, lang
        matches = row.group(1).rsplit("<td>", 1)[1]
        assert f'data-fixture-matches="{f}"' in matches and f"{fixture} {f}" in matches, lang
        assert re.findall(r'href="/clubs/casino/matches/(\d+)"', matches) == [
            str(m) for m in played], lang
        assert f"{leg} {played[0]}" in matches, (lang, matches)
        row = re.search(r'<tr data-tie="W1-2"[^>]*>(.*?)</tr>', html, re.S)
        assert row and walkover in row.group(1), (lang, row and row.group(1))


def test_the_words_in_spanish_and_italian(cup: Api) -> None:
    cup.service.leagues.fixture_tie("casino", "ko", "W1-1", on="2027-03-04")
    for lang in ("es", "it"):
        html = page(cup, CUP_DESK, lang)
        season = page(cup, SEASON_DESK, lang)
        for english in ("Make a tie's fixture", "Ties played as fixtures", "Its date",
                        "Make the fixture", "being played", "fixture's legs"):
            assert english not in html, (lang, english)
        assert "Cup ties played as fixtures" not in season
        # the tie named as the cup's page names it, not by its codes ("Cup ko, tie W1-1")
        tie = {"es": "KO, Ronda 1, eliminatoria 1", "it": "KO, Turno 1, sfida 1"}[lang]
        assert re.search(rf'data-cup-tie="ko/W1-1">.*?{tie}</a>', season), lang
