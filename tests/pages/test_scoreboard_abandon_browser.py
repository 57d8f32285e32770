"""The live scoreboard and a match withdrawn (``abandon``), in Chromium: the board showing the
table takes it off when the stream brings its last update, and a board opened afterwards does
not show it."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import Api
from test_pages_browser import pytestmark  # noqa: F401 (pytestmark marks the browser tests)
from test_scoreboard_browser import WAIT_MS, Client, board_page, board_server, wait_live


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    yield from board_server(tmp_path_factory)


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    yield from board_page(browser)


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
