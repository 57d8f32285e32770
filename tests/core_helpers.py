"""Small builders for hand-written match logs, shared by the rules-core tests.

Events are plain dicts, exactly as a ``domino-log/1`` line would hold them. ``judge`` replays a
list of events and returns the replay; ``codes`` lists its violations as (seq, code, seat).
"""

from __future__ import annotations

import random
from typing import Any

from referee.core.match import Match
from referee.core.replay import Replay, replay
from referee.core.rules import Rules, resolve_rules

NAMES = ("Ana", "Beto", "Carla", "Dani", "Eva", "Fito")
# The points family's parameters as every earlier preset resolves them (the seeds' game).
POINTS_DEFAULTS = {"scoring": "hands", "count": "fives", "spinner": "none", "exact_target": False,
                   "out_bonus": 0, "partners_out": "one", "lead_scores": "always", "pips_round": 1}

# A two-seat double-six deal used by many tests (mano-a-mano: 7 tiles each, 14 in the boneyard).
#   seat 0 holds the 6-6 (the highest double), so seat 0 opens with it under highest_double;
#   6-5 6-0 5-4 5-3 5-2 5-0 4-3 4-1 4-0 3-2 3-0 2-1 1-1 0-0 stay in the boneyard.
HAND_A = "6-6 6-4 5-5 5-1 4-4 3-3 2-0".split()
HAND_B = "6-3 6-2 6-1 4-2 3-1 2-2 1-0".split()
# A four-seat deal of the whole double-six set: seat 2 holds the 6-6.
PAIRS_DEAL = ["6-5 6-4 6-3 6-2 6-1 6-0 5-4", "5-5 5-3 5-2 5-1 5-0 4-3 4-2",
              "6-6 4-4 4-1 4-0 3-3 3-2 3-1", "3-0 2-2 2-1 2-0 1-1 1-0 0-0"]


def rules_for(spec: Any = "mano-a-mano", players: int = 2) -> Rules:
    return resolve_rules(spec, players)


def deal(*hands: Any) -> dict[str, Any]:
    """A deal; each hand is a list of tiles, a space-separated string, or None (closed)."""
    if not hands:
        return {"type": "deal"}
    return {"type": "deal", "hands": [h.split() if isinstance(h, str) else h for h in hands]}


def play(seat: int, tile: str, end: Any = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "play", "seat": seat, "tile": tile}
    if end is not None:
        event["end"] = end
    return event


def draw(seat: int, tile: str | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "draw", "seat": seat}
    if tile is not None:
        event["tile"] = tile
    return event


def pass_(seat: int) -> dict[str, Any]:
    return {"type": "pass", "seat": seat}


def reveal(seat: int, tiles: Any = None, pips: int | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "reveal", "seat": seat}
    if tiles is not None:
        event["tiles"] = tiles.split() if isinstance(tiles, str) else tiles
    if pips is not None:
        event["pips"] = pips
    return event


def penalty(side: int, points: int) -> dict[str, Any]:
    return {"type": "penalty", "side": side, "points": points, "reason": "ruling"}


def void(target: int) -> dict[str, Any]:
    return {"type": "void", "target": target, "reason": "struck"}


def annul() -> dict[str, Any]:
    return {"type": "annul", "reason": "misdeal"}


def forfeit(side: int) -> dict[str, Any]:
    return {"type": "forfeit", "side": side, "reason": "left the table"}


def note(text: str = "tea break") -> dict[str, Any]:
    return {"type": "note", "text": text}


# After BASE the ends are 4 and 2 and seat 1 is to play, holding 6-3 6-1 4-2 3-1 2-2 1-0.
BASE = [deal(HAND_A, HAND_B), play(0, "6-6"), play(1, "6-2"), play(0, "6-4")]


def judge(events: list[Any], spec: Any = "mano-a-mano", players: int = 2) -> Replay:
    return replay(rules_for(spec, players), NAMES[:players], events)


def codes(result: Replay) -> list[tuple[int, str, int | None]]:
    return [(v.seq, v.code, v.seat) for v in result.violations]


def last_code(events: list[Any], spec: Any = "mano-a-mano",
              players: int = 2) -> tuple[str, int | None]:
    """(code, seat) of the last event's violation, asserting every earlier event was legal."""
    found = codes(judge(events, spec, players))
    assert len(found) == 1 and found[0][0] == len(events), found
    return found[0][1], found[0][2]


def legal(events: list[Any], spec: Any = "mano-a-mano", players: int = 2) -> Replay:
    """Replay a log that must hold no violation."""
    result = judge(events, spec, players)
    assert result.valid, codes(result)
    return result


def round_tuple(result: Replay, index: int = -1) -> tuple[str, int | None, int]:
    """(outcome, winner, points) of a round."""
    r = result.rounds[index]
    return r.outcome, r.winner, r.points


# A locked line (two seats, no drawing, any opener): after these plays both ends show 6 and all
# seven tiles bearing a 6 are on the line. Seat 0 then holds 2-2, seat 1 holds 0-0 and 5-5.
LOCK_A = "6-6 6-0 1-0 1-1 6-1 6-5 2-2".split()
LOCK_B = "6-2 3-2 6-3 6-4 5-4 0-0 5-5".split()
LOCK_PLAYS = [play(0, "6-6"), play(1, "6-2"), play(0, "6-0"), play(1, "3-2"), play(0, "1-0"),
              play(1, "6-3"), play(0, "1-1"), play(1, "6-4"), play(0, "6-1"), play(1, "5-4"),
              play(0, "6-5", 5)]
LOCK_SPEC = {"preset": "mano-a-mano", "draw": "none", "first_opener": "free"}


def closed_block(spec: Any, players: int, plays: list[tuple[int, str]], pips: list[int]) -> Replay:
    """A closed round (no hands shown): the given plays, then a pass by every seat in turn (a block
    by passes, blocked by the last player), then every seat reveals its pip count."""
    events: list[Any] = [deal()] + [play(s, t) for s, t in plays]
    last = plays[-1][0]
    events += [pass_((last + i) % players) for i in range(1, players + 1)]
    events += [reveal(seat, pips=p) for seat, p in enumerate(pips)]
    return legal(events, spec, players)


def closed_domino(spec: Any, players: int, plays: list[tuple[int, str]], pips: list[int]) -> Replay:
    """A closed round ending when the last of ``plays`` empties its seat's hand; the other seats
    reveal their pips (``pips`` of the seat that went out is ignored)."""
    events: list[Any] = [deal()] + [play(s, t) for s, t in plays]
    out = plays[-1][0]
    events += [reveal(seat, pips=p) for seat, p in enumerate(pips) if seat != out]
    return legal(events, spec, players)


ODD_TILES = ["6-6", "0-0", "3-4", "4-3", "06-5", "7-7", "x", "", "1-2"]
ODD_SEATS = [0, 1, 3, 7, -1, "1", True, None]
ODD_ENDS = ["left", "right", 0, 3, 6, None, "up", True]


def mutate(events: list, rng: random.Random) -> list:
    """A record with 1 to 4 changes: a field made odd, an event dropped, moved, replaced or
    inserted, a ``seq`` field, a deal's tile (the core's tests of the fast path use it)."""
    events = [dict(e) for e in events]
    for _ in range(rng.randint(1, 4)):
        if not events:  # every event dropped: nothing left to change
            break
        i = rng.randrange(len(events))
        event, r = events[i], rng.random()
        if type(event) is not dict:  # an earlier mutation put a non-object here
            continue
        if r < 0.2:
            event["tile"] = rng.choice(ODD_TILES)
        elif r < 0.35:
            event["seat"] = rng.choice(ODD_SEATS)
        elif r < 0.45:
            events[i] = {"type": "pass", "seat": event.get("seat", 0)}
        elif r < 0.55:
            del events[i]
        elif r < 0.65:
            event["end"] = rng.choice(ODD_ENDS)
        elif r < 0.7:
            event["seq"] = rng.choice([i + 1, i + 2])
        elif r < 0.75 and event.get("type") == "deal" and event.get("hands"):  # may be {"seat": 0}
            hands = [list(h) if h else h for h in event["hands"]]
            if hands[0]:
                hands[0][0] = rng.choice(ODD_TILES + [hands[0][-1]])
            event["hands"] = hands
        elif r < 0.8:
            events.insert(i, {"type": "penalty", "side": 0, "points": rng.randint(1, 80),
                              "reason": "r"})
        elif r < 0.85:
            events.insert(i, {"type": "reveal", "seat": 0, "pips": rng.randint(0, 30)})
        elif r < 0.9:
            events[i] = rng.choice([42, [], {"type": "play"}, {"seat": 0}])
        else:
            j = rng.randrange(len(events))
            events[i], events[j] = events[j], events[i]
    return events


def match_state(match: Match) -> dict:
    """Everything a match holds, comparable (its rounds as their fields)."""
    state = {name: getattr(match, name) for name in Match.__slots__ if name != "_handlers"}
    state["rounds"] = [{name: getattr(r, name) for name in type(r).__slots__}
                       for r in match.rounds]
    state["round"] = match.round.number if match.round else None
    state["placed"] = match.placed
    return state
