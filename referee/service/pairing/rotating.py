"""``rotating``: an individual event played at tables of four, two partnerships of two: no
repeated partner while one can be avoided, then the fewest repeated opponent meetings.

An event whose field never changes, with no constraint but fixed tables, follows a plan drawn
up before round 1 (:mod:`.plans`): a whist schedule for a whole event (every two players
partner once and face each other twice), or for a shorter one a schedule within 2 repeated
opponent meetings of the least possible. Otherwise (a withdrawal, an arrival, a forbidden
pairing, a requested bye, an unplanned size) each round is paired on its own:

1. who sits out: requested byes, then the players beyond a multiple of four, chosen as for any
   bye (the fewest byes so far, then the lowest standing);
2. partnerships: the matching (networkx) with the fewest repeated partners, then partners
   closest in the standing. Whether a repeat can be avoided is decided over everyone seated;
3. tables: the matching of the partnerships with the fewest repeated opponent meetings (each
   earlier meeting of two players on opposite sides counts), then tables closest in the
   standing; then a search that re-seats the eight players of two tables whenever that repeats
   fewer (partners first), and matches the new partnerships again, until neither helps.

Step 2 and 3 work on blocks of ``BLOCK`` players (or half as many partnerships) in standing
order, so that a large field pairs in a time that grows with its size, not its cube; a block
that would repeat a partner the whole field can avoid is paired again with the whole field.
The opponents repeated are the fewest this search finds, not a proven least for the round.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterable, Sequence

from ...core.said import said, said_n
from ..phrases import joined, rounds_text
from .explain import bye_reasons, requested_bye_reasons
from .field import Bye, Field, Pairing, PairingRules, Table
from .matching import best_matching, can_pair_all
from .plans import least_repeats, plan, repeats
from .seating import number, orient

Partnership = tuple[str, str]
Seating = tuple[Partnership, Partnership]
BLOCK = 32  # players partnered at a time in a large field
NEAR = 8  # a table is re-seated with the tables this close to it in the standing
SPLITS = (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))


def pair_rotating(field: Field, rules: PairingRules) -> Pairing:
    byes = [Bye(e, requested_bye_reasons(field, e)) for e in field.order if e in field.requested]
    pool = [e for e in field.order if e not in field.requested]
    planned = _planned(field, rules)
    relaxed: list[str] = []
    if planned is not None:
        kind, seatings, out, total = planned
        byes += [Bye(e, (said("bye: round %(round)s of the whist schedule for %(players)s players "
                              "sits them out (each player sits out one of its rounds)",
                              round=field.round, players=len(field.order)),))
                 for e in out]
        note = _plan_note(kind, len(field.order), rules.rounds or 0, total)
    else:
        sitters = field.bye_queue(pool)[:len(pool) % 4]
        byes += [Bye(e, bye_reasons(field, e, among=pool)) for e in field.best_first(sitters)]
        seated = [e for e in pool if e not in sitters]
        seatings, forced = _round(field, seated)
        byes += [Bye(e, (said("bye: the director's constraints leave them no partner or table "
                              "among the others seated"),)) for e in forced]
        if forced:
            relaxed.append(said("byes: %(entrants)s sit out: the director's constraints leave "
                                "them no partner or table",
                                entrants=", ".join(field.name(e) for e in forced)))
        note = said("the tables are the seating found with the fewest repeated opponents, then "
                    "the closest in the standing")
    history = field.history
    again = [said("%(one)s and %(other)s", one=field.name(a), other=field.name(b))
             for t in seatings for a, b in t if history.partnered(a, b)]
    if again:
        relaxed.insert(0, said("new partners: no partnerships of the %(players)s players seated "
                               "avoid every repeat, so the fewest are made: %(pairs)s partner "
                               "again", players=4 * len(seatings), pairs=joined(again, "; ")))
    repeated = sum(_faced(field, *t) for t in seatings)
    if repeated:
        relaxed.append(said_n("new opponents: %(num)s past meeting of opponents repeats: %(note)s",
                              "new opponents: %(num)s past meetings of opponents repeat: %(note)s",
                              repeated, note=note))
    tables = []
    for table, sides, why in number(field, seatings):
        seats, seat_reason = orient(field, *sides)
        tables.append(Table(table, seats, (why, *_reasons(field, sides, note), seat_reason)))
    byes.sort(key=lambda bye: field.position[bye.entrant])
    return Pairing("rotating", field.round, tuple(tables), tuple(byes), tuple(relaxed))


def _plan_note(kind: str, players: int, rounds: int, total: int) -> str:
    if kind == "whist":
        return said("the whist schedule for %(players)s players: over its %(rounds)s rounds every "
                    "two players partner once and face each other twice", players=players,
                    rounds=rounds)
    return said("the event's plan, drawn up before round 1, repeats %(total)s opponent meetings "
                "over its %(rounds)s rounds, within 2 of the fewest any schedule can (%(least)s)",
                total=total, rounds=rounds, least=least_repeats(players, rounds))


def _planned(field: Field, rules: PairingRules
             ) -> tuple[str, list[Seating], list[str], int] | None:
    """This round of the event's plan, while the field is the one it was drawn up for (every
    entrant present from round 1), no constraint but fixed tables applies, and the rounds
    played are the plan's: (kind, the tables, who sits out, the plan's repeated opponents)."""
    if rules.rounds is None or field.requested or field.constraints.forbidden:
        return None
    if any(not e.present or e.entered != 1 for e in field.everyone.values()):
        return None
    labels = sorted(field.everyone)
    found = plan(len(labels), rules.rounds)
    if found is None or field.round > len(found[1]):
        return None
    kind, schedule = found

    def named(tables: Iterable) -> list[Seating]:
        return [((labels[a], labels[c]), (labels[b], labels[d])) for (a, c), (b, d) in tables]

    played = sorted(field.history.rounds, key=lambda r: r.number)
    if [r.number for r in played] != list(range(1, field.round)):
        return None
    if any(_shape(r.tables) != _shape(named(schedule[r.number - 1])) for r in played):
        return None
    seatings = named(schedule[field.round - 1])
    for t in seatings:
        if len({field.fixed[e][0] for side in t for e in side if e in field.fixed}) > 1:
            return None  # two players fixed at different tables would share one
    seated = {e for t in seatings for side in t for e in side}
    return kind, seatings, [e for e in field.order if e not in seated], repeats(schedule)


def _shape(tables: Iterable[Seating]) -> frozenset:
    """A round's tables as who partners whom against whom, whatever the seats."""
    return frozenset(frozenset((frozenset(one), frozenset(other))) for one, other in tables)


def _round(field: Field, seated: list[str]) -> tuple[list[Seating], list[str]]:
    """The tables of a round paired on its own, and anyone the constraints leave out."""
    history = field.history
    partnerships: list[Partnership] = []
    for block in _blocks(seated, BLOCK):
        partnerships += _partners(field, block)
    alone = 2 * len(partnerships) < len(seated)  # the constraints left some unpartnered
    if len(seated) > BLOCK and (alone or any(history.partnered(*p) for p in partnerships)):
        kept = {a: {b for b in seated if b != a and not _may_partner(field, a, b)} for a in seated}
        if alone or can_pair_all(seated, kept):  # the whole field does better: pair it whole
            partnerships = _partners(field, seated)
    partnerships = sorted(partnerships, key=lambda p: field.position[p[0]])
    if len(partnerships) % 2:  # one partnership short of a table: the lowest placed sits out
        partnerships.pop()
    tables: list[Seating] = []
    for block in _blocks(partnerships, BLOCK // 2):
        tables += _tables(field, block)
    for _ in range(len(tables) + 1):  # each pass lowers the repeats, so this bounds the passes
        improved = _improve(field, tables)
        matched = _rematch(field, improved)
        tables = matched if _cost(field, matched) < _cost(field, improved) else improved
        if tables is improved:
            break
    placed = {e for t in tables for side in t for e in side}
    return tables, field.best_first(e for e in seated if e not in placed)


def _blocks(items: Sequence, size: int) -> list[Sequence]:
    """``items`` cut into blocks of ``size`` in order, the last one merged into the one before
    it when smaller than half a block."""
    blocks = [items[i:i + size] for i in range(0, len(items), size)]
    if len(blocks) > 1 and len(blocks[-1]) < size // 2:
        blocks[-2:] = [list(blocks[-2]) + list(blocks[-1])]
    return blocks


def _may_partner(field: Field, a: str, b: str) -> bool:
    return not (field.constraints.forbids(a, b, "partners") or field.apart(a, b)
                or field.history.partnered(a, b))


def _partners(field: Field, players: Sequence[str]) -> list[Partnership]:
    history, position, size = field.history, field.position, len(field.order)
    most = len(history.rounds)
    edges = ((a, b, (most - len(history.partnered(a, b)), size ** 2 - (position[a] - position[b]) ** 2))
             for i, a in enumerate(players) for b in players[i + 1:]
             if not (field.constraints.forbids(a, b, "partners") or field.apart(a, b)))
    return best_matching(list(players), edges)


def _faced(field: Field, one: Partnership, other: Partnership) -> int:
    return sum(len(field.history.met(a, b)) for a in one for b in other)


def _together(field: Field, players: Iterable[str]) -> bool:
    """Whether the director lets these players share a table."""
    return not any(field.apart(a, b) for a, b in combinations(players, 2))


def _tables(field: Field, partnerships: Sequence[Partnership]) -> list[Seating]:
    position, size = field.position, len(field.order)
    most = 2 * len(field.history.rounds) * 4

    def apart(one: Partnership, other: Partnership) -> int:
        return (sum(map(position.__getitem__, one)) - sum(map(position.__getitem__, other))) ** 2

    edges = ((p, q, (most - _faced(field, p, q), 4 * size ** 2 - apart(p, q)))
             for i, p in enumerate(partnerships) for q in partnerships[i + 1:]
             if _together(field, p + q))
    return best_matching(list(partnerships), edges)


def _rematch(field: Field, tables: list[Seating]) -> list[Seating]:
    """The tables' partnerships matched into tables again (after re-seating changed them)."""
    partnerships = sorted((p for t in tables for p in t), key=lambda p: field.position[p[0]])
    out: list[Seating] = []
    for block in _blocks(partnerships, BLOCK // 2):
        out += _tables(field, block)
    return out if len(out) == len(tables) else tables


def _cost(field: Field, tables: Iterable[Seating]) -> tuple[int, int]:
    """(repeated partners, repeated opponent meetings) of some tables."""
    partners = opponents = 0
    for one, other in tables:
        partners += len(field.history.partnered(*one)) + len(field.history.partnered(*other))
        opponents += _faced(field, one, other)
    return partners, opponents


def _best_seating(field: Field, four: tuple[str, ...]) -> tuple[tuple[int, int], Seating] | None:
    best = None
    for (i, j), (k, m) in SPLITS:
        one, other = (four[i], four[j]), (four[k], four[m])
        if field.constraints.forbids(*one, "partners") or field.constraints.forbids(*other, "partners"):
            continue
        cost = _cost(field, [(one, other)])
        if best is None or cost < best[0]:
            best = (cost, (one, other))
    return best


def _improve(field: Field, tables: list[Seating]) -> list[Seating]:
    """Re-seat the eight players of two tables (one with a repeat, the other near it) the way
    that repeats fewest, while that lowers the round's repeats."""
    tables = list(tables)
    improved = True
    while improved:
        improved = False
        for i in range(len(tables)):
            if _cost(field, [tables[i]]) == (0, 0):
                continue
            for j in range(max(0, i - NEAR), min(len(tables), i + NEAR + 1)):
                if j == i:
                    continue
                now = _cost(field, [tables[i], tables[j]])
                better = _reseat(field, tables[i], tables[j], now)
                if better is not None:
                    tables[i], tables[j] = better
                    improved = True
                    break
    return tables


def _reseat(field: Field, t: Seating, u: Seating, now: tuple[int, int]
            ) -> tuple[Seating, Seating] | None:
    eight = [e for table in (t, u) for side in table for e in side]
    best: tuple[tuple[int, int], Seating, Seating] | None = None
    for three in combinations(eight[1:], 3):
        first = (eight[0], *three)
        second = tuple(e for e in eight if e not in first)
        if not (_together(field, first) and _together(field, second)):
            continue
        a, b = _best_seating(field, first), _best_seating(field, second)
        if a is None or b is None:
            continue
        cost = (a[0][0] + b[0][0], a[0][1] + b[0][1])
        if cost < now and (best is None or cost < best[0]):
            best = (cost, a[1], b[1])
    return None if best is None else (best[1], best[2])


def _reasons(field: Field, sides: Seating, note: str) -> list[str]:
    history = field.history
    reasons = []
    for side in sides:
        a, b = field.best_first(side)
        together = history.partnered(a, b)
        if together:
            reasons.append(said("%(one)s and %(other)s partnered before, in %(rounds)s: no "
                                "partnerships of the seated players avoid every repeat",
                                one=field.called(a), other=field.called(b),
                                rounds=rounds_text(together)))
        else:
            reasons.append(said("%(one)s partners %(other)s; they have not partnered before",
                                one=field.called(a), other=field.called(b)))
    reasons.append(note)
    faced = [(a, b, history.met(a, b)) for a in sides[0] for b in sides[1] if history.met(a, b)]
    if not faced:
        reasons.append(said("none of them has faced an opponent at this table before"))
    for a, b, rounds in faced:
        reasons.append(said("%(one)s faced %(other)s before, in %(rounds)s", one=field.name(a),
                            other=field.name(b), rounds=rounds_text(rounds)))
    return reasons
