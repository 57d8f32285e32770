"""The referee's disputes desk in a real browser (Debian's chromium under playwright, as
test_pages_browser.py drives it), at 360 and 1280 pixels wide: sign in, see the dispute of a
recorded "passed holding a five" match, preview the rules' standard penalty with the keyboard
only (totals before and after), record it, see the dispute go, print its dispute sheet (its
words checked, a PDF made) and see a stale second tab told that another desk ruled first,
recording nothing twice. axe-core (axe-playwright-python) finds no serious or critical issue
on the desk, its preview or the sheet. Screenshots go to tests/pages/artifacts/
(desk-disputes-*.png, dispute-sheet-*.png)."""

from __future__ import annotations

import re
from typing import Any, Iterator

import pytest
from api_helpers import make_api, served
from browser_helpers import axe_findings, desk_wired
from desk_disputes_site import DISPUTED, passed_holding_a_five
from test_pages_browser import ARTIFACTS, cells, pytestmark  # noqa: F401 (pytestmark marks the browser tests)

DESK = "/clubs/casino/desk/disputes"
WAIT = 30_000  # ms: generous, the machine is shared; every wait is on a condition
# What a browser logs for the answers the journey expects: the sign-in page (401) and the
# stale tab's refused append (412).
EXPECTED = ("401", "412")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('desk') / 'domino.db'}", ACCESS_LOG="0")
    with served(api.app) as base:
        yield api, base
    api.service.close()


# A ruling menu's room for an option's text (its inner width less the arrow's, 20 pixels) and
# its widest option's text, in the menu's font.
MENU_ROOM = """menu => {
  const style = getComputedStyle(menu), pen = document.createElement("canvas").getContext("2d");
  pen.font = style.font;
  const room = menu.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
  return [room, Math.max(...[...menu.options].map(o => pen.measureText(o.text).width))];
}"""


def watched(page: Any, errors: list[str]) -> Any:
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and not any(code in m.text for code in EXPECTED) else None)
    return page


def signed_in(context: Any, base: str, token: str, errors: list[str]) -> Any:
    page = watched(context.new_page(), errors)
    page.goto(base + DESK)
    page.fill("input[name=token]", token)
    page.click("button[data-action=sign-in]")
    page.wait_for_selector("h1:has-text('Disputes desk')", timeout=WAIT)
    desk_wired(page)  # its forms are then filled by keyboard
    return page


def fill_by_keyboard(page: Any, dispute: Any, reason: str) -> None:
    """The ruling form by keyboard only: focus the ruling, Tab to the reason (the points are
    off for a standard penalty), type it and press Enter, which previews."""
    dispute.locator("select[name=ruling]").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "reason"
    page.keyboard.type(reason)
    page.keyboard.press("Enter")
    dispute.locator("[data-preview] table").wait_for(timeout=WAIT)


@pytest.mark.parametrize("width,height", [(360, 800), (1280, 900)])
def test_the_referee_rules_on_a_dispute(server: tuple[Any, str], browser: Any,
                                        width: int, height: int) -> None:
    api, base = server
    match_id = passed_holding_a_five(api, table=str(width))
    token = api.tokens["casino", "referee"]
    key = f"{match_id}:{DISPUTED}"
    errors: list[str] = []
    size = f"{width}x{height}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        desk = signed_in(context, base, token, errors)
        stale = signed_in(context, base, token, errors)  # a second tab, signed in on its own
        assert token not in desk.url

        dispute = desk.locator(f"[data-dispute='{key}']")
        assert "3: Lucía Gómez passed" in dispute.locator("[data-event]").text_content()
        words = " ".join(dispute.text_content().split())
        assert "Proven: the record proves this foul (event 5 completed the proof)." in words
        assert "Lucía Gómez played 5-2" in words
        assert desk.evaluate("document.documentElement.scrollWidth") <= width
        assert dispute.locator("button[data-action=rule]").is_disabled()
        # Each ruling's name fits its menu (a phone's native menu cuts an option at one line);
        # what it does is beside it, the chosen one's alone, naming the side it goes to.
        room, widest = dispute.locator("select[name=ruling]").evaluate(MENU_ROOM)
        assert widest <= room, (widest, room)
        helped = dispute.locator("[data-ruling-help] [data-for]:visible")
        assert helped.all_text_contents() == ["10 points to Marco Rossi: the rules' standard penalty."]
        dispute.locator("select[name=ruling]").select_option("forfeit")
        assert helped.all_text_contents() == ["The match is lost by Lucía Gómez, at fault."]
        dispute.locator("select[name=ruling]").select_option("standard")

        # The stale tab previews first; the first tab then previews and records.
        stale_dispute = stale.locator(f"[data-dispute='{key}']")
        fill_by_keyboard(stale, stale_dispute, "renege (second desk)")
        fill_by_keyboard(desk, dispute, "renege proven at event 5")
        preview = dispute.locator("[data-preview]")
        rows = cells(desk, f"[data-dispute='{key}'] [data-preview] table tbody tr")
        assert rows == [["Marco Rossi", "11", "21"], ["Lucía Gómez", "0", "0"]]  # before, after
        said = " ".join(preview.text_content().split())
        assert "penalty: 10 points to Marco Rossi for event 3 (renege proven at event 5)" in said
        assert "Winner: Marco Rossi (unchanged)" in said and "event 3: renege" in said
        assert api.service.reading.get_match(match_id)["last_seq"] == 7  # nothing stored yet
        assert dispute.locator("[data-status]").text_content().startswith("Preview ready")
        assert axe_findings(desk) == []
        desk.screenshot(path=str(ARTIFACTS / f"desk-disputes-preview-{size}.png"), full_page=True)

        # Record it, by keyboard: from the reason, Tab past Preview to Record, then Enter.
        dispute.locator("input[name=reason]").focus()
        desk.keyboard.press("Tab")
        desk.keyboard.press("Tab")
        assert desk.evaluate("document.activeElement.dataset.action") == "rule"
        desk.keyboard.press("Enter")
        desk.wait_for_selector("#desk-status:has-text('Recorded')", timeout=WAIT)
        assert desk.locator(f"[data-dispute='{key}']").count() == 0
        ruled = desk.locator(f"tr[data-ruled='{key}']")
        assert "penalty, 10 points" in ruled.text_content()
        assert api.service.reading.get_match(match_id)["last_seq"] == 8
        desk.screenshot(path=str(ARTIFACTS / f"desk-disputes-ruled-{size}.png"), full_page=True)

        # The stale tab records what it previewed: 412, told so, reloaded, nothing twice.
        stale_dispute.locator("button[data-action=rule]").click()
        stale.wait_for_selector("#desk-status:has-text('Another desk ruled first')", timeout=WAIT)
        assert stale.locator(f"[data-dispute='{key}']").count() == 0
        assert api.service.reading.get_match(match_id)["last_seq"] == 8
        events = api.service.reading.list_events(match_id, after=7)
        assert [e["event"]["reason"] for e in events] == ["renege proven at event 5"]

        # The dispute sheet, printable.
        ruled.locator("a[data-print=sheet]").click()
        desk.wait_for_selector("h1:has-text('Dispute sheet')", timeout=WAIT)
        sheet = " ".join(desk.locator("body").inner_text().split())
        for expected in ("Club Casino, match", "3: Lucía Gómez passed",
                         "At fault Lucía Gómez (seat 2)", "5 Lucía Gómez played 5-2",
                         "8: penalty: 10 points to Marco Rossi for event 3 (renege proven at event 5)",
                         "Reason: renege proven at event 5", "Signatures Referee Marco Rossi Lucía Gómez"):
            assert expected in sheet, (expected, sheet)
        assert '{"type"' not in sheet
        assert desk.evaluate("document.documentElement.scrollWidth") <= width
        assert axe_findings(desk) == []
        desk.emulate_media(media="print")
        desk.screenshot(path=str(ARTIFACTS / f"dispute-sheet-{size}.png"), full_page=True)
        assert not desk.locator("nav.no-print").is_visible()  # the language menu is not printed
        pdf = desk.pdf(format="A4", path=str(ARTIFACTS / f"dispute-sheet-{size}.pdf"))
        assert pdf_pages(pdf) == 1  # one sheet for both sides to sign
    finally:
        context.close()
    assert not errors, errors


def pdf_pages(pdf: bytes) -> int:
    """How many pages a PDF chromium printed has (its page objects)."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_a_ruled_dispute_sheet_prints_on_one_a4_page(server: tuple[Any, str], browser: Any,
                                                      lang: str) -> None:
    """Printed (chromium's PDF, A4), the sheet of a ruled dispute is one page in each
    language, the signatures on it: it was two, the second holding one line."""
    api, base = server
    match_id = passed_holding_a_five(api, table=f"print-{lang}")
    reason = "renege proven at event 5: the pass held the five she played two turns later"
    for event in api.service.disputes.standard_penalty(match_id, DISPUTED, reason=reason):
        api.service.recording.record_event(match_id, event, expected_seq=None)
    context = browser.new_context(locale=lang, extra_http_headers={
        "Authorization": f"Bearer {api.tokens['casino', 'referee']}", "Accept-Language": lang})
    try:
        page = context.new_page()
        page.goto(f"{base}/clubs/casino/matches/{match_id}/disputes/{DISPUTED}")
        page.wait_for_selector(f"html[lang={lang}] [data-ruling]", timeout=WAIT)
        pdf = page.pdf(format="A4", path=str(ARTIFACTS / f"dispute-sheet-a4-{lang}.pdf"))
        assert pdf_pages(pdf) == 1
    finally:
        context.close()


# Every tile written in the page's text (not a drawn tile: those are boxes) with how many lines
# it spans, and any written outside a span that keeps it whole.
TILES_ON_LINES = r"""() => {
  const tile = /(^|[^\w.&#-])(\d{1,2}-\d{1,2})(?![\w-])/g, found = [], loose = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    if (!node.parentElement.offsetParent && getComputedStyle(node.parentElement).position !== "fixed") continue;
    for (const m of node.data.matchAll(tile)) {
      const kept = node.parentElement.closest(".nowrap, .tile");
      if (!kept) { loose.push(m[2]); continue; }
      const range = document.createRange();
      range.setStart(node, m.index + m[1].length); range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      found.push([m[2], tops.size]);
    }
  }
  return [found, loose];
}"""


@pytest.mark.parametrize("lang", ["en", "es", "it"])
@pytest.mark.parametrize("width,height", [(360, 800), (1280, 900)])
def test_a_tile_is_never_broken_across_lines(server: tuple[Any, str], browser: Any, lang: str,
                                             width: int, height: int) -> None:
    """The dispute sheet and the disputes desk write tiles in sentences ("Beto played 5-2"):
    at 360 px the sheet broke one at its hyphen. Each is kept whole, in every language."""
    api, base = server
    match_id = passed_holding_a_five(api, table=f"wrap-{lang}-{width}")
    context = browser.new_context(locale=lang, viewport={"width": width, "height": height},
                                  extra_http_headers={"Accept-Language": lang})
    try:
        errors: list[str] = []
        sheet = watched(context.new_page(), errors)
        sheet.set_extra_http_headers({"Authorization": f"Bearer {api.tokens['casino', 'referee']}"})
        sheet.goto(f"{base}/clubs/casino/matches/{match_id}/disputes/{DISPUTED}")
        sheet.wait_for_selector(f"html[lang={lang}] [data-event]", timeout=WAIT)
        desk = watched(context.new_page(), errors)  # signed in as signed_in does, in any language
        desk.goto(base + DESK)
        desk.fill("input[name=token]", api.tokens["casino", "referee"])
        desk.click("button[data-action=sign-in]")
        desk.wait_for_selector(f"html[lang={lang}] [data-dispute='{match_id}:{DISPUTED}'] [data-event]",
                               timeout=WAIT)
        for name, page in (("dispute-sheet", sheet), ("desk-disputes", desk)):
            page.screenshot(path=str(ARTIFACTS / f"{name}-tiles-{lang}-{width}.png"), full_page=True)
            found, loose = page.evaluate(TILES_ON_LINES)
            assert found and loose == [], (name, found, loose)
            assert all(lines == 1 for _, lines in found), (name, found)
        assert errors == []
    finally:
        context.close()
