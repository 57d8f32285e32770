"""The pairing engine's properties over random events (hypothesis): fields of 4 to 64 entrants,
odd counts, withdrawals and late arrivals between rounds, a random standing before each round,
several rounds in a row, in each format.

What is asserted, and why it is provable:

- nobody at two tables or both seated and sitting out; everyone present seated or sitting out,
  nobody absent seated; the number sitting out is what the format says;
- byes spread: nobody sits out while someone seated has had fewer byes;
- table 1 holds the best placed of those seated, and tables go in order of their best placed;
- ``pairs``: no rematch while one can be avoided. For fields of at most 12 present the test
  decides avoidability itself by brute force (some bye open under the bye rule, then a perfect
  matching of the rest without a rematch); for larger fields it asserts no rematch whenever each
  seated partnership has met fewer than half of the others seated, since then (Dirac) the graph
  of pairs who have not met has a Hamiltonian cycle, so a rematch-free pairing exists;
- ``rotating``: no repeated partner while the seated players allow it, decided the same two
  ways. This is per round, given who sits out: the engine seats by the bye rule first and pairs
  greedily round after round, so it does not promise the longest possible run of rounds without
  a repeat, only that a round repeats no partner when its seated players could avoid it (with
  no byes and no changes, Dirac's bound makes that every round up to half the field's size).
  Opponents: with at most 3 tables the test finds by brute force the fewest repeated opponent
  meetings any seating of the engine's partnerships allows, and the engine matches it;
- ``round_robin``: with a field that only loses entrants, no pair meets twice in the schedule's
  first cycle; a full cycle of an unchanged field meets every pair exactly once.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Callable, Iterator, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.service.pairing import Entrant, History, Pairing, Standing, pair_round

SMALL = 12  # fields up to this size get brute-force avoidability checks
MINIMUM = {"pairs": 2, "rotating": 4, "round_robin": 2}
SIZES = st.integers(min_value=4, max_value=64)
ROUNDS = st.integers(min_value=1, max_value=6)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def event(fmt: str, size: int, rounds: int, seed: int, changes: bool = True
          ) -> Iterator[tuple[list[Entrant], Standing, History, Pairing]]:
    """Each round of a random event: the field, the standing and history it was paired from,
    and the pairing. Between rounds some entrants withdraw and some arrive late."""
    rng = random.Random(seed)
    entrants = [Entrant(f"e{n:02d}", f"Entrant {n}") for n in range(size)]
    history = History()
    for number in range(1, rounds + 1):
        if changes and number > 1 and rng.random() < 0.5:
            present = [e for e in entrants if e.present]
            for gone in rng.sample(present, min(rng.randint(0, 2), len(present) - MINIMUM[fmt])):
                entrants[entrants.index(gone)] = Entrant(gone.id, gone.name, gone.entered, False)
            for _ in range(rng.randint(0, 2)):
                n = len(entrants)
                entrants.append(Entrant(f"e{n:02d}", f"Entrant {n}", entered=number))
        ranked = [e.id for e in entrants if e.present and e.entered < number]
        rng.shuffle(ranked)
        standing = Standing.ordered(ranked)
        pairing = pair_round(fmt, entrants, standing, history)
        yield list(entrants), standing, history, pairing
        history = history.after(pairing)


def order_of(entrants: Sequence[Entrant], standing: Standing) -> list[str]:
    """The present in standing order, as the docs define it: rank, unranked last, then id."""
    ranks = dict(standing.ranks)
    return sorted((e.id for e in entrants if e.present), key=lambda i: (ranks.get(i, len(ranks) + 1), i))


def pairable(nodes: Sequence[str], ok: Callable[[str, str], bool]) -> bool:
    """Brute force: can ``nodes`` all be paired with allowed pairs only?"""
    if not nodes:
        return True
    first, rest = nodes[0], nodes[1:]
    return any(ok(first, x) and pairable([y for y in rest if y != x], ok) for x in rest if ok(first, x))


def dirac(nodes: Sequence[str], ok: Callable[[str, str], bool]) -> bool:
    """Whether every node may pair with at least half the others: then a Hamiltonian cycle of
    allowed pairs exists (Dirac), and with an even count a perfect matching."""
    return all(sum(ok(a, b) for b in nodes if b != a) >= len(nodes) / 2 for a in nodes)


def avoidable(nodes: Sequence[str], ok: Callable[[str, str], bool]) -> bool | None:
    """True or False when the test can decide it, None when neither check applies."""
    if len(nodes) <= SMALL:
        return pairable(list(nodes), ok)
    return True if dirac(nodes, ok) else None


def check_common(fmt: str, entrants: list[Entrant], standing: Standing, history: History,
                 pairing: Pairing) -> None:
    present = {e.id for e in entrants if e.present}
    seated = pairing.seated()
    sitting_out = [b.entrant for b in pairing.byes]
    assert len(seated) == len(set(seated)), "someone at two tables"
    assert not set(seated) & set(sitting_out), "someone seated and sitting out"
    assert len(sitting_out) == len(set(sitting_out))
    assert set(seated) | set(sitting_out) == present, "someone present left out, or absent seated"
    assert [t.number for t in pairing.tables] == list(range(1, len(pairing.tables) + 1))
    width = 2 if fmt == "rotating" else 1
    assert all(len(side) == width for t in pairing.tables for side in t.sides)
    assert all(t.reasons for t in pairing.tables) and all(b.reasons for b in pairing.byes)
    place = {e: n for n, e in enumerate(order_of(entrants, standing))}
    bests = [min(place[e] for side in t.sides for e in side) for t in pairing.tables]
    assert bests == sorted(bests), "tables not in order of their best placed"
    if pairing.tables:
        assert bests[0] == min(place[e] for e in seated), "table 1 is not the leaders'"
    if fmt != "round_robin":
        assert len(sitting_out) == len(present) % (4 if fmt == "rotating" else 2)
        if sitting_out and seated:
            most = max(len(history.byes(e)) for e in sitting_out)
            assert most <= min(len(history.byes(e)) for e in seated), "a bye before someone's first"


@settings(max_examples=40, deadline=None)
@given(size=SIZES, rounds=ROUNDS, seed=SEEDS)
def test_pairs_seat_everyone_once_and_avoid_rematches(size: int, rounds: int, seed: int) -> None:
    for entrants, standing, history, pairing in event("pairs", size, rounds, seed):
        check_common("pairs", entrants, standing, history, pairing)

        def fresh(a: str, b: str) -> bool:
            return not history.met(a, b)
        rematch = any(history.met(t.sides[0][0], t.sides[1][0]) for t in pairing.tables)
        assert rematch == any("no rematch" in r for r in pairing.relaxed)
        order = order_of(entrants, standing)
        if len(order) <= SMALL:
            if len(order) % 2:
                fewest = min(len(history.byes(e)) for e in order)
                could = any(pairable([x for x in order if x != e], fresh)
                            for e in order if len(history.byes(e)) == fewest)
            else:
                could = pairable(order, fresh)
        else:
            could = dirac(pairing.seated(), fresh) or None
        if could:
            assert not rematch, f"an avoidable rematch in round {pairing.round}"
        # the two leaders seated meet at table 1 when they have not met and the others can
        # then be paired without a rematch
        seated = [e for e in order if e in set(pairing.seated())]
        if fresh(*seated[:2]) and not rematch and avoidable(seated[2:], fresh):
            assert {pairing.tables[0].sides[0][0], pairing.tables[0].sides[1][0]} == set(seated[:2])


def faced(history: History, one: Sequence[str], other: Sequence[str]) -> int:
    return sum(len(history.met(a, b)) for a in one for b in other)


def fewest_faced(history: History, partnerships: list[tuple[str, ...]]) -> int:
    """Brute force over every way of seating the partnerships two by two."""
    if not partnerships:
        return 0
    first, rest = partnerships[0], partnerships[1:]
    return min(faced(history, first, other) + fewest_faced(history, [p for p in rest if p != other])
               for other in rest)


@settings(max_examples=40, deadline=None)
@given(size=SIZES, rounds=ROUNDS, seed=SEEDS)
def test_rotating_seats_everyone_once_with_new_partners(size: int, rounds: int, seed: int) -> None:
    for entrants, standing, history, pairing in event("rotating", size, rounds, seed):
        check_common("rotating", entrants, standing, history, pairing)
        partnerships = [side for t in pairing.tables for side in t.sides]
        repeated = any(history.partnered(*side) for side in partnerships)
        assert repeated == any("new partners" in r for r in pairing.relaxed)
        could = avoidable(pairing.seated(), lambda a, b: not history.partnered(a, b))
        if could:
            assert not repeated, f"an avoidable repeated partner in round {pairing.round}"
        repeats = sum(faced(history, *t.sides) for t in pairing.tables)
        assert (repeats > 0) == any("new opponents" in r for r in pairing.relaxed)
        if len(pairing.tables) <= 3:
            assert repeats == fewest_faced(history, partnerships)


@settings(max_examples=40, deadline=None)
@given(size=SIZES, rounds=ROUNDS, seed=SEEDS)
def test_round_robin_seats_everyone_once(size: int, rounds: int, seed: int) -> None:
    for entrants, standing, history, pairing in event("round_robin", size, rounds, seed):
        check_common("round_robin", entrants, standing, history, pairing)
        withdrawn = {e.id for e in entrants if not e.present}
        roster = len(entrants) + len(entrants) % 2
        assert len(pairing.byes) <= len(withdrawn) + 1
        # a bye is the odd field's free place or a withdrawn opponent, never a choice
        assert all("free place" in b.reasons[0] or "withdrawn" in b.reasons[0] for b in pairing.byes)
        assert len(pairing.tables) + len(pairing.byes) <= roster // 2


@settings(max_examples=25, deadline=None)
@given(size=SIZES, seed=SEEDS)
def test_round_robin_with_withdrawals_only_never_repeats_a_meeting(size: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = [Entrant(f"e{n:02d}", f"Entrant {n}") for n in range(size)]
    history = History()
    meetings: Counter[frozenset[str]] = Counter()
    for number in range(1, min(size + size % 2 - 1, 8) + 1):
        present = [e for e in entrants if e.present]
        if number > 1 and len(present) > 2 and rng.random() < 0.4:
            gone = rng.choice(present)
            entrants[entrants.index(gone)] = Entrant(gone.id, gone.name, present=False)
        pairing = pair_round("round_robin", entrants, Standing(), history)
        assert pairing.relaxed == ()
        meetings.update(frozenset((t.sides[0][0], t.sides[1][0])) for t in pairing.tables)
        history = history.after(pairing)
    assert max(meetings.values()) == 1


@settings(max_examples=15, deadline=None)
@given(size=st.integers(min_value=2, max_value=20))
def test_a_round_robin_cycle_meets_every_pair_once_and_each_sits_out_at_most_once(size: int) -> None:
    entrants = [Entrant(f"e{n:02d}", f"Entrant {n}") for n in range(size)]
    history = History()
    cycle = size + size % 2 - 1
    for _ in range(cycle):
        history = history.after(pair_round("round_robin", entrants, Standing(), history))
    met = Counter(frozenset((one[0], other[0])) for r in history.rounds for one, other in r.tables)
    assert set(met) == {frozenset(p) for p in combinations([e.id for e in entrants], 2)}
    assert set(met.values()) == {1}
    sat_out = Counter(e for r in history.rounds for e in r.byes)
    assert len(sat_out) == size % 2 * size and set(sat_out.values()) <= {1}
    # the next round starts the schedule again, and says so
    assert any("starts the schedule again" in r
               for r in pair_round("round_robin", entrants, Standing(), history).relaxed)


@settings(max_examples=30, deadline=None)
@given(fmt=st.sampled_from(["pairs", "rotating", "round_robin"]), size=SIZES,
       rounds=st.integers(min_value=1, max_value=3), seed=SEEDS)
def test_the_same_field_in_any_order_gives_the_same_pairing(fmt: str, size: int, rounds: int,
                                                             seed: int) -> None:
    rng = random.Random(seed)
    for entrants, standing, history, pairing in event(fmt, size, rounds, seed):
        shuffled = entrants[:]
        rng.shuffle(shuffled)
        ranks = list(standing.ranks)
        rng.shuffle(ranks)
        again = pair_round(fmt, shuffled, Standing(tuple(ranks)), history)
        assert again == pairing
        assert pair_round(fmt, entrants, standing, history) == pairing


@settings(max_examples=10, deadline=None)
@given(tables=st.integers(min_value=1, max_value=8), seed=SEEDS)
def test_rotating_repeats_no_partner_in_the_first_half_of_a_fixed_fields_rounds(tables: int,
                                                                                seed: int) -> None:
    """The bound docs/tournaments.md promises: no byes, no changes, ``n / 2`` rounds."""
    size = 4 * tables
    partnered: Counter[frozenset[str]] = Counter()
    for *_, pairing in event("rotating", size, size // 2, seed, changes=False):
        assert not any(r.startswith("new partners") for r in pairing.relaxed)
        partnered.update(frozenset(side) for t in pairing.tables for side in t.sides)
    assert max(partnered.values()) == 1
