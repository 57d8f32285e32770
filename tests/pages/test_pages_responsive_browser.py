"""Every club page readable on a 360-pixel phone and a 1280-pixel desktop, in English, Spanish
and Italian (whose words are longer), in a real browser (Debian's chromium under playwright, as
test_pages_browser.py drives it; skipped as it is):

- no page is wider than the window (no sideways scroll), and no element is;
- every number people read (a score, points, a rating, a count, a status) lies inside the
  window and inside whatever box scrolls or clips it, and is not cut itself;
- on the desktop, the standings fit their region (no column, "Rating" or "Disputed" say, cut
  or scrolled out of sight) and a rating with its "(provisional)" stays in its card.

Screenshots of every page at both widths in each language: tests/pages/artifacts/
responsive-{lang}-{page}-{width}.png (DOMINO_PAGES_ARTIFACTS names another folder)."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import served
from pages_site import Site, build_site
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)
from tournament_helpers import RULES, play_round

WIDTHS = (360, 1280)
LANGUAGES = ("en", "es", "it")
PAIRS = [["Ana", "Beto"], ["Carla", "Dani"], ["Elena", "Fede"], ["Gabriela", "Horacio"],
         ["Inmaculada", "Jacinto"]]

# What people read as numbers, statuses and badges: each must be seen whole.
NUMBERS = ("td.num, th.num, [data-col], .facts dd, .badge, .board-status, "
           "[data-field=counts], [data-field=sides], .result")

MEASURE = """(numbers) => {
  const width = window.innerWidth;
  const problems = [];
  const visible = el => {
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') { return false; }
    if (el.closest('.visually-hidden, .skip, thead')) { return false; }
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const describe = el => el.outerHTML.slice(0, 100);
  document.querySelectorAll('body *').forEach(el => {
    if (!visible(el) || el.closest('svg, details:not([open])')) { return; }
    const box = el.getBoundingClientRect();
    if (box.width > width + 1) { problems.push('wider than the window: ' + describe(el)); }
  });
  document.querySelectorAll(numbers).forEach(el => {
    if (!visible(el) || el.closest('details:not([open])')) { return; }
    const box = el.getBoundingClientRect();
    if (box.left < -1 || box.right > width + 1) {
      problems.push('number outside the window: ' + describe(el));
    }
    // inside every ancestor that scrolls or clips it
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX === 'visible') { continue; }
      const frame = up.getBoundingClientRect();
      if (box.left < frame.left - 1 || box.right > frame.right + 1) {
        problems.push('number scrolled or clipped out of ' + up.className + ': ' + describe(el));
        break;
      }
    }
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') {
      problems.push('number cut: ' + describe(el));
    }
  });
  return {width: document.documentElement.scrollWidth, inner: width, problems: problems};
}"""

DESKTOP = """() => {
  const problems = [];
  document.querySelectorAll('table.standings').forEach(table => {
    if (getComputedStyle(table).display !== 'table') { problems.push('standings not a table: ' + table.id); }
    const wrap = table.closest('.table-wrap');
    if (wrap && wrap.scrollWidth > wrap.clientWidth + 1) {
      problems.push('standings scroll sideways: ' + wrap.scrollWidth + ' > ' + wrap.clientWidth);
    }
    if (getComputedStyle(table).display !== 'table') { return; }
    table.querySelectorAll('thead th').forEach(th => {
      if (th.scrollWidth > th.clientWidth + 1) { problems.push('heading cut: ' + th.textContent.trim()); }
    });
  });
  document.querySelectorAll('.facts dd, .facts div').forEach(el => {
    if (el.scrollWidth > el.clientWidth + 1) { problems.push('spills out of its card: ' + el.textContent.trim()); }
  });
  return problems;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, str]]:
    site = build_site(f"sqlite:///{tmp_path_factory.mktemp('responsive') / 'domino.db'}")
    svc = site.api.service
    svc.tournaments.create("casino", "copa", "Copa de otoño de la liga", rules=RULES,
                           format="pairs", rounds=3, entrants=PAIRS, bye_points=15,
                           starts_on="2026-11-28", ends_on="2026-11-29")
    svc.tournaments.pair("casino", "copa")
    play_round(svc, "casino", "copa", 1, seed=41)
    svc.tournaments.pair("casino", "copa")
    with served(site.api.app) as base:
        yield site, base
    svc.close()


def pages_of(site: Site) -> list[tuple[str, str]]:
    player = site.players()["Ana"]
    return [("home", "/"),
            ("club", "/clubs/casino"),
            ("club-filtered", "/clubs/casino?from=2026-04-01&to=2026-04-30&event=League"),
            ("players", "/clubs/casino/players"),
            ("matches", "/clubs/casino/matches"),
            ("matches-filtered", "/clubs/casino/matches?event=Spring+cup&status=finished"),
            ("tournaments", "/clubs/casino/tournaments"),
            ("tournament", "/clubs/casino/tournaments/copa"),
            ("player", f"/clubs/casino/players/{player}"),
            ("match-finished", f"/clubs/casino/matches/{site.finished[0]}"),
            ("match-live", f"/clubs/casino/matches/{site.live}"),
            ("match-disputed", f"/clubs/casino/matches/{site.disputed}"),
            ("scoreboard", "/clubs/casino/scoreboard"),
            ("sign-in", "/clubs/other"),
            ("not-found", "/clubs/casino/players/999999"),
            ("no-page", "/clubs/casino/nowhere"),
            ("bad-date", "/clubs/casino/matches?from=2026-02-30")]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_reads_whole_at_this_width(server: tuple[Site, str], browser: Any,
                                              lang: str, width: int) -> None:
    site, base = server
    context = browser.new_context(viewport={"width": width, "height": 800})
    context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    found: dict[str, list[str]] = {}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        for name, path in pages_of(site):
            page.goto(base + path)
            if name == "scoreboard":
                page.wait_for_selector("#live-state[data-state=live]")
            assert page.evaluate("document.documentElement.lang") == lang, path
            if page.locator(".table-wrap > table").count():
                # pages.js has labelled the tables (each row a card on a phone)
                page.wait_for_selector(".table-wrap > table.reflow", state="attached")
            measured = page.evaluate(MEASURE, NUMBERS)
            problems = list(measured["problems"])
            if measured["width"] > measured["inner"]:
                problems.append(f"page {measured['width']} px wide in a {width} px window")
            if width >= 1280:
                problems += page.evaluate(DESKTOP)
            if problems:
                found[path] = problems
            page.screenshot(path=str(ARTIFACTS / f"responsive-{lang}-{name}-{width}.png"),
                            full_page=True)
    finally:
        context.close()
    assert found == {}, found
    assert not errors, errors


def test_a_table_on_a_phone_is_a_card_a_row_labelled_by_its_columns(server: tuple[Site, str],
                                                                    browser: Any) -> None:
    site, base = server
    context = browser.new_context(viewport={"width": 360, "height": 800})
    context.add_cookies([{"name": "lang", "value": "es", "url": base}])
    page = context.new_page()
    try:
        page.goto(base + "/clubs/casino")
        first = page.locator("#standings tbody tr").first
        labels = first.locator("td").evaluate_all("cells => cells.map(c => c.dataset.label)")
        heads = page.locator("#standings thead th").evaluate_all(
            "ths => ths.map(th => th.textContent.replace(/\\s+/g, ' ').trim())")
        # every cell but the row's heading (the player, the card's title) labelled by its column
        assert labels == heads[:1] + heads[2:] and all(labels)
        # each cell a line of the card: the label on the left, the number on the right
        rating = first.locator("td[data-col=rating]")
        before = rating.evaluate("c => getComputedStyle(c, '::before').content")
        assert before.strip('"') == rating.get_attribute("data-label")
        assert rating.evaluate("c => getComputedStyle(c).display") == "block"
        assert page.locator("#standings").get_attribute("class") == "standings reflow cards"
        # a screen reader still reads a table: roles kept whatever the display
        assert page.locator("#standings").get_attribute("role") == "table"
        assert first.get_attribute("role") == "row"
        # on a wide screen the same table is a table again
        page.set_viewport_size({"width": 1280, "height": 800})
        assert page.locator("#standings").evaluate("t => getComputedStyle(t).display") == "table"
    finally:
        context.close()
