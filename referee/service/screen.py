"""The match screen: what a scorekeeper's screen shows of a match now, built once for the API,
the CLI and the pages: the line, the open ends, whose turn (seat and name) and what that seat
may do, hand counts, the boneyard, the round, the totals with side names, the open disputes and
the winner by name; hands the caller may not see are left out.

Two things a phone needs that the core's legal moves leave out, worked out here from the record
as the caller may see it: the tiles not yet seen anywhere that the seat on turn may play when
the record does not show its hand (``unseen_plays``; all the tiles not seen are ``unseen``,
what a draw in sight may bring), and, before a lead several seats may make,
who may lead with what (``leads``); with the open ends counted (the points family), each open
end and the tiles the seat on turn may place there (``places``: a phone's tap on an arm); and the
event the caller may take back (``undo``, :mod:`.undo`).

And what the table is told in words, so that no page works it out: each round's result with the
winning side and the seat that blocked it by name (``rounds``; each scoring play with its side's
total after it), when the match's first event was
recorded (``started_at``, where a phone's clock counts from) and the event that called time
(``time_called``, on rules with a ``time_limit``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..core.counting import CountedLine
from ..core.match import Match
from ..core.position import Position, tile_plays
from ..core.tiles import iter_bits
from ..core.vocab import side_names


@dataclass(frozen=True)
class Screen:
    summary: dict[str, Any]
    position: Position
    hands_hidden: bool
    disputes: tuple[dict[str, Any], ...]
    unseen: tuple[str, ...] = ()
    unseen_plays: tuple[dict[str, Any], ...] = ()
    leads: tuple[dict[str, Any], ...] = ()
    undo: int | None = None
    undo_event: dict[str, Any] | None = None  # the event ``undo`` names, as the caller sees it
    chain_head: str | None = None  # a finished match's, where the caller may have it
    rounds: tuple[dict[str, Any], ...] = ()
    started_at: str | None = None
    time_called: int | None = None
    # Whether the caller may withdraw the match now (no deal stands, and it is a referee or
    # the token that created it): what the phone offers; recording still decides.
    can_abandon: bool = False
    places: tuple[dict[str, Any], ...] = ()

    @property
    def players(self) -> list[str]:
        return self.summary["players"]

    @property
    def sides(self) -> list[str]:
        return side_names(self.summary["rules"], self.players)

    @property
    def turn_name(self) -> str | None:
        turn = self.position.turn
        return self.players[turn] if turn is not None else None

    @property
    def winner_name(self) -> str | None:
        winner = self.position.winner
        return self.sides[winner] if winner is not None else None

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.summary, **self.position.as_dict(), "hands_hidden": self.hands_hidden,
            "turn_name": self.turn_name,
            "may_lead_names": [self.players[s] for s in self.position.may_lead],
            "sides": self.sides, "winner_name": self.winner_name,
            "disputes": list(self.disputes),
            "unseen": list(self.unseen), "unseen_plays": list(self.unseen_plays), "leads": list(self.leads),
            "undo": self.undo,
            "chain_head": self.chain_head,
            "rounds": list(self.rounds), "started_at": self.started_at,
            "time_called": self.time_called, "can_abandon": self.can_abandon,
            "places": list(self.places), "offers_draw": self.offers_draw,
            "shows_undealt": self.shows_undealt,
        }

    @property
    def shows_undealt(self) -> bool:
        """Whether the table shows its undealt tiles at all (:func:`shows_undealt`)."""
        return shows_undealt(self.summary["rules"], self.position.boneyard)

    @property
    def offers_draw(self) -> bool:
        """Whether a phone offers the seat on turn a draw (legal or not, to be recorded): the
        rules have a boneyard (``draw`` is not ``none``: Fives and Threes' undealt tiles are
        sleeping, nobody draws them) and it holds a tile."""
        return (self.position.turn is not None and self.summary["rules"].get("draw") != "none"
                and self.position.boneyard > 0)


def shows_undealt(rules: Mapping[str, Any], boneyard: int) -> bool:
    """Whether a table shows its undealt tiles (the boneyard, or Fives and Threes' sleeping
    tiles) at all: the rules (a match's, as JSON) draw, or tiles were left undealt. Parejas and
    Puerto Rico (nothing drawn, four hands of seven) have none, and "Boneyard 0" would say they
    had. Decided here once for the phone, the match page and the scoreboard, which only show it."""
    return rules.get("draw") != "none" or boneyard > 0


def _seen(match: Match) -> int:
    """The tiles the record places: on the line, or known in a hand (the seat on turn's own
    known tiles included: those are among its legal plays already)."""
    mask = match.line
    for known in match.known:
        mask |= known
    return mask


def unseen(match: Match) -> tuple[str, ...]:
    """While a round is in play: the tiles the record has not placed (on the line or in a
    known hand), the ones a seat may draw in sight; empty between rounds."""
    if not match.playing or match.finished:
        return ()
    return tuple(match.tiles.mask_names(match.tiles.all_mask & ~_seen(match)))


def unseen_plays(match: Match) -> tuple[dict[str, Any], ...]:
    """For the seat on turn whose hand the record does not show whole: each tile not seen
    anywhere that it may play, with the end it joins (``{"tile", "end"}`` as in legal plays;
    ``end`` null on the lead). Empty when the hand is known (its plays are the legal ones), when
    nobody is on turn, and on a lead the rules name (legal plays offer that tile already)."""
    if not match.playing or match.finished or match.turn is None:
        return ()
    seat, ts = match.turn, match.tiles
    if match.hand_known(seat) or (match.left is None and match.lead_tile is not None):
        return ()
    free = ts.all_mask & ~_seen(match)
    if match.left is None:
        return tuple({"tile": ts.names[t], "end": None} for t in iter_bits(free))
    plays = []
    for tile in iter_bits(free & match.playable_mask()):
        plays.extend(tile_plays(match, tile))
    return tuple(plays)


_SIDES = (("L", "left"), ("R", "right"), ("U", "up"), ("D", "down"))


def places(match: Match) -> tuple[dict[str, Any], ...]:
    """With the open ends counted (the points family), once the lead lies: for each open end
    (left, right, up, down), each tile the seat on turn may place there, as a phone offers a
    tap on an end and then the tile: ``{"side", "tile", "end", "count"}``, ``end`` what the
    play names (null where the tile goes there without it, else the side), ``count`` the open
    ends' count after it. The tiles are the seat's where the record shows its hand, else every
    tile not seen (as ``unseen_plays``: they tell nothing of a hidden hand). Empty otherwise."""
    layout = match.layout
    if (not isinstance(layout, CountedLine) or not match.playing or match.finished
            or match.turn is None or layout.left is None):
        return ()
    seat, ts = match.turn, match.tiles
    mask = match.known[seat]
    if not match.hand_known(seat):
        mask |= ts.all_mask & ~_seen(match)
    ends = {side: pip for side, pip, _ in layout.open_ends()}
    found = []
    for side, name in _SIDES:
        pip = ends.get(side)
        if pip is None:
            continue
        for tile in iter_bits(mask & ts.pip_mask[pip]):
            high, low = ts.high[tile], ts.low[tile]
            after = layout.placed(side, tile, high + low)
            found.append({"side": name, "tile": ts.names[tile],
                          "end": None if layout.place(high, low, None) == side else name,
                          "count": after.count()})
    return tuple(found)


def leads(match: Match) -> tuple[dict[str, Any], ...]:
    """Before a lead several seats may make: each seat that may lead with each tile it may
    lead (``{"seat", "tile"}``): the tile the rules name, else the seat's tiles where its hand
    is known, else every tile not seen elsewhere. Empty otherwise."""
    if not match.playing or match.finished or match.turn is not None or match.left is not None:
        return ()
    ts, found = match.tiles, []
    for seat in iter_bits(match.may_lead):
        others = match.line
        for other, known in enumerate(match.known):
            if other != seat:
                others |= known
        if match.lead_tile is not None:
            mask = (1 << match.lead_tile) & ~others
        elif match.hand_known(seat):
            mask = match.known[seat]
        else:
            mask = ts.all_mask & ~others
        found.extend({"seat": seat, "tile": ts.names[t]} for t in iter_bits(mask))
    return tuple(found)


class SaidRounds:
    """The entries :func:`round_results` said of a match's rounds that are over, in order, and
    the core's rounds they were said of (the same objects), kept from one screen to the next."""

    __slots__ = ("rounds", "entries")

    def __init__(self) -> None:
        self.rounds: list[Any] = []
        self.entries: list[dict[str, Any]] = []


def round_results(match: Match, players: list[str], sides: list[str],
                  kept: SaidRounds | None = None) -> tuple[dict[str, Any], ...]:
    """Each round dealt, as the report has it (``round``, ``outcome``, ``winner`` side,
    ``points``, ``pips``, ``blocked_by`` seat; with scoring during play each scoring play with
    its side's ``total`` after it), with the winning side's and the blocking seat's names: what a
    phone says to the table when a round ends.

    ``kept``: what was said before of this match's rounds, kept by the caller from one screen
    to the next (:meth:`MatchRecord.said_rounds`). The core changes only the round in play
    (``match.round``, the last dealt: a reveal, an annul, a score each change it), never one
    before it, and a Match's rounds are only ever added to; so every round but the last is said
    once, and its entry taken again while the last round kept is the very object at its place
    in ``match.rounds`` (the list holds it: no other round can take its identity, and the
    rounds before it are then the kept ones). A record replayed anew has new rounds and is said
    afresh. Each screen of a long match said every round again: some 37 a screen and 0.08 ms of
    an append's CPU at seq 1,000 (bench/store_bench.py)."""
    rounds = match.rounds
    last = len(rounds) - 1
    if kept is None or last < 1:
        return tuple(_said(r, players, sides) for r in rounds)
    known = len(kept.rounds)
    if known > last or (known and kept.rounds[known - 1] is not rounds[known - 1]):
        kept.rounds.clear()  # said of another match's rounds, or of a replay's before
        kept.entries.clear()
        known = 0
    for round_ in rounds[known:last]:
        kept.rounds.append(round_)
        kept.entries.append(_said(round_, players, sides))
    return (*kept.entries, _said(rounds[last], players, sides))


def _said(result: Any, players: list[str], sides: list[str]) -> dict[str, Any]:
    """One round's entry of :func:`round_results`, from the core's round (its report line,
    a copy: ``Round.as_dict``)."""
    entry = result.as_dict()
    # Each scoring play with its side's total after it (``total``; for a bust, the total
    # it would have made, what the table is told it is past), as the core kept it.
    for play, total in zip(entry.get("scored") or (), result.reached or ()):
        play["total"] = total
    entry["winner_name"] = sides[result.winner] if result.winner is not None else None
    entry["blocked_by_name"] = (players[result.blocked_by] if result.blocked_by is not None
                                else None)
    return entry
