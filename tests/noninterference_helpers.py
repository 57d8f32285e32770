"""The non-interference property (tests/service/test_service_noninterference.py, and many more
cases in tests/resilience/test_noninterference.py).

Non-interference (docs/visibility.md, "The promise"): everything a caller gets back is a function of
the record as that caller may see it.

Two worlds are recorded side by side, each in a database of its own with the same clock: in
world *open* scorekeeper A types the round in play's deal and draws with their tiles; in world
*closed* A records the same events as the table saw them (hands and drawn tiles left out).
Earlier rounds are the same in both (their hands are seen once they are over). Then another
caller, a second scorekeeper B, a viewer or the public reader, asks every channel, and B also
records an event of its own (a move of the seat on turn, legal or not as the hidden hands
would have it), previews it, and undoes its own entry. Every answer, refusals included, must be
the same in both worlds.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import pytest
from hypothesis import strategies as st
from template_helpers import migrate

from referee.core.events import as_table_saw_it
from referee.core.simulate import random_match
from referee.service import Caller, Service, ServiceError
from referee.service.live import Scoreboard
from referee.service.pages import Pages
from referee.store.db import make_engine

PRESETS = {"mano-a-mano": ["Ana", "Beto"], "veracruz": ["Ana", "Beto", "Carla"],
           "parejas": ["Ana", "Beto", "Carla", "Dani"]}
START = dt.datetime(2026, 12, 1, 20, 0, tzinfo=dt.timezone.utc)


def _clock() -> Callable[[], dt.datetime]:
    ticks = itertools.count()
    return lambda: START + dt.timedelta(milliseconds=next(ticks))


@dataclass
class World:
    service: Service
    board: Scoreboard
    typist: Caller
    second: Caller
    viewer: Caller


def _world(path: Any) -> World:
    service = Service(make_engine(f"sqlite:///{path}"), clock=_clock())
    migrate(service.engine)
    service.clubs.create_club("casino", "Casino")
    service.clubs.set_public("casino", True)
    callers = [service.tokens.authenticate(service.tokens.create_token("casino", role,
                                                                       label=label))
               for role, label in (("scorekeeper", "table 1"), ("scorekeeper", "second phone"),
                                   ("viewer", "club screen"))]
    return World(service, Scoreboard(service), *callers)


def make_worlds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[World, World]]:
    """Both worlds, in a scratch folder; closed afterwards."""
    folder = tmp_path_factory.mktemp("noninterference")
    pair = (_world(folder / "open.db"), _world(folder / "closed.db"))
    yield pair
    for world in pair:
        world.board.hub.close()
        world.service.close()


def answer_of(call: Callable[[], Any]) -> Any:
    """What a call gives back, a refusal included (its kind and what it says)."""
    try:
        value = call()
    except ServiceError as error:
        violation = getattr(error, "violation", None)
        return ("refused", type(error).__name__, error.message,
                violation.as_dict() if violation is not None else None)
    if hasattr(value, "as_dict"):
        return value.as_dict()
    if hasattr(value, "screen"):  # Recorded
        return {"seq": value.seq, "event": value.event, "duplicate": value.duplicate,
                "violation": value.violation.as_dict() if value.violation else None,
                "screen": value.screen.as_dict()}
    return value


def _first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two answers first differ (a path into them), None when they are equal."""
    if type(a) is not type(b):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: present in one only"
            if (found := _first_difference(a[key], b[key], f"{path}.{key}")) is not None:
                return found
        return None
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)}: {a!r} != {b!r}"
        for i, (x, y) in enumerate(zip(a, b)):
            if (found := _first_difference(x, y, f"{path}[{i}]")) is not None:
                return found
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


def assert_same(answers: list[Any], what: Any) -> None:
    found = _first_difference(answers[0], answers[1])
    assert found is None, f"{what}: {found}"


def _in_play(world: World, match_id: int) -> bool:
    """Whether the round the worlds differ in is still in play (its hands are unseen): once
    it is over, the table has seen them, and the worlds may differ in what everyone sees."""
    return world.service.reading.state(match_id).phase == "in_progress" and not (
        world.service.reading.state(match_id).finished)


def channels(world: World, match_id: int, who: Caller | None) -> dict[str, Any]:
    """Everything ``who`` (None: the public reader) may ask of the match, as it answers."""
    svc = world.service
    reader = who if who is not None else svc.clubs.public_reader("casino")
    read: dict[str, Callable[[], Any]] = {
        "summary": lambda: svc.reading.get_match(match_id, who=reader),
        "screen": lambda: svc.reading.screen(match_id, who=reader),
        "screen at 1": lambda: svc.reading.screen(match_id, at=1, who=reader),
        "events": lambda: svc.reading.list_events(match_id, who=reader),
        "report": lambda: svc.reading.report(match_id, who=reader),
        "log": lambda: svc.reading.export_log(match_id, who=reader),
        "lines": lambda: svc.reading.lines(match_id, who=reader),
        "disputes": lambda: svc.disputes.for_match(match_id, who=reader),
        # (the club's other matches may have ended their rounds: their hands are seen)
        "club disputes": lambda: [d for d in svc.disputes.for_club(
            "casino", status="all", who=reader)[0] if d["match"] == match_id],
        "listing": lambda: [m for m in svc.reading.list_matches("casino", who=reader)[0]
                            if m["id"] == match_id],
        "head": lambda: svc.actas.head(match_id, who=reader),
        "page": lambda: Pages(svc).match("casino", match_id, who=who),
        "scoreboard": lambda: [r for r in world.board.board("casino", who=reader)["rows"]
                               if r["match"] == match_id],
    }
    return {name: answer_of(call) for name, call in read.items()}


def _candidates(events: list[dict[str, Any]], cut: int, rng: random.Random,
                players: int) -> list[dict[str, Any]]:
    """Events a second scorekeeper might record next: the real next one, and moves of any
    seat with any tile (most contradict a hand, or the rules)."""
    tiles = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]
    found = [as_table_saw_it(events[cut])] if cut < len(events) else []
    for _ in range(3):
        seat = rng.randrange(players)
        found.append(rng.choice([{"type": "play", "seat": seat, "tile": rng.choice(tiles)},
                                 {"type": "pass", "seat": seat},
                                 {"type": "draw", "seat": seat}]))
    return found


CASES = {"seed": st.integers(0, 10**6), "preset": st.sampled_from(sorted(PRESETS)),
         "depth": st.floats(0.0, 1.0), "caller": st.sampled_from(["second", "viewer", "public"])}


def same_answers(worlds: tuple[World, World], seed: int, preset: str, depth: float,
                 caller: str) -> None:
    """One case of the property (tests/resilience runs many more)."""
    players = PRESETS[preset]
    _, events = random_match(preset, players, random.Random(seed), max_rounds=3)
    deals = [i for i, e in enumerate(events) if e["type"] == "deal"]
    start = deals[-1]  # the last round's deal: the round in play once cut inside it
    cut = start + 1 + int(depth * (len(events) - start - 1))
    rng = random.Random(seed)
    ids = []
    for number, world in enumerate(worlds):
        match_id = world.service.recording.create_match("casino", preset, players)["id"]
        ids.append(match_id)
        for seq, event in enumerate(events[:cut]):
            shown = as_table_saw_it(event) if number == 1 and seq >= start else event
            world.service.recording.record_event(match_id, shown, expected_seq=seq,
                                                 who=world.typist)
    assert ids[0] == ids[1]
    match_id = ids[0]

    def each(ask: Callable[[World], Any]) -> list[Any]:
        return [answer_of(lambda: ask(world)) for world in worlds]

    def who_in(world: World) -> Caller | None:
        return {"second": world.second, "viewer": world.viewer, "public": None}[caller]

    if not _in_play(worlds[0], match_id):
        return
    assert_same([channels(w, match_id, who_in(w)) for w in worlds], "before")
    if caller != "second":
        return
    for event in _candidates(events, cut, rng, len(players)):
        assert_same(each(lambda w: w.service.disputes.preview(match_id, [event], who=w.second)),
              ("preview", event))
        last = worlds[0].service.reading.get_match(match_id, who=worlds[0].second)["last_seq"]
        answers = [each(lambda w: w.service.recording.record_event(
            match_id, event, expected_seq=last, client_event_id=f"b-{last}",
            who=w.second)) for _ in ("append", "retry")]
        if not _in_play(worlds[0], match_id):
            return  # B's event ended the round: every hand recorded is seen now
        for what, answer in zip(("append", "retry"), answers):
            assert_same(answer, (what, event))
        assert_same([channels(w, match_id, w.second) for w in worlds], ("after", event))
    undo = worlds[0].service.reading.screen(match_id, who=worlds[0].second).undo
    if undo is not None:
        last = worlds[0].service.reading.get_match(match_id, who=worlds[0].second)["last_seq"]
        undone = each(lambda w: w.service.recording.record_event(
            match_id, {"type": "void", "target": undo, "reason": "undo"}, expected_seq=last,
            who=w.second))
        if _in_play(worlds[0], match_id):
            assert_same(undone, "undo")
            assert_same([channels(w, match_id, w.second) for w in worlds], "after the undo")
