"""Plans for a ``rotating`` event whose field does not change: the whole event's rounds drawn up
before round 1, so that its rounds together repeat as few opponents as can be found, which a
round-by-round pairing (that cannot see the rounds to come) does not.

- A **whole event** (n - 1 rounds, n ≡ 0 mod 4; n rounds, n ≡ 1 mod 4) is a whist schedule
  (:mod:`.whist`): every two players partner once and face each other twice.
- A **shorter event** of n ≡ 0 (mod 4) players, up to ``PLANNED`` of them, is a schedule of
  its rounds with no partner twice and at most ``least + k`` repeated opponent meetings, for
  the smallest k = 0, 1, 2 a depth-first search finds one for within ``STEPS`` steps, where
  ``least = max(0, n·rounds - n(n-1)/2)`` is the fewest any schedule can have (each round
  makes n opponent meetings, and there are n(n-1)/2 pairs to spread them over). So a plan
  found is within 2 meetings of the best schedule there is.

A plan labels players ``0 .. n - 1`` (the field in order of entry); :mod:`.rotating` follows
it while the rounds played are the plan's, and pairs round by round once they are not.
"""

from __future__ import annotations

from functools import lru_cache

from .whist import Round, whist, whole_event

PLANNED = 32  # the largest field a shorter event is planned for (a failed search stays short)
STEPS = 6_000  # the search's budget for each k, so that planning always ends quickly


def least_repeats(players: int, rounds: int) -> int:
    """The fewest repeated opponent meetings any schedule of ``rounds`` rounds can have."""
    return max(0, players * rounds - players * (players - 1) // 2)


@lru_cache(maxsize=None)
def plan(players: int, rounds: int) -> tuple[str, tuple[Round, ...]] | None:
    """("whist" or "planned", the rounds), or None when the event is not planned."""
    if rounds < 1:
        return None
    if rounds == whole_event(players) and (found := whist(players)) is not None:
        return "whist", found
    if players % 4 or players > PLANNED or rounds >= players - 1:
        return None
    least = least_repeats(players, rounds)
    for allowed in (least, least + 1, least + 2):
        schedule = _search(players, rounds, allowed)
        if schedule is not None:
            return "planned", schedule
    return None


def repeats(schedule: tuple[Round, ...]) -> int:
    """The repeated opponent meetings of a schedule: each meeting of two players as opponents
    after their first."""
    met: dict[tuple[int, int], int] = {}
    count = 0
    for played in schedule:
        for one, other in played:
            for a in one:
                for b in other:
                    key = (min(a, b), max(a, b))
                    count += key in met
                    met[key] = met.get(key, 0) + 1
    return count


def _search(n: int, rounds: int, allowed: int) -> tuple[Round, ...] | None:
    """A schedule with no partner twice and at most ``allowed`` repeated opponent meetings,
    found depth first: round by round, each round table by table from the lowest free label,
    its partner, then its opponents in order of fewest meetings so far."""
    met = [[0] * n for _ in range(n)]
    partnered = [0] * n  # bit masks
    made: list[list[tuple[tuple[int, int], tuple[int, int]]]] = [[]]
    repeated = 0
    steps = 0

    def meet(pairs: tuple[tuple[int, int], ...], step: int) -> None:
        nonlocal repeated
        for x, y in pairs:
            if step < 0:
                met[x][y] -= 1
                met[y][x] -= 1
            repeated += step * (met[x][y] > 0)
            if step > 0:
                met[x][y] += 1
                met[y][x] += 1

    def fill(free: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > STEPS:
            raise _OutOfSteps
        if not free:
            if len(made) == rounds:
                return True
            made.append([])
            if fill((1 << n) - 1):
                return True
            made.pop()
            return False
        a = (free & -free).bit_length() - 1
        rest = free & ~(1 << a)
        for c in (x for x in range(n) if rest >> x & 1 and not partnered[a] >> x & 1):
            others = [x for x in range(n) if rest >> x & 1 and x != c]
            others.sort(key=lambda x: met[a][x] + met[c][x])
            for b in others:
                for d in others:
                    if d <= b or partnered[b] >> d & 1:
                        continue
                    pairs = ((a, b), (a, d), (c, b), (c, d))
                    if repeated + sum(met[x][y] > 0 for x, y in pairs) > allowed:
                        continue
                    meet(pairs, 1)
                    for x, y in ((a, c), (b, d)):
                        partnered[x] |= 1 << y
                        partnered[y] |= 1 << x
                    made[-1].append(((a, c), (b, d)))
                    if fill(rest & ~(1 << c) & ~(1 << b) & ~(1 << d)):
                        return True
                    made[-1].pop()
                    for x, y in ((a, c), (b, d)):
                        partnered[x] &= ~(1 << y)
                        partnered[y] &= ~(1 << x)
                    meet(pairs, -1)
        return False

    try:
        found = fill((1 << n) - 1)
    except _OutOfSteps:
        return None
    return tuple(tuple(r) for r in made) if found else None


class _OutOfSteps(Exception):
    """The search spent its budget."""
