"""A snapshot of the table: what a scorekeeper's screen, ``domino show`` and the API display."""

from __future__ import annotations

from typing import Any

from .counting import CountedLine
from .match import Match
from .records import Record, _set
from .tiles import iter_bits


class Position(Record):
    """The table after an event."""

    __slots__ = ("seq", "round", "phase", "line", "ends", "turn", "may_lead", "hands", "counts",
                 "boneyard", "owes_reveal", "legal", "totals", "finished", "winner")

    def __init__(self, seq: int, round: int | None, phase: str, line: tuple[str, ...],
                 ends: tuple[int, int] | None, turn: int | None, may_lead: tuple[int, ...],
                 hands: tuple[tuple[str, ...] | None, ...], counts: tuple[int, ...],
                 boneyard: int, owes_reveal: tuple[int, ...], legal: dict[str, Any],
                 totals: tuple[int, ...], finished: bool, winner: int | None) -> None:
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

    def as_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq, "round": self.round, "phase": self.phase, "line": list(self.line),
            "ends": list(self.ends) if self.ends else None, "turn": self.turn,
            "may_lead": list(self.may_lead),
            "hands": [list(h) if h is not None else None for h in self.hands],
            "counts": list(self.counts), "boneyard": self.boneyard,
            "owes_reveal": list(self.owes_reveal), "legal": self.legal,
            "totals": list(self.totals), "finished": self.finished, "winner": self.winner,
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
    )


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
    layout = match.layout
    counted = isinstance(layout, CountedLine)
    for tile in iter_bits(match.known[seat] & match.playable_mask()):
        if counted:  # the points family: every place, the arms too (counting.py)
            plays.extend(_counted_plays(layout, ts.names[tile], ts.high[tile], ts.low[tile]))
            continue
        for end in sorted({match.left, match.right}):
            if end in (ts.high[tile], ts.low[tile]):
                plays.append({"tile": ts.names[tile], "end": end})
    known = match.hand_known(seat)
    can_draw = match.can_draw() and not plays
    return {"seat": seat, "plays": plays if known or plays else None, "draw": can_draw,
            "pass": not plays and not match.can_draw()}


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
