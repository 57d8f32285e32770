"""The director's constraints, honoured by every format (hypothesis over field sizes,
withdrawals and arrivals): an entrant fixed at a table sits there whenever seated, two
entrants forbidden one table never share one (in ``rotating``, two forbidden to partner never
partner), a requested bye sits its round out; and each table or bye they shape says so."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_pairing_properties import MINIMUM

from referee.service import Invalid
from referee.service.pairing import (
    Constraints,
    Entrant,
    FixedTable,
    Forbidden,
    History,
    PairingRules,
    RequestedBye,
    Standing,
    pair_round,
)


def constrained(fmt: str, size: int, rounds: int, seed: int):
    """A random event with random constraints: each round, the pairing and the constraints."""
    rng = random.Random(seed)
    entrants = [Entrant(f"e{n:02d}", f"E{n}") for n in range(size)]
    ids = [e.id for e in entrants]
    fixed = tuple(FixedTable(e, table, "access") for e, table in
                  zip(rng.sample(ids, rng.randint(0, 2)), rng.sample(range(1, 6), 2)))
    scopes = ("table", "partners") if fmt == "rotating" else ("table",)
    forbidden = tuple(Forbidden(*rng.sample(ids, 2), rng.choice(scopes), "couple")
                      for _ in range(rng.randint(0, 3)))
    byes = tuple(RequestedBye(e, rng.randint(1, rounds), "away")
                 for e in rng.sample(ids, rng.randint(0, 2)))
    rules = Constraints(fixed, forbidden, byes)
    history = History()
    for number in range(1, rounds + 1):
        if number > 1 and rng.random() < 0.4:
            present = [e for e in entrants if e.present]
            if len(present) > MINIMUM[fmt] + 1:
                gone = rng.choice(present)
                entrants[entrants.index(gone)] = Entrant(gone.id, gone.name, gone.entered, False)
            entrants.append(Entrant(f"e{len(entrants):02d}", "late", entered=number))
        order = [e.id for e in entrants if e.present]
        rng.shuffle(order)
        pairing = pair_round(PairingRules(fmt), entrants, Standing.ordered(order), history,
                             constraints=rules)
        yield entrants, rules, pairing
        history = history.after(pairing)


@settings(max_examples=30, deadline=None)
@given(fmt=st.sampled_from(["pairs", "rotating", "round_robin"]),
       size=st.integers(min_value=5, max_value=40), rounds=st.integers(min_value=1, max_value=5),
       seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_every_format_honours_the_directors_constraints(fmt: str, size: int, rounds: int,
                                                        seed: int) -> None:
    for entrants, rules, pairing in constrained(fmt, size, rounds, seed):
        present = {e.id for e in entrants if e.present}
        seated = pairing.seated()
        sitting_out = {b.entrant: b for b in pairing.byes}
        assert sorted(seated + list(sitting_out)) == sorted(present)
        numbers = [t.number for t in pairing.tables]
        assert len(numbers) == len(set(numbers))
        table_of = {e: t for t in pairing.tables for side in t.sides for e in side}
        for f in rules.fixed:
            if f.entrant in table_of:
                table = table_of[f.entrant]
                assert table.number == f.table
                name = next(e.name for e in entrants if e.id == f.entrant)
                assert table.reasons[0] == f"table {f.table}: fixed for {name} by the director (access)"
        for f in rules.forbidden:
            if f.one in table_of and f.other in table_of:
                if f.scope == "table":
                    assert table_of[f.one] is not table_of[f.other]
                else:
                    assert not any({f.one, f.other} == set(side) for side in table_of[f.one].sides)
        for b in rules.byes:
            if b.round == pairing.round and b.entrant in present:
                assert sitting_out[b.entrant].reasons == ("bye: requested, and granted by the "
                                                          "director (away)",)


def test_constraints_that_cannot_hold_are_refused() -> None:
    entrants = [Entrant(c, c) for c in "abcd"]
    with pytest.raises(Invalid, match="table 1 is fixed for both 'a' and 'b'"):
        pair_round("pairs", entrants, constraints=Constraints(
            fixed=(FixedTable("a", 1), FixedTable("b", 1))))
    with pytest.raises(Invalid, match="names 'z', who is not entered"):
        pair_round("pairs", entrants, constraints=Constraints(byes=(RequestedBye("z", 1),)))
    with pytest.raises(Invalid, match="not as partners"):
        pair_round("pairs", entrants, constraints=Constraints(
            forbidden=(Forbidden("a", "b", "partners"),)))


def test_a_fixed_table_keeps_its_number_and_the_others_fill_around_it() -> None:
    entrants = [Entrant(c, c.upper()) for c in "abcdef"]
    pairing = pair_round("pairs", entrants, Standing.ordered("abcdef"),
                         constraints=Constraints(fixed=(FixedTable("e", 1, "ramp"),)))
    assert [(t.number, t.sides[0] + t.sides[1]) for t in pairing.tables] == [
        (1, ("e", "f")), (2, ("a", "b")), (3, ("c", "d"))]
    assert pairing.tables[0].reasons[0] == "table 1: fixed for E by the director (ramp)"
    assert pairing.tables[1].reasons[0].startswith("table 2: A (1st) is the best placed at the "
                                                   "tables the director has not fixed")
