"""Cups (referee/service/leagues: draw, bracket): the draw from a recorded seed or a ranking,
byes in the first round, single and double elimination, advancement from results; worked by
hand, the documented draw checked against an implementation of its own (the Mersenne Twister
written out here from its published reference), and over random cups played to the end
(hypothesis): everyone out has lost exactly once (twice in double elimination), the champion
is the only one never eliminated, the losers of winners' round r drop to losers' round 2r - 2
(round 1 to round 1), nobody plays twice in a round, the smaller draw number is at home, and a
redraw from the recorded seed is identical, while no redraw is possible once a tie is played."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.service.leagues import (
    Bracket,
    LeagueError,
    bracket,
    bracket_order,
    draw_cup,
    redraw,
)

EIGHT = [f"e{n}" for n in range(1, 9)]


def test_the_bracket_order_keeps_the_best_apart() -> None:
    assert bracket_order(1) == (1,)
    assert bracket_order(2) == (1, 2)
    assert bracket_order(4) == (1, 4, 2, 3)
    assert bracket_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert bracket_order(16)[:4] == (1, 16, 8, 9)


def test_a_seeded_draw_of_five_gives_the_best_three_a_bye() -> None:
    draw = draw_cup(["A", "B", "C", "D", "E"], seeded=5)
    assert draw.order == ("A", "B", "C", "D", "E") and draw.size == 8
    assert draw.places() == ("A", None, "D", "E", "B", None, "C", None)
    cup = bracket(draw, {})
    assert [(t.id, t.status, t.home, t.away) for t in cup.ties] == [
        ("W1-1", "bye", "A", None), ("W1-2", "ready", "D", "E"), ("W1-3", "bye", "B", None),
        ("W1-4", "bye", "C", None), ("W2-1", "waiting", "A", None),
        ("W2-2", "ready", "B", "C"), ("W3-1", "waiting", None, None)]
    cup = bracket(draw, {"W1-2": "E", "W2-1": "E", "W2-2": "C"})
    final = cup.tie("W3-1")
    assert (final.status, final.home, final.away) == ("ready", "C", "E")  # 3 before 5
    assert bracket(draw, {"W1-2": "E", "W2-1": "E", "W2-2": "C", "W3-1": "E"}).champion == "E"


def test_double_elimination_of_four_worked_by_hand() -> None:
    draw = draw_cup(["A", "B", "C", "D"], seeded=4, format="double_elimination")
    played = {"W1-1": "A", "W1-2": "C", "W2-1": "A", "L1-1": "B", "L2-1": "B"}
    cup = bracket(draw, played)
    assert [(t.id, t.home, t.away, t.status) for t in cup.ties] == [
        ("W1-1", "A", "D", "played"), ("W1-2", "B", "C", "played"),
        ("W2-1", "A", "C", "played"),
        ("L1-1", "B", "D", "played"),  # the losers of winners' round 1
        ("L2-1", "B", "C", "played"),  # the loser of winners' round 2 drops to round 2
        ("F1", "A", "B", "ready"), ("F2", None, None, "waiting")]
    assert cup.champion is None
    reset = bracket(draw, {**played, "F1": "B"})
    assert (reset.tie("F2").status, reset.tie("F2").home, reset.champion) == ("ready", "A", None)
    assert bracket(draw, {**played, "F1": "B", "F2": "A"}).champion == "A"
    assert bracket(draw, {**played, "F1": "B", "F2": "B"}).champion == "B"
    decided = bracket(draw, {**played, "F1": "A"})
    assert (decided.tie("F2").status, decided.champion) == ("not_needed", "A")
    with pytest.raises(LeagueError, match="the grand final's second match cannot have a "
                                          "result: it is not ready"):
        bracket(draw, {**played, "F1": "A", "F2": "A"})


def test_losers_drop_in_reverse_order_to_round_two_r_minus_two() -> None:
    cup = bracket(draw_cup(EIGHT, seeded=8, format="double_elimination"), {})
    sources = {t.id: [(s.kind, s.ref) for s in t.sources] for t in cup.ties}
    assert sources["L1-1"] == [("loser", "W1-1"), ("loser", "W1-2")]
    assert sources["L2-1"] == [("winner", "L1-1"), ("loser", "W2-2")]
    assert sources["L2-2"] == [("winner", "L1-2"), ("loser", "W2-1")]
    assert sources["L3-1"] == [("winner", "L2-1"), ("winner", "L2-2")]
    assert sources["L4-1"] == [("winner", "L3-1"), ("loser", "W3-1")]
    assert sources["F1"] == [("winner", "W3-1"), ("winner", "L4-1")]


def test_two_entrants_in_double_elimination_meet_in_the_final() -> None:
    draw = draw_cup(["A", "B"], seeded=2, format="double_elimination")
    cup = bracket(draw, {"W1-1": "B"})
    assert [t.id for t in cup.ties] == ["W1-1", "F1", "F2"]
    assert (cup.tie("F1").home, cup.tie("F1").away) == ("A", "B")
    assert bracket(draw, {"W1-1": "B", "F1": "A", "F2": "A"}).champion == "A"


# --------------------------------------------------------------------------- the seed

class Twister:
    """MT19937 as Matsumoto and Nishimura published it (init_by_array, genrand_int32), written
    out apart from CPython's, to check that docs/leagues.md's steps make the same draw."""

    def __init__(self, seed: int) -> None:
        key = []
        while True:
            key.append(seed & 0xFFFFFFFF)
            seed >>= 32
            if not seed:
                break
        mt = [0] * 624
        mt[0] = 19650218
        for i in range(1, 624):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
        i, j = 1, 0
        for _ in range(max(624, len(key))):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) \
                & 0xFFFFFFFF
            i, j = i + 1, j + 1
            if i >= 624:
                mt[0], i = mt[623], 1
            if j >= len(key):
                j = 0
        for _ in range(623):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
            i += 1
            if i >= 624:
                mt[0], i = mt[623], 1
        mt[0] = 0x80000000
        self.mt, self.index = mt, 624

    def next32(self) -> int:
        mt = self.mt
        if self.index >= 624:
            for k in range(624):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7FFFFFFF)
                mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def below(self, n: int) -> int:
        k = n.bit_length()
        while True:
            r = self.next32() >> (32 - k)
            if r < n:
                return r


def documented_draw(pot: list[str], seed: int, seeded: int) -> tuple[str, ...]:
    drawn = pot[seeded:]
    twister = Twister(seed)
    for i in range(len(drawn) - 1, 0, -1):
        j = twister.below(i + 1)
        drawn[i], drawn[j] = drawn[j], drawn[i]
    return tuple(pot[:seeded] + drawn)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(2, 40), st.data())
def test_the_documented_draw_is_the_draw(seed: int, n: int, data: st.DataObject) -> None:
    pot = [f"club{k}" for k in range(n)]
    seeded = data.draw(st.integers(0, n))
    assert draw_cup(pot, seed, seeded).order == documented_draw(pot, seed, seeded)


def test_a_draw_worked_from_its_seed() -> None:
    """Written down so that a change of the algorithm (or of CPython's) is seen."""
    assert draw_cup(EIGHT, seed=2025).order == ("e7", "e3", "e5", "e1", "e8", "e4", "e6", "e2")
    assert draw_cup(EIGHT, seed=2025, seeded=2).order == ("e1", "e2", "e4", "e5", "e8", "e6",
                                                          "e3", "e7")


def test_a_redraw_is_the_same_until_a_tie_is_played() -> None:
    draw = draw_cup(EIGHT, seed=7, format="double_elimination")
    assert draw_cup(list(EIGHT), seed=7, format="double_elimination") == draw
    assert redraw(draw, 7, {}) == draw
    other = redraw(draw, 8, {})
    assert other.seed == 8 and other.format == draw.format and other.order != draw.order
    first = bracket(draw, {}).ties[0]
    with pytest.raises(LeagueError, match="the draw cannot be made again: winners' round "
                                          "1, tie 1 has been played"):
        redraw(draw, 8, {"W1-1": first.home})


@pytest.mark.parametrize("make, says", [
    (lambda: draw_cup(["A"], seed=1), "at least 2 entrants, and has 1"),
    (lambda: draw_cup(["A", "B", "A"], seed=1), "'A' is listed twice"),
    (lambda: draw_cup(["A", ""], seed=1), "a non-empty text"),
    (lambda: draw_cup("AB", seed=1), "a list of ids"),
    (lambda: draw_cup(["A", "B", "C"]), "a draw needs its seed"),
    (lambda: draw_cup(["A", "B"], seed=-1), "from 0 to 2\\*\\*64 - 1, not -1"),
    (lambda: draw_cup(["A", "B"], seed=2**64), "from 0 to 2\\*\\*64 - 1"),
    (lambda: draw_cup(["A", "B"], seed="x"), "from 0 to 2\\*\\*64 - 1"),
    (lambda: draw_cup(["A", "B"], seed=1, seeded=3), "from 0 to the 2 entrants, not 3"),
    (lambda: draw_cup(["A", "B"], seed=1, format="swiss"), "unknown cup format 'swiss'"),
    (lambda: bracket(draw_cup(EIGHT, seed=1), {"W9-1": "e1"}), "the cup has no tie 'W9-1'"),
    (lambda: bracket(draw_cup(EIGHT, seeded=8), {"W1-1": "e2"}),
     "round 1, tie 1 is between 'e1' and 'e8', not 'e2'"),
    (lambda: bracket(draw_cup(EIGHT, seeded=8), {"W2-1": "e1"}),
     "round 2, tie 1 cannot have a result: it is not ready to play"),
    (lambda: bracket(draw_cup(EIGHT[:5], seeded=5), {"W1-1": "e1"}),
     "round 1, tie 1 cannot have a result"),  # a bye
    (lambda: bracket(draw_cup(EIGHT, seeded=8), [("W1-1", "e1")]), "map each tie played"),
    (lambda: bracket(draw_cup(EIGHT, seeded=8), {"W1-1": None}),
     "round 1, tie 1 is won by one of its entrants, not None"),
    (lambda: bracket(draw_cup(EIGHT, seeded=8, format="double_elimination"), {"L1-1": ""}),
     "losers' round 1, tie 1 is won by one of its entrants"),
    (lambda: bracket(draw_cup(EIGHT, seeded=8, format="double_elimination"), {"F1": 3}),
     "the grand final is won by one of its entrants"),
    (lambda: bracket(draw_cup(EIGHT, seeded=8), {}).tie("W4-1"), "the cup has no tie 'W4-1'"),
])
def test_a_bad_cup_is_refused(make, says: str) -> None:
    with pytest.raises(LeagueError, match=says):
        make()


def test_a_draw_with_one_to_draw_needs_no_seed() -> None:
    assert draw_cup(["A", "B", "C"], seeded=2).order == ("A", "B", "C")


# --------------------------------------------------------------------------- any cup

def play_out(draw, rng: random.Random) -> tuple[Bracket, dict[str, str]]:
    """Play every tie ready, in the bracket's order, a winner at random, until none is left."""
    results: dict[str, str] = {}
    while True:
        cup = bracket(draw, results)
        ready = [t for t in cup.ties if t.status == "ready"]
        if not ready:
            return cup, results
        tie = ready[0]
        results[tie.id] = rng.choice([tie.home, tie.away])


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 40), st.integers(0, 2**64 - 1), st.sampled_from(
    ["single_elimination", "double_elimination"]), st.data())
def test_any_cup_played_to_the_end(n: int, seed: int, fmt: str, data: st.DataObject) -> None:
    pot = [f"p{k}" for k in range(n)]
    seeded = data.draw(st.integers(0, n))
    draw = draw_cup(pot, seed, seeded, fmt)
    assert draw == draw_cup(pot, seed, seeded, fmt)  # the recorded seed draws it again
    assert sorted(draw.order) == sorted(pot) and draw.size // 2 < n <= draw.size
    cup, results = play_out(draw, random.Random(seed))
    assert all(t.status in ("played", "bye", "empty", "not_needed") for t in cup.ties)
    losses = Counter(t.loser for t in cup.ties if t.status == "played")
    champion = cup.champion
    assert champion in pot
    lives = 1 if fmt == "single_elimination" else 2
    assert all(losses[p] == lives for p in pot if p != champion)  # everyone out, out once
    assert losses[champion] < lives  # the only one never eliminated
    played = sum(t.status == "played" for t in cup.ties)
    assert played == (n - 1 if lives == 1 else 2 * n - 2 + (cup.tie("F2").status == "played"))
    number = {p: draw.number(p) for p in pot}
    seen: set[tuple[str, str, int]] = set()
    for tie in cup.ties:
        if tie.status == "bye":
            assert tie.bracket != "winners" or tie.round == 1  # the draw's byes: round 1 only
        if tie.status == "played":
            assert number[tie.home] < number[tie.away]
            for p in (tie.home, tie.away):
                assert (p, tie.bracket, tie.round) not in seen  # nobody twice in a round
                seen.add((p, tie.bracket, tie.round))
        for source in tie.sources:
            if source.kind == "loser" and source.ref.startswith("W"):
                r = int(source.ref[1:].split("-")[0])
                if draw.size > 2:
                    assert (tie.bracket, tie.round) == ("losers", max(1, 2 * r - 2))
                else:  # two entrants: the loser of the only tie is the losers' bracket
                    assert tie.bracket == "final"
    with pytest.raises(LeagueError, match="cannot be made again"):
        redraw(draw, seed ^ 1, results)
