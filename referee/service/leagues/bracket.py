"""A cup's bracket from its draw and the ties played: single or double elimination.

**Single elimination**: rounds 1 to K (``2**K`` places); round 1's ties are the draw's places in
pairs; tie ``k`` of round ``r`` (from 2) has the winners of ties ``2k - 1`` and ``2k`` of round
``r - 1``.

**Double elimination** adds a losers' bracket of ``2K - 2`` rounds, where an entrant's first
loss sends it (a second loss ends its cup), and a grand final:

- losers' round 1: tie ``k`` has the losers of winners' round 1's ties ``2k - 1`` and ``2k``;
- losers of winners' round ``r`` (from 2) drop to losers' round ``2r - 2``, in reverse order
  (tie ``k`` of that round gets the loser of the winners' tie ``m + 1 - k`` of the ``m``), to
  meet the winner of tie ``k`` of the losers' round before;
- an odd losers' round from 3 pairs the winners of the round before, ties ``2k - 1`` and
  ``2k``;
- the grand final (``F1``): the winners' bracket's champion against the losers' bracket's (with
  two entrants, the loser of the only winners' tie). When the losers'-bracket side wins it,
  each has lost once, and a second match (``F2``) decides the cup; else ``F2`` is not needed.

A place with nobody in it (a bye of the draw, or the loser of a bye) passes its tie's other
entrant through (a bye); a tie with nobody on either side is empty. In every tie the entrant
with the smaller draw number is at home. The bracket is worked out again from the draw and
the results, so recording a result is giving one more (tie id, winner) pair; nothing else is
kept.

Tie ids: ``W{round}-{tie}`` (winners' bracket), ``L{round}-{tie}`` (losers'), ``F1``, ``F2``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from ...core.said import Said, said
from .draw import Draw, draw_cup
from .errors import LeagueError

NOBODY = ""  # a place that nobody will fill (a bye); None is a place not decided yet


@dataclass(frozen=True, slots=True)
class Source:
    """Where a tie's place is filled from: ``entrant`` (the draw's place: ``ref`` is the
    entrant, or empty for a bye), or the ``winner`` or ``loser`` of tie ``ref``."""

    kind: str
    ref: str


@dataclass(frozen=True, slots=True)
class Tie:
    """A tie of the bracket: its id, part (``winners``, ``losers``, ``final``), round and
    number; its two places' sources; who is at home and away (None: not known yet, or nobody);
    its ``status`` (``waiting``, ``ready``, ``played``, ``bye``, ``empty``, ``not_needed``);
    its winner and loser once known (None otherwise, and for nobody)."""

    id: str
    bracket: str
    round: int
    number: int
    sources: tuple[Source, Source]
    home: str | None
    away: str | None
    status: str
    winner: str | None = None
    loser: str | None = None


@dataclass(frozen=True)
class Bracket:
    """Every tie of a cup in the order they can be played (the winners' rounds, the losers'
    rounds, the grand final), and its champion once decided."""

    draw: Draw
    ties: tuple[Tie, ...]
    champion: str | None

    def tie(self, tie_id: str) -> Tie:
        for tie in self.ties:
            if tie.id == tie_id:
                return tie
        raise _no_tie(tie_id)


def _no_tie(tie_id: object) -> LeagueError:
    return LeagueError("the cup has no tie %(tie)r", tie=tie_id)


def place(tie_id: str) -> tuple[str, int, int]:
    """A tie's bracket (``winners``, ``losers``, ``final``), round and number, from its id
    (``W2-1``, ``L1-2``, ``F1``: the grand final's first match is ``F1``, its second ``F2``)."""
    if tie_id.startswith("F"):
        return "final", int(tie_id[1:]), 1
    rnd, number = tie_id[1:].split("-")
    return ("losers" if tie_id.startswith("L") else "winners"), int(rnd), int(number)


def called(tie_id: str, format: str) -> Said:
    """A tie as people say it ("winners' round 2, tie 3"), not its id."""
    if tie_id == "F1":
        return said("the grand final")
    if tie_id == "F2":
        return said("the grand final's second match")
    bracket, rnd, number = place(tie_id)
    if bracket == "losers":
        return said("losers' round %(round)s, tie %(number)s", round=rnd, number=number)
    if format == "double_elimination":
        return said("winners' round %(round)s, tie %(number)s", round=rnd, number=number)
    return said("round %(round)s, tie %(number)s", round=rnd, number=number)


def redraw(previous: Draw, seed: int, results: Mapping[str, str]) -> Draw:
    """The cup drawn again from ``seed`` (same pot, seeds and format), while no tie has been
    played: LeagueError once ``results`` holds one (a played tie fixes the draw)."""
    if results:
        played = sorted(results)[0]
        raise LeagueError("the draw cannot be made again: %(tie)s has been played",
                          tie=called(played, previous.format))
    return draw_cup(previous.entrants, seed, previous.seeded, previous.format)


def _shape(draw: Draw) -> list[tuple[str, str, int, int, Source, Source]]:
    """Every tie's (id, part, round, number, sources), in an order where a tie comes after
    every tie it is filled from."""
    rounds = draw.size.bit_length() - 1  # K: the winners' rounds
    places = draw.places()
    ties: list[tuple[str, str, int, int, Source, Source]] = []

    def add(part: str, letter: str, rnd: int, k: int, one: Source, other: Source) -> None:
        ties.append((f"{letter}{rnd}-{k}", part, rnd, k, one, other))

    for k in range(1, draw.size // 2 + 1):
        add("winners", "W", 1, k, Source("entrant", places[2 * k - 2] or NOBODY),
            Source("entrant", places[2 * k - 1] or NOBODY))
    for r in range(2, rounds + 1):
        for k in range(1, draw.size // 2 ** r + 1):
            add("winners", "W", r, k, Source("winner", f"W{r - 1}-{2 * k - 1}"),
                Source("winner", f"W{r - 1}-{2 * k}"))
    if draw.format == "single_elimination":
        return ties
    for k in range(1, draw.size // 4 + 1):
        add("losers", "L", 1, k, Source("loser", f"W1-{2 * k - 1}"),
            Source("loser", f"W1-{2 * k}"))
    for r in range(2, rounds + 1):  # the drop of winners' round r, then (but the last) a merge
        m = draw.size // 2 ** r
        for k in range(1, m + 1):
            add("losers", "L", 2 * r - 2, k, Source("winner", f"L{2 * r - 3}-{k}"),
                Source("loser", f"W{r}-{m + 1 - k}"))
        if r < rounds:
            for k in range(1, m // 2 + 1):
                add("losers", "L", 2 * r - 1, k, Source("winner", f"L{2 * r - 2}-{2 * k - 1}"),
                    Source("winner", f"L{2 * r - 2}-{2 * k}"))
    losers_champion = (Source("winner", f"L{2 * rounds - 2}-1") if rounds > 1
                       else Source("loser", "W1-1"))
    finalists = (Source("winner", f"W{rounds}-1"), losers_champion)
    ties.append(("F1", "final", 1, 1, *finalists))
    ties.append(("F2", "final", 2, 1, *finalists))
    return ties


def bracket(draw: Draw, results: Mapping[str, str]) -> Bracket:
    """The bracket of ``draw`` with ``results`` (tie id -> the winner's id) played. LeagueError
    for a result of no tie of the cup, of a tie that is not ready to play (its entrants not
    known yet, a bye, an empty tie, a second final not needed), or naming a winner who is not
    in the tie."""
    if not isinstance(draw, Draw):
        raise LeagueError("a bracket is made from a cup's draw, not %(value)r", value=draw)
    number = {entrant: n for n, entrant in enumerate(draw.order, start=1)}
    shape = _shape(draw)
    known = {tie_id for tie_id, *_ in shape}
    if not isinstance(results, Mapping):
        raise LeagueError("a cup's results map each tie played to its winner, not %(value)r",
                          value=results)
    for tie_id, winner in results.items():
        if tie_id not in known:
            raise _no_tie(tie_id)
        if not isinstance(winner, str) or not winner:
            raise LeagueError("%(tie)s is won by one of its entrants, not %(value)r",
                              tie=called(tie_id, draw.format), value=winner)
    done: dict[str, Tie] = {}

    def fill(source: Source) -> str | None:
        if source.kind == "entrant":
            return source.ref
        tie = done[source.ref]
        return tie.winner if source.kind == "winner" else tie.loser

    ties: list[Tie] = []
    for tie_id, part, rnd, k, one, other in shape:
        a, b = fill(one), fill(other)
        needed = True
        if tie_id == "F2":
            first = done["F1"]
            if first.status != "played":
                a = b = None  # needed or not, F1 will tell
            elif first.winner == a:  # the winners' bracket's champion won: the cup is decided
                a = b = NOBODY
                needed = False
        if a and b:
            home, away = sorted((a, b), key=number.__getitem__)
        else:
            home, away = a or None, b or None
        tie = _played(tie_id, part, rnd, k, (one, other), home, away, a, b, results, needed,
                      draw.format)
        done[tie_id] = tie
        ties.append(tie)
    return Bracket(draw, tuple(_public(t) for t in ties), _champion(draw, done))


def _played(tie_id: str, part: str, rnd: int, k: int, sources: tuple[Source, Source],
            home: str | None, away: str | None, a: str | None, b: str | None,
            results: Mapping[str, str], needed: bool, format: str) -> Tie:
    """The tie with its status, and its winner and loser as far as they are known (NOBODY:
    nobody will come)."""
    result = results.get(tie_id)
    if not needed:
        status, winner, loser = "not_needed", NOBODY, NOBODY
    elif a is None or b is None:
        status, winner, loser = "waiting", None, None
    elif a == b == NOBODY:
        status, winner, loser = "empty", NOBODY, NOBODY
    elif not a or not b:
        status, winner, loser = "bye", a or b, NOBODY
    elif result is None:
        status, winner, loser = "ready", None, None
    else:
        if result not in (a, b):
            raise LeagueError("%(tie)s is between %(home)r and %(away)r, not %(winner)r",
                              tie=called(tie_id, format), home=home, away=away, winner=result)
        status, winner, loser = "played", result, b if result == a else a
    if result is not None and status != "played":
        raise LeagueError("%(tie)s cannot have a result: it is not ready to play",
                          tie=called(tie_id, format))
    return Tie(tie_id, part, rnd, k, sources, home, away, status, winner, loser)


def _public(tie: Tie) -> Tie:
    """The tie as the bracket shows it: nobody is None."""
    return replace(tie, winner=tie.winner or None, loser=tie.loser or None)


def _champion(draw: Draw, done: Mapping[str, Tie]) -> str | None:
    if draw.format == "single_elimination":
        last = done[f"W{draw.size.bit_length() - 1}-1"]
        return last.winner or None
    first, second = done["F1"], done["F2"]
    if first.status != "played":
        return None
    if second.status == "not_needed":
        return first.winner
    return second.winner or None
