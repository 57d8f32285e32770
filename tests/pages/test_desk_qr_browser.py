"""A referee's phone signed into the club desk by a QR code, in a real browser (Debian's
chromium under playwright, as test_pages_browser.py drives it), in Spanish at 360 px and in
Italian at 1280 px: the secretary issues a referee's token at the desk, whose caption says the
code opens this desk; the QR code, read back from a screenshot with zbarimg, holds the desk's
address with the one-time code in its fragment; a "phone" opening it lands on the desk signed
in as the referee (the token kept in its tab, the code gone from the address bar); a second
scan signs nobody in and says why; the code is in no log line. Before, every QR code opened
/score, and a referee's phone never reached the desk. Screenshots go to
tests/pages/artifacts/desk-qr-*.png."""

from __future__ import annotations

import shutil
from typing import Any, Iterator

import pytest
from api_helpers import Api
from test_desk_secretary_browser import Lines, decode_qr, desk_server, new_club, watched
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)

WAIT = 30_000  # ms: a generous bound on each wait for a condition, never a timing assertion
USED = {"es": "ya se usó", "it": "già stato usato"}  # the exchange's refusal, as each says it


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str, Lines]]:
    yield from desk_server(tmp_path_factory)


def in_language(browser: Any, base: str, lang: str, width: int) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 900}, locale=lang)
    context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    return context


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="no zbarimg: apt-get install zbar-tools")
@pytest.mark.parametrize("lang,width", [("es", 360), ("it", 1280)])
def test_a_referees_qr_code_signs_a_phone_into_the_desk(server: tuple[Api, Any, Any],
                                                        browser: Any, lang: str,
                                                        width: int) -> None:
    api, base, log = server
    club = new_club(api, f"qr-{lang}")
    slug = club["slug"]
    desk = in_language(browser, base, lang, width)
    try:
        page = desk.new_page()
        errors = watched(page)
        page.goto(f"{base}/clubs/{slug}/desk")
        page.fill("input[name=token]", club["admin"])
        page.click("button[data-action=sign-in]")
        page.wait_for_selector("form[data-form=token-issue]", timeout=WAIT)
        issue = page.locator("form[data-form=token-issue]")
        issue.locator("select[name=role]").select_option("referee")
        issue.locator("input[name=label]").fill("Árbitro")
        issue.locator("button[data-action=token-issue]").click()
        page.wait_for_selector("[data-qr][src^='data:image/svg+xml']", timeout=WAIT)
        token = page.locator("[data-token]").inner_text().strip()
        assert page.locator("[data-qr-opens=desk]").is_visible()
        assert not page.locator("[data-qr-opens=score]").is_visible()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.locator("[data-issued]").screenshot(path=str(ARTIFACTS / f"desk-qr-issued-{lang}-{width}.png"))
        url = decode_qr(page, f"desk-qr-{lang}-{width}")
        assert url.startswith(f"{base}/clubs/{slug}/desk#code=") and "?" not in url, url
        code = url.split("#code=", 1)[1]
        assert errors == []
    finally:
        desk.close()

    phone = in_language(browser, base, lang, 360)
    try:
        scan = phone.new_page()
        phone_errors = watched(scan)
        scan.goto(url)
        scan.wait_for_selector("[data-sign-out]", timeout=WAIT)  # the desk, read with the token
        assert "Árbitro" in scan.locator("main p").first.inner_text()
        assert scan.locator("a[data-link=disputes]").count() == 1  # the referee's desk
        assert scan.locator("form[data-form=token-issue]").count() == 0  # not the secretary's
        assert "code=" not in scan.url and scan.url == f"{base}/clubs/{slug}/desk"
        assert scan.evaluate("sessionStorage.getItem('domino-referee.token')") == token
        scan.screenshot(path=str(ARTIFACTS / f"desk-qr-scanned-{lang}.png"), full_page=True)
        assert phone_errors == []
    finally:
        phone.close()

    scanned_again(browser, base, lang, url, f"desk-qr-used-{lang}")
    assert not any(code in line for line in log.lines)  # never in an address, never logged


def scanned_again(browser: Any, base: str, lang: str, url: str, name: str) -> None:
    """A second phone opening the QR code's address: the used code signs nobody in, and the
    sign-in form says why (screenshot ``name``)."""
    again = in_language(browser, base, lang, 360)
    try:
        second = again.new_page()
        second.goto(url)
        second.wait_for_function(
            "t => document.getElementById('sign-in-status').textContent.includes(t)",
            arg=USED[lang], timeout=WAIT)
        assert second.locator("#sign-in").is_visible()
        assert second.evaluate("sessionStorage.getItem('domino-referee.token')") is None
        assert "code=" not in second.url
        second.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    finally:
        again.close()
