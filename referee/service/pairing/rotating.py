"""``rotating``: an individual event played at tables of four, two partnerships of two, with new
partners each round and opponents repeated as little as possible.

Players beyond a multiple of four sit out, chosen as for any bye: the fewest byes so far, then
the lowest standing. The seated players are then paired twice with networkx:

1. into partnerships, from the top as in ``pairs``: the best placed player not yet partnered
   takes the best placed below them they have not partnered before, unless that leaves the
   rest unable to be partnered anew (networkx decides, by a maximum-cardinality matching);
   only if the seated players cannot all have new partners are repeats allowed back, the
   fewest possible (a maximum-weight matching, each past partnering counting against it);
2. partnerships into tables: a perfect matching of the partnerships that repeats the fewest
   opponent meetings (each past meeting of two players on opposite sides counts), then keeps
   tables closest in the standing.

The two steps are greedy: step 2 takes step 1's partnerships as given, so the opponents it
repeats are the fewest *for those partnerships*, not over every way of seating the round.
"""

from __future__ import annotations

from .explain import bye_reasons, rounds_text, table_reason
from .field import Bye, Field, Pairing, Table
from .matching import pair_from_top, perfect_matching, standing_distance

Partnership = tuple[str, str]


def pair_rotating(field: Field, round_number: int) -> Pairing:
    history = field.history
    position = field.position
    queue = field.bye_queue()
    sitters = queue[:len(queue) % 4]
    byes = tuple(Bye(e, bye_reasons(field, e)) for e in field.best_first(sitters))
    seated = [e for e in field.order if e not in sitters]

    def partnered(a: str, b: str) -> int:
        return len(history.partnered(a, b))

    def apart(a: str, b: str) -> int:
        return standing_distance(position[a], position[b], len(position))

    relaxed: list[str] = []
    together = field.pairs_where(history.partnered)
    found, repeated = pair_from_top(seated, together, partnered, apart)
    partners = [(a, b) for a, b, _ in found]
    passed_over = {(a, b): skipped for a, b, skipped in found}
    if repeated:
        again = [f"{field.name(a)} and {field.name(b)}" for a, b in partners if partnered(a, b)]
        relaxed.append(f"new partners: no partnerships of the {len(seated)} players seated avoid "
                       f"every repeat, so the fewest are made: {'; '.join(again)} partner again")

    def faced(one: Partnership, other: Partnership) -> int:
        return sum(len(history.met(a, b)) for a in one for b in other)

    def tables_apart(one: Partnership, other: Partnership) -> int:
        return standing_distance(sum(map(position.__getitem__, one)),
                                 sum(map(position.__getitem__, other)), 2 * len(position))

    # partnerships in standing order (best member, then the other), as matching.py wants
    partnerships = sorted(partners, key=lambda p: (position[p[0]], position[p[1]]))
    matched = perfect_matching(partnerships, faced, tables_apart)
    assert matched is not None
    repeated = sum(faced(one, other) for one, other in matched)
    if repeated:
        relaxed.append(f"new opponents: {repeated} past meeting{'s' if repeated > 1 else ''} of "
                       f"opponents repeat{'' if repeated > 1 else 's'}, the fewest these "
                       f"partnerships allow")
    tables = tuple(Table(number, sides, _reasons(field, number, sides, passed_over))
                   for number, sides in enumerate(matched, start=1))
    return Pairing("rotating", round_number, tables, byes, tuple(relaxed))


def _reasons(field: Field, number: int, sides: tuple[Partnership, Partnership],
             passed_over: dict[Partnership, list[str]]) -> tuple[str, ...]:
    history = field.history
    reasons = [table_reason(field, number, sides[0] + sides[1])]
    for a, b in sides:
        together = history.partnered(a, b)
        if together:
            reasons.append(f"{field.called(a)} and {field.called(b)} partnered before, in "
                           f"{rounds_text(together)}: no partnerships of the seated players "
                           f"avoid every repeat")
        else:
            nearest = "" if passed_over[a, b] else ", the best placed below them not yet partnered"
            reasons.append(f"{field.called(a)} partners {field.called(b)}{nearest}; they have not "
                           f"partnered before")
        for other in passed_over[a, b]:
            earlier = history.partnered(a, other)
            why = (f"they partnered in {rounds_text(earlier)}" if earlier else
                   "partnering them would leave others unable to have new partners")
            reasons.append(f"{field.name(a)} skips {field.called(other)} as a partner: {why}")
    reasons.append("the two partnerships meet where the fewest opponents repeat, then the "
                   "closest in the standing")
    faced = [(a, b, history.met(a, b)) for a in sides[0] for b in sides[1] if history.met(a, b)]
    if not faced:
        reasons.append("none of them has faced an opponent at this table before")
    for a, b, rounds in faced:
        reasons.append(f"{field.name(a)} faced {field.name(b)} before, in {rounds_text(rounds)}: "
                       f"the fewest repeated opponents these partnerships allow")
    return tuple(reasons)
