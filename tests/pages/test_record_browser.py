"""What a member does with a finished match's page, in a real browser (Debian's chromium under
playwright, as tests/pages/test_pages_browser.py): download its signed acta, its log and the
club's keys without a token, and check them with ``domino verify`` (exit 0); the acta as a
page to print; the standings, those who played ranked and the others apart, at 360 and 1280
pixels. Screenshots (and the acta printed as PDF) go to tests/pages/artifacts/."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
from api_helpers import served
from browser_helpers import ARTIFACTS, CHROMIUM, SIZES
from pages_site import Site, build_site

sync_api = pytest.importorskip(
    "playwright.sync_api",
    reason="playwright is not installed: pip install 'playwright>=1.45,<2' (the browser is "
           "Debian's chromium, never one playwright downloads)")

DOMINO = Path(sys.executable).parent / "domino"  # the venv's command, as a member runs it

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"no chromium at {CHROMIUM}: apt-get install chromium (or set DOMINO_CHROMIUM)")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, str]]:
    site = build_site(f"sqlite:///{tmp_path_factory.mktemp('record') / 'domino.db'}")
    with served(site.api.app) as base:
        yield site, base
    site.api.service.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": SIZES[1][0], "height": SIZES[1][1]},
                                  accept_downloads=True)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield opened
    context.close()
    assert not errors, errors  # no script error, no refused script or style (CSP)


def screenshots(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}x{height}.png"), full_page=True)
    page.set_viewport_size({"width": SIZES[1][0], "height": SIZES[1][1]})


def download(page: Any, which: str, folder: Path) -> Path:
    """Click the page's download link ``which`` (acta, log, keys) and keep the file under the
    name the link gives."""
    link = page.locator(f"a[data-download={which}]")
    with page.expect_download() as info:
        link.click()
    got = info.value
    target = folder / got.suggested_filename
    got.save_as(str(target))
    assert target.name == link.get_attribute("download")
    return target


def test_a_member_downloads_a_finished_match_and_verifies_it(server: tuple[Site, str], page: Any,
                                                             tmp_path: Path) -> None:
    site, base = server
    match = site.finished[0]
    page.goto(f"{base}/clubs/casino/matches/{match}")  # no token: the club is public
    section = page.locator("#record")
    assert section.is_visible()
    acta = download(page, "acta", tmp_path)
    log = download(page, "log", tmp_path)
    keys = download(page, "keys", tmp_path)
    assert (acta.name, log.name, keys.name) == (f"acta-{match}.json", f"match-{match}.jsonl",
                                                "club-keys.json")  # no slug in what people read
    # the command the page shows, run as a member would in the folder of the three files
    command = section.locator(".command").inner_text().split()
    assert command[:2] == ["domino", "verify"]
    done = subprocess.run([str(DOMINO), *command[1:]], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert "the signature holds, and agrees with" in done.stdout
    # the fingerprint the page shows is the chain head verify prints
    head = section.locator("[data-head]").get_attribute("data-head")
    assert head in done.stdout
    assert section.locator("[data-head]").inner_text().replace(" ", "") == head
    screenshots(page, "match-record")


def test_a_live_match_offers_nothing_to_download(server: tuple[Site, str], page: Any) -> None:
    site, base = server
    page.goto(f"{base}/clubs/casino/matches/{site.live}")
    assert page.locator("#record").count() == 0
    assert page.locator("a[data-download]").count() == 0
    answer = page.request.get(f"{base}/api/v1/pages/clubs/casino/matches/{site.live}/log")
    assert answer.status == 403


def test_the_acta_page_prints(server: tuple[Site, str], page: Any) -> None:
    site, base = server
    match = site.finished[1]
    page.goto(f"{base}/clubs/casino/matches/{match}")
    page.get_by_role("link", name="The acta as a page to print").click()
    page.wait_for_url(f"**/clubs/casino/matches/{match}/acta")
    assert page.get_by_role("heading", level=1).inner_text() == f"Acta of match {match}"
    totals = page.locator("table.acta-rounds tfoot td").all_inner_texts()
    twin = page.request.get(f"{base}/api/v1/pages/clubs/casino/matches/{match}/acta").json()
    assert totals == [str(t) for t in twin["totals"]]
    assert page.locator("button[data-print]").is_visible()
    screenshots(page, "acta")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.emulate_media(media="print")
    assert not page.locator("button[data-print]").is_visible()  # no-print
    page.pdf(path=str(ARTIFACTS / "acta.pdf"))


def test_the_standings_rank_those_who_played(server: tuple[Site, str], page: Any) -> None:
    _, base = server
    page.goto(f"{base}/clubs/casino?from=2026-04-01&to=2026-04-30")
    apart = page.locator("#standings tbody.unranked")
    assert apart.is_visible()
    assert "Not ranked" in apart.locator("th[scope=colgroup]").inner_text()
    ranked = page.locator("#standings tbody").first.locator("tr")
    assert ranked.count() >= 4
    assert "provisional" in page.locator("#standings td[data-col=rating]").first.inner_text()
    screenshots(page, "standings-ranked")
    page.goto(f"{base}/clubs/casino?event=League")
    assert page.locator("#standings tbody.unranked").count() == 0  # an event's players only
