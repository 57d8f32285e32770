"""``pairs`` is the best pairing by the contract's order, exactly (hypothesis):

- small fields (up to 11 present, odd ones too): against every pairing of the seated,
  enumerated, compared rule by rule (rematches, cross-group tables, floats twice running, sum
  of squared place differences);
- larger fields (up to 100): the engine cuts the search down (score groups paired alone,
  tables of nearby places only) where that is proven to change nothing; its answer is checked
  against networkx's matching over every possible table with the same rules;
- each table says which rule gave way: a table across score groups says so, a float twice
  running says so, and a skipped opponent names the first rule the skip served.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_pairing_properties import matchings, swiss_vector

from referee.service.pairing import (
    Constraints,
    Entrant,
    Forbidden,
    History,
    Pairing,
    Standing,
    pair_round,
)
from referee.service.pairing.field import Field
from referee.service.pairing.matching import best_matching
from referee.service.pairing.swiss import _Solver

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def swiss(size: int, rounds: int, seed: int, draws: bool = True
          ) -> Iterator[tuple[list[Entrant], Standing, History, Pairing]]:
    """A Swiss event of ``size`` with a withdrawal now and then; a table's result is a win for
    one side, or (``draws``) sometimes for neither, so that score groups come in all sizes."""
    rng = random.Random(seed)
    entrants = [Entrant(f"e{n:03d}", f"E{n}") for n in range(size)]
    history, points = History(), Counter[str]()
    for _ in range(rounds):
        present = [e for e in entrants if e.present]
        if len(present) > 4 and rng.random() < 0.3:
            gone = rng.choice(present)
            entrants[entrants.index(gone)] = Entrant(gone.id, gone.name, present=False)
        ids = [e.id for e in entrants if e.present]
        rng.shuffle(ids)
        ids.sort(key=lambda e: -points[e])
        standing = Standing.ordered(ids, {e: points[e] for e in ids})
        pairing = pair_round("pairs", entrants, standing, history)
        yield entrants, standing, history, pairing
        for t in pairing.tables:
            if not draws or rng.random() < 0.8:
                points.update(t.sides[rng.randrange(2)])
        points.update(b.entrant for b in pairing.byes)
        history = history.after(pairing)


@settings(max_examples=60, deadline=None)
@given(size=st.integers(min_value=4, max_value=11), rounds=st.integers(min_value=1, max_value=7),
       seed=SEEDS)
def test_small_fields_get_the_best_pairing_of_all(size: int, rounds: int, seed: int) -> None:
    for _, standing, history, pairing in swiss(size, rounds, seed):
        place = {e: n for n, (e, _) in enumerate(standing.ranks)}
        points = dict(standing.points)
        seated = [e for e, _ in standing.ranks if e in set(pairing.seated())]
        got = swiss_vector([(t.sides[0][0], t.sides[1][0]) for t in pairing.tables],
                           history, pairing.round, place, points)
        assert got == min(swiss_vector(m, history, pairing.round, place, points)
                          for m in matchings(seated))


# Fields of 41 to 100, in two halves of 30 sizes, 4 examples each (8 in all): each half a test
# of its own, so that pytest-xdist spreads them over its workers. As one test of 8 examples it
# kept one worker busy alone for 7 to 100 s of wall time, by the fields drawn (networkx's search
# over every table, the reference, is most of it).
LARGE = [41, 71]


@pytest.mark.parametrize("smallest", LARGE, ids=[f"{n}-{n + 29}" for n in LARGE])
@settings(max_examples=4, deadline=None)
@given(more=st.integers(min_value=0, max_value=29), rounds=st.integers(min_value=2, max_value=6),
       seed=SEEDS)
def test_large_fields_match_the_search_over_every_table(smallest: int, more: int, rounds: int,
                                                        seed: int) -> None:
    size = smallest + more
    for entrants, standing, history, pairing in swiss(size, rounds, seed):
        field = Field(entrants, standing, history, Constraints(), pairing.round)
        solver = _Solver(field)
        seated = [e for e in field.order if e in set(pairing.seated())]
        every = best_matching(seated, ((a, b, solver.scores(a, b)) for i, a in enumerate(seated)
                                       for b in seated[i + 1:]))
        got = [(t.sides[0][0], t.sides[1][0]) for t in pairing.tables]
        assert solver.counts(got) == solver.counts(every)


def test_a_float_twice_running_and_a_cross_group_table_are_explained() -> None:
    # three rounds of six: a lone leader floats every round, and says why
    for _, standing, history, pairing in swiss(6, 3, seed=7, draws=False):
        points = dict(standing.points)
        for t in pairing.tables:
            a, b = t.sides[0][0], t.sides[1][0]
            cross = points.get(a, 0) != points.get(b, 0)
            assert any(r.startswith("across score groups") for r in t.reasons) == cross
            assert any(r.startswith("both in the score group") for r in t.reasons) == (not cross)
            for e in (a, b):
                if cross and pairing.round - 1 in history.floated(e):
                    assert any("floated in round" in r for r in t.reasons)


def test_a_forbidden_pair_never_meets_and_the_skip_says_why() -> None:
    entrants = [Entrant(c, c.upper()) for c in "abcdef"]
    rules = Constraints(forbidden=(Forbidden("a", "b", note="a couple"),))
    pairing = pair_round("pairs", entrants, Standing.ordered("abcdef"), constraints=rules)
    assert [(t.sides[0][0], t.sides[1][0]) for t in pairing.tables][0] == ("a", "c")
    assert "A skips B (2nd): the director forbids them one table (a couple)" in pairing.tables[0].reasons


def test_two_forbidden_to_meet_in_a_field_of_two_have_a_round_of_no_table() -> None:
    entrants = [Entrant("a", "A"), Entrant("b", "B")]
    pairing = pair_round("pairs", entrants, constraints=Constraints(forbidden=(Forbidden("a", "b"),)))
    assert pairing.tables == () and [b.entrant for b in pairing.byes] == ["a", "b"]
    assert pairing.relaxed[-1].startswith("byes: A, B sit out: the director's constraints")
