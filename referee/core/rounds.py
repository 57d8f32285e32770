"""A round's bookkeeping and its report line, and the match's steps from a deal to a scored
round: starting it, ending play, scoring it once every hand is known, and whether the totals
end the match."""

from __future__ import annotations

from typing import Any

from .openers import opening
from .outcomes import ANNULLED, AWAITING, BLOCKED, IN_PROGRESS, TARGET
from .records import Record, _set
from .scoring import match_winner


class RoundResult(Record):
    """A round as the report shows it."""

    __slots__ = ("round", "opener", "outcome", "winner", "points", "pips", "blocked_by", "scores",
                 "scored", "reached")

    def __init__(self, round: int, opener: int | None, outcome: str, winner: int | None,
                 points: int, pips: tuple[int, ...] | None, blocked_by: int | None,
                 scores: tuple[int, ...] = (), scored: tuple[dict[str, Any], ...] | None = None,
                 reached: tuple[int, ...] | None = None) -> None:
        _set(self, "round", round)
        _set(self, "opener", opener)
        _set(self, "outcome", outcome)
        _set(self, "winner", winner)
        _set(self, "points", points)
        _set(self, "pips", pips)
        _set(self, "blocked_by", blocked_by)
        # The points each side scored in the round (plays, bonus and end points, after busts;
        # penalties are not a round's), and with scoring during play each play that scored or
        # bust ({"seq", "seat", "count", "points", "bust"?}); None in the seeds' family.
        _set(self, "scores", scores)
        _set(self, "scored", scored)
        # Beside each entry of ``scored``, its side's total after it (for a bust, the total it
        # would have made: what the table is told it is past), penalties included as they stood:
        # what a phone says; not in the report, whose entries the contract fixes.
        _set(self, "reached", reached)

    def as_dict(self) -> dict[str, Any]:
        return _report_line(self.round, self.opener, self.outcome, self.winner, self.points,
                            self.pips, self.blocked_by, self.scores, self.scored)


def _report_line(number: int, opener: int | None, outcome: str, winner: int | None,
                 points: int, pips: Any, blocked_by: int | None, scores: Any,
                 scored: Any) -> dict[str, Any]:
    """A round's line in the report (RoundResult.as_dict, Round.as_dict), every list and entry
    a copy."""
    found = {"round": number, "opener": opener, "outcome": outcome, "winner": winner,
             "points": points, "pips": list(pips) if pips is not None else None,
             "blocked_by": blocked_by, "scores": list(scores)}
    if scored is not None:
        found["scored"] = list(map(dict.copy, scored))  # (each a flat dict: copied at C speed)
    return found


class Round:
    """One deal's bookkeeping; becomes a RoundResult in the report."""

    __slots__ = ("number", "opener", "outcome", "winner", "points", "pips", "blocked_by",
                 "seat_out", "ended", "dealt_at", "dealt", "trail", "closed", "scores", "scored",
                 "reached", "bonus", "owes_pips")

    def __init__(self, number: int, opener: int | None, dealt_at: int,
                 dealt: list[int | None], sides: int = 2, plays_score: bool = False) -> None:
        self.number = number
        self.dealt_at = dealt_at  # the seq of its deal
        self.dealt = dealt  # each seat's hand as dealt, where the deal shows it (else None)
        # What the round's seats did, as hindsight needs it: (seq, kind, seat, tile, ends).
        # kind: "play" (tile, and where it went: "L" or "R", or for the lead its pips as
        # written; Match.placed reads the line from these), "draw" (tile or None when unseen,
        # the ends: None for a disputed draw before the lead), "pass" (None, the ends),
        # "reveal" (a mask of tiles shown).
        self.trail: list[tuple[str, int, int, Any, Any]] = []
        # Whether the record leaves any of it unseen (a hand dealt closed, a draw unseen): only
        # then has hindsight anything to find.
        self.closed = None in dealt
        self.opener = opener
        self.outcome = IN_PROGRESS
        self.winner: int | None = None
        self.points = 0
        self.pips: tuple[int, ...] | None = None
        self.blocked_by: int | None = None
        self.seat_out: int | None = None  # who went out, on a domino
        self.ended: str | None = None  # DOMINO or BLOCKED once play stopped, even before reveals
        self.scores = [0] * sides  # what each side scored in it (see RoundResult)
        self.scored: list[dict[str, Any]] | None = [] if plays_score else None
        self.reached: list[int] | None = [] if plays_score else None  # see RoundResult
        self.bonus = 0  # the out_bonus scored with the last play (exact_target), after a bust
        # Scored at once though hands are not all known (an end score that needs none): the
        # reveals, when they come, fill in the pips (and a block's winner).
        self.owes_pips = False

    def as_dict(self) -> dict[str, Any]:
        """Its line in the report: ``result().as_dict()``, without the RoundResult between
        (a record of ten fields made for every round of every report)."""
        return _report_line(self.number, self.opener, self.outcome, self.winner, self.points,
                            self.pips, self.blocked_by, self.scores, self.scored)

    def result(self) -> RoundResult:
        return RoundResult(self.number, self.opener, self.outcome, self.winner, self.points,
                           self.pips, self.blocked_by, tuple(self.scores),
                           None if self.scored is None else tuple(self.scored),
                           None if self.reached is None else tuple(self.reached))


class RoundKeeping:
    """The match's round steps (a part of Match: it holds the state they change)."""

    __slots__ = ()

    def _start_round(self, masks: list[int | None]) -> None:
        rules, tiles = self.rules, self.tiles
        seats = rules.seats
        self.known = [m or 0 for m in masks]
        held = 0
        for mask in self.known:
            held |= mask
        self.held = held
        self.count = [rules.hand_size] * seats
        self.unseen_pips = [None] * seats
        self.line = 0
        self.layout = self.family.layout
        self.boneyard = tiles.size - seats * rules.hand_size
        self.passes = 0
        self.drew = False
        self.last_player = None
        previous = None  # the last round that counted
        for round_ in reversed(self.rounds):
            if round_.outcome != ANNULLED:
                previous = round_
                break
        may_lead, self.lead_tile = opening(rules, tiles, masks, self.all_dealt, previous)
        self.may_lead = may_lead
        # the one seat that may lead has the turn; with several (or none) nobody has it yet
        alone = may_lead and not may_lead & (may_lead - 1)
        self.turn = may_lead.bit_length() - 1 if alone else None
        self.round = Round(len(self.rounds) + 1, self.turn, self.seq, list(masks), rules.sides,
                           self.family.scoring.scores_plays)
        self.rounds.append(self.round)
        self.playing = True

    def _annul_scores(self) -> None:
        """An annulled round's points leave the totals (it is as if never dealt)."""
        round_ = self.round
        for side, points in enumerate(round_.scores):
            self.totals[side] -= points
        round_.scores = [0] * len(round_.scores)

    def _end_play(self, how: str) -> None:
        self.playing = False
        self.turn = None
        self.settled = self.seq
        self.round.ended = how
        if how == BLOCKED:
            self.round.blocked_by = self.last_player
        self.round.outcome = AWAITING
        self._score_if_revealed()

    def _score_if_revealed(self) -> None:
        """Score the round whose play ended, as the family's policy does once it has what it
        needs (scoring.ScoringPolicy.end_round)."""
        self.family.scoring.end_round(self)

    def _round_scored(self) -> None:
        """The round is scored: whether time or the totals end the match."""
        if self.timed is not None and self.round.number >= self.last_round:
            self.time_up = True
        self._settle()

    def _end_at_target(self, side: int) -> None:
        """A score during play took ``side`` to the target: the round stops there (outcome
        TARGET, nothing more scored) and the match is over."""
        self.playing = False
        self.turn = None
        self.settled = self.seq
        round_ = self.round
        round_.ended = round_.outcome = TARGET
        round_.winner, round_.points = side, 0
        self._settle()

    def _settle(self) -> None:
        """Whether the totals end the match: a side reached the target (the highest total
        wins, none on a tie), or time is up and one side's total is the highest alone. Checked
        after every scored round and every penalty, so a ruling can bring it back into play."""
        totals = self.totals
        reached = max(totals) >= self.rules.target
        if reached or self.time_up:
            winner = match_winner(totals)
            if reached or winner is not None:
                self.finished, self.winner = True, winner
                return
        self.finished, self.winner = False, None
