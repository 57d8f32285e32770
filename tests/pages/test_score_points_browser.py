"""The points family on the scorekeeper's phone, in a real browser (chromium through playwright,
as tests/pages/test_score_browser.py) at 360 px, in English, Spanish and Italian: a Fives and
Threes pairs match recorded closed to 61 (busts under the exact target among it) and an All
Fives match with a spinner, every play by a tap on an open end of the drawn layout and then the
tile, every knock and draw by its button, the reveals typed. At every step the page's count is
the open record's, each side's strip shows its total, a play that scored says so in words
("15 — 8 points", "bust: 62 is past 61"); at the end the phone's closed record is refereed as
the open one. Screenshots: tests/pages/artifacts/score-points-*.png."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Iterator

import pytest
from api_helpers import Api
from test_pages_browser import pytestmark, sync_api  # noqa: F401 (pytestmark marks the browser tests)
from test_score_browser import Phone, exported, new_match, phone_server, validate
from test_score_words_browser import phone_in  # noqa: F401 (a fixture: a phone in a language)

from referee.core.counting import CountedLine
from referee.core.log import make_log, read_log, write_log
from referee.core.match import Match
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match

ROOT = Path(__file__).resolve().parents[2]
SIDE_NAMES = {"L": "left", "R": "right", "U": "up", "D": "down"}

# What the page says (the catalogs' words), in English, Spanish and Italian.
LANGS = ("en", "es", "it")
SAID = {
    "scored": ("{count} — {points} points", "{count} — {points} puntos", "{count} — {points} punti"),
    "scored1": ("{count} — {points} point", "{count} — {points} punto", "{count} — {points} punto"),
    "bust": ("bust: {total} is past {target}", "se pasa: {total} supera {target}",
             "sforato: {total} supera {target}"),
    "knocks": ("{name} knocks", "{name} toca", "{name} bussa"),
    "knocked": ("{name} knocked", "{name} tocó", "{name} ha bussato"),
    "of": ("{points} of {target}", "{points} de {target}", "{points} su {target}"),
    "count": ("Count: {count}", "Cuenta: {count}", "Conteggio: {count}"),
    # the tiles not dealt: Fives and Threes' sleeping tiles, All Fives' boneyard
    "sleeping": ("Sleeping tiles", "Fichas dormidas", "Tessere dormienti"),
    "boneyard": ("Boneyard", "Pozo", "Dormiente"),
    "ends": ("Open ends", "Extremos abiertos", "Estremità libere"),
}
# four open ends (a spinner's), listed: the last two joined by the language's "and"
LISTED = {"en": "{}, {}, {}, and {}", "es": "{}, {}, {} y {}", "it": "{}, {}, {} e {}"}
SAY = {lang: {key: texts[i] for key, texts in SAID.items()} for i, lang in enumerate(LANGS)}


# The tests' phone comes by request.getfixturevalue, which tests/pages/conftest.py's
# _StopKeptBrowser does not see: a test naming no browser fixture stopped chromium before it and
# launched it again inside (some 1.6 s of CPU and 4 to 7 s of wall time a launch, loaded). Named
# here, one chromium serves the module's tests.
KEEP_CHROMIUM = pytest.mark.usefixtures("browser")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    yield from phone_server(tmp_path_factory)


def opened(request: pytest.FixtureRequest, lang: str, rules: str,
           players: list[str]) -> tuple[Api, Phone, int]:
    """A new match of ``rules`` open on a phone speaking ``lang`` (test_score_words_browser's
    ``phone_in``, on this module's server)."""
    api, _ = request.getfixturevalue("server")
    match_id = new_match(api, rules, players)
    return api, request.getfixturevalue("phone_in")(lang).open(match_id), match_id


def fives_and_threes() -> tuple[list[str], list[dict[str, Any]]]:
    """A simulated Fives and Threes pairs match to 61 whose fourth round has two busts (the
    first: 62 is past 61)."""
    players = ["Ana", "Beto", "Carla", "Dani"]
    return players, random_match("fives-and-threes", players, random.Random(0))[1]


def all_fives() -> tuple[list[str], list[dict[str, Any]]]:
    """The shipped All Fives example (a spinner, its arms played on)."""
    log = read_log((ROOT / "examples" / "all-fives.jsonl").read_text())
    return list(log.header.players), list(log.events)


def record(phone: Phone, rules: str | dict[str, Any], players: list[str], events: list[dict[str, Any]],
           lang: str, name: str, shots: dict[int, str]) -> dict[str, Any]:
    """Records ``events`` (an open record) closed on ``phone`` by taps, checking the page
    against the open record after each; screenshots after the events ``shots`` names. Returns
    what was checked (a negative number: after its end is tapped, before its tile). The phone's lead lies high pip first (its button's tile), the record's as
    written: where the two differ the record's left is the phone's right (``mine`` follows the
    phone, with the record's hands)."""
    say = SAY[lang]
    ref = Match(resolve_rules(rules, len(players)), players)
    mine = Match(resolve_rules(rules, len(players)), players)
    page = phone.page
    seen = {"scored": 0, "busts": 0, "arms": 0, "knocks": 0}
    mirrored = False
    for n, event in enumerate(events, start=1):
        kind = event["type"]
        ts = ref.tiles
        if kind == "play" and ref.layout.left is not None:
            tile = ts.parse(event["tile"])
            high, low = ts.high[tile], ts.low[tile]
            assert ref.push(event) is None
            side = SIDE_NAMES[ref.round.trail[-1][4]]
            if mirrored and side in ("left", "right"):
                side = "right" if side == "left" else "left"
            # the tap on the open end, then the tile offered there with the count it makes
            page.click(f"#layout button[data-arm='{side}']")
            sent = {"type": "play", "seat": event["seat"], "tile": ts.names[tile]}
            code = {v: k for k, v in SIDE_NAMES.items()}[side]
            if mine.layout.place(high, low, None) != code:
                sent["end"] = side
            assert mine.push(sent) is None and mine.layout.count() == ref.layout.count()
            assert phone.button(sent).get_attribute("data-count") == str(mine.layout.count())
            assert page.get_attribute(f"#layout button[data-arm='{side}']", "aria-pressed") == "true"
            if -n in shots:  # the end tapped, its tiles offered
                phone.check_layout()
                phone.shot(f"points-{name}-{lang}-{shots[-n]}")
            phone.tap(sent)
            seen["arms"] += side in ("up", "down")
        else:
            if kind == "deal":
                phone.tap({"type": "deal"})
                sent = event
            elif kind == "draw":
                phone.tap({"type": "draw", "seat": event["seat"]})
                sent = event
            elif kind == "pass":
                knock = phone.button({"type": "pass", "seat": event["seat"]})
                assert knock.text_content() == say["knocks"].format(name=players[event["seat"]])
                # nothing to draw (Fives and Threes' undealt tiles sleep; All Fives knocks
                # only once its boneyard is empty): no draw is offered, as the screen says
                assert phone.button({"type": "draw", "seat": event["seat"]}).count() == 0, n
                assert page.locator("#draw-seen").count() == 0, n
                preset = rules if isinstance(rules, str) else rules["preset"]
                undealt = say["sleeping" if preset == "fives-and-threes" else "boneyard"]
                assert undealt in page.eval_on_selector_all(".facts dt", "ds => ds.map(d => d.textContent)"), n
                if n in shots:
                    phone.check_layout()
                    phone.shot(f"points-{name}-{lang}-{shots[n]}-before")
                phone.tap({"type": "pass", "seat": event["seat"]})
                knocked = say["knocked"].format(name=players[event["seat"]])
                assert knocked in phone.status and knocked in page.locator("#undo").text_content()
                seen["knocks"] += 1
                sent = event
            else:  # the lead
                assert kind == "play", event
                sent = {"type": "play", "seat": event["seat"], "tile": ts.names[ts.parse(event["tile"])]}
                phone.tap(sent)
            assert ref.push(event) is None and mine.push(sent) is None
            if kind == "play":
                mirrored = (mine.layout.left, mine.layout.right) != (ref.layout.left, ref.layout.right)
        if check(phone, mine, say, seen, n)["awaiting"]:
            reveal(phone, mine)  # the round's end score, once the hands are shown
            check(phone, ref, say, seen, n, totals_only=True)
        if n in shots:
            phone.check_layout()
            phone.shot(f"points-{name}-{lang}-{shots[n]}")
    return seen


def reveal(phone: Phone, match: Match) -> None:
    """The reveals a round ended closed waits on to be scored (the page shows the round
    awaiting them: ``check``'s "awaiting"): each seat's pips, typed (the open record knows
    them; it needs none). A round scored at once (its end score needs no hand) is not waited
    on: the next deal follows."""
    page = phone.page
    while page.locator("input[data-reveal-pips]").count():
        seat = int(page.locator("input[data-reveal-pips]").first.get_attribute("data-reveal-pips"))
        pips = match.tiles.mask_pips(match.known[seat])
        before = phone.seq
        page.fill(f"input[data-reveal-pips='{seat}']", str(pips))
        page.click(f"button[data-reveal='{seat}']")
        page.wait_for_selector(f"#state[data-seq='{before + 1}']")
        page.wait_for_selector("#actions[aria-busy=false]")


# What ``check`` reads of the phone after an event, read in one call: a call a read was six
# round trips to the browser an event (some 10 ms each at load 20, 150 events a match).
SHOWN = """() => {
  const count = document.querySelector('#count'), last = document.querySelector('#last-score');
  return {strips: Array.from(document.querySelectorAll('.strip .strip-total'), x => x.textContent),
          awaiting: document.querySelector("#result[data-outcome='awaiting_reveal']") !== null,
          count: count && count.getAttribute('data-count'), said: count && count.textContent,
          last: last && last.textContent};
}"""


def check(phone: Phone, match: Match, say: dict[str, str], seen: dict[str, int], n: int,
          totals_only: bool = False) -> dict[str, Any]:
    """The page against the record: the count, each side's total on its strip, and a play
    that just scored (or bust) said in words. What was read (SHOWN): its "awaiting" says the
    round waits on the hands' reveals."""
    shown = phone.page.evaluate(SHOWN)
    layout = match.layout
    assert isinstance(layout, CountedLine)
    target = match.rules.target
    # (a round waiting on its reveals is not scored on the phone yet: the open record is)
    if not shown["awaiting"]:
        assert shown["strips"] == [say["of"].format(points=t, target=target) for t in match.totals], n
    if totals_only:
        return shown
    if layout.left is not None and match.round is not None and match.playing:
        assert shown["count"] == str(layout.count()), n
        assert (shown["said"] or "").startswith(say["count"].format(count=layout.count())), n
    scored = match.round.scored if match.round is not None else None
    if scored and scored[-1]["seq"] == match.seq:
        last = scored[-1]
        who = match.players[last["seat"]]
        text = shown["last"]
        if last.get("bust"):
            side = match.rules.side_of(last["seat"])
            assert text == f"{who}: " + say["bust"].format(total=match.totals[side] + last["points"],
                                                          target=target), n
            seen["busts"] += 1
        else:
            form = say["scored1"] if last["points"] == 1 else say["scored"]
            assert text == f"{who}: " + form.format(count=last["count"], points=last["points"]), n
            seen["scored"] += 1
    return shown


def refereed_alike(api: Api, phone: Phone, match_id: int, rules: str, players: list[str],
                   events: list[dict[str, Any]], tmp_path: Path) -> dict[str, Any]:
    """The phone's closed record, exported and refereed by the CLI, against the open one."""
    report = exported(api, phone, match_id, tmp_path / "closed.jsonl")
    open_log = tmp_path / "open.jsonl"
    open_log.write_text(write_log(make_log({"format": "domino-log/1", "rules": rules,
                                            "players": players}, events)))
    expected = validate(open_log)
    assert report["valid"] and report["violations"] == []
    # (a block's winner waits on reveals a closed record may never have, where the end score
    # needs no hand; the phone's reveals, where typed, number its events after them)
    def rounds(found: dict[str, Any]) -> list[Any]:
        return [(r["round"], r["outcome"], r["scores"],
                 [{k: v for k, v in p.items() if k != "seq"} for p in r["scored"]])
                for r in found["rounds"]]

    assert rounds(report) == rounds(expected)
    assert report["totals"] == expected["totals"]
    return report


@KEEP_CHROMIUM
@pytest.mark.parametrize("lang", LANGS)
def test_a_fives_and_threes_pairs_match_to_61_on_the_phone(request: pytest.FixtureRequest,
                                                           lang: str, tmp_path: Path) -> None:
    players, events = fives_and_threes()
    api, phone, match_id = opened(request, lang, "fives-and-threes", players)
    assert phone.page.locator("#deal-closed-help").count() == 1  # closed: the natural way
    first_bust = next(seq for seq, m in enumerate(_scored(players, events), start=1) if m == "bust")
    first_knock = next(seq for seq, e in enumerate(events, start=1) if e["type"] == "pass")
    seen = record(phone, "fives-and-threes", players, events, lang, "fives-threes",
                  {3: "lead", -13: "pick", 13: "play", first_knock: "knock", first_bust: "bust",
                   len(events): "end"})
    assert seen["busts"] == 2 and seen["scored"] > 20 and seen["knocks"] > 0
    report = refereed_alike(api, phone, match_id, "fives-and-threes", players, events, tmp_path)
    assert max(report["totals"]) == 61 and report["finished"]
    assert phone.page.locator("#phase").text_content()  # the match's end said
    phone.check_layout()
    # the folded lists (earlier rounds, the round's scoring plays) show that they open: their
    # summary's triangle, which the summary's flex layout had taken away
    marker = "s => getComputedStyle(s, '::before').content"
    summary = phone.page.locator("#scored > summary")
    assert summary.evaluate(marker).startswith('"\u25b8"')
    summary.click()
    assert summary.evaluate(marker).startswith('"\u25be"')
    phone.shot(f"points-fives-threes-{lang}-scored-open")


@KEEP_CHROMIUM
@pytest.mark.parametrize("lang", LANGS)
def test_an_all_fives_match_with_a_spinner_on_the_phone(request: pytest.FixtureRequest,
                                                        lang: str, tmp_path: Path) -> None:
    players, events = all_fives()
    api, phone, match_id = opened(request, lang, "all-fives", players)
    seen = record(phone, "all-fives", players, events, lang, "all-fives",
                  {2: "spinner", 11: "arms-open", -23: "pick-down", 24: "down-arm", 27: "down-double"})
    assert seen["arms"] >= 8 and seen["scored"] > 10
    refereed_alike(api, phone, match_id, "all-fives", players, events, tmp_path)
    # the last layout drawn as the screen has it: four ends, each arm's tiles outward
    screen = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("scorekeeper")).json
    assert phone.page.eval_on_selector_all("#layout button[data-arm]", "bs => bs.map(b => b.dataset.arm)") \
        == [e["side"] for e in screen["open_ends"]] == ["left", "right", "up", "down"]
    for side in ("up", "down"):
        shown = phone.page.eval_on_selector_all(f"[data-arm-line='{side}'] .tile", "ts => ts.map(t => t.dataset.tile)")
        assert shown == screen["arms"][side]
    assert screen["arms"]["down"]
    # the four open ends listed as the language lists them ("2 y 4 y 5 y 5" read wrong)
    said = phone.page.eval_on_selector_all(
        ".facts dt", "ds => ds.map(d => [d.textContent, d.nextElementSibling.textContent])")
    pips = [str(e["pip"]) for e in screen["open_ends"]]
    assert [dd for dt, dd in said if dt == SAY[lang]["ends"]] == [LISTED[lang].format(*pips)]
    phone.check_layout()
    phone.shot(f"points-all-fives-{lang}-end")


def _scored(players: list[str], events: list[dict[str, Any]]) -> list[str | None]:
    """For each event of an open record: "bust", "scored" or None."""
    match = Match(resolve_rules("fives-and-threes", len(players)), players)
    found: list[str | None] = []
    for event in events:
        assert match.push(event) is None
        last = match.round.scored[-1] if match.round is not None and match.round.scored else None
        found.append(None if last is None or last["seq"] != match.seq
                     else "bust" if last.get("bust") else "scored")
    return found
