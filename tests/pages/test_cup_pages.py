"""A club's cups' pages and their JSON twins through the flask client, on both databases: the
cups page and a cup's page answer a public club without a token (a private one: the sign-in
page); the bracket is an SVG with a box for each tie the cup shows (the winners' bracket, the
losers', the grand final; its second match only once it is to be played), each tie's entrants
and matches won as the API gives them; in Spanish and Italian too."""

from __future__ import annotations

import re

import pytest
from api_helpers import Api
from league_helpers import set_up, win_game

CUPS = "/clubs/casino/cups"
NAMES = ["Ana", "Beto", "Carla", "Dani", "Eva", "Fede"]


def play(api: Api, cup: str, tie: str, side: int) -> None:
    match = api.service.leagues.play_tie("casino", cup, tie)["match"]
    win_game(api.service, match, side)


@pytest.fixture
def cups(api: Api) -> Api:
    """casino public: "open", a double elimination of six players drawn by ranking, its first
    round played; "pairs", not drawn."""
    svc = api.service
    svc.clubs.set_public("casino", True)
    svc.leagues.create_cup("casino", "open", "Open", kind="players", entrants=NAMES,
                           format="double_elimination")
    svc.leagues.draw("casino", "open", seeded=6)
    for tie in ("W1-2", "W1-4"):
        play(api, "open", tie, 0)
    svc.leagues.create_cup("casino", "pairs", "Pairs", kind="pairs",
                           entrants=[["Ana", "Beto"], ["Carla", "Dani"]])
    return api


def test_the_pages_and_their_twins_answer_without_a_token(cups: Api) -> None:
    client = cups.client
    for path in (CUPS, f"{CUPS}/open", f"{CUPS}/pairs"):
        page = client.get(path)
        assert page.status_code == 200, (path, page.get_data(as_text=True)[:400])
        twin = page.headers["Link"].split(">")[0][1:]
        assert client.get(twin).status_code == 200, twin
    assert client.get(f"/api/v1/pages{CUPS}/open").json["cup"] == cups.service.leagues.cup(
        "casino", "open")
    assert "Not drawn yet." in client.get(f"{CUPS}/pairs").get_data(as_text=True)
    cups.service.clubs.set_public("casino", False)
    assert client.get(f"/api/v1/pages{CUPS}/open").status_code == 401
    assert 'type="password"' in client.get(f"{CUPS}/open").get_data(as_text=True) or \
        client.get(f"{CUPS}/open").status_code == 401


def test_the_bracket_is_the_cups(cups: Api) -> None:
    html = cups.client.get(f"{CUPS}/open").get_data(as_text=True)
    cup = cups.service.leagues.cup("casino", "open")
    drawn = set(re.findall(r'<g class="tie [a-z_]+" data-tie="([A-Z0-9-]+)"', html))
    assert drawn == {t["id"] for t in cup["ties"]} - {"F2"}  # F2 only once it is to be played
    assert "<svg class=\"bracket\"" in html and "Losers' round 1" in html
    played = next(t for t in cup["ties"] if t["id"] == "W1-2")
    row = re.search(r'<tr data-tie="W1-2" data-status="played">(.*?)</tr>', html, re.S)
    assert row and f"<strong>{played['winner']}</strong>" in row.group(1)
    assert "1–0" in row.group(1)


def test_the_pages_in_spanish_and_italian(cups: Api) -> None:
    for lang, words in (("es", ["Ronda 1 de perdedores", "Gran final"]),
                        ("it", ["Turno 1 di recupero", "Finalissima"])):
        html = cups.client.get(f"{CUPS}/open", headers={"Accept-Language": lang}).get_data(
            as_text=True)
        assert f'lang="{lang}"' in html
        for word in words:
            assert word in html, (lang, word)


def test_a_team_cup_names_its_teams_not_their_codes(api: Api) -> None:
    """The answer names a team by its slug (its key); the page, the desk and the bracket's
    picture name it as people do, the award and the ties' picker too."""
    svc = api.service
    svc.clubs.set_public("casino", True)
    set_up(svc, "casino")
    svc.leagues.create_cup("casino", "shield", "Shield", entrants=["crown", "anchor", "bell",
                                                                   "swan"], season="2027")
    svc.leagues.draw("casino", "shield", seed=7)
    first = svc.leagues.cup("casino", "shield")["ties"][0]
    svc.leagues.walkover_tie("casino", "shield", first["id"], "away", reason="no team")
    pages = [api.client.get(f"{CUPS}/shield").get_data(as_text=True),
             api.client.get("/clubs/casino/desk/cups/shield",
                            headers=api.auth("admin")).get_data(as_text=True)]
    for html in pages:
        teams = re.findall(r">(Crown|Anchor|Bell|Swan)<", html)
        assert len(teams) >= 8, html  # each tie of round one, twice: the picture and the list
        assert not re.search(r">(crown|anchor|bell|swan)\b", html)
        assert f"{first['away'].title()} did not turn up" in html
    while (ready := [t for t in svc.leagues.cup("casino", "shield")["ties"]
                     if t["status"] == "ready"]):
        svc.leagues.walkover_tie("casino", "shield", ready[0]["id"], "away", reason="no team")
    champion = svc.leagues.cup("casino", "shield")["champion"]
    html = api.client.get(f"{CUPS}/shield").get_data(as_text=True)
    final = re.search(r'<tr data-tie="W2-1"[^>]*>\s*<th scope="row">([^<]*)</th>', html)
    assert final and final.group(1) == "Final"  # as the picture's column, not "Round 2, tie 1"
    page = api.client.get(f"{CUPS}/shield", headers={"Accept-Language": "it"}).get_data(
        as_text=True)
    assert re.search(r'<tr data-tie="W2-1"[^>]*>\s*<th scope="row">Finale</th>', page)
    for path in (CUPS, f"{CUPS}/shield"):
        html = api.client.get(path).get_data(as_text=True)
        assert f"Champion: {champion.title()}." in html and f"Champion: {champion}." not in html


def test_a_bracket_column_is_the_cups_round_not_a_hand(api: Api) -> None:
    """The picture's column over round one is the cup's round ("Turno 1" in Italian), not a
    round of a game, a hand ("Mano 1": the msgid the two shared)."""
    svc = api.service
    svc.clubs.set_public("casino", True)
    svc.leagues.create_cup("casino", "knock", "Knock", kind="players", entrants=NAMES[:4])
    svc.leagues.draw("casino", "knock", seeded=4)
    for lang, said in (("en", "Round 1"), ("es", "Ronda 1"), ("it", "Turno 1")):
        html = api.client.get(f"{CUPS}/knock", headers={"Accept-Language": lang}).get_data(
            as_text=True)
        bracket = re.search(r'<svg class="bracket".*?</svg>', html, re.S)
        assert bracket and f">{said}<" in bracket.group(0), lang
    assert "Mano 1" not in html
