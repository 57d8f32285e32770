"""The club desk in a real browser (Debian's chromium under playwright), as the secretary runs
it at 360 and 1280 px: sign in, the settings saved with the keyboard alone, a player added
whose name is close to a known one (confirmed new), renamed, merged; a table token issued, its
QR code read back from a screenshot with zbarimg and opened on a "phone", which is signed in
on /score, the code refused a second time; a token revoked; a match with no deal withdrawn.
The club renamed and its defaults for a new match set from the desk (one PATCH; a refused
value changes none), preselected on the phone's start form. The matches list reads itself
again while shown. A scorekeeper's token gets no section and the server refuses its admin calls. axe-core scans
the pages (no serious or critical finding). The sign-in code never reaches the access log.
Screenshots go to tests/pages/artifacts/.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
from typing import Any, Iterator

import pytest
from api_helpers import Api, make_api, served
from browser_helpers import axe_findings, desk_wired
from test_pages_browser import ARTIFACTS, pytestmark, sync_api  # noqa: F401 (pytestmark marks the browser tests)

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]
WAIT = 20_000  # ms: generous, the machine is shared; every wait is on a condition


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str, Lines]]:
    yield from desk_server(tmp_path_factory)


def desk_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str, Lines]]:
    """The app served on a database of its own, the access log's lines kept (this module's
    ``server``, and test_desk_qr_browser.py's)."""
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('desk') / 'domino.db'}")
    lines = Lines()
    logger = logging.getLogger("domino.access")
    logger.addHandler(lines)
    with served(api.app) as base:
        yield api, base, lines
    logger.removeHandler(lines)
    api.service.close()


def new_club(api: Api, slug: str) -> dict[str, Any]:
    """A club of its own for one journey: its admin token, a known player with an accented
    name, and a match not dealt yet."""
    svc = api.service
    svc.clubs.create_club(slug, slug.title())
    admin = svc.tokens.create_token(slug, "admin", label="Secretary")
    svc.players.create(slug, "Carolina Gómez", confirm_new=True)
    match = svc.recording.create_match(slug, "parejas", PLAYERS)
    return {"slug": slug, "admin": admin, "match": match["id"],
            "scorekeeper": svc.tokens.create_token(slug, "scorekeeper", label="Mesa 9")}


def watched(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and "status of 4" not in m.text else None)
    return errors


def sign_in(page: Any, base: str, slug: str, token: str) -> None:
    page.goto(f"{base}/clubs/{slug}/desk")
    page.locator("input[name=token]").click()
    page.keyboard.type(token)
    page.keyboard.press("Enter")
    page.wait_for_selector("h1:has-text('Club desk')", timeout=WAIT)
    desk_wired(page)  # some of its forms are then filled by keyboard


def status_says(page: Any, text: str) -> None:
    page.wait_for_function("t => document.getElementById('desk-status').textContent.includes(t)",
                           arg=text, timeout=WAIT)


def decode_qr(page: Any, name: str) -> str:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.locator("[data-qr]").screenshot(path=str(path))
    done = subprocess.run(["zbarimg", "--quiet", "--raw", str(path)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="no zbarimg: apt-get install zbar-tools")
@pytest.mark.parametrize("width", [360, 1280])
def test_the_secretarys_evening(server: tuple[Api, str, Lines], browser: Any, width: int) -> None:
    api, base, log = server
    club = new_club(api, f"desk{width}")
    slug = club["slug"]
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors = watched(page)
    page.on("dialog", lambda dialog: dialog.accept())
    sign_in(page, base, slug, club["admin"])
    assert page.locator("a[href$='/desk/disputes']").count() >= 1
    assert page.locator("a[href$='/desk/tournaments']").count() >= 1
    assert axe_findings(page) == []

    # A refused setting changes none: a target the server refuses, with a new name.
    form = page.locator("form[data-form=settings]")
    form.locator("input[name=name]").fill("Not Saved")
    form.locator("input[name=default_target]").evaluate("e => { e.removeAttribute('max'); e.value = '99999'; }")
    form.locator("button[data-action=save-settings]").click()
    # said by its label and in words, not by its field's code
    status_says(page, "Target of a new match (points): must be from 1 to 10000")
    assert api.service.clubs.get_club(slug)["name"] == slug.title()
    form.locator("input[name=default_target]").fill("")

    # The settings, with the keyboard alone: the name, then Tab to each field, Space, letters.
    page.locator("form[data-form=settings] input[name=name]").focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("Club Dominó de Ponce")
    page.keyboard.press("Tab")  # the public checkbox
    page.keyboard.press("Space")
    page.keyboard.press("Tab")  # the language
    page.keyboard.press("E")  # English
    # the tie-breakers, a list of their names: "Matches won" down, remove; "Points difference"
    # up, down, remove (Enter: removed, the focus on the field that adds one)
    for _ in range(5):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == \
        "Remove Points difference"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.name") == "tie_breaker_add"
    page.keyboard.press("Shift+Tab")  # the last one's remove: "Head to head"
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Remove Head to head"
    page.keyboard.press("Enter")
    words = page.locator("[data-chosen] li .breaker").all_inner_texts()
    assert words == ["Matches won", "Points for"]  # in words, never a code
    for _ in range(2):  # from the add field: its button, "Use the default"
        page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # the rules of a new match
    page.keyboard.press("V")  # veracruz
    page.keyboard.press("Tab")  # its target
    page.keyboard.type("150")
    page.keyboard.press("Tab")  # the time zone
    page.keyboard.type("America/Puerto_Rico")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('data-action')") == "save-settings"
    page.keyboard.press("Enter")
    status_says(page, "The settings are saved.")
    settings = api.client.get(f"/api/v1/clubs/{slug}", headers={"Authorization": "Bearer " + club["admin"]}).json
    assert settings["public"] is True and settings["language"] == "en"
    assert settings["name"] == "Club Dominó de Ponce"
    assert (settings["default_rules"], settings["default_target"]) == ("veracruz", 150)
    assert api.service.standings.tie_breakers(slug) == ["won", "points_for"]
    assert settings["timezone"] == "America/Puerto_Rico"
    assert page.locator(".brand a").inner_text() == "Club Dominó de Ponce"
    page.locator("[data-section=settings]").screenshot(path=str(ARTIFACTS / f"desk-settings-{width}.png"))

    # A name close to a known one is offered first; confirmed new.
    form = page.locator("form[data-form=player-add]")
    form.locator("input[name=name]").fill("Carolina Gomez")
    form.locator("button[data-action=player-add]").click()
    suggest = page.locator("[data-suggest]")
    suggest.wait_for(state="visible", timeout=WAIT)
    assert "Carolina Gómez" in suggest.inner_text()
    page.screenshot(path=str(ARTIFACTS / f"desk-suggest-{width}.png"), full_page=True)
    suggest.locator("button[data-action=confirm-new]").click()
    page.wait_for_selector("tr[data-name='Carolina Gomez']", timeout=WAIT)
    assert suggest.is_hidden()

    # Renamed, then merged into the known player (a confirmation saying what moves).
    page.locator("tr[data-name='Carolina Gomez'] button[data-action=rename]").click()
    dialog = page.locator("#rename-dialog")
    dialog.locator("input[name=name]").fill("Carol Gomez")
    dialog.locator("input[name=reason]").fill("her name on the sheet")
    dialog.locator("button[data-action=rename-confirm]").click()
    page.wait_for_selector("tr[data-name='Carol Gomez']", timeout=WAIT)
    moved_id = int(page.locator("tr[data-name='Carol Gomez']").get_attribute("data-player-id"))
    known_id = int(page.locator("tr[data-name='Carolina Gómez']").get_attribute("data-player-id"))
    history = page.locator(f"tr[data-player-id='{known_id}'] a[data-history]").get_attribute("href")
    assert history == f"/clubs/{slug}/players/{known_id}"
    page.locator("tr[data-name='Carol Gomez'] button[data-action=merge]").click()
    dialog = page.locator("#merge-dialog")
    dialog.locator("select[name=into]").select_option(label="Carolina Gómez")
    confirmation = dialog.locator("[data-merge-confirmation]")
    page.wait_for_function("() => document.querySelector('[data-merge-confirmation]').textContent.includes('0 matches')",
                           timeout=WAIT)
    assert "Carol Gomez" in confirmation.inner_text() and "Carolina Gómez" in confirmation.inner_text()
    page.screenshot(path=str(ARTIFACTS / f"desk-merge-{width}.png"))
    dialog.locator("input[name=reason]").fill("one person")
    dialog.locator("button[data-action=merge-confirm]").click()
    page.wait_for_selector("tr[data-name='Carol Gomez']", state="detached", timeout=WAIT)
    assert api.service.players.get(slug, moved_id)["merged_into"] == known_id

    # A table's token: shown once, with a QR code of /score#code=... that signs a phone in.
    issue = page.locator("form[data-form=token-issue]")
    issue.locator("select[name=role]").select_option("scorekeeper")
    issue.locator("input[name=label]").fill("Mesa 1")
    issue.locator("button[data-action=token-issue]").click()
    page.wait_for_selector("[data-qr][src^='data:image/svg+xml']", timeout=WAIT)
    token = page.locator("[data-token]").inner_text().strip()
    assert token.startswith("dr_")
    page.wait_for_selector("tr[data-token-id] >> text=Mesa 1", timeout=WAIT)
    page.screenshot(path=str(ARTIFACTS / f"desk-token-{width}.png"), full_page=True)
    url = decode_qr(page, f"desk-qr-{width}")
    assert url.startswith(base + "/score#code=") and "?" not in url, url
    code = url.split("#code=", 1)[1]
    assert axe_findings(page) == []

    phone = browser.new_context(viewport={"width": 360, "height": 800})
    scan = phone.new_page()
    phone_errors = watched(scan)
    scan.goto(url)
    scan.wait_for_function("() => document.getElementById('who').textContent.includes('Mesa 1')",
                           timeout=WAIT)
    assert "code=" not in scan.url  # the code taken out of the address bar
    assert scan.evaluate("localStorage.getItem('domino-referee.score.token')") == token
    # the club's defaults, set at the desk above, preselected on the phone's start form
    scan.wait_for_function("() => document.getElementById('target').value === '150'", timeout=WAIT)
    assert scan.locator("#preset").input_value() == "veracruz"
    assert scan.locator(".seat:not([hidden])").count() == 4  # veracruz: 2 to 4 players
    scan.screenshot(path=str(ARTIFACTS / f"desk-scanned-{width}.png"), full_page=True)
    phone.close()
    assert phone_errors == []

    again = browser.new_context(viewport={"width": 360, "height": 800})
    second = again.new_page()
    second.goto(url)
    second.wait_for_function("() => document.getElementById('message').textContent.includes('used already')",
                             timeout=WAIT)
    assert second.evaluate("localStorage.getItem('domino-referee.score.token')") is None
    assert second.locator("#sign-in").is_visible()
    second.screenshot(path=str(ARTIFACTS / f"desk-code-used-{width}.png"))
    again.close()

    # Revoked from the desk: that token signs nobody in from the next request on.
    page.locator("tr[data-token-id]:has-text('Mesa 1') button[data-action=revoke]").click()
    page.wait_for_selector("tr[data-token-id]:has-text('Mesa 1')", state="detached", timeout=WAIT)
    assert api.client.get("/score/me", headers={"Authorization": "Bearer " + token}).status_code == 401

    # A match with no deal, withdrawn.
    row = page.locator(f"tr[data-match-id='{club['match']}']")
    row.locator("button[data-action=abandon]").click()
    dialog = page.locator("#abandon-dialog")
    dialog.locator("input[name=reason]").fill("the table never sat down")
    dialog.locator("button[data-action=abandon-confirm]").click()
    status_says(page, f"Match {club['match']} is withdrawn.")
    page.wait_for_selector(f"tr[data-match-id='{club['match']}'] button[data-action=abandon]",
                           state="detached", timeout=WAIT)
    assert api.service.reading.get_match(club["match"])["status"] != "in_progress"
    assert page.locator(f"table[data-status=in_progress] tr[data-match-id='{club['match']}']").count() == 0
    assert page.locator(f"tr[data-match-id='{club['match']}']").count() == 1  # listed as ended
    page.screenshot(path=str(ARTIFACTS / f"desk-home-{width}.png"), full_page=True)
    context.close()
    assert errors == []
    assert not any(code in line for line in log.lines)  # never in an address, never logged


def test_the_matches_list_refreshes_itself_while_shown(server: tuple[Api, str, Lines],
                                                      browser: Any) -> None:
    """Every 25 s the desk reads its matches again (the page's clock run on by playwright):
    a match started at a table shows without a reload; nothing is read while the tab is
    hidden or a dialog is open, and the list is read again once the tab shows."""
    api, base, _ = server
    club = new_club(api, "deskfresh")
    slug = club["slug"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = watched(page)
    page.clock.install()
    sign_in(page, base, slug, club["admin"])
    reads: list[str] = []
    page.on("request", lambda r: reads.append(r.url) if r.url.endswith(f"/clubs/{slug}/desk")
            and r.method == "GET" else None)

    started = api.service.recording.create_match(slug, "mano-a-mano", ["Ana", "Beto"])["id"]
    live = f"table[data-status=in_progress] tr[data-match-id='{started}']"
    assert page.locator(live).count() == 0
    page.clock.run_for(26_000)
    page.wait_for_selector(live, timeout=WAIT)
    assert len(reads) == 1

    # A dialog open: nothing replaced under the referee's hands.
    page.locator(f"tr[data-match-id='{started}'] button[data-action=abandon]").click()
    page.clock.run_for(60_000)
    assert len(reads) == 1
    page.locator("#abandon-dialog button[data-action=close-dialog]").click()

    # The tab hidden: no read; shown again: read at once.
    page.evaluate("""() => { Object.defineProperty(document, 'visibilityState',
                                                   {configurable: true, get: () => 'hidden'});
                             document.dispatchEvent(new Event('visibilitychange')); }""")
    api.service.recording.create_match(slug, "mano-a-mano", ["Carla", "Dani"])
    page.clock.run_for(60_000)
    assert len(reads) == 1
    page.evaluate("""() => { Object.defineProperty(document, 'visibilityState',
                                                   {configurable: true, get: () => 'visible'});
                             document.dispatchEvent(new Event('visibilitychange')); }""")
    page.wait_for_function("() => document.querySelectorAll('table[data-status=in_progress] tr[data-match-id]').length === 3",
                           timeout=WAIT)
    assert len(reads) == 2
    context.close()
    assert errors == []


def test_a_scorekeeper_gets_no_admin_section(server: tuple[Api, str, Lines], browser: Any) -> None:
    api, base, _ = server
    club = new_club(api, "desklow")
    context = browser.new_context(viewport={"width": 360, "height": 800})
    page = context.new_page()
    errors = watched(page)
    page.goto(f"{base}/clubs/{club['slug']}/desk")  # the sign-in page first
    assert page.locator("button[data-action=sign-in]").is_visible()
    assert axe_findings(page) == []
    sign_in(page, base, club["slug"], club["scorekeeper"])
    assert page.locator("[data-nothing]").is_visible()
    assert page.locator("[data-nothing] a").get_attribute("href") == f"/clubs/{club['slug']}"
    for hook in ("form[data-form=settings]", "form[data-form=player-add]",
                 "form[data-form=token-issue]", "tr[data-token-id]", "tr[data-match-id]",
                 "[data-section]"):
        assert page.locator(hook).count() == 0, hook
    assert axe_findings(page) == []
    page.screenshot(path=str(ARTIFACTS / "desk-scorekeeper-360.png"), full_page=True)
    headers = {"Authorization": "Bearer " + club["scorekeeper"]}
    path = f"{base}/api/v1/clubs/{club['slug']}"
    refused = [page.request.patch(path, data={"public": True}, headers=headers),
               page.request.post(path + "/players", data={"name": "Zoe"}, headers=headers),
               page.request.post(path + "/signin-codes", data={"role": "admin"}, headers=headers),
               page.request.get(path + "/tokens", headers=headers)]
    assert [r.status for r in refused] == [403, 403, 403, 403]
    assert api.service.clubs.get_club(club["slug"])["public"] is False
    context.close()
    assert errors == []
