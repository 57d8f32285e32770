"""The desk's lists read again after each action (desk.js, refresh()) are put in place in the
order the reads were asked: a read answered late never puts back a list older than the one
shown. On a loaded server the 25 s tick's read, asked before an action, can be answered after
the action's own; here the answer to the first of two players' reads is held by the browser's
router until the second's is shown, so the order is the test's, not a race's."""

from __future__ import annotations

import datetime as dt
from typing import Any, Iterator

import pytest
from api_helpers import Api
from browser_helpers import desk_wired
from test_desk_secretary_browser import Lines, desk_server, new_club, sign_in, watched
from test_pages_browser import pytestmark  # noqa: F401 (pytestmark marks the browser tests)

WAIT = 30_000  # ms: a generous bound on each wait for a condition, never a timing assertion
ADD = "form[data-form=player-add]"
NAME_FOCUSED = "() => document.activeElement !== null && document.activeElement.name === 'name'"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str, Lines]]:
    yield from desk_server(tmp_path_factory)


def add(page: Any, name: str) -> None:
    page.locator(f"{ADD} input[name=name]").fill(name)
    page.locator(f"{ADD} button").click()


def test_a_late_answer_does_not_put_back_an_older_list(server: tuple[Api, str, Lines],
                                                       browser: Any) -> None:
    api, base, _ = server
    club = new_club(api, "deskorder")
    slug = club["slug"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = watched(page)
    sign_in(page, base, slug, club["admin"])

    # The first read of the page after this: answered by the server at once (the list with
    # the first player), its answer kept from the page until let go.
    held: list[tuple[Any, Any]] = []
    desk = f"{base}/clubs/{slug}/desk"

    def hold_first(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route(desk, hold_first)
    add(page, "Walter Ybarra")
    for _ in range(WAIT // 50):  # the router's handler runs while playwright is called
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the desk read its players again after the first was added"

    add(page, "Henrietta Oakes")  # its read asked later, answered first: both players shown
    page.wait_for_selector("tr[data-name='Henrietta Oakes']", timeout=WAIT)
    assert page.locator("tr[data-name='Walter Ybarra']").count() == 1
    page.wait_for_function(NAME_FOCUSED, timeout=WAIT)  # the second add is done with
    page.evaluate("() => document.activeElement.blur()")

    # The first read's answer, older than the list shown, comes now; the add's focus back on
    # the name field says it was dealt with (put in place or not).
    route, response = held[0]
    route.fulfill(response=response)
    page.wait_for_function(NAME_FOCUSED, timeout=WAIT)
    page.unroute(desk)
    assert page.locator("tr[data-name='Henrietta Oakes']").count() == 1
    assert page.locator("tr[data-name='Walter Ybarra']").count() == 1
    context.close()
    assert errors == []


# Each read of the desk's own page the desk's script asks for (refresh(): its matches list
# again every 25 s), counted in the page as it is asked, so that a count read after the clock
# has run is exact.
COUNT_READS = """
window.deskReads = 0;
const fetchAsked = window.fetch;
window.fetch = function (url, init) {
  if (url === window.location.pathname) { window.deskReads += 1; }
  return fetchAsked.call(this, url, init);
};
"""


def test_a_page_shown_again_in_place_keeps_no_timer_of_the_last(server: tuple[Api, str, Lines],
                                                                 browser: Any) -> None:
    """client.js's show() writes a page in place of the last (document.open()), which takes the
    old page's listeners away but not its window's timers: the desk's home shown again (as
    reload() shows every desk page after an action) read its matches twice every 25 s, once
    for each time it had been shown."""
    api, base, _ = server
    club = new_club(api, "deskshown")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(COUNT_READS)
    page = context.new_page()
    errors = watched(page)
    page.clock.install()
    page.clock.pause_at(dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=1))
    sign_in(page, base, club["slug"], club["admin"])  # the desk shown in place of its sign-in
    assert page.locator("#matches-list").count() == 1

    page.clock.run_for(25_000)
    assert page.evaluate("window.deskReads") == 1
    for shown in (2, 3):
        page.evaluate("() => import('/static/client.js').then(m => m.reload())")
        page.wait_for_function(
            "n => [...document.scripts].some(s => s.src.endsWith('desk.js?shown=' + n))",
            arg=shown, timeout=WAIT)
        desk_wired(page)
        page.evaluate("window.deskReads = 0")
        page.clock.run_for(25_000)
        assert page.evaluate("window.deskReads") == 1, f"shown {shown} times"
    context.close()
    assert errors == []
