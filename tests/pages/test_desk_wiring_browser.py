"""A desk page written in place of the last (after signing in, after each action: client.js,
show()) has its forms before its module has wired them; a tap then was lost or sent as a plain
form (a captain's confirm went unheard in a whole run, twice). The page's controls stay disabled
until its module has run (desk/frame.html, wired.js). Here the desk's module is held back by the
browser's router, so the moment between is as long as the test wants, not a race."""

from __future__ import annotations

import re
from typing import Any, Iterator

import pytest
from api_helpers import Api
from test_desk_secretary_browser import Lines, desk_server, new_club, watched
from test_pages_browser import pytestmark  # noqa: F401 (pytestmark marks the browser tests)

WAIT = 30_000  # ms: a generous bound on each wait for a condition, never a timing assertion
ADD = "form[data-form=player-add]"
SHOWN = re.compile(r"/static/desk\.js\?shown=")  # the module as a page shown in place asks


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str, Lines]]:
    yield from desk_server(tmp_path_factory)


def test_the_desks_controls_wait_for_its_module(server: tuple[Api, str, Lines], browser: Any) -> None:
    api, base, _ = server
    club = new_club(api, "wiring")
    context = browser.new_context()
    try:
        page = context.new_page()
        errors = watched(page)
        held: list[Any] = []
        def hold(route: Any) -> None:
            held.append(route)

        page.route(SHOWN, hold)
        page.goto(f"{base}/clubs/wiring/desk")
        page.fill("input[name=token]", club["admin"])
        page.click("button[data-action=sign-in]")
        page.wait_for_selector(f"{ADD} button", state="attached", timeout=WAIT)
        for _ in range(WAIT // 50):  # the router's handler runs while playwright is called
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the page shown in place asked for its module"
        # written, not wired: the form's field and button are there and refuse a tap
        assert page.locator(f"{ADD} input[name=name]").is_disabled()
        assert page.locator(f"{ADD} button").is_disabled()

        for route in held:
            route.continue_()
        page.unroute(SHOWN)
        page.locator(f"{ADD} input[name=name]").fill("Wiring Nueva")
        page.locator(f"{ADD} button").click()  # waits for the button to be enabled
        page.wait_for_selector("tr[data-name='Wiring Nueva']", timeout=WAIT)
        assert errors == []
    finally:
        context.close()
