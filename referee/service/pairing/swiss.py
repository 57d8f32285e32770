"""``pairs``: fixed partnerships, paired Swiss by standing, top down, with no rematch while the
field allows one to be avoided.

1. An odd field gives one partnership a bye: the one with the fewest byes, the lowest placed
   among those, unless sitting them out leaves the rest unable to be paired without a rematch
   (then the next in that queue; nobody has a second bye while someone present has none).
2. From the top: the best placed partnership not yet seated meets the best placed one below it
   that it has not met, unless that would leave the others unable to be paired without a
   rematch; then the next, and so on. Table 1 is thus 1st against 2nd whenever they have not met
   and the rest can still be paired. Whether the others can be paired is a perfect-matching
   question, which networkx answers (a maximum-cardinality matching on the graph of the pairs
   who have not met), so the engine never searches by itself.
3. Only when no pairing of the seated partnerships avoids every rematch are rematches allowed
   back: networkx's maximum-weight matching then takes the pairing with the fewest rematches
   (each past meeting counts), the closest in the standing among those.
"""

from __future__ import annotations

from typing import Callable

from .explain import bye_reasons, rounds_text, table_reason
from .field import Bye, Field, Pairing, Table
from .matching import can_pair_all, pair_from_top, perfect_matching, standing_distance

Skips = list[tuple[str, str]]  # (who was passed over, why)
UNPAIRABLE = "pairing them would leave the others unable to be paired without a rematch"


def pair_swiss(field: Field, round_number: int) -> Pairing:
    history = field.history

    met = field.pairs_where(history.met)

    def rematches(a: str, b: str) -> int:
        return len(history.met(a, b))

    def distance(a: str, b: str) -> int:
        return standing_distance(field.position[a], field.position[b], len(field.order))

    byes: tuple[Bye, ...] = ()
    seated = field.order
    if len(seated) % 2:
        sitter, passed_over, forced = _bye(field, met, rematches, distance)
        reasons = bye_reasons(field, sitter, passed_over)
        if forced:
            reasons += ("every bye open to them forces a rematch: this one forces the fewest",)
        byes = (Bye(sitter, reasons),)
        seated = [e for e in seated if e != sitter]
    relaxed: list[str] = []
    found, repeated = pair_from_top(seated, met, rematches, distance)
    pairs = [(a, b) for a, b, _ in found]
    skips = [[(o, f"they met in {rounds_text(history.met(a, o))}" if o in met[a] else UNPAIRABLE)
              for o in skipped] for a, _, skipped in found]
    if repeated:
        again = [f"{field.name(a)} and {field.name(b)} meet again (they met in "
                 f"{rounds_text(history.met(a, b))})" for a, b in pairs if rematches(a, b)]
        relaxed.append(f"no rematch: no pairing of the {len(seated)} partnerships seated avoids "
                       f"one, so the fewest are made: {'; '.join(again)}")
    tables = tuple(Table(number, (pair[:1], pair[1:]), _reasons(field, number, pair, skipped))
                   for number, (pair, skipped) in enumerate(zip(pairs, skips, strict=True), start=1))
    return Pairing("pairs", round_number, tables, byes, tuple(relaxed))


def _bye(field: Field, met: dict[str, set[str]], rematches: Callable[[str, str], int],
         distance: Callable[[str, str], int]) -> tuple[str, Skips, bool]:
    """Who sits out, who was passed over for it and why, and whether every choice forced a
    rematch (then the one forcing the fewest, first in the queue among equals, sits out)."""
    history = field.history
    queue = field.bye_queue()
    fewest = len(history.byes(queue[0]))
    candidates = [e for e in queue if len(history.byes(e)) == fewest]
    passed_over = []
    for candidate in candidates:
        if can_pair_all([e for e in field.order if e != candidate], met):
            return candidate, passed_over, False
        passed_over.append((candidate, "sitting them out would force a rematch"))
    counts = []
    for candidate in candidates:
        pairs = perfect_matching([e for e in field.order if e != candidate], rematches, distance)
        assert pairs is not None  # with every pair allowed, a perfect matching always exists
        counts.append(sum(rematches(a, b) for a, b in pairs))
    first = counts.index(min(counts))
    return candidates[first], [(c, f"sitting them out would force {n} rematches")
                               for c, n in zip(candidates[:first], counts[:first], strict=True)], True


def _reasons(field: Field, number: int, pair: tuple[str, str], skipped: Skips) -> tuple[str, ...]:
    a, b = pair
    if number == 1 and {field.position[a], field.position[b]} == {0, 1}:
        reasons = [f"table 1, the leaders' table: the two leading partnerships, "
                   f"{field.called(a)} and {field.called(b)}"]
    else:
        reasons = [table_reason(field, number, pair)]
    nearest = ", the best placed below them not at a higher table" if not skipped else ""
    reasons.append(f"{field.called(a)} meets {field.called(b)}{nearest}")
    reasons += [f"{field.name(a)} skips {field.called(other)}: {why}" for other, why in skipped]
    met = field.history.met(a, b)
    if met:
        reasons.append(f"they met before, in {rounds_text(met)}: no pairing of the field avoids "
                       f"every rematch")
    else:
        reasons.append("they have not met before")
    return tuple(reasons)
