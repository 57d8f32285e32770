"""The live scoreboard in a real browser: Debian's chromium driven by playwright, against the app
under waitress (test_pages_browser's fixtures and checks; skipped, saying why, where playwright
or chromium is missing).

While the page is open the test appends events through the API, as another client: a table's
score changes on the page without a reload, a table created meanwhile appears in its place,
the indicator says live, then reconnecting while the network is cut, and the appends made
meanwhile arrive once it is back (the stream resumed with Last-Event-ID). A private club's board
is read after signing in, the token sent as a header, never in an address. No hand ever shows.
Screenshots at 360x800 and 1280x900 go to tests/pages/artifacts/.
"""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any, Iterator

import pytest
from api_helpers import Api, make_api, served
from test_pages_browser import ARTIFACTS, CHROMIUM, CONTRAST, pytestmark, sync_api  # noqa: F401 (pytestmark marks the browser tests)

from api.scoreboard import EXTENSION as SCOREBOARD

WAIT_MS = 15_000  # what a step may wait for the page (updates come in well under a second)
SMALL = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none", "target": 5}
HANDS = [["6-6", "6-5", "5-5"], ["6-4", "4-3", "2-1"]]
# Seat 0 goes out at event 6; seat 1 still holds the 2-1: 3 points to Ana.
ROUND = [{"type": "deal", "hands": HANDS}, {"type": "play", "seat": 0, "tile": "6-6"},
         {"type": "play", "seat": 1, "tile": "6-4"}, {"type": "play", "seat": 0, "tile": "6-5"},
         {"type": "play", "seat": 1, "tile": "4-3"}, {"type": "play", "seat": 0, "tile": "5-5"}]
FAST = {"SCOREBOARD_HEARTBEAT_SECONDS": 0.5, "SCOREBOARD_POLL_SECONDS": 0.1, "ACCESS_LOG": "0"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    yield from board_server(tmp_path_factory)


def board_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    """The app served on a database of its own (this module's ``server``, and
    test_scoreboard_abandon_browser.py's)."""
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('board') / 'domino.db'}", **FAST)
    api.service.clubs.set_public("casino", True)
    with served(api.app) as base:
        yield api, base
        # The pages are closed: let their streams end (each finds its client gone at its next
        # heartbeat) before the server stops under them.
        board = api.app.extensions.get(SCOREBOARD)
        for _ in range(100):
            if board is None or not board.hub.subscribed:
                break
            time.sleep(0.05)
    api.service.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    yield from board_page(browser)


def board_page(browser: Any) -> Iterator[Any]:
    """A page at 1280x900 whose script errors fail the test (this module's ``page``, and
    test_scoreboard_abandon_browser.py's)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    urls: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda m: errors.append(m.text) if m.type == "error"
              and "401" not in m.text and "ERR_INTERNET_DISCONNECTED" not in m.text else None)
    opened.on("request", lambda r: urls.append(r.url))
    opened.urls = urls
    yield opened
    context.close()
    assert not errors, errors  # no script error, no refused script or style (CSP)


class Client:
    """Another client of the API: plain HTTP requests with a scorekeeper's token."""

    def __init__(self, api: Api, base: str, club: str = "casino") -> None:
        self.base, self.headers = base, {**api.auth("scorekeeper", club),
                                         "Content-Type": "application/json"}
        self.club = club

    def _post(self, path: str, body: Any, **headers: str) -> Any:
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(),
                                         method="POST", headers={**self.headers, **headers})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 201
            return json.loads(response.read())

    def new_match(self, table: Any) -> int:
        return self._post(f"/api/v1/clubs/{self.club}/matches",
                          {"rules": SMALL, "players": ["Ana", "Beto"], "table": str(table)})["id"]

    def record(self, match_id: int, events: list[dict[str, Any]], after: int) -> int:
        for seq, event in enumerate(events, start=after):
            self._post(f"/api/v1/matches/{match_id}/events", event, **{"If-Match": f'"{seq}"'})
        return after + len(events)


def totals(page: Any, match_id: int) -> list[str]:
    return page.locator(f"#table-{match_id} .board-total").all_text_contents()


def wait_live(page: Any) -> None:
    page.wait_for_selector('#live-state[data-state="live"]', timeout=WAIT_MS)


def wait_totals(page: Any, match_id: int, expected: list[str]) -> None:
    page.wait_for_function(
        """([id, want]) => Array.from(document.querySelectorAll('#table-' + id + ' .board-total'))
             .map(e => e.textContent).join(',') === want.join(',')""",
        arg=[match_id, expected], timeout=WAIT_MS)


def no_hand_shows(page: Any) -> None:
    text = page.locator("#board").inner_text()
    assert [t for t in ("6-5", "5-5", "4-3", "2-1") if t in text] == []


def shots(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((360, 800), (1280, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}x{height}.png"), full_page=True)
        # nothing wider than the window: no sideways scrolling on a phone
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.set_viewport_size({"width": 1280, "height": 900})


def opened(server: tuple[Api, str], page: Any, table: int,
           played: int) -> tuple[Client, int, int]:
    """A casino table with the first ``played`` events of ROUND recorded, and its board open
    and live: the client, the match and its last seq."""
    api, base = server
    client = Client(api, base)
    match_id = client.new_match(table)
    seq = client.record(match_id, ROUND[:played], 0)
    page.goto(f"{base}/clubs/casino/scoreboard")
    wait_live(page)
    return client, match_id, seq


def test_the_board_follows_appends_from_another_client(server: tuple[Api, str], page: Any) -> None:
    client, table3, seq = opened(server, page, 3, played=2)
    assert totals(page, table3) == ["0", "0"]
    assert page.locator(f"#table-{table3} h2").text_content() == "Table 3"

    seq = client.record(table3, ROUND[2:], seq)  # Ana goes out: 3 points
    wait_totals(page, table3, ["3", "0"])
    assert page.locator(f"#table-{table3}").get_attribute("data-seq") == str(seq)
    assert page.locator(f"#table-{table3} .board-detail").text_content() == "Round 1 over"

    table1 = client.new_match(1)
    client.record(table1, ROUND[:1], 0)
    page.wait_for_selector(f"#table-{table1}", timeout=WAIT_MS)
    order = page.eval_on_selector_all("#board > li", "cards => cards.map(c => c.id)")
    assert order.index(f"table-{table1}") < order.index(f"table-{table3}")  # table order
    no_hand_shows(page)
    shots(page, "scoreboard")


def test_the_board_reconnects_and_resumes(server: tuple[Api, str], page: Any) -> None:
    client, table, seq = opened(server, page, 9, played=1)
    page.context.set_offline(True)
    page.wait_for_selector('#live-state[data-state="reconnecting"]', timeout=WAIT_MS)
    assert "reconnecting" in page.locator("#live-state").text_content().lower()
    shots(page, "scoreboard-reconnecting")
    client.record(table, ROUND[1:], seq)  # while the page cannot hear
    page.context.set_offline(False)
    wait_live(page)
    wait_totals(page, table, ["3", "0"])
    resumed = [u for u in page.urls if u.endswith("/scoreboard/stream")]
    assert len(resumed) >= 2  # the stream was opened again (with its Last-Event-ID)


def test_a_private_clubs_board_after_signing_in(server: tuple[Api, str], page: Any) -> None:
    api, base = server
    client = Client(api, base, club="other")
    table = client.new_match(2)
    seq = client.record(table, ROUND[:1], 0)
    page.goto(f"{base}/clubs/other/scoreboard")
    page.get_by_label("Token").fill(api.tokens["other", "viewer"])
    page.get_by_role("button", name="Sign in").click()
    wait_live(page)
    client.record(table, ROUND[1:], seq)
    wait_totals(page, table, ["3", "0"])
    token = api.tokens["other", "viewer"]
    assert [u for u in page.urls if token in u] == []  # never in an address
    no_hand_shows(page)
