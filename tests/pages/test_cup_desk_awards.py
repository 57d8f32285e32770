"""The cups desk's form that decides a tie without a match, through the flask client, on both
databases: shown to the secretary once the cup has a tie ready, listing the ready ties only (in
the page's language, its controls' ids stable); the tie's concession or walkover then listed
under the tie on the desk and the public page (en, es, it), a ruling's stale one marked as not
counting; no form once no tie is ready."""

from __future__ import annotations

import re

import pytest
from api_helpers import Api
from league_helpers import set_up, win_game

DESK = "/clubs/casino/desk/cups/open"
PAGE = "/clubs/casino/cups/open"
NAMES = ["Ana", "Beto", "Carla", "Dani"]


@pytest.fixture
def cup(api: Api) -> Api:
    api.service.clubs.set_public("casino", True)
    api.service.leagues.create_cup("casino", "open", "Open", kind="players", entrants=NAMES)
    api.service.leagues.draw("casino", "open", seeded=4)  # W1-1 Ana-Dani, W1-2 Beto-Carla
    return api


def options(html: str, select: str) -> list[str]:
    found = re.search(rf'<select id="{select}"[^>]*>(.*?)</select>', html, re.S)
    assert found, select
    return re.findall(r'<option value="([^"]*)"', found.group(1))


def test_the_form_lists_the_ready_ties_and_the_award_is_shown(cup: Api) -> None:
    html = cup.client.get(DESK, headers=cup.auth("admin")).get_data(as_text=True)
    assert 'data-cup-action="award"' in html
    assert 'data-api="/api/v1/clubs/casino/cups/open/ties/"' in html
    assert options(html, "award-tie") == ["W1-1", "W1-2"]
    assert options(html, "award-kind") == ["concede", "walkover"]
    assert options(html, "award-by") == ["home", "away"]
    assert 'id="award-reason"' in html and "Round 1, tie 1: Ana – Dani" in html
    cup.service.leagues.concede_tie("casino", "open", "W1-1", "away", reason="injured")
    html = cup.client.get(DESK, headers=cup.auth("admin")).get_data(as_text=True)
    assert options(html, "award-tie") == ["W1-2"]
    assert "conceded by Dani (injured)" in html
    public = cup.client.get(PAGE).get_data(as_text=True)
    assert 'data-award="conceded"' in public and "conceded by Dani (injured)" in public
    box = re.search(r'<g class="tie played" data-tie="W1-1">(.*?)</g>', public, re.S)
    assert box, public  # the bracket's box: the winner ticked, no score of matches
    assert "(played; conceded by Dani)</title>" in box.group(1)
    assert re.findall(r"<text[^>]*data-awarded>([^<]*)</text>", box.group(1)) == ["✓"]
    assert 'class="score' in box.group(1) and ">0</text>" not in box.group(1)
    row = re.search(r'<tr data-tie="W1-1"[^>]*>(.*?)</tr>', public, re.S)
    assert row and '<td class="num"></td>' in row.group(1)  # no 0-0 for a tie not played
    cup.service.leagues.walkover_tie("casino", "open", "W1-2", "home", reason="late")
    for lang, said in (("en", "a walkover: Beto did not turn up (late)"),
                       ("es", "incomparecencia: Beto no se presentó (late)"),
                       ("it", "vittoria a tavolino: Beto non si è presentato (late)")):
        page = cup.client.get(PAGE, headers={"Accept-Language": lang}).get_data(as_text=True)
        assert said in page, lang
    cup.service.leagues.concede_tie("casino", "open", "W2-1", "home", reason="ill")
    html = cup.client.get(DESK, headers=cup.auth("admin")).get_data(as_text=True)
    assert 'data-cup-action="award"' not in html  # no tie left to decide
    assert cup.client.get(DESK, headers=cup.auth("scorekeeper")).status_code == 403


def test_the_desk_form_in_spanish_and_italian(cup: Api) -> None:
    for lang, heading in (("es", "Decidir una eliminatoria sin partida"),
                          ("it", "Decidere una sfida senza partita")):
        html = cup.client.get(DESK, headers={**cup.auth("admin"), "Accept-Language": lang}
                              ).get_data(as_text=True)
        assert heading in html, lang


def test_the_desk_starts_a_ties_match(cup: Api) -> None:
    """A players' cup's ready tie without a match in play is offered; the form posts to the
    tie's games (what the API's play_tie is); a tie with a match in play is no longer offered."""
    html = cup.client.get(DESK, headers=cup.auth("admin")).get_data(as_text=True)
    assert 'data-cup-action="play"' in html and options(html, "play-tie") == ["W1-1", "W1-2"]
    assert 'name="what" value="games" data-path' in html and 'id="play-home"' not in html
    started = cup.client.post("/api/v1/clubs/casino/cups/open/ties/W1-1/games", json={},
                              headers=cup.auth("admin"))
    assert started.status_code == 201, started.json
    html = cup.client.get(DESK, headers=cup.auth("admin")).get_data(as_text=True)
    assert options(html, "play-tie") == ["W1-2"]
    win_game(cup.service, started.json["match"], 0)
    cup.service.leagues.concede_tie("casino", "open", "W1-2", "away", reason="ill")
    html = cup.client.get(DESK, headers=cup.auth("admin")).get_data(as_text=True)
    assert options(html, "play-tie") == ["W2-1"]  # the final: Ana against Beto
    for lang, heading in (("es", "Empezar la partida de una eliminatoria"),
                          ("it", "Iniziare la partita di una sfida")):
        page = cup.client.get(DESK, headers={**cup.auth("admin"), "Accept-Language": lang}
                              ).get_data(as_text=True)
        assert heading in page, lang


def test_a_team_cups_desk_offers_a_match_only_for_a_level_fixture(api: Api) -> None:
    api.service.clubs.set_public("casino", True)
    set_up(api.service, "casino")
    api.service.leagues.create_cup("casino", "shield", "Shield",
                                   entrants=["crown", "anchor", "bell", "swan"], season="2027")
    api.service.leagues.draw("casino", "shield", seed=7)
    html = api.client.get("/clubs/casino/desk/cups/shield",
                          headers=api.auth("admin")).get_data(as_text=True)
    assert 'data-cup-action="fixture"' in html and 'data-cup-action="play"' not in html
