"""The club desk's clock of a timed match in a real browser (Debian's chromium under playwright),
at 360 and 1280 px, in English and Spanish: a referee's desk shows each live match with a time
limit with its clock from the match's first event, ticking; a match past its limit says so;
Time records the match's `time` event once and the row then says time is called, with no
button; a second desk pressing its stale Time button is told the service's refusal and nothing
more is recorded. axe-core scans the page. Screenshots go to tests/pages/artifacts/.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, Iterator

import pytest
from api_helpers import Api, make_api, served
from browser_helpers import axe_findings, desk_wired
from test_desk_secretary_browser import WAIT, status_says, watched
from test_pages_browser import ARTIFACTS, pytestmark, sync_api  # noqa: F401 (pytestmark marks the browser tests)

PLAYERS = ["Ana", "Beto"]
TIMED = {"preset": "mano-a-mano", "time_limit": 1}
LONG = {"preset": "mano-a-mano", "time_limit": 45}
# What each language says (the catalogs' words; the sign-in page's heading is the desk's h1).
SAYS = {
    "en": {"desk": "Club desk", "called": "Time is called in match %s",
           "row": "Time called (event 2): last round", "passed": "The limit is passed.",
           "refused": "time was already called at event 2", "limit": "(limit 1 minute)"},
    "es": {"desk": "Mesa de control del club", "called": "Se pidió tiempo en la partida %s",
           "row": "Se pidió tiempo (evento 2): última ronda", "passed": "Se pasó el límite.",
           "refused": "el tiempo ya se cantó en el evento 2", "limit": "(límite 1 minuto)"},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('clock') / 'domino.db'}")
    with served(api.app) as base:
        yield api, base
    api.service.close()


def timed_club(api: Api, slug: str) -> dict[str, Any]:
    """A club with a referee's and an admin's token, a match of a 1-minute limit dealt two
    minutes ago (its recording clock set back for that deal), and one of 45 dealt now."""
    svc = api.service
    svc.clubs.create_club(slug, slug.title())
    over = svc.recording.create_match(slug, TIMED, PLAYERS)["id"]
    running = svc.recording.create_match(slug, LONG, PLAYERS)["id"]
    clock = svc.recording.clock
    svc.recording.clock = lambda: dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=2)
    try:
        svc.recording.record_event(over, {"type": "deal"}, expected_seq=0)
    finally:
        svc.recording.clock = clock
    svc.recording.record_event(running, {"type": "deal"}, expected_seq=0)
    return {"slug": slug, "over": over, "running": running,
            "referee": svc.tokens.create_token(slug, "referee", label="Árbitro"),
            "admin": svc.tokens.create_token(slug, "admin", label="Secretaria")}


def desk_page(browser: Any, base: str, club: dict[str, Any], role: str, width: int,
              lang: str, still: bool = False) -> tuple[Any, Any, list[str]]:
    """A desk signed in; ``still``: its clock stopped as it opens, so that it does not read its
    matches list again (desk.js does every 25 s, a loaded machine may take longer than that
    between two steps of the test): the list stays as the desk was opened with."""
    context = browser.new_context(viewport={"width": width, "height": 900}, locale=lang)
    page = context.new_page()
    errors = watched(page)
    if still:
        page.clock.install()
        page.clock.pause_at(dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=1))
    page.goto(f"{base}/clubs/{club['slug']}/desk")
    page.locator("input[name=token]").click()
    page.keyboard.type(club[role])
    page.keyboard.press("Enter")
    page.wait_for_selector(f"h1:has-text('{SAYS[lang]['desk']}')", timeout=WAIT)
    desk_wired(page)
    return context, page, errors


def time_events(api: Api, match_id: int) -> list[int]:
    return [e["seq"] for e in api.service.reading.list_events(match_id)
            if e["event"]["type"] == "time"]


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("width", [360, 1280])
def test_time_is_called_from_the_desk(server: tuple[Api, str], browser: Any, width: int,
                                      lang: str) -> None:
    api, base = server
    says = SAYS[lang]
    club = timed_club(api, f"clock{width}{lang}")
    over, running = club["over"], club["running"]
    context, page, errors = desk_page(browser, base, club, "referee", width, lang)
    # A second desk, open before time is called: its Time button goes stale (its list not
    # read again meanwhile: its clock stopped).
    other, second, other_errors = desk_page(browser, base, club, "admin", width, lang, still=True)

    # The clock of the match in play ticks: mm:ss from its first event, its limit beside it.
    clock = page.locator(f"tr[data-match-id='{running}'] [data-clock]")
    assert clock.get_attribute("data-started") == api.service.reading.screen(running).started_at
    assert clock.get_attribute("data-limit") == "45"
    elapsed = clock.locator("[data-elapsed]")
    # read anew at each poll, not held: the desk reads its matches list again every 25 s
    # (desk.js, keepMatchesFresh) and puts a new row in place of this one, whose clock ticks
    # while the one held would not
    now_reads = f"document.querySelector(\"tr[data-match-id='{running}'] [data-clock] [data-elapsed]\")"
    page.wait_for_function(f"() => /^\\d+:\\d\\d$/.test(({now_reads} || {{}}).textContent)",
                           timeout=WAIT)
    first = elapsed.inner_text()
    page.wait_for_function(f"t => ({now_reads} || {{textContent: t}}).textContent !== t", arg=first,
                           timeout=WAIT)
    assert clock.locator("[data-over]").is_hidden()

    # The match past its limit says so, and offers Time.
    row = page.locator(f"tr[data-match-id='{over}']")
    # mm:ss from its deal two minutes before the club was made: at least 2:00, and no more than
    # the minutes since that deal now (a loaded machine may take more than a minute to get here)
    dealt = dt.datetime.fromisoformat(api.service.reading.screen(over).started_at)
    read = re.fullmatch(r"(\d+):\d\d", row.locator("[data-elapsed]").inner_text())
    since = (dt.datetime.now(dt.timezone.utc) - dealt) // dt.timedelta(minutes=1)
    assert read and 2 <= int(read.group(1)) <= since, (read, since)
    assert says["limit"] in row.inner_text()
    row.locator("[data-over]").wait_for(state="visible", timeout=WAIT)
    assert says["passed"] in row.inner_text()
    assert axe_findings(page) == []
    page.screenshot(path=str(ARTIFACTS / f"desk-clock-{lang}-{width}.png"), full_page=True)

    # Time: one `time` event; the row says time is called, and its button is gone.
    row.locator("button[data-action=time]").click()
    status_says(page, says["called"] % over)
    page.wait_for_selector(f"tr[data-match-id='{over}'] [data-called]", timeout=WAIT)
    row = page.locator(f"tr[data-match-id='{over}']")
    assert says["row"] in row.inner_text()
    assert row.locator("button[data-action=time]").count() == 0
    assert row.locator("[data-over]").is_hidden()  # called: no longer a warning
    assert time_events(api, over) == [2]
    assert page.locator(f"tr[data-match-id='{running}'] button[data-action=time]").count() == 1
    assert page.locator(f"tr[data-match-id='{over}'] [data-refused]").count() == 0
    assert axe_findings(page) == []
    page.screenshot(path=str(ARTIFACTS / f"desk-clock-called-{lang}-{width}.png"), full_page=True)

    # The second desk's stale button: the refusal in its language, still one event, the row
    # read again.
    second.locator(f"tr[data-match-id='{over}'] button[data-action=time]").click()
    second.wait_for_function(
        "t => document.getElementById('desk-status').textContent.includes(t)",
        arg=says["refused"], timeout=WAIT)
    assert second.locator("#desk-status").get_attribute("data-kind") == "error"
    second.wait_for_selector(f"tr[data-match-id='{over}'] [data-called]", timeout=WAIT)
    assert second.locator(f"tr[data-match-id='{over}'] button[data-action=time]").count() == 0
    assert says["refused"] in second.locator(f"tr[data-match-id='{over}'] [data-refused]").inner_text()
    # the list read again is reflowed as the page's own was (cards on a phone)
    assert ("cards" in (second.locator("table[data-status=in_progress]").get_attribute("class") or "")) \
        == (width == 360)
    assert time_events(api, over) == [2]
    second.screenshot(path=str(ARTIFACTS / f"desk-clock-refused-{lang}-{width}.png"), full_page=True)
    second.locator("[data-section=matches]").screenshot(
        path=str(ARTIFACTS / f"desk-clock-refused-matches-{lang}-{width}.png"))
    context.close()
    other.close()
    assert errors == [] and other_errors == []
