"""The family seam (referee.core.family): a family is its layout and its scoring policy, given
to the match; the match's own code does not change for a new one."""

from __future__ import annotations

import random

from core_helpers import NAMES

from referee.core.family import HANDS, Family, family_of
from referee.core.layout import EMPTY
from referee.core.match import Match
from referee.core.outcomes import DOMINO
from referee.core.rules import resolve_rules
from referee.core.scoring import PIPS_AT_ROUND_END, ScoringPolicy
from referee.core.simulate import random_match


class OnePointARound(ScoringPolicy):
    """A test policy: a domino scores 1 for the side that went out, a block 0 for no one."""

    __slots__ = ()

    def round_end(self, rules, round_, pips):
        if round_.ended == DOMINO:
            return rules.side_of(round_.seat_out), 1
        return None, 0


def test_the_rules_choose_the_seeds_family():
    family = family_of(resolve_rules("parejas", 4))
    assert family is HANDS and family.scoring is PIPS_AT_ROUND_END and family.layout is EMPTY
    assert family.fast


def test_a_scoring_policy_given_scores_every_round():
    rules = resolve_rules("mano-a-mano", 2)
    _, events = random_match("mano-a-mano", NAMES[:2], random.Random(7), max_rounds=6)
    ones = Match(rules, NAMES[:2], Family("one point a round", EMPTY, OnePointARound()))
    pips = Match(rules, NAMES[:2])
    for event in events:
        assert ones.push(event) is None and pips.push(event) is None
    dominoes = [r for r in pips.results() if r.outcome == DOMINO]
    assert dominoes  # the seed gives dominoes to count
    for mine, theirs in zip(ones.results(), pips.results()):
        assert (mine.outcome, mine.pips) == (theirs.outcome, theirs.pips)  # the same play
        assert mine.points == (1 if mine.outcome == DOMINO else 0)
    assert sum(ones.totals) == len(dominoes) and ones.totals != pips.totals
