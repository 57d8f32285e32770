"""Every desk page signs in one way, in a real browser (Debian's chromium under playwright, as
test_pages_browser.py drives it): on a public club and on a private one, each desk page
opened without a token is the sign-in page (a token typed there opens that page); then, in
one tab, every desk page opens at once with the token kept there. No desk page offers itself
to be shared ("Anyone can open it: no token is needed"), public club or not. Before, a public
club's disputes desk answered "Not allowed" with no sign-in, even with the token in the tab.
Screenshots of the home and the disputes desk, in Spanish and Italian at 360 and 1280 px, go
to tests/pages/artifacts/desk-signin-*.png."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import make_api, served
from desk_disputes_site import passed_holding_a_five
from test_desk_signin import EIGHT, desk_pages
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)

WAIT = 30_000  # ms: a generous bound on each wait for a condition, never a timing assertion
SHARED = "no token is needed"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    """casino (public) and other (private), each with an open dispute and a tournament."""
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('desk') / 'domino.db'}", ACCESS_LOG="0")
    api.service.clubs.set_public("casino", True)
    for club in ("casino", "other"):
        passed_holding_a_five(api, club=club)
        api.service.tournaments.create(club, "noche", "Noche", rules={"preset": "parejas"},
                                       format="rotating", rounds=3, entrants=EIGHT)
        api.service.tournaments.pair(club, "noche")
    with served(api.app) as base:
        yield api, base
    api.service.close()


def watched(context: Any, errors: list[str]) -> Any:
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    # the sign-in page's own 401 is the answer expected; anything else logged is a fault
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and "401" not in m.text else None)
    return page


def signed_in(page: Any) -> None:
    """The page shown is the desk's, read with the token (its Sign out), not the sign-in."""
    page.wait_for_selector("[data-sign-out]", timeout=WAIT)
    assert page.locator("input[name=token]").count() == 0
    assert SHARED not in page.content()


@pytest.mark.parametrize("club", ["casino", "other"], ids=["public", "private"])
def test_each_desk_page_asks_for_a_token_then_opens(server: tuple[Any, str], browser: Any,
                                                    club: str) -> None:
    api, base = server
    token = api.tokens[club, "referee"]
    errors: list[str] = []
    for path in desk_pages(club):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = watched(context, errors)
            page.goto(base + path)
            page.wait_for_selector("input[name=token]", timeout=WAIT)
            assert SHARED not in page.content(), path
            page.fill("input[name=token]", token)
            page.click("button[data-action=sign-in]")
            signed_in(page)
            assert token not in page.url and page.url == base + path
        finally:
            context.close()

    # One tab signed in once: every desk page opens at once with the token kept in it.
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = watched(context, errors)
        page.goto(base + desk_pages(club)[0])
        page.fill("input[name=token]", token)
        page.click("button[data-action=sign-in]")
        signed_in(page)
        for path in desk_pages(club)[1:]:
            page.goto(base + path)
            signed_in(page)
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_desk_pages_in_spanish_and_italian(server: tuple[Any, str], browser: Any,
                                               lang: str) -> None:
    """The public club's desk home and disputes desk, signed in, at 360 and 1280 px: the
    screenshots are looked at; they fit a phone's width."""
    api, base = server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width in (360, 1280):
        context = browser.new_context(viewport={"width": width, "height": 800}, locale=lang)
        context.add_cookies([{"name": "lang", "value": lang, "url": base}])
        try:
            page = context.new_page()
            page.goto(base + "/clubs/casino/desk/disputes")
            page.wait_for_selector(f"html[lang={lang}] input[name=token]", timeout=WAIT)
            page.screenshot(path=str(ARTIFACTS / f"desk-signin-{lang}-{width}.png"))
            page.fill("input[name=token]", api.tokens["casino", "referee"])
            page.click("button[data-action=sign-in]")
            signed_in(page)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(ARTIFACTS / f"desk-signin-disputes-{lang}-{width}.png"),
                            full_page=True)
            page.goto(base + "/clubs/casino/desk")
            signed_in(page)
            page.screenshot(path=str(ARTIFACTS / f"desk-signin-home-{lang}-{width}.png"),
                            full_page=True)
        finally:
            context.close()
