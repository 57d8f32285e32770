"""The club pages in a real browser: Debian's chromium (apt, /usr/bin/chromium; DOMINO_CHROMIUM
names another) driven by playwright's sync API, against the app under waitress on a fixture club
of finished matches. Skipped, saying why, where playwright or chromium is missing.

The standings page loads, sorts by a column in place and filters by period to the API's numbers;
the player and match pages render (the chart, the tiles); a private club asks for sign-in and
reads once a token is given, which never shows in an address; pages fit a 360-pixel phone and
their text contrasts at least 4.5:1. Screenshots at 360x800 and 1280x900 (and the standings
printed as PDF) are saved to tests/pages/artifacts/ (DOMINO_PAGES_ARTIFACTS names another).
"""

from __future__ import annotations

import os
import re
from typing import Any, Iterator

import pytest
from api_helpers import served
from browser_helpers import ARTIFACTS, CHROMIUM, SIZES
from pages_site import APRIL, Site, build_site

sync_api = pytest.importorskip(
    "playwright.sync_api",
    reason="playwright is not installed: pip install 'playwright>=1.45,<2' (the browser is "
           "Debian's chromium, never one playwright downloads)")


pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"no chromium at {CHROMIUM}: apt-get install chromium (or set DOMINO_CHROMIUM)")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, str]]:
    site = build_site(f"sqlite:///{tmp_path_factory.mktemp('pages') / 'domino.db'}")
    with served(site.api.app) as base:
        yield site, base
    site.api.service.close()


def screenshots(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}x{height}.png"), full_page=True)
    page.set_viewport_size({"width": SIZES[1][0], "height": SIZES[1][1]})


def screenshots_at_phone(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-360x800.png"))


def cells(page: Any, selector: str = "#standings tbody tr") -> list[list[str]]:
    """Each row's cells as text, white space collapsed (hidden-to-the-eye text included, as a
    screen reader reads it)."""
    found = page.eval_on_selector_all(selector, """rows => rows.map(r => Array.from(r.cells).map(
        c => c.textContent.replace(/\\s+/g, ' ').trim()))""")
    return [row for row in found if len(row) > 1]  # not the heading of the rows not ranked


def api_standings(page: Any, base: str, site: Site, **query: str) -> list[dict[str, Any]]:
    response = page.request.get(f"{base}/api/v1/clubs/casino/standings", params=query,
                                headers=site.api.auth("viewer"))
    assert response.status == 200
    return response.json()


def shown(row: dict[str, Any]) -> list[str]:
    difference = f"{row['difference']:+d}" if row["difference"] else "0"
    rating = f"{row['rating_points']:,}" + (" provisional" if row["provisional"] else "")
    rank = str(row["rank"]) if row["ranked"] else "–not ranked"
    return [rank, row["player"], *(str(row[k]) for k in (
        "played", "won", "lost", "rounds_won", "points_for", "points_against")),
        difference, f"{row['win_rate'] * 100:.1f}%", rating, str(row["flagged"])]


def heading(page: Any, text: str) -> Any:
    """The sort button of the standings heading ``text``."""
    index = [t.strip() for t in page.locator("#standings thead th").all_text_contents()].index(text)
    return page.locator("#standings thead th").nth(index), index


# ------------------------------------------------------------------ the standings


def test_the_standings_page_loads_and_sorts_by_a_column(server: tuple[Site, str], page: Any) -> None:
    site, base = server
    response = page.goto(f"{base}/clubs/casino")
    assert response.status == 200
    assert page.title() == "Standings · Casino · domino-referee"
    assert cells(page) == [shown(r) for r in api_standings(page, base, site)]
    by_rank = [row[1] for row in cells(page)]
    screenshots(page, "standings")

    player, column = heading(page, "Player")
    assert player.get_attribute("aria-sort") is None
    assert heading(page, "Rank")[0].get_attribute("aria-sort") == "ascending"
    player.locator("button").click()
    names = [row[column] for row in cells(page)]
    assert names == sorted(names, key=str.casefold) and names != by_rank
    assert player.get_attribute("aria-sort") == "ascending"
    assert heading(page, "Rank")[0].get_attribute("aria-sort") is None
    assert page.locator("#sort-status").text_content() == "Sorted by Player, ascending."
    player.locator("button").press("Enter")  # a real button: the keyboard sorts too
    assert [row[column] for row in cells(page)] == names[::-1]
    assert player.get_attribute("aria-sort") == "descending"

    against, column = heading(page, "Points against")
    against.locator("button").click()
    values = [int(row[column]) for row in cells(page)]
    assert values == sorted(values, reverse=True)
    assert against.get_attribute("aria-sort") == "descending"
    assert [row[1] for row in cells(page)] != by_rank
    screenshots(page, "standings-sorted")


SORT_HINTS = {  # what the standings' lead says sorts them: a table's headings, or the cards'
    "en": ("Select a column's heading to sort by it.",
           "The cards are in the standings' order: where the screen is wide enough for the table"),
    "es": ("Seleccione el encabezado de una columna para ordenar por ella.",
           "Las tarjetas siguen el orden de la clasificación"),
    "it": ("Seleziona l'intestazione di una colonna per ordinare in base a essa.",
           "Le schede seguono l'ordine della classifica")}


@pytest.mark.parametrize("lang", sorted(SORT_HINTS))
def test_the_standings_say_what_sorts_them_as_they_are_drawn(server: tuple[Site, str], browser: Any,
                                                             lang: str) -> None:
    """A phone shows the standings as cards, with no column heading to select: it said "tap a
    column's title" there. Each form says what holds for it, and a resize changes which."""
    site, base = server
    context = browser.new_context(locale=lang, extra_http_headers={"Accept-Language": lang},
                                  viewport={"width": 360, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{base}/clubs/casino")
        table_hint, cards_hint = SORT_HINTS[lang]
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            # the table is fitted again at the next frame after a resize (pages.js): waited for
            page.wait_for_function("w => window.innerWidth === w && document.getElementById("
                                   "'standings').classList.contains('cards') === (w === 360)",
                                   arg=width)
            cards = page.eval_on_selector("#standings", "t => t.classList.contains('cards')")
            lead = page.locator("p.lead")
            page.wait_for_function("""([cards]) => [...document.querySelectorAll('[data-sort-hint]')]
                .every(h => h.hidden === (h.dataset.when !== (cards ? 'cards' : 'table')))""", arg=[cards])
            said = lead.inner_text()  # what is shown, not what is hidden
            assert (cards_hint in said) == cards and (table_hint in said) == (not cards), said
            page.screenshot(path=str(ARTIFACTS / f"standings-sort-hint-{lang}-{width}.png"))
    finally:
        context.close()


def test_the_period_filter_shows_what_the_api_gives_for_that_period(server: tuple[Site, str],
                                                                    page: Any) -> None:
    site, base = server
    page.goto(f"{base}/clubs/casino")
    everything = cells(page)
    page.get_by_label("From").fill(APRIL["from"])
    page.get_by_label("To").fill(APRIL["to"])
    with page.expect_navigation():
        page.get_by_role("button", name="Show standings").click()
    # the empty event field is left out of the address
    assert page.url == f"{base}/clubs/casino?from={APRIL['from']}&to={APRIL['to']}"
    april = cells(page)
    assert april == [shown(r) for r in api_standings(page, base, site, **APRIL)]
    assert april != everything
    caption = page.locator("#standings caption").text_content()
    assert "Apr 1, 2026" in caption and "Apr 30, 2026" in caption  # in the page's language
    twin = page.locator('link[rel="alternate"]').get_attribute("href")
    assert twin == f"/api/v1/pages/clubs/casino?from={APRIL['from']}&to={APRIL['to']}"
    answer = page.request.get(base + twin)  # public: no token
    assert [{k: v for k, v in r.items() if k != "player_id"} for r in answer.json()["standings"]] \
        == api_standings(page, base, site, **APRIL)
    screenshots(page, "standings-april")
    page.emulate_media(media="print")
    assert not page.locator("form.filters").is_visible()
    assert page.locator("#standings").is_visible()
    page.pdf(path=str(ARTIFACTS / "standings-april.pdf"))
    page.emulate_media(media="screen")


# ------------------------------------------------------------------ the player and match pages


def test_the_player_and_match_pages_render(server: tuple[Site, str], page: Any) -> None:
    site, base = server
    ana = site.players()["Ana"]
    page.goto(f"{base}/clubs/casino")
    with page.expect_navigation():
        page.locator("#standings").get_by_role("link", name="Ana", exact=True).click()
    assert page.url == f"{base}/clubs/casino/players/{ana}"
    assert page.locator("h1").text_content() == "Ana"
    rating = site.api.service.standings.rating_history("casino", ana)
    chart = page.locator("figure.chart svg")
    assert chart.is_visible() and chart.locator("circle").count() == len(rating) > 1
    assert chart.get_attribute("role") == "img"
    box = chart.bounding_box()
    assert box["width"] > 300 and box["height"] > 100
    history = cells(page, "table.history tbody tr")
    assert len(history) == len(page.request.get(
        f"{base}/api/v1/pages/clubs/casino/players/{ana}").json()["history"])
    screenshots(page, "player")

    match_id = site.finished[0]
    with page.expect_navigation():
        page.locator("table.history").get_by_role("link", name=re.compile(f"^Match {match_id}\\b")).click()
    assert page.locator("h1").text_content() == f"Match {match_id}"
    data = page.request.get(f"{base}/api/v1/pages/clubs/casino/matches/{match_id}").json()
    tiles = page.locator("ol.line li.tile")
    assert tiles.count() == sum(len(r["line"]) for r in data["rounds"]) > 0
    assert [t.get_attribute("data-tile") for t in tiles.all()[:5]] == data["rounds"][0]["line"][:5]
    assert tiles.first.is_visible()
    screenshots(page, "match")

    page.goto(f"{base}/clubs/casino/matches/{site.live}")
    assert page.locator(".badge-live").first.is_visible()
    screenshots(page, "match-live")
    page.goto(f"{base}/clubs/casino/matches/{site.disputed}")
    with page.expect_navigation():
        page.get_by_role("link", name=re.compile(r"^Dispute sheet\W+event 3$")).click()
    assert page.locator("h1").text_content() == "Dispute sheet"
    screenshots(page, "dispute-sheet")


# ------------------------------------------------------------------ a private club


def test_a_private_club_asks_for_sign_in_and_keeps_the_token_out_of_addresses(
        server: tuple[Site, str], page: Any) -> None:
    site, base = server
    token = site.api.tokens["other", "viewer"]
    requests: list[tuple[str, str | None]] = []
    page.on("request", lambda r: requests.append((r.url, r.headers.get("authorization"))))

    response = page.goto(f"{base}/clubs/other")
    assert response.status == 401
    assert page.locator("h1").text_content() == "Sign in"
    assert page.locator("#standings").count() == 0
    screenshots(page, "sign-in")

    page.get_by_label("Token").fill("not a token")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_text("That token was refused").wait_for()
    assert page.evaluate("sessionStorage.getItem('domino-referee.token')") is None

    page.get_by_label("Token").fill(token)
    page.get_by_role("button", name="Sign in").click()
    page.locator("h1", has_text="Other").wait_for()
    assert page.url == f"{base}/clubs/other"
    # its one match is live: its four players are listed, not ranked
    assert page.locator("#standings tbody.unranked tr[data-player]").count() == 4
    assert page.evaluate("sessionStorage.getItem('domino-referee.token')") == token
    screenshots(page, "private-signed-in")

    # a link is a plain link: the page it reaches signs in again from the tab's token
    match_id = site.api.matches["other"]
    page.get_by_role("link", name=f"Match {match_id}").click()
    page.locator("h1", has_text=f"Match {match_id}").wait_for()
    assert page.url == f"{base}/clubs/other/matches/{match_id}"
    assert page.locator("ol.line li.tile").count() == 0  # only the deal: nothing on the line

    assert all(token not in url for url, _ in requests)
    assert (f"{base}/clubs/other", f"Bearer {token}") in requests
    page.get_by_role("button", name="Sign out").click()
    page.locator("h1", has_text="Sign in").wait_for()
    assert page.evaluate("sessionStorage.getItem('domino-referee.token')") is None


# ------------------------------------------------------------------ phones and contrast


def test_pages_fit_a_360_pixel_phone(server: tuple[Site, str], page: Any) -> None:
    site, base = server
    page.set_viewport_size({"width": 360, "height": 800})
    for path in ("/clubs/casino", f"/clubs/casino/players/{site.players()['Ana']}",
                 f"/clubs/casino/matches/{site.finished[1]}", f"/clubs/casino/matches/{site.live}",
                 "/clubs/other"):
        page.goto(base + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
    page.goto(f"{base}/clubs/casino")
    wrap = page.locator(".table-wrap").first
    # the wide table is a card a row (test_pages_responsive_browser.py checks every page):
    # nothing to scroll sideways, the player's name on top of his card, his numbers in sight
    page.wait_for_selector("#standings.cards")
    assert wrap.evaluate("w => w.scrollWidth <= w.clientWidth")
    row = page.locator("#standings tbody tr").first
    name, rank = row.locator("th").bounding_box(), row.locator("td").first.bounding_box()
    assert name["y"] < rank["y"]
    box = wrap.bounding_box()
    for cell in row.locator("td").all():
        cell_box = cell.bounding_box()
        assert box["x"] <= cell_box["x"] and cell_box["x"] + cell_box["width"] <= box["x"] + box["width"]
    screenshots_at_phone(page, "standings-cards")


CONTRAST = """() => {
  const parse = c => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return {rgb: p.slice(0, 3), a: p.length > 3 ? p[3] : 1}; };
  const lum = rgb => { const l = rgb.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]; };
  const background = el => { for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a > 0) return c.rgb; } return [255, 255, 255]; };
  const bad = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg, .visually-hidden')) continue;
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const fg = parse(getComputedStyle(el).color).rgb, bg = background(el);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    if (ratio < 4.5) bad.push(el.tagName + ' "' + el.textContent.trim().slice(0, 30) + '" ' + ratio.toFixed(2));
  }
  return bad;
}"""


def test_text_contrasts_at_least_4_5_to_1_as_rendered(server: tuple[Site, str], page: Any) -> None:
    site, base = server
    for path in ("/clubs/casino", f"/clubs/casino/players/{site.players()['Ana']}",
                 f"/clubs/casino/matches/{site.disputed}", f"/clubs/casino/matches/{site.live}",
                 "/clubs/other"):
        page.goto(base + path)
        assert page.evaluate(CONTRAST) == [], path
