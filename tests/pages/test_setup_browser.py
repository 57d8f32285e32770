"""The first club without a terminal, in a real browser (Debian's chromium under playwright,
as test_pages_browser.py drives it), from the link a real `domino serve` prints on a database
with no club to the club desk signed in: the link's page asks for the club's name and
language (looked at in Spanish and Italian at 360 and 1280 px), makes the club, shows the
secretary's token once and opens the desk signed in with it; the code is gone from the address
bar at once; the link opened again makes nothing and says so; axe-core finds no serious or
critical issue; the code is in no line the server wrote but the printed link. Screenshots:
tests/pages/artifacts/setup-*.png."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from browser_helpers import axe_findings
from serve_helpers import answered, serving, wait_for
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)

WAIT = 30_000  # ms: a generous bound on each wait for a condition, never a timing assertion
USED = {"es": "ya se usó", "it": "già stato usato"}


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, list[str]]]:
    """`domino serve` on a new database: the setup link it printed, its code, its lines."""
    folder: Path = tmp_path_factory.mktemp("setup")
    env = {**os.environ, "DOMINO_DATABASE_URL": f"sqlite:///{folder / 'domino.db'}",
           "DOMINO_KEYS_DIR": str(folder / "keys")}
    base, lines, server = serving(env)
    try:
        said = wait_for(lines, "/setup#code=", server)
        link = re.search(r"(http://\S+/setup#code=([A-Za-z0-9_-]+))", said)
        assert link, said
        answered(base + "/setup")
        yield link.group(1), link.group(2), lines
    finally:
        server.terminate()
        server.wait(timeout=10)


def in_language(browser: Any, lang: str, width: int) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 900}, locale=lang)
    return context


def test_from_the_printed_link_to_a_signed_in_desk(printed: tuple[str, str, list[str]],
                                                   browser: Any) -> None:
    link, code, lines = printed
    base = link.split("/setup#", 1)[0]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # The link's page as people see it first (the form only; opening spends nothing).
    for lang in ("es", "it"):
        for width in (360, 1280):
            context = in_language(browser, lang, width)
            context.add_cookies([{"name": "lang", "value": lang, "url": base}])
            try:
                page = context.new_page()
                page.goto(link)
                page.wait_for_selector("form[data-form=setup]:not([hidden])", timeout=WAIT)
                assert "code=" not in page.url  # out of the address bar at once
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                page.screenshot(path=str(ARTIFACTS / f"setup-{lang}-{width}.png"), full_page=True)
            finally:
                context.close()

    context = in_language(browser, "es", 360)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(link)
        form = page.locator("form[data-form=setup]")
        form.wait_for(timeout=WAIT)
        assert axe_findings(page) == []
        assert form.locator("select[name=language]").input_value() == "es"  # the page's
        form.locator("input[name=name]").fill("Peña La Ceiba")
        form.locator("select[name=language]").select_option("it")
        form.locator("button[data-action=setup]").click()
        page.wait_for_selector("[data-made]:not([hidden]) [data-token]", timeout=WAIT)
        token = page.locator("[data-token]").inner_text().strip()
        assert token.startswith("dr_")
        assert axe_findings(page) == []
        page.screenshot(path=str(ARTIFACTS / "setup-made-es-360.png"), full_page=True)
        page.click("a[data-link=desk]")
        page.wait_for_selector("form[data-form=settings]", timeout=WAIT)  # the secretary's desk
        assert page.url == f"{base}/clubs/pena-la-ceiba/desk"
        assert page.locator("form[data-form=settings] input[name=name]").input_value() == "Peña La Ceiba"
        assert page.locator("html").get_attribute("lang") == "it"  # the club's language now
        assert page.evaluate("sessionStorage.getItem('domino-referee.token')") == token
        page.screenshot(path=str(ARTIFACTS / "setup-desk-360.png"), full_page=True)
    finally:
        context.close()
    assert errors == []

    # The same link again, anywhere: it makes nothing, and says why.
    for lang in ("es", "it"):
        again = in_language(browser, lang, 1280)
        try:
            page = again.new_page()
            page.goto(link)
            page.wait_for_function("t => document.getElementById('setup-status').textContent.includes(t)",
                                   arg=USED[lang], timeout=WAIT)
            assert page.locator("form[data-form=setup]").is_hidden()
            page.screenshot(path=str(ARTIFACTS / f"setup-used-{lang}-1280.png"))
        finally:
            again.close()
    assert [line for line in lines if code in line] == [line for line in lines if "/setup#code=" in line]
