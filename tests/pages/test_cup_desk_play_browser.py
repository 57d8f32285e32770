"""The cups desk starts a tie's match in a real browser (Debian's chromium; skipped as
test_pages_browser.py says), in Italian at 360 px: the secretary picks a players' cup's ready
tie and starts its match; the page says which match to score and no longer offers that tie;
once the match is won (the phone's part, tested in test_score_browser.py) the bracket has the
winner through.

Screenshot: tests/pages/artifacts/cup-desk-play-it-360.png."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import Api
from league_helpers import win_game
from test_cup_desk_awards_browser import secretary, serving
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)

NAMES = ["Ana", "Beto", "Carla", "Dani"]


def _drawn(api: Api) -> None:
    api.service.leagues.create_cup("casino", "open", "Coppa", kind="players", entrants=NAMES)
    api.service.leagues.draw("casino", "open", seeded=4)  # W1-1 Ana-Dani, W1-2 Beto-Carla


@pytest.fixture(scope="module")
def served_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    yield from serving(tmp_path_factory, "play", _drawn)


def test_the_secretary_starts_a_ties_match_at_the_desk(served_api: tuple[Api, str],
                                                       browser: Any) -> None:
    api, base = served_api
    with secretary(browser, api, base, "it") as (page, errors):
        page.goto(f"{base}/clubs/casino/desk/cups/open")
        form = page.locator("form[data-cup-action=play]")
        form.wait_for()
        assert "Iniziare la partita di una sfida" in form.inner_text()
        form.locator("select[name=tie]").select_option("W1-1")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("#desk-status:not(:empty)")
        said = page.locator("#desk-status").inner_text()
        match = api.service.leagues.cup("casino", "open")["ties"][0]["matches"][0]["match"]
        assert f"Partita {match} iniziata" in said, said
        options = page.locator("form[data-cup-action=play] select[name=tie] option")
        assert options.evaluate_all("(o) => o.map((x) => x.value)") == ["W1-2"]
        win_game(api.service, match, 0)
        page.reload()
        page.wait_for_selector("tr[data-tie=W1-1][data-status=played]")
        assert "Ana" in page.locator("g[data-tie=W2-1]").text_content()
        page.screenshot(path=str(ARTIFACTS / "cup-desk-play-it-360.png"), full_page=True)
    assert not errors, errors
