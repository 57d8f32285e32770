"""``round_robin``: every partnership meets every other once, on a schedule fixed by the circle
method (a schedule, not a search).

The schedule is laid over every entrant, present or withdrawn, in order of entry (the round
they entered, then id); an odd field adds a free place at the end. Round ``r`` keeps the first
place still and turns the others ``r - 1`` steps; place ``i`` meets place ``n - 1 - i``. So:

- whoever is drawn against the free place, or against an entrant who has withdrawn, has a bye;
- a late arrival in an odd field takes the free place and plays the rest of its schedule (the
  meetings of the rounds they missed are not made up); in an even field a late arrival reshapes
  the schedule, and a pair it draws together again is reported as relaxed;
- after ``n - 1`` rounds every pair has met, and the schedule starts again.
"""

from __future__ import annotations

from .explain import ordinal, rounds_text, table_reason
from .field import Bye, Field, Pairing, Table


def circle(places: list[str | None], turn: int) -> list[tuple[str | None, str | None]]:
    """The meetings of one round of the circle method over an even number of places."""
    rest = places[1:]
    step = turn % len(rest)
    turned = [places[0]] + rest[len(rest) - step:] + rest[:len(rest) - step]
    return [(turned[i], turned[-1 - i]) for i in range(len(turned) // 2)]


def pair_round_robin(field: Field, round_number: int) -> Pairing:
    history = field.history
    roster = sorted(field.everyone.values(), key=lambda e: (e.entered, e.id))
    places: list[str | None] = [e.id for e in roster] + ([None] if len(roster) % 2 else [])
    per_cycle = len(places) - 1
    cycle, turn = divmod(round_number - 1, per_cycle)
    schedule = (f"round {turn + 1} of {per_cycle} of the schedule (the circle method, "
                f"partnerships in order of entry)")
    present = set(field.order)
    meetings, byes, relaxed = [], [], []
    for one, other in circle(places, turn):
        if one in present and other in present:
            meetings.append(tuple(field.best_first((one, other))))
        elif one in present or other in present:
            sitter = one if one in present else other
            absent = other if sitter == one else one
            why = ("the free place of an odd field" if absent is None
                   else f"{field.name(absent)}, who has withdrawn")
            byes.append(Bye(sitter, (f"bye: {schedule} draws them against {why}",)))
    if cycle:
        relaxed.append(f"one meeting each: every pair has met after {per_cycle} rounds, so round "
                       f"{round_number} starts the schedule again ({ordinal(cycle + 1)} time round)")
    elif any(history.met(a, b) for a, b in meetings):
        again = [f"{field.name(a)} and {field.name(b)}" for a, b in meetings if history.met(a, b)]
        relaxed.append(f"one meeting each: the field changed after the schedule began, and the "
                       f"schedule for this field draws {'; '.join(again)} together again")
    meetings.sort(key=lambda pair: field.position[pair[0]])
    tables = []
    for number, (a, b) in enumerate(meetings, start=1):
        met = history.met(a, b)
        reasons = [table_reason(field, number, (a, b)), f"{field.called(a)} meets "
                   f"{field.called(b)}: {schedule}",
                   f"they met before, in {rounds_text(met)}" if met else "they have not met before"]
        tables.append(Table(number, ((a,), (b,)), tuple(reasons)))
    byes.sort(key=lambda bye: field.position[bye.entrant])
    return Pairing("round_robin", round_number, tuple(tables), tuple(byes), tuple(relaxed))
