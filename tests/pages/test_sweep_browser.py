"""A sweep of a league club's pages as the people who read them do, in a real browser (Debian's
chromium under playwright; skipped as test_pages_browser.py says), in English, Spanish and
Italian, at 360 px and at 1280 px: the club's public pages, the season's (its home, a division's
table, the fixtures, a team, the averages), its team cup's and a players' cup's, the points
family's matches (fives and threes, all fives), a dispute's sheet, the club desk, its league,
cups, disputes and tournaments desks, a team captain's desk and the phone. On each:

- nothing needs a sideways scroll (browser_helpers.WHOLE; a cup's bracket scrolls inside its
  own box by design, test_cup_pages_browser.py);
- every control and menu link is 44 px or more each way (browser_helpers.SMALL_TARGETS: the
  club's menu was 19 px high, the desk's Sign out 32 px wide, its check boxes 24 px, a
  table's sortable headings at 1280 px 21 px high), and no link stands against a button
  (browser_helpers.CRAMPED);
- no script error and nothing refused in the console (the desk's first answer, its sign-in
  page's 401, is how it asks for the token the tab keeps);
- no axe-core violation at all, of any impact (the desk named its players' and tokens' lists
  twice, section and scroller: landmark-unique; the dispute sheet had no main landmark).

Screenshots: tests/pages/artifacts/sweep-{lang}-{page}-{width}.png."""

from __future__ import annotations

import random
from typing import Any, Iterator

import pytest
from api_helpers import Api, make_api, served
from browser_helpers import CRAMPED, SMALL_TARGETS, WHOLE, axe_findings
from league_helpers import fixture_id, play, set_up, win_game
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)
from test_pages_words_browser import drawn
from words_site import RENEGE, SMALL

from referee.core.log import make_log, write_log
from referee.core.simulate import random_match

CLUB = "/clubs/casino"
SEASON = f"{CLUB}/seasons/2027"
DESK = f"{CLUB}/desk"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str, dict[str, Any]]]:
    """casino, public: its 2027 season with Crown 2–1 Anchor played, a team cup of four drawn
    (KO), a players' double elimination with a tie played, a fives-and-threes and an all-fives
    match played out, a renege not ruled yet, a live fives-and-threes match, and Crown's
    captain's token."""
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('sweep') / 'domino.db'}", ACCESS_LOG="0")
    svc = api.service
    set_up(svc, "casino")
    svc.clubs.set_public("casino", True)
    crown = fixture_id(svc, "casino", "crown", "anchor")
    play(svc, "casino", crown, [(["Ana"], ["Dani"], 0), (["Beto"], ["Eva"], 1),
                                (["Ana", "Carla"], ["Dani", "Fede"], 0)])
    svc.leagues.create_cup("casino", "ko", "KO", season="2027",
                           entrants=["crown", "anchor", "bell", "swan"])
    svc.leagues.draw("casino", "ko", seeded=4)
    svc.leagues.create_cup("casino", "open", "Copa Abierta", kind="players",
                           entrants=["Ana", "Beto", "Carla", "Dani", "Eva"],
                           format="double_elimination")
    svc.leagues.draw("casino", "open", seed=2027, seeded=2)
    ready = [t for t in svc.leagues.cup("casino", "open")["ties"] if t["status"] == "ready"]
    win_game(svc, svc.leagues.play_tie("casino", "open", ready[0]["id"])["match"], 0)
    made: dict[str, Any] = {"captain": svc.leagues.captain("casino", "2027", "crown")}
    for preset in ("fives-and-threes", "all-fives"):
        header, events = random_match(preset, ["Ana", "Beto"], random.Random(5))
        log = write_log(make_log({**header, "date": "2026-10-03"}, events))
        made[preset] = svc.recording.import_log("casino", log)["id"]
    renege = svc.recording.create_match("casino", SMALL, ["Eva", "Ana"], table="2")["id"]
    for seq, event in enumerate(RENEGE):
        svc.recording.record_event(renege, event, expected_seq=seq)
    made["renege"] = renege
    made["live"] = svc.recording.create_match("casino", "fives-and-threes", ["Ana", "Beto"],
                                              table="3")["id"]
    with served(api.app) as base:
        yield api, base, made
    api.service.close()


def pages(made: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(name, path, who reads it: the club's secretary, or Crown's captain) of every page."""
    read = [("club", CLUB), ("players", f"{CLUB}/players"), ("matches", f"{CLUB}/matches"),
            ("seasons", f"{CLUB}/seasons"), ("season", SEASON),
            ("division", f"{SEASON}/divisions/one"), ("fixtures", f"{SEASON}/fixtures"),
            ("team", f"{SEASON}/teams/crown"), ("averages", f"{SEASON}/averages"),
            ("cups", f"{CLUB}/cups"), ("cup-ko", f"{CLUB}/cups/ko"),
            ("cup-open", f"{CLUB}/cups/open"),
            ("fives", f"{CLUB}/matches/{made['fives-and-threes']}"),
            ("all-fives", f"{CLUB}/matches/{made['all-fives']}"),
            ("renege", f"{CLUB}/matches/{made['renege']}"),
            ("sheet", f"{CLUB}/matches/{made['renege']}/disputes/3"),
            ("desk", DESK), ("desk-seasons", f"{DESK}/seasons"),
            ("desk-season", f"{DESK}/seasons/2027"), ("desk-cups", f"{DESK}/cups"),
            ("desk-cup-ko", f"{DESK}/cups/ko"), ("desk-cup-open", f"{DESK}/cups/open"),
            ("desk-disputes", f"{DESK}/disputes"), ("desk-tournaments", f"{DESK}/tournaments"),
            ("phone", "/score"), ("phone-live", f"/score/matches/{made['live']}")]
    return [(name, path, "admin") for name, path in read] + [
        ("captain-desk", f"{DESK}/seasons/2027/captain", "captain"),
        ("captain-phone", "/score", "captain")]


# A language at one width a test (six tests), not at both (three of some 65 s each): the
# slowest test bounds the end of a `-n 2` run, and xdist shares shorter tests more evenly.
@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_every_page_whole_quiet_and_clean_of_axe_findings(
        server: tuple[Api, str, dict[str, Any]], browser: Any, lang: str, width: int) -> None:
    api, base, made = server
    readers = {"admin": api.tokens["casino", "admin"], "captain": made["captain"]}
    found: dict[str, list[str]] = {}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for reader, token in readers.items():
        context = browser.new_context(viewport={"width": width, "height": 900})
        context.add_cookies([{"name": "lang", "value": lang, "url": base}])
        context.add_init_script(  # the desk's tab and the phone keep the token
            f"sessionStorage.setItem('domino-referee.token', {token!r});"
            f"localStorage.setItem('domino-referee.score.token', {token!r});"
            "localStorage.setItem('domino-referee.score.poll', '0');")
        page = context.new_page()
        said: list[str] = []
        page.on("pageerror", lambda error: said.append(str(error)))
        page.on("console", lambda m: said.append(m.text)
                if m.type == "error" and "401" not in m.text else None)
        try:
            for name, path, who in pages(made):
                if who != reader:
                    continue
                said.clear()
                page.goto(base + path)
                drawn(page, path)
                assert page.evaluate("document.documentElement.lang") == lang, path
                problems = [p for p in page.evaluate(WHOLE) if "bracket-wrap" not in p]
                problems += [f"cramped: {p}" for p in page.evaluate(CRAMPED)]
                problems += [f"small to tap: {p}" for p in page.evaluate(SMALL_TARGETS)]
                problems += said + axe_findings(page, impacts=None)
                if problems:
                    found[f"{name} at {width} px"] = problems
                page.screenshot(path=str(ARTIFACTS / f"sweep-{lang}-{name}-{width}.png"),
                                full_page=True)
        finally:
            context.close()
    assert not found, found
