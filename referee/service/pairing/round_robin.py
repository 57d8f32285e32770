"""``round_robin``: every partnership meets every other once over a cycle, on the schedule of
the circle method, kept through withdrawals and late entries.

The schedule is laid over every entrant, present or withdrawn, in order of entry (the round
they entered, then id); an odd roster adds a free place at the end. Round ``r`` keeps the first
place still and turns the others ``r - 1`` steps; place ``i`` meets place ``n - 1 - i``. A
cycle is the schedule's ``n - 1`` rounds.

Each round is the matching (networkx) of the partnerships present over the pairs that have not
met in this cycle (nor are kept apart by the director), with, in this order:

1. as many tables as those pairs allow;
2. as many of the schedule's own meetings for the round as possible;
3. the byes to those with the fewest so far.

So an unchanged field plays the circle exactly; a partnership drawn against a withdrawn one or
against the free place meets another with a free turn when one is left, else sits out; a late
arrival takes the free place of an odd roster, or plays whoever it has not met; and no meeting
of the cycle is ever played twice. After the cycle's rounds, or once every two present have
met, the next cycle starts and says so. A round no pair can play (every meeting played, the
director's bans) has no table and is complete at once.

Fields over ``EXACT`` present pair the schedule's valid meetings as they are and match only the
rest, so that a changed large field stays fast; the schedule's round itself is always kept
when it seats everyone but at most one.
"""

from __future__ import annotations

from itertools import combinations

from ...core.said import said
from ..phrases import ordinal, rounds_text
from .explain import requested_bye_reasons
from .field import Bye, Field, Pairing, Table
from .matching import best_matching
from .seating import number, orient

EXACT = 128


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
    turn = (round_number - 1) % per_cycle
    drawn: dict[str, str | None] = {}
    for one, other in circle(places, turn):
        for a, b in ((one, other), (other, one)):
            if a is not None:
                drawn[a] = b
    schedule = said("round %(round)s of %(rounds)s of the schedule (the circle method, "
                    "partnerships in order of entry)", round=turn + 1, rounds=per_cycle)
    byes = [Bye(e, requested_bye_reasons(field, e)) for e in field.order if e in field.requested]
    pool = [e for e in field.order if e not in field.requested]
    pairs = [(a, b) for a, b in combinations(pool, 2) if not field.apart(a, b)]
    cycle = (round_number - 1) // per_cycle
    fewest = min((len(history.met(a, b)) for a, b in pairs), default=cycle)
    time_round = max(cycle, fewest)
    due = [(a, b) for a, b in pairs if len(history.met(a, b)) <= time_round]
    meetings = _match(field, pool, due, drawn)
    relaxed = []
    if time_round:
        if fewest == time_round:  # every pair met as often: say so (it is true)
            kept_apart = len(pairs) < len(pool) * (len(pool) - 1) // 2
            why = (said("every two of the %(num)s partnerships present have met %(times)s (the "
                        "pairs the director keeps apart aside)", num=len(pool),
                        times=_times(time_round)) if kept_apart else
                   said("every two of the %(num)s partnerships present have met %(times)s",
                        num=len(pool), times=_times(time_round)))
        else:
            why = said("the schedule's %(rounds)s rounds have been played", rounds=per_cycle)
        relaxed.append(said("one meeting each: %(why)s, so round %(round)s is of the %(time)s "
                            "time round: pairs that have met %(times)s meet again", why=why,
                            round=round_number, time=ordinal(time_round + 1),
                            times=_times(time_round)))
    seated = {e for pair in meetings for e in pair}
    for e in pool:
        if e not in seated:
            byes.append(Bye(e, (_bye_reason(field, e, drawn, due, seated, schedule),)))
    tables = []
    for table, sides, why in number(field, [((a,), (b,)) for a, b in meetings]):
        a, b = field.best_first((sides[0][0], sides[1][0]))
        seats, seat_reason = orient(field, (a,), (b,))
        on_schedule = drawn.get(a) == b
        met = history.met(a, b)
        reasons = [why,
                   said("%(one)s meets %(other)s: %(schedule)s", one=field.called(a),
                        other=field.called(b), schedule=schedule) if on_schedule else
                   said("%(one)s meets %(other)s, off the schedule, which draws %(name)s against "
                        "%(opponent)s this round", one=field.called(a), other=field.called(b),
                        name=field.name(a), opponent=_opponent(field, a, drawn, seated)),
                   said("they met before, in %(rounds)s", rounds=rounds_text(met)) if met
                   else said("they have not met before"),
                   seat_reason]
        tables.append(Table(table, seats, tuple(reasons)))
    byes.sort(key=lambda bye: field.position[bye.entrant])
    return Pairing("round_robin", round_number, tuple(tables), tuple(byes), tuple(relaxed))


def _times(count: int) -> str:
    if count == 1:
        return said("once")
    if count == 2:
        return said("twice")
    return said("%(num)s times", num=count)


def _match(field: Field, pool: list[str], due: list[tuple[str, str]],
           drawn: dict[str, str | None]) -> list[tuple[str, str]]:
    """The round's meetings among ``due`` (pairs in standing order): the schedule's own when
    they seat all but at most one, else the matching by the module's three rules."""
    allowed = set(due)
    kept = [(a, b) for a, b in due if drawn.get(a) == b]
    left = [e for e in pool if not any(e in pair for pair in kept)]
    if len(left) <= 1:
        return kept
    history = field.history
    if len(pool) > EXACT:  # keep the schedule's meetings, match the rest among themselves
        pool, due = left, [(a, b) for a, b in combinations(left, 2) if (a, b) in allowed]
    else:
        kept = []
    edges = ((a, b, (int(drawn.get(a) == b), len(history.byes(a)) + len(history.byes(b))))
             for a, b in due)
    return sorted(kept + best_matching(pool, edges), key=lambda p: field.position[p[0]])


def _opponent(field: Field, entrant: str, drawn: dict[str, str | None], seated: set[str]) -> str:
    """Whom the schedule draws ``entrant`` against, and why that meeting is not played."""
    other = drawn.get(entrant)
    if other is None:
        return said("the free place of an odd roster")
    if other not in field.position:
        return said("%(name)s, who has withdrawn", name=field.name(other))
    if other in field.requested:
        return said("%(name)s, who has a bye they asked for", name=field.name(other))
    met = field.history.met(entrant, other)
    if met:
        return said("%(name)s, whom they met in %(rounds)s", name=field.name(other),
                    rounds=rounds_text(met))
    if field.apart(entrant, other):
        return said("%(name)s, and %(why)s", name=field.name(other),
                    why=field.why_apart(entrant, other))
    return said("%(name)s, who meets another so that more tables play", name=field.name(other))


def _bye_reason(field: Field, entrant: str, drawn: dict[str, str | None],
                due: list[tuple[str, str]], seated: set[str], schedule: str) -> str:
    free = [b for pair in due if entrant in pair for b in pair if b != entrant]
    if drawn.get(entrant) is None and entrant in drawn:
        return said("bye: %(schedule)s draws them against the free place of an odd roster",
                    schedule=schedule)
    if not free:
        return said("bye: they have met every partnership present that they may meet, this "
                    "time round")
    return said("bye: %(schedule)s draws them against %(opponent)s, and those they have not met "
                "are at other tables", schedule=schedule,
                opponent=_opponent(field, entrant, drawn, seated))
