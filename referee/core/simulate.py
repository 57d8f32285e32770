"""Random legal matches, for tests, examples and benchmarks.

Plays every seat at random among its legal moves, recording in the open; ``hidden`` seats are
then recorded closed (their deal null, their draws unseen, their hands revealed after each
round), which must not change a single score. With ``time_at`` the table's clock runs out
after that many events (rules with a ``time_limit``): a ``time`` event, and the match ends as
the time rule says.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from .counting import CountedLine
from .match import Match
from .rules import resolve_rules
from .tiles import iter_bits


def random_match(rules: Any, players: Sequence[str], rng: random.Random, *,
                 hidden: Sequence[int] = (), pips_only: bool = False,
                 max_rounds: int = 60,
                 time_at: int | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A legal match as (header, events). ``pips_only`` reveals hidden hands by their pip count;
    ``time_at``: the number of events after which time is called (when the match is still on)."""
    resolved = resolve_rules(rules, len(players))
    if time_at is not None and resolved.time_limit is None:
        raise ValueError("time_at needs rules with a time_limit")
    header = {"format": "domino-log/1", "rules": rules, "players": list(players)}
    match = Match(resolved, players)
    ts = match.tiles
    open_events: list[dict[str, Any]] = []
    closed_events: list[dict[str, Any]] = []
    hidden_set = set(hidden)

    def record(event: dict[str, Any], closed: dict[str, Any] | None = None) -> None:
        assert match.push(event) is None, (event, match.push)
        open_events.append(event)
        closed_events.append(closed if closed is not None else event)
        if len(open_events) == time_at and not match.finished:
            record({"type": "time", "reason": f"{resolved.time_limit} minutes"})

    while not match.finished and len(match.rounds) < max_rounds:
        hands = _deal(match, rng)
        record({"type": "deal", "hands": hands},
               {"type": "deal", "hands": [None if s in hidden_set else h for s, h in enumerate(hands)]})
        while match.playing:
            event = _next_move(match, rng)
            closed = event
            if event["type"] == "draw" and event["seat"] in hidden_set:
                closed = {"type": "draw", "seat": event["seat"]}
            record(event, closed)
        for seat in sorted(hidden_set):
            if match.count[seat]:
                hand = match.known[seat]
                reveal = ({"type": "reveal", "seat": seat, "pips": ts.mask_pips(hand)} if pips_only
                          else {"type": "reveal", "seat": seat, "tiles": ts.mask_names(hand)})
                closed_events.append(reveal)
        if rng.random() < 0.05 and not match.finished:
            record({"type": "note", "text": f"round {len(match.rounds)} done"})
    return header, (closed_events if hidden_set else open_events)


def play_on(match: Match, rng: random.Random, max_rounds: int = 60) -> list[dict[str, Any]]:
    """Legal moves and deals, recorded in the open, from where ``match`` stands (pushed on as
    they are made) until it ends or has ``max_rounds`` rounds: a record going on from any
    point, say after a disputed event applied as the table played it."""
    made: list[dict[str, Any]] = []
    while match.playing or not match.finished and len(match.rounds) < max_rounds:
        event = _next_move(match, rng) if match.playing else {"type": "deal",
                                                                "hands": _deal(match, rng)}
        assert match.push(event) is None, (event, match.seq)
        made.append(event)
    return made


def _deal(match: Match, rng: random.Random) -> list[list[str]]:
    ts, rules = match.tiles, match.rules
    order = list(range(ts.size))
    rng.shuffle(order)
    n = rules.hand_size
    return [[ts.names[t] for t in order[s * n:(s + 1) * n]] for s in range(rules.seats)]


def _next_move(match: Match, rng: random.Random) -> dict[str, Any]:
    ts = match.tiles
    if match.left is None:
        seat = rng.choice(list(iter_bits(match.may_lead)))
        tile = match.lead_tile if match.lead_tile is not None else rng.choice(list(iter_bits(match.known[seat])))
        a, b = ts.high[tile], ts.low[tile]
        if rng.random() < 0.5:
            a, b = b, a
        return {"type": "play", "seat": seat, "tile": f"{a}-{b}"}
    seat = match.turn
    fitting = list(iter_bits(match.known[seat] & match.playable_mask()))
    if fitting and isinstance(match.layout, CountedLine):
        return _counted_play(match, seat, rng.choice(fitting), rng)
    if fitting:
        tile = rng.choice(fitting)
        ends = [end for end in {match.left, match.right} if end in (ts.high[tile], ts.low[tile])]
        event: dict[str, Any] = {"type": "play", "seat": seat, "tile": ts.names[tile]}
        if len(ends) > 1 or rng.random() < 0.2:
            event["end"] = rng.choice(ends)
        return event
    if match.can_draw():
        outside = ts.all_mask & ~match.line
        for known in match.known:
            outside &= ~known
        return {"type": "draw", "seat": seat, "tile": ts.names[rng.choice(list(iter_bits(outside)))]}
    return {"type": "pass", "seat": seat}


_NAMES = {"R": "right", "L": "left", "U": "up", "D": "down"}


def _counted_play(match: Match, seat: int, tile: int, rng: random.Random) -> dict[str, Any]:
    """A play of ``tile`` on a counted line (the points family): on any open end it fits, its
    ``end`` written as a side, as the pip, or left out, whichever says that place."""
    ts, layout = match.tiles, match.layout
    high, low = ts.high[tile], ts.low[tile]
    places = [(side, pip) for side, pip, _ in layout.open_ends() if pip in (high, low)]
    side, pip = rng.choice(places)
    ways: list[Any] = [_NAMES[side]]
    for end in (None, pip):
        if layout.place(high, low, end) == side:
            ways.append(end)
    event: dict[str, Any] = {"type": "play", "seat": seat, "tile": ts.names[tile]}
    end = rng.choice(ways)
    if end is not None:
        event["end"] = end
    return event
