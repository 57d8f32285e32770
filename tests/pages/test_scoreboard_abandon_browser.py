"""The live scoreboard and a match withdrawn (``abandon``), in Chromium: the board showing the
table takes it off when the stream brings its last update, and a board opened afterwards does
not show it."""

from __future__ import annotations

from typing import Any

from api_helpers import Api
from test_pages_browser import browser, pytestmark, sync_api  # noqa: F401 (fixtures)
from test_scoreboard_browser import WAIT_MS, Client, page, server, wait_live  # noqa: F401


def test_a_table_withdrawn_leaves_the_board(server: tuple[Api, str], page: Any) -> None:
    api, base = server
    client = Client(api, base)
    kept, withdrawn = client.new_match(21), client.new_match(22)
    page.goto(f"{base}/clubs/casino/scoreboard")
    wait_live(page)
    page.wait_for_selector(f"#table-{withdrawn}", timeout=WAIT_MS)
    client.record(withdrawn, [{"type": "abandon", "reason": "the wrong player was seated"}], 0)
    page.wait_for_selector(f"#table-{withdrawn}", state="detached", timeout=WAIT_MS)
    assert page.locator(f"#table-{kept}").count() == 1
    page.reload()
    wait_live(page)
    assert page.locator(f"#table-{kept}").count() == 1
    assert page.locator(f"#table-{withdrawn}").count() == 0
