"""A desk page written in place of the last (after signing in, after each action: client.js,
show()) has its forms before its module has wired them; a tap then was lost or sent as a plain
form (a captain's confirm went unheard in a whole run, twice). The page's controls stay disabled
until its module has run (desk/frame.html, wired.js); its links take no tap either (inert), for
a captain's game opened before desk_league.js had wired its link went to the phone's page
without the captain's token; and the footer's Sign out, outside the frame's fieldset, waits for
pages.js. Here a module is held back by the browser's router, so the moment between is as long
as the test wants, not a race."""

from __future__ import annotations

import re
from typing import Any, Iterator

import pytest
from api_helpers import Api
from browser_helpers import desk_wired
from league_helpers import fixture_id, set_up
from test_desk_secretary_browser import Lines, desk_server, new_club, watched
from test_pages_browser import pytestmark  # noqa: F401 (pytestmark marks the browser tests)

WAIT = 30_000  # ms: a generous bound on each wait for a condition, never a timing assertion
ADD = "form[data-form=player-add]"
SHOWN = re.compile(r"/static/desk\.js\?shown=")  # the module as a page shown in place asks
LEAGUE_SHOWN = re.compile(r"/static/desk_league\.js\?shown=")
PAGES_SHOWN = re.compile(r"/static/pages\.js\?shown=")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str, Lines]]:
    yield from desk_server(tmp_path_factory)


@pytest.fixture
def tab(browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """A page in a context of its own, and the script errors it meets."""
    context = browser.new_context()
    try:
        page = context.new_page()
        yield page, watched(page)
    finally:
        context.close()


def signed_in_held(page: Any, url: str, token: str, pattern: re.Pattern[str]) -> list[Any]:
    """The desk page at ``url`` signed in with ``token``, shown in place, the module at
    ``pattern`` held back by the router until continued: the requests held."""
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    page.route(pattern, hold)
    page.goto(url)
    page.fill("input[name=token]", token)
    page.click("button[data-action=sign-in]")
    return held


def wait_held(page: Any, held: list[Any]) -> None:
    for _ in range(WAIT // 50):  # the router's handler runs while playwright is called
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page shown in place asked for its module"


def let_go(page: Any, held: list[Any], pattern: re.Pattern[str]) -> None:
    for route in held:
        route.continue_()
    page.unroute(pattern)


def test_the_desks_controls_wait_for_its_module(server: tuple[Api, str, Lines],
                                                tab: tuple[Any, list[str]]) -> None:
    api, base, _ = server
    club = new_club(api, "wiring")
    page, errors = tab
    held = signed_in_held(page, f"{base}/clubs/wiring/desk", club["admin"], SHOWN)
    page.wait_for_selector(f"{ADD} button", state="attached", timeout=WAIT)
    wait_held(page, held)
    # written, not wired: the form's field and button are there and refuse a tap
    assert page.locator(f"{ADD} input[name=name]").is_disabled()
    assert page.locator(f"{ADD} button").is_disabled()

    let_go(page, held, SHOWN)
    page.locator(f"{ADD} input[name=name]").fill("Wiring Nueva")
    page.locator(f"{ADD} button").click()  # waits for the button to be enabled
    page.wait_for_selector("tr[data-name='Wiring Nueva']", timeout=WAIT)
    assert errors == []


def test_a_captains_game_link_waits_for_its_module(server: tuple[Api, str, Lines],
                                                  tab: tuple[Any, list[str]]) -> None:
    """The link to a leg's game in play hands the captain's token to the phone's page on its
    click (desk_league.js): before that module has run, a tap on it takes nothing."""
    api, base, _ = server
    slug = new_club(api, "wiring-captain")["slug"]
    set_up(api.service, slug)
    captain = api.service.leagues.captain(slug, "2027", "anchor")
    fixture = fixture_id(api.service, slug, "anchor", "crown")
    api.service.leagues.record_leg(slug, "2027", fixture, 1, home=["Dani"], away=["Ana"])
    page, errors = tab
    held = signed_in_held(page, f"{base}/clubs/{slug}/desk/seasons/2027/captain", captain, LEAGUE_SHOWN)
    link = page.locator("a[data-score-link]")
    link.wait_for(state="attached", timeout=WAIT)
    wait_held(page, held)
    # written, not wired: a tap where the link is shown reaches no link, and it takes no focus
    hit = link.evaluate("""a => {
      a.scrollIntoView({block: "center"});
      const box = a.getBoundingClientRect();
      const there = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return there === null ? "nothing" : there.closest("a[data-score-link]") ? "the link" : "not the link";
    }""")
    assert hit == "not the link"
    link.evaluate("a => a.focus()")
    assert page.evaluate("document.activeElement.matches('a[data-score-link]')") is False

    let_go(page, held, LEAGUE_SHOWN)
    desk_wired(page)
    link.click()
    page.wait_for_url(f"{base}/score/matches/*", timeout=WAIT)
    page.wait_for_selector("#who:has-text('Anchor')", timeout=WAIT)  # signed in as captain
    assert errors == []


def test_sign_out_waits_for_its_module(server: tuple[Api, str, Lines],
                                       tab: tuple[Any, list[str]]) -> None:
    """The footer's Sign out (outside the desk's fieldset) is disabled until pages.js has
    wired it, then forgets the token."""
    api, base, _ = server
    club = new_club(api, "wiring-out")
    page, errors = tab
    held = signed_in_held(page, f"{base}/clubs/wiring-out/desk", club["admin"], PAGES_SHOWN)
    out = page.locator("[data-sign-out]")
    out.wait_for(state="attached", timeout=WAIT)
    wait_held(page, held)
    assert out.is_disabled()  # written, not wired

    let_go(page, held, PAGES_SHOWN)
    out.click()  # waits for the button to be enabled
    page.wait_for_selector("form#sign-in input[name=token]", timeout=WAIT)
    assert page.evaluate("sessionStorage.getItem('domino-referee.token')") is None
    assert errors == []
