"""The phone's page polls its match (api/static/score/match.js, every 4 s unless the tests say
otherwise) while another client records. On a slow network a poll's answer can come after the
screen a tap's 412 read again: the older screen must not be drawn back over the newer (the
table would go back an event, and the next tap meet a 412 again). Nor is the match polled again
while a poll is out (requests piled up behind a slow one). Here the browser's router holds a
poll's answer, so the order is the test's, not a race's."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import Api
from test_pages_browser import pytestmark  # noqa: F401 (pytestmark marks the browser tests)
from test_score_browser import Phone, phone_server

DEAL = {"type": "deal"}  # a closed deal: the tap of a match not dealt yet
WAIT = 30_000  # ms: a generous bound on each wait for a condition, never a timing assertion
POLL_MS = 200  # the page's poll, short so that the test does not wait for 4 s ones
# Every seq #state is drawn at, in order (drawTable sets data-seq at each draw).
DRAWN = """() => {
  window.drawnSeqs = [];
  new MutationObserver(() => window.drawnSeqs.push(
      Number(document.getElementById('state').getAttribute('data-seq'))))
    .observe(document.getElementById('state'), {attributes: true, attributeFilter: ['data-seq']});
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    yield from phone_server(tmp_path_factory)


def note(api: Api, match_id: int, text: str) -> int:
    return api.service.recording.record_event(match_id, {"type": "note", "text": text},
                                              expected_seq=None).seq


def seq_shown(page: Any, seq: int) -> None:
    page.wait_for_selector(f"#state[data-seq='{seq}']", state="attached", timeout=WAIT)


def test_a_polls_late_answer_does_not_draw_an_older_screen(server: tuple[Api, str],
                                                           browser: Any) -> None:
    api, base = server
    match_id = api.service.recording.create_match("casino", "parejas", ["Ana", "Beto", "Carla", "Dani"],
                                                  table="4")["id"]
    phone = Phone(browser, base, api.tokens["casino", "scorekeeper"], poll_ms=POLL_MS)
    page = phone.page
    path = f"/api/v1/matches/{match_id}"
    held: list[tuple[Any, Any]] = []

    def hold_a_change(route: Any) -> None:
        """The first poll answered with a new screen: its answer kept from the page."""
        response = route.fetch()
        if not held and response.status == 200:
            held.append((route, response))
        else:
            route.fulfill(response=response)

    try:
        phone.open(match_id)
        shown = phone.seq
        page.evaluate(DRAWN)
        page.route(f"{base}{path}", hold_a_change)
        first = note(api, match_id, "first")
        for _ in range(WAIT // 50):  # the router's handler runs while playwright is called
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the page polled its match"

        # Another phone records; this one's tap meets the 412 and reads the match again: the
        # screen after the second note, drawn while the poll is still out.
        second = note(api, match_id, "second")
        phone.button(DEAL).click()
        seq_shown(page, second)

        route, response = held[0]
        with page.expect_event("requestfinished", lambda r: r.url.endswith(path), timeout=WAIT):
            route.fulfill(response=response)  # the first poll's answer, late
        third = note(api, match_id, "third")  # the next poll's answer, drawn after it
        seq_shown(page, third)
        page.unroute(f"{base}{path}")
        drawn = page.evaluate("() => window.drawnSeqs")
        assert shown < first < second < third
        assert drawn == sorted(drawn) and drawn[-1] == third, drawn
        assert phone.errors == []
    finally:
        phone.close()


def test_a_poll_is_not_asked_again_while_one_is_out(server: tuple[Api, str], browser: Any) -> None:
    """A poll slower than the poll's period (its answer held at the router): the page's clock
    run on by ten periods asks nothing more; once it is answered, the polls go on."""
    api, base = server
    match_id = api.service.recording.create_match("casino", "parejas", ["Ana", "Beto", "Carla", "Dani"],
                                                  table="5")["id"]
    phone = Phone(browser, base, api.tokens["casino", "scorekeeper"], poll_ms=1_000)
    page = phone.page
    path = f"/api/v1/matches/{match_id}"
    held: list[Any] = []
    try:
        page.clock.install()
        phone.open(match_id)
        page.route(f"{base}{path}", lambda route: held.append(route))
        page.clock.run_for(1_000)
        for _ in range(WAIT // 50):  # the router's handler runs while playwright is called
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the page polled its match"
        page.clock.run_for(10_000)
        page.evaluate("() => new Promise(done => setTimeout(done, 0))")  # the timers' calls made
        assert len(held) == 1
        held[0].continue_()
        page.unroute(f"{base}{path}")
        seq = note(api, match_id, "after")
        page.clock.run_for(2_000)
        seq_shown(page, seq)
        assert phone.errors == []
    finally:
        phone.close()
