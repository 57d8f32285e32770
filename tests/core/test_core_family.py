"""The family seam (referee.core.family): a family is its layout and its scoring policy, given
to the match; the match's own code does not change for a new one."""

from __future__ import annotations

import random

from core_helpers import NAMES, deal, play

from referee.core.family import HANDS, Family, family_of
from referee.core.layout import EMPTY, Layout
from referee.core.match import Match
from referee.core.outcomes import DOMINO
from referee.core.rules import resolve_rules
from referee.core.scoring import PIPS_AT_ROUND_END, ScoringPolicy
from referee.core.simulate import random_match
from referee.core.tiles import tile_set


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


# ---------------------------------------------------------------- a points family, as a test
# What the points family (scoring during play) needs of the seam, made here and nowhere in the
# product: a layout with a spinner (the first double, its arms "U" and "D" open once both its
# sides hold a tile) and a policy that scores the count of the open ends after every play, a
# multiple of 5 scoring itself (All Fives). The match's code is the same; only the family
# differs.


class SpinnerLayout(Layout):
    """A line whose first double, led or laid, becomes the spinner: once tiles lie on both its
    sides, two arms open on it, each showing its pip until a tile lies there."""

    __slots__ = ()

    def lead(self, tile, halves):
        laid = super().lead(tile, halves)
        return laid._replace(spinner=tile) if halves[0] == halves[1] else laid

    def place(self, high, low, end):
        side = super().place(high, low, end)
        if side in ("ambiguous_end", "no_match") and end is None:
            for arm, (pip, _) in zip("UD", self.arms):
                if pip in (high, low):
                    return arm  # an arm (either: they give the same layout until one is laid)
        return side

    def placed(self, side, tile, pips):
        if side in ("U", "D"):
            arms = list(self.arms)
            at = "UD".index(side)
            arms[at] = (pips - arms[at][0], tile)
            return self._replace(arms=tuple(arms))
        laid = super().placed(side, tile, pips)
        spinner = laid.spinner
        if spinner is None and TILES.high[tile] == TILES.low[tile]:
            laid = laid._replace(spinner=tile)
        elif (spinner is not None and not laid.arms and laid.left_tile != spinner
                and laid.right_tile != spinner):
            pip = TILES.high[spinner]
            laid = laid._replace(arms=((pip, spinner), (pip, spinner)))  # both sides covered
        return laid

    def count(self):
        """The sum of the open ends: a lone lead its pips once; a double at an end (the spinner
        while one of its sides is open) both halves; an arm once a tile lies on it."""
        high, low = TILES.high, TILES.low
        if self.left_tile == self.right_tile:  # the lead alone
            return high[self.left_tile] + low[self.left_tile]
        total = 0
        for pip, tile in ((self.left, self.left_tile), (self.right, self.right_tile), *self.arms):
            if tile == self.spinner and self.arms:
                continue  # the spinner, both sides covered (or an arm with nothing on it yet)
            total += 2 * pip if high[tile] == low[tile] else pip
        return total


class AllFives(ScoringPolicy):
    """After every play the count scores itself when it is a multiple of 5, for the side that
    placed it; at the round's end, the pips as the seeds' family scores them."""

    __slots__ = ()
    scores_plays = True

    def after_play(self, match, seat):
        count = match.layout.count()
        if count and count % 5 == 0:
            match.totals[match.rules.side_of(seat)] += count

    def round_end(self, rules, round_, pips):
        return PIPS_AT_ROUND_END.round_end(rules, round_, pips)


TILES = tile_set(6)
POINTS = Family("a points family (test)", SpinnerLayout(), AllFives(), fast=True)


def test_a_points_family_is_a_layout_and_a_policy():
    assert not POINTS.fast  # the run of moves restates the seeds' family only: never for it
    rules = resolve_rules("mano-a-mano", 2)
    match = Match(rules, NAMES[:2], POINTS)
    events = [deal("5-5 5-3 6-1 6-2 4-1 2-1 0-0", "5-0 5-2 6-3 6-4 4-2 3-1 1-0"),
              play(0, "5-5"),  # the lead alone: 10, scored
              play(1, "5-0"),  # the spinner's open side 10 + 0: 10, scored
              play(0, "5-3"),  # both its sides covered: 3 + 0, the arms open
              play(1, "5-2")]  # on an arm: 3 + 0 + 2 = 5, scored
    assert match.push_all(events) == []
    layout = match.layout
    assert (layout.ends, layout.spinner) == ((3, 0, 2, 5), TILES.by_text["5-5"])
    assert layout.crosswise(TILES) == (False, False, False, True)  # the empty arm: the spinner
    assert match.totals == [10, 15]
    assert [entry[4] for entry in match.round.trail] == [(5, 5), "R", "L", "U"]
    # the judges read the ends through the layout: a tile that fits only the other arm
    assert match.push(play(0, "6-1")).code == "no_match"
    assert match.push({"type": "pass", "seat": 0}).code == "renege"  # 6-2 and 2-1 fit the arm
    assert match.push(play(0, "6-2")) is None and match.layout.arms[0] == (6, TILES.by_text["6-2"])
    assert match.totals == [10, 15]  # 3 + 0 + 6: nothing
    pips = Match(rules, NAMES[:2])  # the same record in the seeds' family
    refused = pips.push_all(events)
    assert [v.code for v in refused] == ["no_match"] and pips.totals == [0, 0]


def test_a_points_family_replays_a_whole_match_it_allows():
    """Random legal matches of the seeds' family replayed in the points family, up to the first
    move its arms make illegal (a pass or draw holding a tile an arm takes): every play is
    scored as the count of the layout it made says, the lead included."""
    rules = resolve_rules("mano-a-mano", 2)
    scored = 0
    for seed in range(40):
        _, events = random_match("mano-a-mano", NAMES[:2], random.Random(seed), max_rounds=3)
        match = Match(rules, NAMES[:2], POINTS)
        for event in events:
            before = match.totals[:]
            violation = match.push(event)
            if violation is not None:
                break  # (a tile the line would take went on an arm here: the families part)
            if event["type"] == "play" and not match.round.ended:
                count = match.layout.count()
                assert match.totals[event["seat"]] - before[event["seat"]] == (
                    count if count % 5 == 0 else 0)
                scored += count % 5 == 0
    assert scored > 40  # plays that scored, the leads and the line's among them
