"""The tournament desk in a real browser (Debian's chromium under playwright, as
test_pages_browser.py drives it), the director's whole evening at 360 and 1280 pixels: sign in
with a referee's token, create a rotating tournament of 8 with the keyboard only, paste 8
names (one close to a player of the club: confirmed as that player, never taken silently),
pair round 1 (its tables shown: [data-table=1]), start the tables, open the table cards and
decode one card's QR code from a screenshot with zbarimg (it is that table's match on
/score), withdraw a player and re-pair the round. axe-core scans each desk page: no serious or
critical finding. Screenshots go to tests/pages/artifacts/desk-tournament-*.png. Skipped,
saying why, without playwright, chromium or zbarimg."""

from __future__ import annotations

import shutil
import subprocess
from typing import Any, Iterator

import pytest
from api_helpers import make_api, served
from browser_helpers import axe_findings, desk_wired
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)

ZBARIMG = shutil.which("zbarimg")
KNOWN = "Marisol"  # a player of the club; the paste has her name mistyped
ALSO = "Marisola"  # another, as close: the offer lists both as the page's language lists names
PASTED = ["Ana", "Beto", "Carla", "Dani", "Eva", "Fede", "Gabriel", "Marisoll"]
WAIT = 30_000  # ms: a generous bound on each wait for a condition, never a timing assertion


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('desk') / 'domino.db'}", ACCESS_LOG="0")
    api.service.players.create("casino", KNOWN)
    api.service.players.create("casino", ALSO, confirm_new=True)  # close to KNOWN, on purpose
    with served(api.app) as base:
        yield api, base
    api.service.close()


def shot(page: Any, name: str, width: int) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"desk-tournament-{name}-{width}.png"), full_page=True)


def fits(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def api_get(page: Any, base: str, path: str, token: str) -> Any:
    answer = page.request.get(base + path, headers={"Authorization": f"Bearer {token}"})
    assert answer.ok, answer.text()
    return answer.json()


@pytest.mark.skipif(ZBARIMG is None, reason="no zbarimg: apt-get install zbar-tools")
@pytest.mark.parametrize("width", [360, 1280])
def test_the_director_runs_a_rotating_event_of_eight(server: tuple[Any, str], page: Any,
                                                     width: int, tmp_path: Any) -> None:
    api, base = server
    token = api.tokens["casino", "referee"]
    slug = f"noche-{width}"
    one = f"/api/v1/clubs/casino/tournaments/{slug}"
    page.set_viewport_size({"width": width, "height": 900})

    # signed in with the director's (referee's) token, kept in the tab
    response = page.goto(base + "/clubs/casino/desk/tournaments")
    assert response.status == 401
    page.fill("input[name=token]", token)
    page.click("button[data-action=sign-in]")
    form = page.locator("form[data-form=tournament-new]")
    form.wait_for(timeout=WAIT)
    desk_wired(page)  # its form is then filled by keyboard
    assert token not in page.url
    assert axe_findings(page) == []
    fits(page, width)
    shot(page, "list", width)

    # the new tournament, with the keyboard only
    form.locator("input[name=name]").focus()
    page.keyboard.type(f"Noche {width}")
    page.keyboard.press("Tab")
    page.keyboard.type(slug)
    page.keyboard.press("Tab")  # format: pairs, then rotating
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")  # rules: parejas
    page.keyboard.press("Tab")  # target
    page.keyboard.type("30")
    page.keyboard.press("Tab")  # rounds
    page.keyboard.press("Control+A")
    page.keyboard.type("3")
    page.keyboard.press("Tab")  # time limit
    page.keyboard.type("25")
    assert form.locator("select[name=format]").input_value() == "rotating"
    assert form.locator("select[name=rules]").input_value() == "parejas"
    page.keyboard.press("Enter")
    page.locator("form[data-form=enter]").wait_for(timeout=WAIT)
    made = api_get(page, base, one, token)
    assert (made["format"], made["rounds"]) == ("rotating", 3)
    assert made["rules"] == {"preset": "parejas", "target": 30, "time_limit": 25}

    # eight names pasted; the mistyped one is offered, then confirmed as the player she is
    page.fill("textarea[name=players]", "\n".join(PASTED) + "\n")
    page.click("button[data-action=enter]")
    suggest = page.locator("[data-suggest='Marisoll']")
    suggest.wait_for(timeout=WAIT)
    assert suggest.locator("button[data-action=confirm-new]").count() == 1
    offered = suggest.locator("p").inner_text()
    assert f"{KNOWN} and {ALSO}" in offered or f"{ALSO} and {KNOWN}" in offered, offered
    assert page.locator("table.entrants tbody tr[data-entrant]").count() == 7  # the rest, in
    # the page shown in place: its module offers the names, its first confirm focused once
    # the page is wired (focusWhenWired), a moment after the offer is drawn
    desk_wired(page)
    assert page.evaluate("document.activeElement.getAttribute('data-action')") == "confirm"
    assert axe_findings(page) == []
    shot(page, "did-you-mean", width)
    suggest.locator(f"button[data-action=confirm][data-name='{KNOWN}']").click()
    page.locator("table.entrants tbody tr[data-entrant='8']").wait_for(timeout=WAIT)
    names = [e["name"] for e in api_get(page, base, one, token)["entrants"]]
    assert sorted(names) == sorted([*PASTED[:-1], KNOWN])
    assert api.service.players.find("casino", "Marisoll") is None  # no new player made

    # round 1 paired, its tables started: a match at each
    page.click("button[data-action=pair]")
    page.locator("[data-table='1']").first.wait_for(timeout=WAIT)
    page.click("button[data-action=start-tables]")
    page.locator("#desk-status", has_text="2 of 2").wait_for(timeout=WAIT)
    tables = api_get(page, base, one + "/rounds/1", token)["tables"]
    assert len(tables) == 2 and all(t["match"] for t in tables)
    for t in tables:
        row = page.locator(f"section[data-round='1'] tr[data-table='{t['table']}']")
        assert row.get_attribute("data-match") == str(t["match"])
    assert axe_findings(page) == []
    fits(page, width)
    shot(page, "round", width)

    # the table cards: each card's QR code is its table's match on /score
    page.click("section[data-round='1'] a[data-print=table-cards]")
    card = page.locator(".card-table[data-table='1']")
    card.wait_for(timeout=WAIT)
    assert page.locator(".card-table").count() == 2
    assert card.locator("ol.seats li").count() == 4
    assert axe_findings(page) == []
    shot(page, "cards", width)
    image = tmp_path / "qr.png"
    card.locator("[data-qr] svg").screenshot(path=str(image))
    decoded = subprocess.run([ZBARIMG, "--quiet", "--raw", str(image)], capture_output=True,
                             text=True, check=True).stdout.strip()
    assert decoded == f"{base}/score/matches/{tables[0]['match']}"
    page.emulate_media(media="print")
    shot(page, "cards-print", width)
    page.emulate_media(media="screen")

    # one withdraws; the round, not started, is re-paired without them
    page.goto(base + f"/clubs/casino/desk/tournaments/{slug}")
    leaving = page.locator("table.entrants tr[data-entrant='3'] button[data-action=withdraw]")
    leaving.wait_for(timeout=WAIT)
    leaving.click()
    page.locator("#desk-status", has_text="re-pair").wait_for(timeout=WAIT)
    page.click("button[data-action=re-pair]")
    page.locator("section[data-round='1'] caption", has_text="re-paired").wait_for(timeout=WAIT)
    again = api_get(page, base, one + "/rounds/1", token)
    assert again["version"] == 2
    gone = names[2]
    assert all(gone not in t["players"] for t in again["tables"])
    assert axe_findings(page) == []
    fits(page, width)
    shot(page, "re-paired", width)
