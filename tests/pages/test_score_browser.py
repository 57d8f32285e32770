"""The scorekeeper's page (/score) in a real browser: Debian's chromium driven by playwright, at
360x800 like a phone, against the app under waitress. Skipped, saying why, where playwright or
chromium is missing (test_pages_browser's fixtures and checks).

Everything is recorded by taps on the buttons' stable hooks (data-event, data-reveal-pips,
data-reveal, data-seq, #message): a closed parejas round and its reveals, matching what
``domino validate`` makes of the same match recorded open; an open mano-a-mano round with draws
in sight; a refused tap recorded as disputed; a double tap; a second phone that is stale; the
network cut during a tap (playwright's offline mode, an answer lost, a reload). Screenshots go
to tests/pages/artifacts/ (DOMINO_PAGES_ARTIFACTS names another); the time from a tap to its
answer drawn is printed, not asserted.
"""

from __future__ import annotations

import json
import random
import re
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest
from api_helpers import Api, make_api, served
from browser_helpers import axe_findings
from test_pages_browser import ARTIFACTS, CONTRAST, pytestmark, sync_api  # noqa: F401 (pytestmark marks the browser tests)

from referee.core.log import make_log, write_log
from referee.core.match import Match
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 360, "height": 800}
TIMINGS: list[float] = []  # ms from a tap to the screen after it drawn (one request)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    yield from phone_server(tmp_path_factory)


def phone_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    """The app served on a database of its own (this module's ``server``, and
    test_score_words_browser.py's)."""
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('score') / 'domino.db'}", ACCESS_LOG="0")
    with served(api.app) as base:
        yield api, base
    api.service.close()
    if len(TIMINGS) > 1:
        print(f"\ntap to the screen after it, {len(TIMINGS)} taps: median "
              f"{statistics.median(TIMINGS):.1f} ms, 90th percentile "
              f"{statistics.quantiles(TIMINGS, n=10)[-1]:.1f} ms, max {max(TIMINGS):.1f} ms")


# What a tap reads of the page before it, in one call (three to five calls, each a round trip
# to the browser, before): the table's seq, whether the seat's lead button is there and
# pressed, whether the button tapped is shown (playwright's is_visible: styled visible, with
# a box) or folded in a picker (read again after a lead button's click, which draws the tiles).
BEFORE_TAP = """([leader, button]) => {
  const lead = document.querySelector(leader), tap = document.querySelector(button);
  const box = tap && tap.getBoundingClientRect();
  return {seq: Number(document.querySelector('#state').getAttribute('data-seq') || '0'),
          leader: lead !== null, pressed: lead && lead.getAttribute('aria-pressed'),
          shown: tap !== null && tap.checkVisibility() && getComputedStyle(tap).visibility === 'visible'
                 && box.width > 0 && box.height > 0};
}"""


class Phone:
    """One phone: a browser context at 360x800 with the token kept, on the page of a match."""

    def __init__(self, browser: Any, base: str, token: str | None, lang: str = "en",
                 poll_ms: int = 0) -> None:
        # the page speaks the browser's language (Accept-Language; docs/i18n.md)
        self.context = browser.new_context(viewport=PHONE, has_touch=True, locale=lang,
                                           extra_http_headers={"Accept-Language": lang})
        setup = f"localStorage.setItem('domino-referee.score.poll', '{poll_ms}');"  # 0: no poll
        if token is not None:
            setup += f"localStorage.setItem('domino-referee.score.token', {json.dumps(token)});"
        self.context.add_init_script(setup)
        self.page = self.context.new_page()
        self.base = base
        self.errors: list[str] = []
        self.urls: list[str] = []
        self.requests: list[tuple[str, str]] = []  # (method, path) of each API call
        self._listen()

    def reopen(self) -> None:
        """The page closed (whatever it was doing stops) and opened again, as after a reload."""
        url = self.page.url
        self.page.close()
        self.page = self.context.new_page()
        self._listen()
        self.page.goto(url)

    def _listen(self) -> None:
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error"
                     and "Failed to load resource" not in m.text else None)
        self.page.on("request", self._request)

    def _request(self, request: Any) -> None:
        self.urls.append(request.url)
        path = request.url.removeprefix(self.base)
        if path.startswith("/api/"):
            self.requests.append((request.method, path))

    def open(self, match_id: int) -> "Phone":
        self.page.goto(f"{self.base}/score/matches/{match_id}")
        self.page.wait_for_selector("#state[aria-busy=false]")
        return self

    @property
    def seq(self) -> int:
        return int(self.page.get_attribute("#state", "data-seq") or "0")

    @property
    def status(self) -> str:
        # the message line (role status, or alert while it says a refusal)
        return self.page.locator("#message").text_content() or ""

    def button(self, event: dict[str, Any]) -> Any:
        return self.page.locator(f"button[data-event='{hook(event)}']")

    def tap(self, event: dict[str, Any], stored: bool = True) -> None:
        """Tap the button that appends ``event``; wait until the table shows it stored (or, for
        a tap the referee refuses, until the refusal shows). A tap is one request: the append,
        whose answer carries the screen after it, its words among it (the undo's name too)."""
        leader = f"#leads button[data-leader='{event.get('seat')}']"
        now = self.page.evaluate(BEFORE_TAP, [leader, f"button[data-event='{hook(event)}']"])
        before = now["seq"]
        sent = len(self.requests)
        shown = now["shown"]
        if now["leader"] and now["pressed"] != "true":
            self.page.click(leader)  # a lead several seats may make: who leads, then the tile
            shown = self.button(event).first.is_visible()  # its tiles drawn by that click
        if not shown:  # in a folded picker: unfold it
            self.page.locator(f"details:has(button[data-event='{hook(event)}']) > summary").click()
        self.button(event).first.click()
        if stored:  # the table shows it and the controls are back (#actions follows #state)
            self.page.wait_for_selector(f"#state[data-seq='{before + 1}'] ~ #actions[aria-busy=false]")
        else:
            self.page.wait_for_selector("#refused")
        assert self.requests[sent:] == [
            ("POST", self.page.url.removeprefix(self.base).replace("/score/", "/api/v1/") + "/events")]
        TIMINGS.extend(self.page.evaluate("() => window.scoreTimings.splice(0)"))

    def shot(self, name: str, wide: bool = False) -> None:
        """A screenshot at 360x800; with ``wide``, at 1280x900 too (a tablet on the table)."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.evaluate("() => window.scrollTo(0, 0)")  # the sticky bar drawn at the top
        self.page.screenshot(path=str(ARTIFACTS / f"score-{name}-360x800.png"), full_page=True)
        if wide:
            self.page.set_viewport_size({"width": 1280, "height": 900})
            self.page.screenshot(path=str(ARTIFACTS / f"score-{name}-1280x900.png"), full_page=True)
            self.page.set_viewport_size(PHONE)

    def check_layout(self) -> None:
        """Fits 360 px; every control at least 44 px each way; text contrast at least 4.5:1."""
        page = self.page
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        small = page.evaluate("""() => Array.from(document.querySelectorAll(
            'main button, main input, main select, main summary, .match-link'))
          .filter(e => e.getClientRects().length)
          .map(e => [e.id || e.getAttribute('data-event') || e.textContent.trim().slice(0, 30),
                     e.getBoundingClientRect().width, e.getBoundingClientRect().height])
          .filter(([, w, h]) => w < 44 || h < 44)""")
        assert small == []
        assert page.evaluate(CONTRAST) == []
        unlabelled = page.evaluate("""() => Array.from(document.querySelectorAll('input, select'))
          .filter(i => i.type !== 'hidden' && !(i.labels && i.labels.length)).map(i => i.id)""")
        assert unlabelled == []

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


def hook(event: dict[str, Any]) -> str:
    """An event as its button's data-event holds it (JSON.stringify's spelling)."""
    return json.dumps(event, separators=(",", ":"))


@pytest.fixture
def phones(browser: Any, server: tuple[Api, str]) -> Iterator[Any]:
    api, base = server
    opened: list[Phone] = []

    def phone(token: str | None = api.tokens["casino", "scorekeeper"]) -> Phone:
        opened.append(Phone(browser, base, token))
        return opened[-1]

    yield phone
    for p in opened:
        p.close()
        assert not any(api.tokens["casino", "scorekeeper"] in url for url in p.urls)


def new_match(api: Api, rules: str, players: list[str]) -> int:
    return api.service.recording.create_match("casino", rules, players)["id"]


def events_of(api: Api, match_id: int) -> list[dict[str, Any]]:
    return [r["event"] for r in api.service.reading.list_events(match_id)]


def first_round(rules: Any, players: list[str], events: list[dict[str, Any]],
                whole: bool = False) -> list[dict[str, Any]]:
    """A simulated match's first round (its deal and what was played up to the next deal; with
    ``whole``, the whole match), each play written as its button sends it: the tile high pip
    first, ``end`` only when the tile fits both ends and they differ (the simulator sometimes
    names it anyway)."""
    match = Match(resolve_rules(rules, len(players)), players)
    tapped = [events[0]]
    assert match.push(events[0]) is None
    for event in events[1:]:
        if event["type"] == "deal" and not whole:
            break
        if event["type"] == "play":
            ts = match.tiles
            tile = ts.parse(event["tile"])
            event = {"type": "play", "seat": event["seat"], "tile": ts.names[tile], **(
                {"end": event["end"]} if match.left is not None and match.left != match.right
                and {match.left, match.right} <= {ts.high[tile], ts.low[tile]} else {})}
        assert match.push(event) is None
        tapped.append(event)
    return tapped


def validate(path: Path) -> dict[str, Any]:
    """``domino validate --json`` of a log file."""
    done = subprocess.run([sys.executable, "-c", "from cli.entry import main; main()",
                           "validate", "--json", str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def exported(api: Api, phone: Phone, match_id: int, path: Path) -> dict[str, Any]:
    """The match's log as the API exports it to this phone's token, refereed by the CLI."""
    answer = phone.page.request.get(f"{phone.base}/api/v1/matches/{match_id}/log",
                                    headers=api.auth("scorekeeper"))
    assert answer.status == 200
    path.write_text(answer.text())
    return validate(path)


def reveals(rules: str, players: list[str],
            round_events: list[dict[str, Any]]) -> dict[int, tuple[int, list[str]]]:
    """The pips and the tiles each seat holds when the (open) round ends."""
    match = Match(resolve_rules(rules, len(players)), players)
    for event in round_events:
        assert match.push(event) is None
    ts = match.tiles
    return {s: (ts.mask_pips(match.known[s]), ts.mask_names(match.known[s]))
            for s in range(len(players))}


# ------------------------------------------------------------------ signing in, starting


def test_sign_in_and_start_a_match_from_the_phone(server: tuple[Api, str], phones: Any) -> None:
    api, base = server
    phone = phones(None)
    page = phone.page
    page.goto(f"{base}/score")
    page.wait_for_selector("#sign-in:not([hidden])")
    phone.check_layout()
    phone.shot("sign-in")
    page.fill("#token", "dr_not-a-token")
    page.click("#sign-in button[type=submit]")
    page.wait_for_selector(".message.error")
    assert "not known" in phone.status
    page.fill("#token", api.tokens["casino", "scorekeeper"])
    page.click("#sign-in button[type=submit]")
    page.wait_for_selector("#club:not([hidden])")
    page.wait_for_selector(f"a[href='/score/matches/{api.matches['casino']}']")  # the live one
    page.wait_for_selector("#club-players option[value=Ana]", state="attached")
    page.select_option("#preset", "mano-a-mano")
    assert page.is_hidden("#player-2")  # two seats
    before = api.service.reading.list_matches("casino", limit=500)[1]
    page.fill("#player-0", "Ana")
    page.fill("#player-1", "Anna")  # close to Ana: asked, then confirmed new
    page.fill("#table", "7")
    page.click("#new-match button[type=submit]")
    page.wait_for_selector("#did-you-mean:not([hidden]) button[data-new='Anna']")
    assert "check the names" in phone.status.lower()
    assert api.service.reading.list_matches("casino", limit=500)[1] == before  # nothing yet
    phone.check_layout()
    phone.shot("start", wide=True)
    page.click("button[data-new='Anna']")  # the last name answered: the start is sent again
    page.wait_for_url("**/score/matches/*")
    page.wait_for_selector("#state[aria-busy=false]")
    match_id = int(page.url.rsplit("/", 1)[1])
    summary = api.service.reading.get_match(match_id)
    assert summary["players"] == ["Ana", "Anna"] and summary["table"] == "7"
    assert "Anna" in {p["name"] for p in api.service.players.list("casino", limit=500)[0]}
    assert page.locator("#title").text_content() == f"Match {match_id} · table 7"
    assert page.evaluate("localStorage.getItem('domino-referee.score.token')") is not None
    page.click("#sign-out")
    page.wait_for_selector("#sign-in:not([hidden])")
    assert page.evaluate("localStorage.getItem('domino-referee.score.token')") is None


# ------------------------------------------------------------------ whole rounds by taps


def test_a_closed_parejas_round_and_its_reveals_by_taps(server: tuple[Api, str], phones: Any,
                                                        tmp_path: Path) -> None:
    api, _ = server
    players = ["Ana", "Beto", "Carla", "Dani"]
    _, simulated = random_match("parejas", players, random.Random(11))
    round_events = first_round("parejas", players, simulated)
    match_id = new_match(api, "parejas", players)
    phone = phones().open(match_id)
    phone.check_layout()
    phone.tap({"type": "deal"})  # closed: no hand seen
    # four hands of seven, nothing drawn: no boneyard to speak of (it said "Boneyard 0")
    facts = phone.page.eval_on_selector_all("dl.facts dt", "dts => dts.map(d => d.textContent)")
    assert "Open ends" in facts and "Boneyard" not in facts and "Sleeping tiles" not in facts
    assert phone.page.locator("[data-event*='\"seat\":3,\"tile\":\"6-6\"']").count() == 1
    phone.check_layout()
    phone.shot("parejas-lead", wide=True)
    for n, event in enumerate(round_events[1:]):
        if n:  # after the lead: whose turn, by name
            assert phone.page.locator("#turn strong").text_content() == players[event["seat"]]
        phone.tap(event)
        if n == 6:
            phone.shot("parejas-closed-play")
    pips = reveals("parejas", players, round_events)
    owed = sorted(int(s) for s in phone.page.eval_on_selector_all(
        "input[data-reveal-pips]", "xs => xs.map(x => x.dataset.revealPips)"))
    assert owed and all(pips[s][0] > 0 for s in owed)
    phone.check_layout()
    phone.shot("parejas-reveals", wide=True)
    for n, seat in enumerate(owed):  # the first by its tiles, the others by their pips
        before = phone.seq
        if n == 0:
            phone.page.fill(f"input[data-reveal-tiles='{seat}']", " ".join(pips[seat][1]))
            phone.page.click(f"button[data-reveal-tiles-button='{seat}']")
        else:
            phone.page.fill(f"input[data-reveal-pips='{seat}']", str(pips[seat][0]))
            assert phone.page.get_attribute(f"button[data-reveal='{seat}']", "data-event") == \
                hook({"type": "reveal", "seat": seat, "pips": pips[seat][0]})
            phone.page.click(f"button[data-reveal='{seat}']")
        phone.page.wait_for_selector(f"#state[data-seq='{before + 1}']")
    assert events_of(api, match_id)[-len(owed)]["tiles"] == pips[owed[0]][1]
    phone.page.wait_for_selector("#deal-closed")
    phone.shot("parejas-round-over")

    report = exported(api, phone, match_id, tmp_path / "closed.jsonl")
    open_log = tmp_path / "open.jsonl"
    open_log.write_text(write_log(make_log({"format": "domino-log/1", "rules": "parejas",
                                            "players": players}, round_events)))
    expected = validate(open_log)
    assert report["valid"] and report["violations"] == []
    keep = ("round", "opener", "outcome", "winner", "points", "pips", "blocked_by")
    assert [{k: r[k] for k in keep} for r in report["rounds"]] == \
        [{k: r[k] for k in keep} for r in expected["rounds"]]
    assert report["totals"] == expected["totals"] and sum(report["totals"]) > 0
    shown = phone.page.eval_on_selector_all("#totals td", "tds => tds.map(t => Number(t.textContent))")
    assert shown == report["totals"]


def test_an_open_mano_a_mano_round_with_draws_by_taps(server: tuple[Api, str], phones: Any,
                                                      tmp_path: Path) -> None:
    api, _ = server
    players = ["Ana", "Beto"]
    round_events = next(events for events in (
        first_round("mano-a-mano", players, random_match("mano-a-mano", players, random.Random(seed))[1])
        for seed in range(100)) if any(e["type"] == "draw" for e in events))
    match_id = new_match(api, "mano-a-mano", players)
    phone = phones().open(match_id)
    page = phone.page
    page.click("#deal-open-form > summary")
    for seat, hand in enumerate(round_events[0]["hands"]):
        page.fill(f"input[data-hand='{seat}']", " ".join(hand))
    assert page.get_attribute("#deal-open", "data-event") == hook(round_events[0])
    phone.check_layout()
    phone.shot("open-deal")
    phone.tap(round_events[0])
    draws = 0
    for event in round_events[1:]:
        if event["type"] == "draw":
            draws += 1
            if draws == 1:
                page.click("#draw-seen > summary")
                phone.check_layout()
                phone.shot("open-draw", wide=True)
                page.click("#draw-seen > summary")
        phone.tap(event)
    assert draws
    assert "Boneyard" in phone.page.eval_on_selector_all(  # a game that draws keeps its own
        "dl.facts dt", "dts => dts.map(d => d.textContent)")
    report = exported(api, phone, match_id, tmp_path / "open.jsonl")
    assert events_of(api, match_id) == round_events
    assert report["valid"] and report["rounds"][0]["outcome"] in ("domino", "blocked")
    assert phone.page.eval_on_selector_all("#totals td", "tds => tds.map(t => Number(t.textContent))") \
        == report["totals"]


def test_a_whole_match_to_its_winner_by_taps(server: tuple[Api, str], phones: Any,
                                             tmp_path: Path) -> None:
    api, _ = server
    players, rules = ["Ana", "Beto"], {"preset": "mano-a-mano", "hand_size": 4, "target": 30}
    events = first_round(rules, players, random_match(rules, players, random.Random(0))[1],
                         whole=True)
    assert sum(e["type"] == "deal" for e in events) > 2
    match_id = api.service.recording.create_match("casino", rules, players)["id"]
    phone = phones().open(match_id)
    page = phone.page
    for event in events:
        if event["type"] == "deal":
            page.click("#deal-open-form > summary")
            for seat, hand in enumerate(event["hands"]):
                page.fill(f"input[data-hand='{seat}']", " ".join(hand))
        elif event["type"] == "note":
            page.fill("#note-text", event["text"])
        phone.tap(event)
    report = exported(api, phone, match_id, tmp_path / "match.jsonl")
    assert report["valid"] and report["finished"] and report["winner"] is not None
    assert events_of(api, match_id) == events
    winner = api.service.reading.screen(match_id).winner_name
    assert page.locator("#phase").text_content() == f"Match over: {winner} won"
    assert page.locator("#deal-closed").count() == 0  # nothing more to deal
    # the match is over: no undo (only a referee changes its record now)
    assert page.locator("#undo").count() == 0
    phone.check_layout()
    phone.shot("match-over")


# ------------------------------------------------------------------ refusals and undo


@dataclass
class Table:
    """A mano-a-mano match dealt open by the scorekeeper's token and its lead played (the next
    three events are plays), open on a phone signed in with that token."""

    api: Api
    match_id: int
    events: list[dict[str, Any]]  # the round, as taps send it
    phone: Phone


@pytest.fixture
def table(server: tuple[Api, str], phones: Any) -> Table:
    api, _ = server
    players = ["Ana", "Beto"]
    simulated = next(events for events in (
        first_round("mano-a-mano", players, random_match("mano-a-mano", players, random.Random(seed))[1])
        for seed in range(50)) if all(e["type"] == "play" for e in events[1:5]))
    match_id = new_match(api, "mano-a-mano", players)
    api.record(match_id, simulated[:2], start=0)
    return Table(api, match_id, simulated, phones().open(match_id))


def test_a_refused_tap_shows_the_reason_and_is_recorded_as_disputed(table: Table) -> None:
    api, match_id, phone = table.api, table.match_id, table.phone
    page = phone.page
    seat = api.service.reading.screen(match_id).position.turn
    assert page.locator("#plays button").count() > 0  # it holds a tile that fits
    phone.tap({"type": "pass", "seat": seat}, stored=False)
    assert "refused" in phone.status and "passed holding" in phone.status
    assert phone.seq == 2
    # the reason said beside the buttons too, in the window where the tap was (at 360 px the
    # message line is at the top of the page)
    offer = page.locator("#refused")
    assert "passed holding" in offer.inner_text()
    box = offer.bounding_box()
    assert box and -1 <= box["y"] and box["y"] + box["height"] <= PHONE["height"] + 1, box
    phone.check_layout()
    phone.shot("refused", wide=True)
    disputed = {"type": "pass", "seat": seat, "disputed": True}
    assert page.get_attribute("#record-disputed", "data-event") == hook(disputed)
    phone.tap(disputed)
    assert "Recorded as disputed" in phone.status and "waits for a referee" in phone.status
    assert events_of(api, match_id)[-1] == disputed
    page.wait_for_selector("#disputes [data-dispute='3']")
    assert "renege" in page.locator("#disputes").text_content()
    assert "waits for a referee" in page.locator("#disputes-help").text_content()
    # applied as the table played it: the next seat is to play, and its moves are offered
    following = api.service.reading.screen(match_id).position
    assert following.turn == 1 - seat
    assert page.locator("#turn strong").text_content() == ["Ana", "Beto"][1 - seat]
    assert page.locator("#record-disputed").count() == 0
    phone.check_layout()
    phone.shot("disputed", wide=True)
    play = following.legal["plays"][0]
    phone.tap({"type": "play", "seat": 1 - seat, "tile": play["tile"],
               **({"end": play["end"]} if len(following.legal["plays"]) > 1
                  and sum(p["tile"] == play["tile"] for p in following.legal["plays"]) > 1
                  else {})})
    assert phone.seq == 4 and events_of(api, match_id)[-1]["seat"] == 1 - seat
    assert page.locator("#disputes [data-dispute='3']").count() == 1  # still open


def test_undo_voids_ones_own_last_entry(table: Table, phones: Any) -> None:
    api, match_id, simulated, phone = table.api, table.match_id, table.events, table.phone
    phone.tap(simulated[2])
    undo = {"type": "void", "target": 3, "reason": "undone by the scorekeeper"}
    tile = simulated[2]["tile"]
    phone.page.wait_for_selector(f"#undo:has-text('played {tile}')")
    phone.tap(undo)
    assert events_of(api, match_id)[-1] == undo
    assert phone.page.locator("#line .tile").count() == 1  # the play is struck
    assert phone.button({"type": "void", "target": 2, "reason": "undone by the scorekeeper"}).count() == 1
    other = phones(api.service.tokens.create_token("casino", "scorekeeper")).open(match_id)
    assert other.page.locator("#undo").count() == 0  # not its entry


# ------------------------------------------------------------------ flaky Wi-Fi


def test_a_double_tap_stores_one_event(table: Table) -> None:
    api, match_id, simulated, phone = table.api, table.match_id, table.events, table.phone
    button = phone.button(simulated[2])
    button.dblclick()
    phone.page.wait_for_selector("#state[data-seq='3']")
    phone.page.wait_for_selector("#actions[aria-busy=false]")
    # and two clicks in the same moment, before the first has any answer
    phone.page.evaluate("json => { const b = Array.from(document.querySelectorAll('button'))"
                        ".find(x => x.dataset.event === json); b.click(); b.click(); }",
                        hook(simulated[3]))
    phone.page.wait_for_selector("#state[data-seq='4']")
    phone.page.wait_for_selector("#actions[aria-busy=false]")
    assert events_of(api, match_id) == simulated[:4]


def test_a_stale_second_phone_is_told_another_recorded_first(table: Table, phones: Any) -> None:
    api, match_id, simulated, first = table.api, table.match_id, table.events, table.phone
    second = phones().open(match_id)
    first.tap(simulated[2])
    second.button(simulated[2]).click()
    second.page.wait_for_selector(".message.error")
    assert "Another device recorded first" in second.status
    second.page.wait_for_selector("#state[data-seq='3']")  # the table shown again
    assert events_of(api, match_id) == simulated[:3]
    second.check_layout()
    second.shot("conflict")


def test_offline_in_the_middle_of_a_tap_stores_it_once_when_back(table: Table) -> None:
    api, match_id, simulated, phone = table.api, table.match_id, table.events, table.phone
    page = phone.page
    phone.context.set_offline(True)
    phone.button(simulated[2]).click()
    page.wait_for_selector("#message:has-text('kept on this phone')")
    assert page.get_attribute("#net", "data-net") == "offline"
    kept = page.evaluate(f"localStorage.getItem('domino-referee.score.pending.{match_id}')")
    assert json.loads(kept)["body"] == simulated[2]
    phone.check_layout()
    phone.shot("offline")
    assert events_of(api, match_id) == simulated[:2]
    phone.context.set_offline(False)
    page.wait_for_selector("#state[data-seq='3']")
    page.wait_for_selector("#net[data-net=online]")
    assert events_of(api, match_id) == simulated[:3]

    # The answer lost on its way back: stored, then retried with the same key, stored once.
    lost: list[str] = []

    def lose_the_answer(route: Any) -> None:
        if route.request.method == "POST" and not lost:
            lost.append(route.request.headers["idempotency-key"])
            route.fetch()  # the server stores it...
            route.abort("connectionreset")  # ...and the phone never hears
        else:
            if route.request.method == "POST":
                assert route.request.headers["idempotency-key"] == lost[0]
            route.continue_()

    page.route("**/api/v1/matches/*/events", lose_the_answer)
    phone.button(simulated[3]).click()
    page.wait_for_selector("#state[data-seq='4']")
    assert "saved before the connection dropped" in phone.status
    assert events_of(api, match_id) == simulated[:4]
    page.unroute("**/api/v1/matches/*/events")

    # No answer, and the page closed: the tap comes back when it is opened again, with its key.
    page.route("**/api/v1/matches/*/events", lambda route: route.abort("internetdisconnected"))
    phone.button(simulated[4]).click()
    page.wait_for_selector("#net[data-net=offline]")
    phone.reopen()
    page = phone.page
    page.wait_for_selector("#state[data-seq='5']")
    assert events_of(api, match_id) == simulated[:5]
    assert page.evaluate(f"localStorage.getItem('domino-referee.score.pending.{match_id}')") is None


# ------------------------------------------------------------------ the page's words


SPANISH = {"lang": "es", "plural": {"one": 0, "many": 1, "other": 2}, "messages": {
    "Online": "En línea",
    "%(name)s plays": "Juega %(name)s",
    "Open dispute (%(n)s)": ["Disputa abierta (%(n)s)", "Disputas abiertas (%(n)s, muchas)",
                             "Disputas abiertas (%(n)s)"],
}}  # words.scripts' format, as the server embeds it


def test_the_page_speaks_the_dictionary_the_server_embeds(server: tuple[Api, str],
                                                          phones: Any) -> None:
    """The scripts' words come from the page's <script id="messages"> (here replaced by a
    dictionary of the test's own): a translation, a plural form by the language's rule,
    %(name)s filled in, the msgid where there is no translation."""
    api, base = server
    players = ["Ana", "Beto"]
    match_id = new_match(api, "mano-a-mano", players)
    hands = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
             ["6-4", "5-4", "4-3", "3-2", "2-1", "1-0", "0-0"]]
    api.record(match_id, [{"type": "deal", "hands": hands}, {"type": "play", "seat": 0, "tile": "6-6"},
                          {"type": "pass", "seat": 1, "disputed": True}], start=0)  # holding 6-4
    phone = phones()
    page = phone.page

    def in_spanish(route: Any) -> None:
        html = route.fetch().text()
        embedded = re.compile(r'(<script type="application/json" id="messages">)(.*?)(</script>)', re.S)
        assert embedded.search(html)
        route.fulfill(body=embedded.sub(lambda m: m.group(1) + json.dumps(SPANISH) + m.group(3), html),
                      content_type="text/html")

    page.route(f"**/score/matches/{match_id}", in_spanish)
    phone.open(match_id)
    assert page.locator("#net-text").text_content() == "En línea"
    assert page.locator("#disputes-h").text_content() == "Disputa abierta (1)"
    assert page.locator("#plays h2").text_content() == "Juega Ana"  # the pass is applied
    assert page.locator("#moves h2").text_content() == "Or"  # no entry: the msgid


def test_the_target_follows_the_preset_unless_the_scorekeeper_typed_one(
        server: tuple[Api, str], phones: Any) -> None:
    """The club's target (100) is its default preset's: mano a mano chosen plays to its own
    50 (the field emptied, its placeholder 50), the club's preset brings the 100 back; a
    target the scorekeeper typed stays whatever the preset."""
    api, base = server
    api.service.clubs.settings("casino", default_rules="parejas", default_target=100)
    try:
        page = phones().page
        page.goto(f"{base}/score")
        page.wait_for_selector("#club:not([hidden])")
        page.wait_for_function("() => document.getElementById('target').value === '100'")
        assert page.input_value("#preset") == "parejas"
        page.select_option("#preset", "mano-a-mano")
        assert page.input_value("#target") == ""
        assert page.get_attribute("#target", "placeholder") == str(resolve_rules("mano-a-mano", 2).target)
        page.select_option("#preset", "parejas")
        assert page.input_value("#target") == "100"
        page.fill("#target", "80")
        page.select_option("#preset", "mano-a-mano")
        assert page.input_value("#target") == "80"
    finally:
        api.service.clubs.settings("casino", default_rules=None, default_target=None)


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_a_closed_deals_lead_is_who_then_the_tile_on_one_panel(server: tuple[Api, str],
                                                               browser: Any, lang: str) -> None:
    """A closed mano-a-mano deal: either player may lead any of the 28 tiles. One panel asks
    who leads and shows the tiles once (not a folded list of 28 tiles a player): two taps
    record the lead, every control in reach at 360 px."""
    api, base = server
    players = ["Ana", "Beto"]
    match_id = new_match(api, "mano-a-mano", players)
    api.record(match_id, [{"type": "deal"}], start=0)
    phone = Phone(browser, base, api.tokens["casino", "scorekeeper"], lang)
    try:
        phone.open(match_id)
        page = phone.page
        panel = page.locator("#leads")
        assert page.locator("#actions details").count() == 0  # nothing folded
        assert panel.locator("button[data-leader]").all_inner_texts() == players
        tiles = panel.locator("button[data-lead-tile]")
        assert tiles.count() == 28 and all(tiles.nth(i).is_disabled() for i in range(28))
        phone.check_layout()
        phone.shot(f"closed-lead-{lang}", wide=True)
        panel.locator("button[data-leader='1']").click()
        assert panel.locator("button[data-leader='1']").get_attribute("aria-pressed") == "true"
        assert tiles.nth(0).is_enabled()
        before = phone.seq
        panel.locator("button[data-lead-tile='6-4']").click()
        page.wait_for_selector(f"#state[data-seq='{before + 1}']")
        assert events_of(api, match_id)[-1] == {"type": "play", "seat": 1, "tile": "6-4"}
        assert page.locator("#turn strong").text_content() == "Ana"
    finally:
        phone.close()


def test_the_match_page_before_the_first_deal_has_no_serious_accessibility_finding(
        server: tuple[Api, str], phones: Any) -> None:
    """axe-core on a match with nothing recorded, and after its deal: no critical or serious
    finding (an empty line of play was a role=list with no listitem: aria-required-children,
    critical)."""
    api, _ = server
    match_id = new_match(api, "parejas", ["Ana", "Beto", "Carla", "Dani"])
    phone = phones().open(match_id)
    for moment in ("before the deal", "after the deal"):
        assert axe_findings(phone.page) == [], moment
        if moment == "before the deal":
            phone.tap({"type": "deal"})


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_a_table_already_in_play_is_said_beside_the_table_field(server: tuple[Api, str],
                                                                browser: Any, lang: str) -> None:
    """A second match about to start at "Mesa 2" while one is in play at "mesa 2": a warning
    under the table field, naming that match (nothing refused: two tables may share a name);
    another table's name, no warning."""
    api, base = server
    match_id = api.service.recording.create_match("casino", "mano-a-mano", ["Ana", "Beto"],
                                                  table="mesa 2")["id"]
    phone = Phone(browser, base, api.tokens["casino", "scorekeeper"], lang)
    try:
        page = phone.page
        page.goto(f"{base}/score")
        page.wait_for_selector(f"#live a[href='/score/matches/{match_id}']")
        warning = page.locator("#table-in-use")
        assert warning.is_hidden()
        # the table the club named read as written: "· mesa 2", never "mesa mesa 2"
        link = page.locator(f"#live a[href='/score/matches/{match_id}'] .match-title").inner_text()
        word = {"en": "Match", "es": "Partida", "it": "Partita"}[lang]
        assert link == f"{word} {match_id} · mesa 2", link
        page.fill("#table", " Mesa  2")
        warning.wait_for()
        text = warning.inner_text()
        assert str(match_id) in text and ("«mesa 2»" in text or "“mesa 2”" in text), text
        assert page.get_attribute("#table", "aria-describedby") == "table-in-use"
        box, field = warning.bounding_box(), page.locator("#table").bounding_box()
        assert box and field and 0 <= box["y"] - (field["y"] + field["height"]) <= 120
        phone.shot(f"table-in-use-{lang}")
        page.fill("#table", "mesa 3")
        assert warning.is_hidden()
    finally:
        phone.close()
