"""The points family's pages in a real browser (Debian's chromium under playwright; skipped as
test_pages_browser.py says), in Spanish at 360 px and on a desktop: the All Fives example's
match page draws each round's layout with the spinner's arms and lists its scoring plays, a
Fives and Threes pairs match's too, and the club's standings; nothing needs a sideways scroll
(browser_helpers.WHOLE), the drawing fits the page and its tiles are the service's.

Screenshots: tests/pages/artifacts/points-{page}-{width}.png (whole pages) and
points-{match}-round-{width}.png (a round: its tiles, drawing and scoring plays)."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import Api, make_api, served
from browser_helpers import WHOLE
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)
from test_pages_points import ALL_FIVES, FIVES_AND_THREES, imported, shipped


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, dict[str, int], str]]:
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('points') / 'domino.db'}")
    ids = {name: imported(api, shipped(path))
           for name, path in (("all-fives", ALL_FIVES), ("fives-and-threes", FIVES_AND_THREES))}
    with served(api.app) as base:
        yield api, ids, base
    api.service.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_the_points_pages_in_spanish(server: tuple[Api, dict[str, int], str], browser: Any,
                                     width: int) -> None:
    api, ids, base = server
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_cookies([{"name": "lang", "value": "es", "url": base}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    found: dict[str, list[str]] = {}
    try:
        for name, match_id in ids.items():
            page.goto(f"{base}/clubs/casino/matches/{match_id}")
            page.wait_for_selector("table.scored")
            assert page.evaluate("document.documentElement.lang") == "es"
            lines = api.service.reading.lines(match_id)
            lines = [line for line in lines if line["spinner"] is not None]  # those drawn
            figures = page.locator("figure.layout")
            assert figures.count() == len(lines)
            for n, line in enumerate(lines):
                figure = figures.nth(n)
                arms = line["arms"] or {"up": [], "down": []}
                assert figure.locator("svg.layout-whole g.domino").count() == (
                    len(line["line"]) + len(arms["up"]) + len(arms["down"]))
                shown = figure.locator("svg:visible")
                assert shown.count() == 1
                box, svg = figure.bounding_box(), shown.bounding_box()
                assert svg["width"] <= box["width"] + 0.5 and svg["height"] > 10
                # drawn at a size to read: on a phone, the tiles at least 3/4 of their size
                scale = svg["width"] / float(shown.get_attribute("viewBox").split()[2])
                if width == 360:
                    assert scale >= 0.75, (name, line["round"], scale)
                if line["arms"]:  # the caption says each arm
                    caption = figure.locator("figcaption").inner_text()
                    assert "brazo de arriba: " in caption and "brazo de abajo: " in caption
            if name == "all-fives":
                assert page.locator("g.domino.spinner").count() >= 1 and lines
            else:  # Fives and Threes has no spinner: its lines are the lists of tiles
                assert not lines
            heading = page.locator("section#round-1 h4").inner_text()
            assert " · " in heading and "+" not in heading  # each side's points in the round
            scored = page.locator("table.scored")
            assert scored.count() >= 1 and "Jugadas que puntúan" in scored.first.inner_text()
            problems = page.evaluate(WHOLE)
            if problems:
                found[name] = problems
            page.screenshot(path=str(ARTIFACTS / f"points-{name}-{width}.png"), full_page=True)
            # the first round whose spinner's arms are open (else the first): its list of tiles,
            # its drawing and its scoring plays, for a look at the size people see them
            shown = next((line["round"] for line in lines if line["arms"]), 1)
            page.locator(f"section#round-{shown}").screenshot(
                path=str(ARTIFACTS / f"points-{name}-round-{width}.png"))
        page.goto(f"{base}/clubs/casino")
        page.wait_for_selector("h1")
        problems = page.evaluate(WHOLE)
        if problems:
            found["club"] = problems
        page.screenshot(path=str(ARTIFACTS / f"points-club-{width}.png"), full_page=True)
    finally:
        context.close()
    assert not found, found
    assert not errors, errors

