"""Every page whole on a 360-pixel phone, with the long names a Spanish club has (wide_site.py:
"María José Fernández-Gutiérrez & Inmaculada Concepción Santamaría"), in English, Spanish and
Italian, in a real browser (Debian's chromium under playwright; skipped as
test_pages_browser.py says): the club's pages, a match's (its Totals row a row a side, each
number beside its label), the acta and the dispute sheets, the tournament and both
scoreboards, every desk page and the phone's two screens. On each, at 360 and at 1280 px,
nothing needs a sideways scroll: the page is no wider than the window, no box scrolls sideways
or cuts what it holds, no text runs past the window (browser_helpers.WHOLE); every control and
menu link is 44 px or more each way (browser_helpers.SMALL_TARGETS), and no link stands
against a button (browser_helpers.CRAMPED).

Screenshots: tests/pages/artifacts/p360-{lang}-{page}-{width}.png."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import served
from browser_helpers import CRAMPED, SMALL_TARGETS, WHOLE
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)
from test_pages_words_browser import club_pages, context_for, desk_pages, drawn
from wide_site import build_wide_site
from words_site import CLUB, TOURNAMENT, WordsSite


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[WordsSite, str]]:
    site = build_wide_site(f"sqlite:///{tmp_path_factory.mktemp('wide') / 'domino.db'}")
    with served(site.app) as base:
        yield site, base
    site.service.close()


def every_page(site: WordsSite) -> list[tuple[str, str, str]]:
    """(name, path, what shows when the page is drawn) of every page people read."""
    drawn = "h1"
    pages = [(name, path, drawn) for name, path in club_pages(site)]
    pages += [(name, path, "h1") for name, path in desk_pages()]
    pages += [("tournament-scoreboard", f"/clubs/{CLUB}/tournaments/{TOURNAMENT}/scoreboard", drawn),
              ("phone-start", "/score", "#club:not([hidden]) #live li"),
              ("phone-match", f"/score/matches/{site.matches['live']}", "#state[aria-busy=false] #disputes")]
    return pages


def shown(page: Any, path: str, ready: str) -> None:
    """Wait until the page is as people see it (test_pages_words_browser.drawn) and shows
    ``ready``."""
    page.wait_for_selector(ready)
    drawn(page, path)


# A language at one width a test, not at both (as the sweep, test_sweep_browser.py): shorter
# tests, which xdist shares more evenly between its workers.
@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_every_page_is_whole_without_a_sideways_scroll(server: tuple[WordsSite, str], browser: Any,
                                                      lang: str, width: int) -> None:
    site, base = server
    found: dict[str, list[str]] = {}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = context_for(browser, base, site, lang, width)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        for name, path, ready in every_page(site):
            page.goto(base + path)
            shown(page, path, ready)
            assert page.evaluate("document.documentElement.lang") == lang, path
            problems = page.evaluate(WHOLE) + [f"cramped: {p}" for p in page.evaluate(CRAMPED)]
            problems += [f"small to tap: {p}" for p in page.evaluate(SMALL_TARGETS)]
            if problems:
                found[f"{name} at {width} px"] = problems
            page.screenshot(path=str(ARTIFACTS / f"p360-{lang}-{name}-{width}.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors
    assert found == {}, "\n".join(f"{where}: {p}" for where, problems in found.items() for p in problems)


def test_a_matchs_totals_are_a_row_a_side_each_number_in_sight(server: tuple[WordsSite, str],
                                                               browser: Any) -> None:
    """The Totals of the rounds' table: a row a side (its name, then its points, labelled),
    not one line of every side's name and number that a phone scrolls sideways to read."""
    site, base = server
    context = context_for(browser, base, site, "es", 360)
    page = context.new_page()
    try:
        page.goto(f"{base}/clubs/{CLUB}/matches/{site.matches['finished']}")
        page.wait_for_selector("table.rounds.reflow.cards")
        rows = page.locator("table.rounds tfoot tr")
        sides = site.service.reading.get_match(site.matches["finished"])
        assert rows.count() == len(sides["totals"])
        for i, total in enumerate(sides["totals"]):
            row = rows.nth(i)
            assert row.locator("th").inner_text().startswith("Total: ")
            number = row.locator("td.num")
            assert number.inner_text() == str(total) and number.get_attribute("data-label") == "Puntos"
            box = number.bounding_box()
            assert box and 0 <= box["x"] and box["x"] + box["width"] <= 360
        wrap = page.locator("table.rounds").locator("xpath=..")
        assert wrap.evaluate("w => w.scrollWidth <= w.clientWidth")
    finally:
        context.close()
