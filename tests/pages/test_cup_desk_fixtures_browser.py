"""A team cup's tie made a fixture at the cups desk in a real browser (Debian's chromium;
skipped as test_pages_browser.py says), in Italian at 360 px: the secretary picks the ready tie
and a date outside the season (refused in words, nothing made), then inside it; the page shows
the fixture in place, listed under the ties played as fixtures with a link to the league desk,
and the form offers the other tie only, on the round's date (the first fixture's). No horizontal scroll outside the bracket's box.

Screenshot: tests/pages/artifacts/cup-desk-fixture-it-360.png."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import Api
from browser_helpers import desk_wired
from league_helpers import set_up
from test_cup_desk_awards_browser import secretary, serving
from test_cup_pages_browser import outside_the_bracket
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)


def _team_cup(api: Api) -> None:
    set_up(api.service, "casino")
    api.service.leagues.create_cup("casino", "ko", "Coppa", season="2027",
                                   entrants=["crown", "anchor", "bell", "swan"])
    api.service.leagues.draw("casino", "ko", seeded=4)  # crown v swan, anchor v bell


@pytest.fixture(scope="module")
def served_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    yield from serving(tmp_path_factory, "fixture", _team_cup)


def test_the_secretary_makes_a_ties_fixture_at_the_desk(served_api: tuple[Api, str],
                                                        browser: Any) -> None:
    api, base = served_api
    with secretary(browser, api, base, "it") as (page, errors):
        page.goto(f"{base}/clubs/casino/desk/cups/ko")
        form = page.locator("form[data-cup-action=fixture]")
        form.wait_for()
        assert "Creare l'incontro di una sfida" in form.inner_text()
        form.locator("select[name=tie]").select_option("W1-2")
        form.locator("input[name=on]").fill("2026-12-01")  # before the season
        form.locator("button[type=submit]").click()
        page.wait_for_selector("#desk-status:not(:empty)")
        said = page.locator("#desk-status").inner_text()
        assert "2026-12-01" in said and "prima" in said, said
        assert all(t["fixture"] is None for t in api.service.leagues.cup("casino", "ko")["ties"])
        form.locator("select[name=tie]").select_option("W1-2")
        form.locator("input[name=on]").fill("2027-03-04")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("li[data-tie-fixture=W1-2]")
        # the page shown again in place: what it says is said by its module, once it has run
        desk_wired(page)
        listed = page.locator("li[data-tie-fixture=W1-2]").inner_text()
        assert "incontro" in listed and "Anchor 0–0 Bell" in listed, listed
        assert "Incontro creato." in page.locator("#desk-status").inner_text()
        made = next(t for t in api.service.leagues.cup("casino", "ko")["ties"]
                    if t["id"] == "W1-2")["fixture"]
        assert (made["home"], made["away"], made["date"]) == ("anchor", "bell", "2027-03-04")
        options = page.locator("form[data-cup-action=fixture] select[name=tie] option")
        assert options.evaluate_all("(o) => o.map((x) => x.value)") == ["W1-1"]
        # the round's other tie: its date the one its round's fixture was made for
        assert page.locator("form[data-cup-action=fixture] input[name=on]").input_value() \
            == "2027-03-04"
        href = page.locator("li[data-tie-fixture=W1-2] a").get_attribute("href")
        assert href == "/clubs/casino/desk/seasons/2027#cup-ties"
        problems = outside_the_bracket(page)
        page.screenshot(path=str(ARTIFACTS / "cup-desk-fixture-it-360.png"), full_page=True)
    assert problems == [], problems
    assert not errors, errors
