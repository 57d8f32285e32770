"""The points family's scoring policy: the open ends counted after every play (Fives and Threes,
All Fives, Muggins), busts under an exact target, the chip-out bonus, and the round's end score.

docs/rules.md, "Points during play", says the rules; this module is them as a ScoringPolicy
(referee.core.scoring): ``after_play`` scores a play's count for its side (the lead as
``lead_scores`` says), and with ``exact_target`` the play that goes out and ``out_bonus`` as one
score; a score that reaches the target ends the match there and then (outcome ``target``).
``end_round`` scores a round whose play ended: ``out_bonus`` (unless scored with the last play),
then the pips as the seeds' family counts them, rounded by ``pips_round``, a score of its own.
An end score that needs no hand (``domino_points``/``blocked_points`` ``none``) is scored at
once; the reveals, when they come, fill in the pips (and a block's winner).
"""

from __future__ import annotations

from typing import Any, Sequence

from .counting import WORTH
from .outcomes import BLOCKED, DOMINO
from .rules import Rules
from .scoring import ScoringPolicy, score_block, score_domino

Match = Round = Any


def rounded(points: int, step: int) -> int:
    """``points`` to the nearest multiple of ``step`` (12 -> 10, 13 -> 15 for 5)."""
    if step == 1:
        return points
    return (points + step // 2) // step * step


class PointsDuringPlay(ScoringPolicy):
    """Scoring during play, from the count of the layout's open ends."""

    __slots__ = ()
    scores_plays = True

    def after_play(self, match: Match, seat: int) -> None:
        rules, layout = match.rules, match.layout
        count = layout.count()
        value = WORTH[rules.count][count]
        bonus = 0
        if (rules.exact_target and rules.out_bonus and not match.count[seat]
                and self.side_goes_out(match, seat)):
            bonus = rules.out_bonus  # the chip-out point, scored with the play
        if not value and not bonus:  # most plays: nothing scored, nothing listed
            return
        side = rules.side_of(seat)
        totals, round_ = match.totals, match.round
        if layout.left_tile == layout.right_tile and rules.lead_scores != "always":  # the lead
            if rules.lead_scores == "never" or totals[side] + value >= rules.target:
                value = 0  # kept from scoring ("no winning on the down"): no bust, not listed
                count = -1
        score = value + bonus
        bust = rules.exact_target and score > 0 and totals[side] + score > rules.target
        if value and count >= 0:
            entry = {"seq": match.seq, "seat": seat, "count": count, "points": value}
            if bust:
                entry["bust"] = True
            round_.scored.append(entry)
            round_.reached.append(totals[side] + score)
        if bonus:
            round_.bonus = 0 if bust else bonus
        if bust or not score:
            return
        totals[side] += score
        round_.scores[side] += score
        if totals[side] >= rules.target:
            match._end_at_target(side)

    def side_goes_out(self, match: Match, seat: int) -> bool:
        """Whether ``seat``, its hand now empty, takes its side out (ends the round by domino):
        with ``partners_out: both`` in partnerships, only once its partner is out too."""
        if match.count[seat]:
            return False
        rules = match.rules
        if rules.partners_out == "both" and rules.partnerships:
            return not match.count[(seat + 2) % 4]
        return True

    def round_end(self, rules: Rules, round_: Round, pips: Sequence[int]) -> tuple[int | None, int]:
        """(winner, points from pips, rounded) of a round whose hands are all known."""
        if round_.ended == DOMINO:
            side = rules.side_of(round_.seat_out)
            if rules.domino_points == "none":
                return side, 0
            return side, rounded(score_domino(rules, pips, round_.seat_out)[1], rules.pips_round)
        opener = round_.opener if round_.opener is not None else 0
        winner, points = score_block(rules, pips, round_.blocked_by, opener)
        if rules.blocked_points == "none":
            return winner, 0
        return winner, rounded(points, rules.pips_round)

    def end_round(self, match: Match) -> None:
        round_, rules = match.round, match.rules
        # (called after every reveal of a closed round, as the seeds' policy is)
        pips = match.pips_in_hands()
        if round_.owes_pips:  # scored already, at once: the reveals fill in the pips
            if pips is not None:
                round_.owes_pips = False
                round_.pips = tuple(pips)
                if round_.ended == BLOCKED:
                    round_.winner = self.round_end(rules, round_, pips)[0]
            return
        if match.finished:  # a penalty or forfeit ended the match first: the round stays unscored
            return
        ended = round_.ended
        needs_hands = (rules.domino_points if ended == DOMINO else rules.blocked_points) != "none"
        if pips is None and needs_hands:
            return  # awaiting the reveals
        if pips is not None:
            winner, points = self.round_end(rules, round_, pips)
            round_.pips = tuple(pips)
        else:  # nothing from the hands: scored now, the pips (a block's winner) when revealed
            round_.owes_pips = True
            winner = rules.side_of(round_.seat_out) if ended == DOMINO else None
            points = 0
        round_.outcome = ended
        bonus = 0
        if ended == DOMINO and rules.out_bonus:
            if rules.exact_target:
                bonus = round_.bonus  # scored with the last play (0 if it bust)
            else:
                bonus = rules.out_bonus
                match.totals[winner] += bonus
                round_.scores[winner] += bonus
        if winner is not None and points:
            if rules.exact_target and match.totals[winner] + points > rules.target:
                points = 0  # bust: the pips' score would pass the target
            match.totals[winner] += points
            round_.scores[winner] += points
        round_.winner, round_.points = winner, bonus + points
        match._round_scored()


POINTS_DURING_PLAY = PointsDuringPlay()
