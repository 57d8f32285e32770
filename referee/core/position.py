"""A snapshot of the table: what a scorekeeper's screen, ``domino show`` and the API display.

``ends`` is the line's two ends (left, right) as every family has them; ``open_ends`` is each
open end with its side, the spinner's arms too (the points family, docs/rules.md), ``count``
their sum as that family counts it, ``spinner`` the spinner's tile and ``arms`` the tiles on its
up and down arms: what a screen needs to draw the layout and say its count."""

from __future__ import annotations

from typing import Any

from .counting import DOUBLE, EMPTY_ARM, PLAIN, CountedLine
from .match import Match
from .records import Record, _set
from .tiles import iter_bits


class Position(Record):
    """The table after an event."""

    __slots__ = ("seq", "round", "phase", "line", "ends", "turn", "may_lead", "hands", "counts",
                 "boneyard", "owes_reveal", "legal", "totals", "finished", "winner",
                 "open_ends", "count", "spinner", "arms")

    def __init__(self, seq: int, round: int | None, phase: str, line: tuple[str, ...],
                 ends: tuple[int, int] | None, turn: int | None, may_lead: tuple[int, ...],
                 hands: tuple[tuple[str, ...] | None, ...], counts: tuple[int, ...],
                 boneyard: int, owes_reveal: tuple[int, ...], legal: dict[str, Any],
                 totals: tuple[int, ...], finished: bool, winner: int | None,
                 open_ends: tuple[tuple[str, int, str], ...] = (), count: int | None = None,
                 spinner: str | None = None,
                 arms: tuple[tuple[str, ...], tuple[str, ...]] | None = None) -> None:
        _set(self, "seq", seq)
        _set(self, "round", round)
        _set(self, "phase", phase)  # "before_first_deal", "in_progress", or the last outcome
        _set(self, "line", line)  # tiles as they lie, left to right, each written left pip first
        _set(self, "ends", ends)
        _set(self, "turn", turn)  # the seat to act; None before a lead several seats may make
        _set(self, "may_lead", may_lead)  # before the lead: the seats that may open
        _set(self, "hands", hands)  # each seat's tiles where the record shows them all
        _set(self, "counts", counts)
        _set(self, "boneyard", boneyard)
        _set(self, "owes_reveal", owes_reveal)  # seats the ended round waits on to show hands
        _set(self, "legal", legal)  # for the seat on turn: plays (tile, end) it may make, draw,
        # pass
        _set(self, "totals", totals)
        _set(self, "finished", finished)
        _set(self, "winner", winner)
        # Each open end as (side, pip, kind): side "left", "right", then the spinner's "up" and
        # "down" once open; kind "plain", "double" (a double lying crosswise there) or
        # "empty_arm" (an arm no tile lies on yet). Empty before the lead.
        _set(self, "open_ends", open_ends)
        _set(self, "count", count)  # the open ends' sum as the points family counts it, else None
        _set(self, "spinner", spinner)  # the spinner's tile (on the line), where there is one
        # Once the spinner's arms open: the tiles on its up and down arms, from the spinner
        # outward, each written with the pip toward the spinner first; else None.
        _set(self, "arms", arms)

    def as_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq, "round": self.round, "phase": self.phase, "line": list(self.line),
            "ends": list(self.ends) if self.ends else None, "turn": self.turn,
            "may_lead": list(self.may_lead),
            "hands": [list(h) if h is not None else None for h in self.hands],
            "counts": list(self.counts), "boneyard": self.boneyard,
            "owes_reveal": list(self.owes_reveal), "legal": self.legal,
            "totals": list(self.totals), "finished": self.finished, "winner": self.winner,
            "open_ends": [{"side": side, "pip": pip, "kind": kind}
                          for side, pip, kind in self.open_ends],
            "count": self.count, "spinner": self.spinner,
            "arms": {"up": list(self.arms[0]), "down": list(self.arms[1])} if self.arms else None,
        }


def position(match: Match) -> Position:
    ts = match.tiles
    seats = range(match.rules.seats)
    left: list[str] = []
    right: list[str] = []
    for where, a, b in match.placed:
        (left if where == "L" else right).append(f"{a}-{b}")
    line = tuple(reversed(left)) + tuple(right)
    if match.round is None:
        phase = "before_first_deal"
    else:
        phase = match.round.outcome
    hands = tuple(tuple(ts.mask_names(match.known[s])) if match.hand_known(s) else None for s in seats)
    layout = match.layout
    counted = isinstance(layout, CountedLine)
    return Position(
        seq=match.seq,
        round=match.round.number if match.round else None,
        phase=phase,
        line=line,
        ends=(match.left, match.right) if match.left is not None else None,
        turn=match.turn if match.playing else None,
        may_lead=tuple(iter_bits(match.may_lead)) if match.playing and match.left is None else (),
        hands=hands,
        counts=tuple(match.count),
        boneyard=match.boneyard,
        owes_reveal=tuple(s for s in seats if match.owes_reveal(s)),
        legal=_legal(match),
        totals=tuple(match.totals),
        finished=match.finished,
        winner=match.winner,
        open_ends=_open_ends(match),
        count=layout.count() if counted else None,
        spinner=ts.names[layout.spinner] if layout.spinner is not None else None,
        arms=_arms(match) if layout.arms else None,
    )


_KINDS = {PLAIN: "plain", DOUBLE: "double", EMPTY_ARM: "empty_arm"}
_SIDE_ORDER = {"L": 0, "R": 1, "U": 2, "D": 3}


def _open_ends(match: Match) -> tuple[tuple[str, int, str], ...]:
    """The open ends, left, right, up, down, each (side, pip, kind)."""
    layout = match.layout
    if layout.left is None:
        return ()
    if isinstance(layout, CountedLine):
        found = sorted(layout.open_ends(), key=lambda end: _SIDE_ORDER[end[0]])
        return tuple((_SIDE_NAMES[side], pip, _KINDS[kind]) for side, pip, kind in found)
    ts = match.tiles
    crosswise = layout.crosswise(ts)
    return tuple((side, pip, "double" if across and layout.left_tile != layout.right_tile
                  else "plain")
                 for side, pip, across in zip(("left", "right"), layout.ends, crosswise))


def _arms(match: Match) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The tiles on the spinner's up and down arms, outward, the pip toward the spinner first."""
    ts, layout = match.tiles, match.layout
    pip = ts.high[layout.spinner]
    tiles: dict[str, list[str]] = {"U": [], "D": []}
    inner = {"U": pip, "D": pip}
    for _, kind, _, tile, side in match.round.trail if match.round else ():
        if kind == "play" and side in tiles:
            out = ts.high[tile] + ts.low[tile] - inner[side]
            tiles[side].append(f"{inner[side]}-{out}")
            inner[side] = out
    return tuple(tiles["U"]), tuple(tiles["D"])


def _legal(match: Match) -> dict[str, Any]:
    """What the seat on turn may do, as far as the record shows its hand."""
    if not match.playing or match.finished or match.turn is None:
        return {"seat": None, "plays": [], "draw": False, "pass": False}
    seat, ts = match.turn, match.tiles
    if match.left is None:
        if match.lead_tile is not None:
            candidates = [match.lead_tile]
        else:
            candidates = list(iter_bits(match.known[seat])) if match.hand_known(seat) else []
        plays = [{"tile": ts.names[t], "end": None} for t in candidates]
        return {"seat": seat, "plays": plays if match.hand_known(seat) or candidates else None,
                "draw": False, "pass": False}
    plays = []
    for tile in iter_bits(match.known[seat] & match.playable_mask()):
        plays.extend(tile_plays(match, tile))
    known = match.hand_known(seat)
    can_draw = match.can_draw() and not plays
    return {"seat": seat, "plays": plays if known or plays else None, "draw": can_draw,
            "pass": not plays and not match.can_draw()}


def tile_plays(match: Match, tile: int) -> list[dict[str, Any]]:
    """The plays (``{"tile", "end"}``) of a tile that fits an open end, one for each place that
    gives a different layout: on a line, each end's pip it fits; on a counted line, every place,
    the arms too (counting.py)."""
    ts, layout = match.tiles, match.layout
    if isinstance(layout, CountedLine):
        return _counted_plays(layout, ts.names[tile], ts.high[tile], ts.low[tile])
    return [{"tile": ts.names[tile], "end": end} for end in sorted({match.left, match.right})
            if end in (ts.high[tile], ts.low[tile])]


_SIDE_NAMES = {"R": "right", "L": "left", "U": "up", "D": "down"}


def _counted_plays(layout: CountedLine, name: str, high: int, low: int) -> list[dict[str, Any]]:
    """A tile's plays on a counted line, one for each different layout it can make: ``end``
    the pip where the pip says it, else the side ("left", "right", "up", "down")."""
    found: list[dict[str, Any]] = []
    seen: set[Any] = set()
    for side, pip, _ in layout.open_ends():
        if pip != high and pip != low:
            continue
        if layout.place(high, low, pip) == side:
            end: Any = pip
        elif layout.place(high, low, pip) == "ambiguous_end":
            end = _SIDE_NAMES[side]
        else:
            continue  # alike with a place already listed (the pip names that one)
        key = end if type(end) is int else side
        if key not in seen:
            seen.add(key)
            found.append({"tile": name, "end": end})
    return found
