"""A cup's page in a real browser (Debian's chromium; skipped as test_pages_browser.py says), in
English, Spanish and Italian, at 360 px and 1280 px: a double elimination of nine players with
long names, played into its losers' bracket, its bracket an SVG that scrolls sideways inside its
own box at 360 px while nothing else of the page does (browser_helpers.WHOLE, the bracket's
box left out), in the page's language, no code in what Spanish and Italian readers read. The secretary creates a cup and draws it at the desk
(360 px), the bracket shown in place.

Screenshots: tests/pages/artifacts/cup-{lang}-{width}.png (and -top.png, the window as first
seen), cup-desk-es-360.png."""

from __future__ import annotations

import re
from typing import Any, Iterator

import pytest
from api_helpers import Api, make_api, served
from browser_helpers import WHOLE
from league_helpers import win_game
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)
from test_pages_words_browser import CODES, TEXTS, WORDS

from referee.core import vocab

NAMES = ["María José Fernández-Gutiérrez", "Inmaculada Concepción Santamaría", "Ana", "Beto",
         "José Antonio Rodríguez de la Fuente", "Dani", "Eva", "Fede", "Gabi"]
PAGE = "/clubs/casino/cups/open"


def _cup(api: Api) -> None:
    svc = api.service
    svc.leagues.create_cup("casino", "open", "Copa Abierta de Dominó de Villaverde 2027",
                           kind="players", entrants=NAMES, format="double_elimination")
    svc.leagues.draw("casino", "open", seed=2027, seeded=2)
    for _ in range(6):  # the first ties ready, each won by its home side
        ready = [t for t in svc.leagues.cup("casino", "open")["ties"] if t["status"] == "ready"]
        match = svc.leagues.play_tie("casino", "open", ready[0]["id"])["match"]
        win_game(svc, match, 0)
    svc.clubs.set_public("casino", True)


@pytest.fixture(scope="module")
def served_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('cup') / 'domino.db'}", ACCESS_LOG="0")
    _cup(api)
    with served(api.app) as base:
        yield api, base
    api.service.close()


def leaked(text: str, lang: str) -> list[str]:
    """test_pages_words_browser's codes and the cups' own (formats, kinds, brackets, tie
    states, tie ids) in what people read."""
    codes = (CODES | {*vocab.CUP_FORMATS, *vocab.CUP_ENTRANTS, *vocab.BRACKETS,
                      *vocab.TIE_STATUSES, "W1-1", "L1-1", "F1", "F2"}) - WORDS[lang]
    if lang == "es":
        codes -= {"final"}  # "Gran final": the Spanish word, not the bracket's code
    return [f"{code}: …{text[max(0, hit.start() - 40):hit.end() + 40]}…"
            for code in sorted(codes)
            for hit in re.finditer(r"(?<![\w-])" + re.escape(code) + r"(?![\w'’-])", text)]


def outside_the_bracket(page: Any) -> list[str]:
    """WHOLE's problems but the bracket's box, which scrolls sideways by design; once the
    page's script has laid the ties' table out for the window (cards on a phone)."""
    if page.locator(".table-wrap > table").count():
        page.wait_for_selector(".table-wrap > table.reflow", state="attached")
    return [p for p in page.evaluate(WHOLE) if "bracket-wrap" not in p]


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_the_bracket_at_360_and_on_a_desktop(served_api: tuple[Api, str], browser: Any,
                                             lang: str) -> None:
    api, base = served_api
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    cup = api.service.leagues.cup("casino", "open")
    for width in (360, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900})
        context.add_cookies([{"name": "lang", "value": lang, "url": base}])
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        try:
            page.goto(base + PAGE)
            page.wait_for_selector("svg.bracket")
            assert page.evaluate("document.documentElement.lang") == lang
            boxes = page.locator("svg.bracket g.tie").count()
            assert boxes == len([t for t in cup["ties"] if t["id"] != "F2"])
            wrap = page.evaluate("""() => { const w = document.querySelector('.bracket-wrap');
                return [w.scrollWidth, w.clientWidth, getComputedStyle(w).overflowX]; }""")
            if width == 360:
                assert wrap[0] > wrap[1] and wrap[2] == "auto", wrap  # it scrolls in its box
            problems = outside_the_bracket(page)
            if lang != "en":
                problems += leaked(page.evaluate(TEXTS), lang)
            page.screenshot(path=str(ARTIFACTS / f"cup-{lang}-{width}.png"), full_page=True)
            page.screenshot(path=str(ARTIFACTS / f"cup-{lang}-{width}-top.png"))  # as first seen
        finally:
            context.close()
        assert problems == [], (width, problems)
        assert not errors, errors


def test_the_secretary_creates_and_draws_a_cup_at_the_desk(served_api: tuple[Api, str],
                                                          browser: Any) -> None:
    api, base = served_api
    context = browser.new_context(viewport={"width": 360, "height": 900})
    context.add_cookies([{"name": "lang", "value": "es", "url": base}])
    token = api.tokens["casino", "admin"]
    context.add_init_script(f"sessionStorage.setItem('domino-referee.token', {token!r});")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{base}/clubs/casino/desk/cups")
        page.wait_for_selector("#desk h1")
        form = page.locator("form[data-cup-action=create]")
        form.locator("input[name=name]").fill("Copa de Parejas")
        form.locator("input[name=slug]").fill("parejas")
        form.locator("select[name=kind]").select_option("pairs")
        form.locator("textarea[name=entrants]").fill("Ana + Beto\nDani + Eva\nAna + Fede")
        form.locator("button[type=submit]").click()  # Ana twice: refused, nothing made
        page.wait_for_selector("#desk-status:not(:empty)")
        assert [c["slug"] for c in api.service.leagues.cups("casino")] == ["open"]
        form.locator("textarea[name=entrants]").fill("Ana + Beto\nDani + Eva\nFede + Gabi")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("form[data-cup-action=draw]")
        draw = page.locator("form[data-cup-action=draw]")
        draw.locator("input[name=seed]").fill("7")
        draw.locator("button[type=submit]").click()
        page.wait_for_selector("svg.bracket")
        assert api.service.leagues.cup("casino", "parejas")["seed"] == 7
        problems = outside_the_bracket(page)
        page.screenshot(path=str(ARTIFACTS / "cup-desk-es-360.png"), full_page=True)
    finally:
        context.close()
    assert problems == [], problems
    assert not errors, errors
