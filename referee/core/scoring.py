"""Scoring: the policy a family scores by, and the seeds' family's sums (who wins a finished
round and what it scores, from the pips left in each seat's hand; who wins the match).

A scoring policy is the part of a family (referee.core.family) that says when points are made
and how many: ``after_play`` runs after every play the match applies, before the round's end it
may make; ``round_end`` scores a round once play stopped and every hand left is known. The
seeds' family scores nothing during play and the pips left at the end (PipsAtRoundEnd). A
family that counts the layout's open ends during play is a policy whose ``after_play`` adds to
the totals (docs/core.md, "Adding a family").
"""

from __future__ import annotations

from typing import Any, Sequence

from .outcomes import DOMINO
from .rules import Rules

# The policy's hooks are given the match and its round (referee.core.match.Match and
# referee.core.rounds.Round); they are typed Any here as those modules import this one.
Match = Round = Any


class ScoringPolicy:
    """How a family scores (a policy is one object shared by every match of its family)."""

    __slots__ = ()

    # Whether after_play scores (the applier calls it only then: a call saved on every play
    # of a family that does not). push_all's run of moves (referee.core.fastpath) restates the
    # application of a play without calling it, so only a family that scores nothing during
    # play may use it.
    scores_plays = False

    def after_play(self, match: Match, seat: int) -> None:
        """After ``seat``'s play is applied (the tile on the layout), before a domino or a
        block it makes ends play: what it scores, added to the match's totals. Called only when
        ``scores_plays`` is true."""

    def round_end(self, rules: Rules, round_: Round, pips: Sequence[int]) -> tuple[int | None, int]:
        """(winning side or None, points) of a round whose play ended (``round_.ended``:
        DOMINO or BLOCKED), from the pips left in each seat's hand."""
        raise NotImplementedError(type(self).__name__ + " does not say how a round is scored")

    def side_goes_out(self, match: Match, seat: int) -> bool:
        """Whether ``seat``, its hand just emptied, ends the round by domino (a family whose
        partners both go out says no while the partner holds tiles: the seat is skipped)."""
        return True

    def end_round(self, match: Match) -> None:
        """Score the match's round whose play ended (called then, and after each reveal while
        it awaits them): here, once every hand left is known, ``round_end``'s points to the
        winner, and the match's end checked (Match._round_scored)."""
        if match.finished:  # a penalty or forfeit ended the match first: the round stays unscored
            return
        if (pips := match.pips_in_hands()) is None:  # awaiting a reveal
            return
        round_ = match.round
        round_.pips = tuple(pips)
        round_.outcome = round_.ended
        winner, points = self.round_end(match.rules, round_, pips)
        round_.winner, round_.points = winner, points
        if winner is not None:
            match.totals[winner] += points
            round_.scores[winner] += points
        match._round_scored()


class PipsAtRoundEnd(ScoringPolicy):
    """The seeds' family: nothing scored during play; the round's winner scores from the pips
    left in hands (the rules' domino_points, blocked_compare, blocked_points, blocked_tie)."""

    __slots__ = ()

    def round_end(self, rules: Rules, round_: Round, pips: Sequence[int]) -> tuple[int | None, int]:
        if round_.ended == DOMINO:
            return score_domino(rules, pips, round_.seat_out)  # type: ignore[arg-type]
        opener = round_.opener if round_.opener is not None else 0
        return score_block(rules, pips, round_.blocked_by, opener)  # type: ignore[arg-type]


PIPS_AT_ROUND_END = PipsAtRoundEnd()


def side_totals(rules: Rules, pips: Sequence[int]) -> list[int]:
    totals = [0] * rules.sides
    for seat, count in enumerate(pips):
        totals[rules.side_of(seat)] += count
    return totals


def score_domino(rules: Rules, pips: Sequence[int], seat_out: int) -> tuple[int, int]:
    """(winning side, points) when ``seat_out`` played its last tile."""
    side = rules.side_of(seat_out)
    if rules.domino_points == "all":
        return side, sum(pips)
    return side, sum(p for s, p in enumerate(pips) if rules.side_of(s) != side)


def score_block(rules: Rules, pips: Sequence[int], blocker: int, opener: int) -> tuple[int | None, int]:
    """(winning side or None, points) for a blocked round."""
    totals = side_totals(rules, pips)
    if rules.blocked_compare == "side_total":
        measure = totals
    else:
        measure = [min(pips[s] for s in rules.seats_of(side)) for side in range(rules.sides)]
    best = min(measure)
    tied = [side for side in range(rules.sides) if measure[side] == best]
    winner = tied[0] if len(tied) == 1 else _break_tie(rules, tied, blocker, opener)
    if winner is None:
        return None, 0
    opponents = [totals[side] for side in range(rules.sides) if side != winner]
    if rules.blocked_points == "opponents":
        return winner, sum(opponents)
    if rules.blocked_points == "all":
        return winner, sum(totals)
    return winner, max(0, sum(total - totals[winner] for total in opponents))


def _break_tie(rules: Rules, tied: list[int], blocker: int, opener: int) -> int | None:
    if rules.blocked_tie == "none":
        return None
    if rules.blocked_tie == "blocker_loses":
        remaining = [side for side in tied if side != rules.side_of(blocker)]
        return remaining[0] if len(remaining) == 1 else None
    # mano: the tied side whose seat comes first in turn order from the opener
    return min(tied, key=lambda side: min((s - opener) % rules.seats for s in rules.seats_of(side)))


def match_winner(totals: Sequence[int]) -> int | None:
    """The side with the highest total, or None when two share it."""
    best = max(totals)
    leaders = [side for side, total in enumerate(totals) if total == best]
    return leaders[0] if len(leaders) == 1 else None


def forfeit_winner(totals: Sequence[int], forfeiting: int) -> int | None:
    if len(totals) == 2:
        return 1 - forfeiting
    remaining = [t if side != forfeiting else None for side, t in enumerate(totals)]
    best = max(t for t in remaining if t is not None)
    leaders = [side for side, t in enumerate(remaining) if t == best]
    return leaders[0] if len(leaders) == 1 else None
