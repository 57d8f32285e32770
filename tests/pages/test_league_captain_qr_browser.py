"""A league team's captain signed in by a QR code, in a real browser (Debian's chromium under
playwright, as test_desk_qr_browser.py signs a referee's phone in), in Spanish at 360 px and in
Italian at 1280 px: the secretary, at the season's desk, issues the captain's QR code of a
team; the QR code, read back from a screenshot with zbarimg, holds the season's captain's desk
with the one-time code in its fragment; a "phone" opening it lands on that team's captain's
desk signed in (the token kept in its tab, the code gone from the address bar), and a leg's
game opened from there on the phone says it is signed in as the team's captain, not as a
scorekeeper; a second scan signs nobody in. Screenshots: tests/pages/artifacts/league-captain-qr-*.png."""

from __future__ import annotations

import shutil
from typing import Any, Iterator

import pytest
from api_helpers import Api
from league_helpers import fixture_id, set_up
from test_desk_qr_browser import in_language, scanned_again
from test_desk_secretary_browser import Lines, decode_qr, desk_server, new_club, watched
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)

WAIT = 30_000  # ms: a generous bound on each wait for a condition, never a timing assertion
# How the phone's footer names the captain's token, and the role it is not said as.
CAPTAIN = {"es": "como capitán de Anchor", "it": "come capitano di Anchor"}
SCOREKEEPER = {"es": "anotador", "it": "segnapunti"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str, Lines]]:
    yield from desk_server(tmp_path_factory)


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="no zbarimg: apt-get install zbar-tools")
@pytest.mark.parametrize("lang,width", [("es", 360), ("it", 1280)])
def test_a_captains_qr_code_signs_the_phone_into_the_captains_desk(
        server: tuple[Api, Any, Any], browser: Any, lang: str, width: int) -> None:
    api, base, log = server
    club = new_club(api, f"captain-{lang}")
    slug = club["slug"]
    set_up(api.service, slug)
    desk = in_language(browser, base, lang, width)
    try:
        page = desk.new_page()
        errors = watched(page)
        page.goto(f"{base}/clubs/{slug}/desk/seasons/2027")
        page.fill("input[name=token]", club["admin"])
        page.click("button[data-action=sign-in]")
        page.wait_for_selector("form[data-league-captain]", timeout=WAIT)
        form = page.locator("form[data-league-captain]")
        form.locator("select[name=team]").select_option("anchor")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("[data-qr][src^='data:image/svg+xml']", timeout=WAIT)
        token = page.locator("[data-captain-issued] [data-token]").inner_text().strip()
        assert token.startswith("dr_")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.locator("section.captains").screenshot(
            path=str(ARTIFACTS / f"league-captain-qr-issued-{lang}-{width}.png"))
        url = decode_qr(page, f"league-captain-qr-{lang}-{width}")
        assert url.startswith(f"{base}/clubs/{slug}/desk/seasons/2027/captain#code="), url
        assert "?" not in url
        code = url.split("#code=", 1)[1]
        assert errors == []
    finally:
        desk.close()

    phone = in_language(browser, base, lang, 360)
    try:
        scan = phone.new_page()
        phone_errors = watched(scan)
        scan.goto(url)
        scan.wait_for_selector("details[data-sheet]", timeout=WAIT)  # the captain's team sheets
        assert "Anchor" in scan.locator("h1").inner_text()
        assert "code=" not in scan.url
        assert scan.url == f"{base}/clubs/{slug}/desk/seasons/2027/captain"
        assert scan.evaluate("sessionStorage.getItem('domino-referee.token')") == token
        scan.screenshot(path=str(ARTIFACTS / f"league-captain-qr-scanned-{lang}.png"),
                        full_page=True)
        # the captain scores a leg on the phone: its footer says a captain, of which team (a
        # captain's token is a scorekeeper's of the club, bound to its team)
        fixture = fixture_id(api.service, slug, "anchor", "crown")
        api.service.leagues.record_leg(slug, "2027", fixture, 1, home=["Dani"], away=["Ana"])
        scan.reload()
        scan.click("a[data-score-link]")
        scan.wait_for_url(f"{base}/score/matches/*", timeout=WAIT)
        scan.wait_for_selector("#who:has-text('Anchor')", timeout=WAIT)  # runs no page code
        said = scan.locator("#who").inner_text()
        assert CAPTAIN[lang] in said, said
        assert SCOREKEEPER[lang] not in said, said
        scan.screenshot(path=str(ARTIFACTS / f"league-captain-phone-{lang}-360.png"),
                        full_page=True)
        assert phone_errors == []
    finally:
        phone.close()

    scanned_again(browser, base, lang, url, f"league-captain-qr-used-{lang}")
    assert not any(code in line for line in log.lines)
