"""``pairs``: fixed partnerships, paired Swiss: an exact optimisation, rule by rule.

Who sits out comes first (an odd field): the fewest byes so far, then the lowest placed, unless
sitting them out would force a rematch that another choice avoids. The director's requested
byes sit out before that, and two partnerships the director keeps apart never meet.

The seated are then paired by the best of all pairings under these rules, in this order of
importance (docs/tournaments.md, "`pairs`: Swiss by standing"):

1. no rematch while one can be avoided (a pair that has met twice counts twice);
2. the fewest tables across score groups (partnerships with equal match points);
3. no partnership floated (paired outside its group) twice running;
4. the highest placed meet the next placed: the smallest sum of squared differences of place,
   then the closest at the top tables.

Each rule is a score on each possible table, and :func:`.matching.best_matching` weighs them
lexicographically in one maximum-weight matching (networkx), so a rule only gives way to the
rules above it, and only as far as they need.

A matching over every possible table of a large field is slow in pure Python, so the search is
cut down where that is proven to change nothing:

- a score group with an even number seated, which can be paired within itself with no rematch,
  is paired on its own, provided the rest then needs no rematch, only the cross-group tables
  its odd groups force (half their number) and only the repeated floats its groups force (an
  odd group whose every member floated last round). Then any pairing across that group's
  boundary needs at least one cross-group table more, so it is worse by rule 2;
- within what is left, only tables of entrants at most ``W`` places apart are considered,
  when the best such pairing reaches those same bounds on rules 1 to 3 and its sum of squared
  place differences is below ``(W + 1)² + tables - 1``: any pairing with a table further apart
  sums at least that much, so it cannot be better. Otherwise ``W`` doubles, up to every table.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ...core.said import said, said_n
from ..phrases import joined, rounds_text
from .explain import bye_reasons, requested_bye_reasons
from .field import Bye, Field, Pairing, Table
from .matching import best_matching, can_pair_all
from .seating import number, orient

Pair = tuple[str, str]
FIRST_WINDOW = 8
WHOLE = 40  # fields up to this size are solved over every table at once
EXPLAINED = 64  # fields up to this size say which rule each skipped opponent would break
# what a skipped table would do, by the first rule it does worse on (the bye's count first)
SKIPPED = (said("pairing them would leave a partnership without an opponent"),
           said("pairing them would force a rematch elsewhere"),
           said("pairing them would need another table across score groups"),
           said("pairing them would float a partnership twice running"),
           said("pairing them would leave others further apart in the standing (a larger sum "
                "of squared differences of place)"))


class _Solver:
    """The exact pairing of a set of seated partnerships, by the four rules."""

    def __init__(self, field: Field) -> None:
        self.field = field
        history = field.history
        self.floated_last = {e for e in field.order if field.round - 1 in history.floated(e)}
        self.size = len(field.order)
        self.most_met = len(history.rounds)

    def cross(self, a: str, b: str) -> bool:
        return self.field.points[a] != self.field.points[b]

    def scores(self, a: str, b: str) -> tuple[int, ...] | None:
        """The table's scores, rule by rule (higher is better); None for a table the director
        forbids."""
        field = self.field
        if field.apart(a, b):
            return None
        pa, pb = field.position[a], field.position[b]
        cross = self.cross(a, b)
        repeated = (a in self.floated_last) + (b in self.floated_last) if cross else 0
        apart = (pa - pb) ** 2
        return (self.most_met - len(field.history.met(a, b)), 0 if cross else 1, 2 - repeated,
                self.size ** 2 - apart, self.size ** 3 - apart * (self.size - min(pa, pb)))

    def counts(self, pairs: Iterable[Pair]) -> tuple[int, int, int, int]:
        """Rematches, cross-group tables, repeated floats, sum of squared place differences."""
        rematches = cross = floats = apart = 0
        for a, b in pairs:
            rematches += len(self.field.history.met(a, b))
            if self.cross(a, b):
                cross += 1
                floats += (a in self.floated_last) + (b in self.floated_last)
            apart += (self.field.position[a] - self.field.position[b]) ** 2
        return rematches, cross, floats, apart

    def bounds(self, nodes: Sequence[str]) -> tuple[int, int]:
        """The fewest cross-group tables and repeated floats any pairing of ``nodes`` can have:
        each group of odd size puts at least one member at a cross-group table, a table joins
        at most two groups, and a group whose every member floated last round floats one
        again."""
        groups: dict[int, list[str]] = {}
        for e in nodes:
            groups.setdefault(self.field.points[e], []).append(e)
        odd = [g for g in groups.values() if len(g) % 2]
        return len(odd) // 2, sum(all(e in self.floated_last for e in g) for g in odd)

    def at_bounds(self, nodes: Sequence[str], pairs: Sequence[Pair]) -> bool:
        rematches, cross, floats, _ = self.counts(pairs)
        return (2 * len(pairs) == len(nodes) and rematches == 0
                and (cross, floats) == self.bounds(nodes))

    def solve(self, nodes: Sequence[str]) -> list[Pair]:
        """The best pairing of ``nodes`` (see the module's note on how it is cut down)."""
        nodes = self.field.best_first(nodes)
        groups: dict[int, list[str]] = {}
        for e in nodes:
            groups.setdefault(self.field.points[e], []).append(e)
        if len(groups) > 1:
            alone, rest = [], []
            for group in groups.values():
                pairs = self._window(group) if len(group) % 2 == 0 else None
                if pairs is not None and self.at_bounds(group, pairs):
                    alone += pairs
                else:
                    rest += group
            if alone:
                rest = self.field.best_first(rest)
                pairs = self._window(rest) if rest else []
                if self.at_bounds(rest, pairs):
                    return self._ordered(alone + pairs)
        return self._ordered(self._window(nodes))

    def _window(self, nodes: Sequence[str]) -> list[Pair]:
        """The best pairing of ``nodes`` (in standing order): over the tables of entrants at
        most ``width`` places apart while that is proven enough, else over every table."""
        neighbours = list(zip(nodes[::2], nodes[1::2]))
        if (len(nodes) % 2 == 0 and all(not self.field.apart(a, b) for a, b in neighbours)
                and self.at_bounds(nodes, neighbours)):
            # 1st v 2nd, 3rd v 4th, ...: the least sum of (weighted) squared place differences
            # of all pairings (any pair of tables crossed or nested costs more), so the best
            return neighbours
        width = FIRST_WINDOW
        tables = len(nodes) // 2
        while True:
            whole = len(nodes) <= WHOLE or 2 * width + 2 >= len(nodes)
            candidates = ((a, b) for i, a in enumerate(nodes)
                          for b in (nodes[i + 1:] if whole else nodes[i + 1:i + 1 + width]))
            pairs = best_matching(nodes, ((a, b, s) for a, b in candidates
                                          if (s := self.scores(a, b)) is not None))
            if whole:
                return pairs
            if self.at_bounds(nodes, pairs) and self.counts(pairs)[3] < (width + 1) ** 2 + tables - 1:
                return pairs
            width *= 2

    def _ordered(self, pairs: Iterable[Pair]) -> list[Pair]:
        position = self.field.position
        return sorted((tuple(sorted(p, key=position.__getitem__)) for p in pairs),  # type: ignore[misc]
                      key=lambda p: position[p[0]])

    def fewest_rematches(self, nodes: Sequence[str]) -> tuple[int, int]:
        """(partnerships left unpaired, rematches) of the pairing of ``nodes`` that leaves the
        fewest unpaired and then makes the fewest rematches: what a bye choice is judged by
        when none avoids a rematch."""
        edges = ((a, b, (self.most_met - len(self.field.history.met(a, b)),))
                 for i, a in enumerate(nodes) for b in nodes[i + 1:] if not self.field.apart(a, b))
        pairs = best_matching(nodes, edges)
        return len(nodes) - 2 * len(pairs), self.counts(pairs)[0]


def pair_swiss(field: Field, round_number: int) -> Pairing:
    solver = _Solver(field)
    byes = [Bye(e, requested_bye_reasons(field, e)) for e in field.order if e in field.requested]
    pool = [e for e in field.order if e not in field.requested]
    if len(pool) % 2:
        sitter, reasons = _bye(field, solver, pool)
        byes.append(Bye(sitter, reasons))
        pool.remove(sitter)
    pairs = solver.solve(pool)
    paired = {e for pair in pairs for e in pair}
    left = [e for e in pool if e not in paired]
    byes += [Bye(e, ("bye: the director's constraints leave them no opponent among the "
                     "others seated",)) for e in left]
    chosen = (len(left), *solver.counts(pairs))  # unpaired, rematches, cross, floats, apart
    fewest_cross = solver.bounds(pool)[0]
    floated = tuple(field.best_first(e for pair in pairs if solver.cross(*pair) for e in pair))
    relaxed = _relaxed(field, solver, pairs, left, len(pool), chosen, fewest_cross)
    numbered = number(field, [((a,), (b,)) for a, b in pairs])
    tables = []
    for table, sides, why in numbered:
        a, b = sides[0][0], sides[1][0]
        seats, seat_reason = orient(field, (a,), (b,))
        reasons = [why, *_reasons(field, solver, a, b, numbered, pool, chosen, fewest_cross),
                   seat_reason]
        if table == 1 and {field.position[a], field.position[b]} == {0, 1} and not field.fixed:
            reasons[0] = said("table 1, the leaders' table: the two leading partnerships, "
                              "%(one)s and %(other)s", one=field.called(a), other=field.called(b))
        tables.append(Table(table, seats, tuple(reasons)))
    byes.sort(key=lambda bye: field.position[bye.entrant])
    return Pairing("pairs", round_number, tuple(tables), tuple(byes), tuple(relaxed), floated)


def _bye(field: Field, solver: _Solver, pool: list[str]) -> tuple[str, tuple[str, ...]]:
    """Who sits out of an odd pool, and why: the first of the bye queue among those with the
    fewest byes whose absence lets the rest pair with no rematch; if none does, the one whose
    absence lets the rest pair best (fewest left unpaired, then fewest rematches)."""
    history = field.history
    queue = field.bye_queue(pool)
    fewest = len(history.byes(queue[0]))
    candidates = [e for e in queue if len(history.byes(e)) == fewest]
    kept_apart = _kept_apart(field, pool)
    passed_over: list[tuple[str, str]] = []
    for candidate in candidates:
        if can_pair_all([e for e in pool if e != candidate], kept_apart):
            return candidate, bye_reasons(field, candidate, passed_over, among=pool)
        passed_over.append((candidate, said("sitting them out would force a rematch or a table "
                                            "the director forbids")
                            if field.constraints.forbidden or field.fixed else
                            said("sitting them out would force a rematch")))
    judged = [solver.fewest_rematches([e for e in pool if e != c]) for c in candidates]
    first = judged.index(min(judged))
    passed = [(c, said("sitting them out would leave %(left)s unpaired and force %(num)s "
                       "rematches", left=left, num=n)
               if left else said("sitting them out would force %(num)s rematches", num=n))
              for c, (left, n) in zip(candidates[:first], judged[:first], strict=True)]
    reasons = bye_reasons(field, candidates[first], passed, among=pool)
    return candidates[first], reasons + (said("every bye open to them forces a rematch: this "
                                              "one forces the fewest"),)


def _kept_apart(field: Field, among: Sequence[str]) -> dict[str, set[str]]:
    """For each of ``among``, the others it may not meet without a rematch or a ban."""
    return {a: {b for b in among if b != a and (field.history.met(a, b) or field.apart(a, b))}
            for a in among}


def _skip_reason(field: Field, solver: _Solver, seated: Sequence[str], top: str, skipped: str,
                 chosen: tuple[int, ...]) -> str:
    """Which rule a table of ``top`` and ``skipped`` would break: the round paired best with
    that table, against the round as paired, compared rule by rule (in fields up to
    ``EXPLAINED``; beyond, the rules are named together, as the search is not run again)."""
    if len(seated) > EXPLAINED:
        return said("the round pairs better without that table: fewer rematches, cross-group "
                    "tables or repeated floats, or the others closer in the standing")
    rest = [e for e in seated if e not in (top, skipped)]
    pairs = solver.solve(rest)
    forced = (len(rest) - 2 * len(pairs), *solver.counts([(top, skipped), *pairs]))
    for rule, what in enumerate(SKIPPED):
        if forced[rule] != chosen[rule]:
            return what
    return said("pairing them would seat opponents no closer at the higher tables")  # the last rule


def _reasons(field: Field, solver: _Solver, a: str, b: str,
             numbered: Sequence[tuple[int, tuple, str]], seated: Sequence[str],
             chosen: tuple[int, ...], fewest_cross: int) -> list[str]:
    """Why the better placed of ``a`` and ``b`` meets the other: their score groups, floats,
    whether they have met, and whom it passed over on the way down the standing, and why."""
    _, rematches, cross, *_ = chosen
    history = field.history
    top, other = field.best_first((a, b))
    reasons = [said("%(one)s meets %(other)s", one=field.called(top), other=field.called(other))]
    pa, pb = field.points[top], field.points[other]
    if pa == pb:
        reasons.append(said("both in the score group of %(won)s won", won=pa))
    else:
        why = (said("the fewest the score groups of odd size need") if cross == fewest_cross else
               said("the fewest possible without a rematch or a table the director forbids"))
        reasons.append(said_n("across score groups (%(one)s %(one_won)s won, %(other)s "
                              "%(other_won)s won): this round has %(num)s such table, %(why)s",
                              "across score groups (%(one)s %(one_won)s won, %(other)s "
                              "%(other_won)s won): this round has %(num)s such tables, %(why)s",
                              cross, one=field.name(top), one_won=pa, other=field.name(other),
                              other_won=pb, why=why))
        for e in (top, other):
            if e in solver.floated_last:
                reasons.append(said("%(name)s was floated in round %(round)s too: no pairing "
                                    "with as few cross-group tables floats someone else",
                                    name=field.name(e), round=field.round - 1))
    met = history.met(top, other)
    if met:
        reasons.append(said("they met before, in %(rounds)s: no pairing of the field avoids "
                            "every rematch", rounds=rounds_text(met)))
    else:
        reasons.append(said("they have not met before"))
    table_of = {e: t for t, sides, _ in numbered for side in sides for e in side}
    best_at = {t: min(field.position[e] for side in sides for e in side) for t, sides, _ in numbered}
    for skipped in field.order[field.position[top] + 1:field.position[other]]:
        if skipped not in table_of or best_at[table_of[skipped]] < field.position[top]:
            continue  # sitting out, or at a table of someone placed higher: not passed over
        if history.met(top, skipped):
            why = said("they met in %(rounds)s", rounds=rounds_text(history.met(top, skipped)))
        elif field.apart(top, skipped):
            why = field.why_apart(top, skipped)
        else:
            why = _skip_reason(field, solver, seated, top, skipped, chosen)
        reasons.append(said("%(name)s skips %(other)s: %(why)s", name=field.name(top),
                            other=field.called(skipped), why=why))
    return reasons


def _relaxed(field: Field, solver: _Solver, pairs: Sequence[Pair], left: Sequence[str],
             seated: int, chosen: tuple[int, ...], fewest_cross: int) -> list[str]:
    _, rematches, cross, floats, _ = chosen
    out = []
    if rematches:
        again = [said("%(one)s and %(other)s meet again (they met in %(rounds)s)",
                      one=field.name(a), other=field.name(b),
                      rounds=rounds_text(field.history.met(a, b)))
                 for a, b in pairs if field.history.met(a, b)]
        out.append(said("no rematch: no pairing of the %(seated)s partnerships seated avoids "
                        "one, so the fewest are made: %(again)s", seated=seated,
                        again=joined(again, "; ")))
    if cross > fewest_cross:
        out.append(said("score groups: %(cross)s tables cross score groups, %(more)s more than "
                        "the groups of odd size need: keeping more within their group would need "
                        "a rematch or a table the director forbids", cross=cross,
                        more=cross - fewest_cross))
    if floats:
        twice = [field.name(e) for pair in pairs if solver.cross(*pair) for e in pair
                 if e in solver.floated_last]
        out.append(said("floats: %(names)s floated in round %(round)s and again now: no "
                        "pairing with as few cross-group tables avoids it",
                        names=", ".join(twice), round=field.round - 1))
    if left:
        out.append(said("byes: %(names)s sit out: the director's constraints leave them no "
                        "opponent", names=", ".join(field.name(e) for e in left)))
    return out

