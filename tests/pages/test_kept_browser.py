"""The browser tests' chromium (browser_helpers.KeptBrowser) is stopped before a test that drives
none: in the README's run this file follows test_docs_browser.py, so a browser kept past its
run would be found here, and ``asyncio.run`` (as tests/api/test_api_asgi.py calls it) would
refuse to start."""

from __future__ import annotations

import asyncio

from browser_helpers import KEPT


def test_no_browser_runs_during_a_test_that_drives_none() -> None:
    assert KEPT._browser is None and KEPT._playwright is None
    assert asyncio.run(asyncio.sleep(0, "ran")) == "ran"
