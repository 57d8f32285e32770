"""The cups desk decides a tie without a match in a real browser (Debian's chromium; skipped as
test_pages_browser.py says), in Spanish at 360 px: the secretary picks a ready tie, says it was
conceded by the away player with a reason, and the page shows it in place (the tie decided, the
next one ready, the concession listed); then a walkover refused for a tie with a match already
says why, nothing changed. No horizontal scroll outside the bracket's box.

Screenshot: tests/pages/artifacts/cup-desk-award-es-360.png."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

import pytest
from api_helpers import Api, make_api, served
from browser_helpers import desk_wired
from league_helpers import win_game
from test_cup_pages_browser import outside_the_bracket
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)

NAMES = ["Ana", "Beto", "Carla", "Dani"]


def serving(tmp_path_factory: pytest.TempPathFactory, name: str,
            made: Callable[[Api], None]) -> Iterator[tuple[Api, str]]:
    """A module's served app over a database of its own, ``made`` what it holds."""
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp(name) / 'domino.db'}", ACCESS_LOG="0")
    made(api)
    with served(api.app) as base:
        yield api, base
    api.service.close()


@contextmanager
def secretary(browser: Any, api: Api, base: str, lang: str) -> Iterator[tuple[Any, list[str]]]:
    """A page at 360 px in ``lang`` signed in as the club's admin (the token kept in the tab),
    and the script errors it meets."""
    context = browser.new_context(viewport={"width": 360, "height": 900})
    context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    token = api.tokens["casino", "admin"]
    context.add_init_script(f"sessionStorage.setItem('domino-referee.token', {token!r});")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page, errors
    finally:
        context.close()


def _open_cup(api: Api) -> None:
    api.service.leagues.create_cup("casino", "open", "Copa Abierta", kind="players",
                                   entrants=NAMES, best_of=3)
    api.service.leagues.draw("casino", "open", seeded=4)  # W1-1 Ana-Dani, W1-2 Beto-Carla
    match = api.service.leagues.play_tie("casino", "open", "W1-2")["match"]
    win_game(api.service, match, 0)  # Beto 1-0


@pytest.fixture(scope="module")
def served_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    yield from serving(tmp_path_factory, "award", _open_cup)


def test_the_secretary_concedes_a_tie_at_the_desk(served_api: tuple[Api, str],
                                                  browser: Any) -> None:
    api, base = served_api
    with secretary(browser, api, base, "es") as (page, errors):
        page.goto(f"{base}/clubs/casino/desk/cups/open")
        form = page.locator("form[data-cup-action=award]")
        form.wait_for()
        assert "Decidir una eliminatoria sin partida" in form.inner_text()
        form.locator("select[name=tie]").select_option("W1-2")
        form.locator("select[name=kind]").select_option("walkover")
        form.locator("select[name=by]").select_option("home")
        form.locator("input[name=reason]").fill("llegó tarde")
        form.locator("button[type=submit]").click()  # Beto has a match: no walkover
        page.wait_for_selector("#desk-status:not(:empty)")
        said = page.locator("#desk-status").inner_text()
        assert "no es una incomparecencia" in said, said
        assert api.service.leagues.cup("casino", "open")["champion"] is None
        assert all(not t["awards"] for t in api.service.leagues.cup("casino", "open")["ties"])
        form.locator("select[name=tie]").select_option("W1-1")
        form.locator("select[name=kind]").select_option("concede")
        form.locator("select[name=by]").select_option("away")
        form.locator("input[name=reason]").fill("lesión")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("tr[data-tie=W1-1][data-status=played]")
        # the page shown again in place: what it says is said by its module, once it has run
        desk_wired(page)
        row = page.locator("tr[data-tie=W1-1]").inner_text()
        assert "cedida por Dani (lesión)" in row, row
        assert "Eliminatoria decidida." in page.locator("#desk-status").inner_text()
        ties = {t["id"]: t for t in api.service.leagues.cup("casino", "open")["ties"]}
        assert ties["W1-1"]["winner"] == "Ana" and ties["W1-1"]["awards"][0]["reason"] == "lesión"
        options = page.locator("form[data-cup-action=award] select[name=tie] option")
        assert options.evaluate_all("(o) => o.map((x) => x.value)") == ["W1-2"]
        problems = outside_the_bracket(page)
        page.screenshot(path=str(ARTIFACTS / "cup-desk-award-es-360.png"), full_page=True)
    assert problems == [], problems
    assert not errors, errors
