"""The judges of the events that are not a seat's move nor a deal: a referee's rulings (penalty,
forfeit, annul, void, amend, stands), the clock (time), a withdrawal (abandon) and a note."""

from __future__ import annotations

from .events import Violation
from .outcomes import ANNULLED
from .rules import TOTAL_LIMIT
from .said import said
from .scoring import forfeit_winner


class RulingJudges:
    """The judges of rulings, time, abandon and note (a part of Match: they read and change its
    state)."""

    __slots__ = ()

    def _annul(self, event: dict, seq: int) -> Violation | None:
        if v := self._not_playing(seq, None):
            return v
        self.round.outcome = ANNULLED
        self._annul_scores()
        self.playing = False
        self.turn = None
        self.settled = seq
        return None

    def _penalty(self, event: dict, seq: int) -> Violation | None:
        # A penalty naming a dispute is a ruling on it: accepted after the match ended, and the
        # result follows (the winner may change, the match may come back into play).
        if event.get("target") is None and (v := self._over(seq)):
            return v
        total = self.totals[event["side"]] + event["points"]
        if not -TOTAL_LIMIT <= total <= TOTAL_LIMIT:  # (rules.py: why a score has a limit)
            return Violation(seq, "bad_event", None, said(
                "a side's total may be from %(least)s to %(most)s: this penalty would make it "
                "%(total)s", least=-TOTAL_LIMIT, most=TOTAL_LIMIT, total=total))
        self.totals[event["side"]] = total
        if not self.forfeited:
            self._settle()
        return None

    def _forfeit(self, event: dict, seq: int) -> Violation | None:
        if v := self._over(seq):
            return v
        self.finished = self.forfeited = True
        self.winner = forfeit_winner(self.totals, event["side"])
        return None

    def _void(self, event: dict, seq: int) -> Violation | None:
        # What a void (or an amend) strikes or replaces is settled before the replay (see
        # referee.core.replay); noting that one was seen lets a replay without any skip that step.
        self.voided = True
        return None

    def _amend(self, event: dict, seq: int) -> Violation | None:
        target = event["target"]
        if target in self.rulings_at:
            return Violation(seq, "bad_event", None, said("an amend corrects a recorded event, not a ruling: event %(target)s is one",
                                                          target=target))
        return self._void(event, seq)

    def _stands(self, event: dict, seq: int) -> Violation | None:
        return None  # the disputed event stays as recorded: nothing in the game changes

    def _note(self, event: dict, seq: int) -> Violation | None:
        return None

    def _time(self, event: dict, seq: int) -> Violation | None:
        """The table's clock ran out: the round in play, or the next one dealt, is the last."""
        if v := self._over(seq):
            return v
        if self.rules.time_limit is None:
            return Violation(seq, "bad_event", None, said("these rules have no time limit"))
        if self.timed is not None:
            return Violation(seq, "bad_event", None,
                             said("time was already called at event %(seq)s", seq=self.timed))
        self.timed = seq
        self.last_round = self.round.number if self.playing else len(self.rounds) + 1
        return None

    def _abandon(self, event: dict, seq: int) -> Violation | None:
        """A match withdrawn before anything was played: it ends with no result."""
        if v := self._over(seq):
            return v
        if not self.withdrawable or seq in self.refused_abandons:
            return Violation(seq, "bad_event", None,
                             said("a match can be abandoned only while no deal stands in its record"))
        self.abandoned = seq
        self.finished, self.winner = True, None
        return None
