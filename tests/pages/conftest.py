"""The browser tests' fixtures: one chromium for each run of browser tests in a row, under
playwright's sync API (browser_helpers.KeptBrowser), and a page of it at desktop size whose
script errors fail the test (helpers: browser_helpers.py and test_pages_browser.py, whose
``pytestmark`` skips a module, saying why, without playwright or chromium)."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from browser_helpers import KEPT, SIZES


class _StopKeptBrowser:
    """Playwright stopped before any test of the run, in any folder, that drives no browser,
    and at the end of the session (a plugin: this folder's conftest hooks see only its tests)."""

    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        if "browser" not in getattr(item, "fixturenames", ()):
            KEPT.close()

    def pytest_sessionfinish(self) -> None:
        KEPT.close()


def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.has_plugin("domino-kept-browser"):
        config.pluginmanager.register(_StopKeptBrowser(), "domino-kept-browser")


@pytest.fixture
def browser() -> Any:
    """Chromium, launched by the first of a run of browser tests (KeptBrowser)."""
    return KEPT.get()


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
