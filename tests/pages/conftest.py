"""The browser tests' fixtures: one chromium a module, under playwright's sync API, and a page
of it at desktop size whose script errors fail the test (helpers: browser_helpers.py and
test_pages_browser.py, whose ``pytestmark`` skips a module, saying why, without playwright or
chromium)."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from browser_helpers import CHROMIUM, SIZES


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=CHROMIUM)
        except sync_api.Error as error:  # pragma: no cover - a broken browser install
            pytest.skip(f"chromium at {CHROMIUM} does not start under playwright: {error}")
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": SIZES[1][0], "height": SIZES[1][1]})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda m: errors.append(m.text) if m.type == "error" and "401" not in m.text else None)
    yield opened
    context.close()
    assert not errors, errors  # no script error, no refused script or style (CSP)
