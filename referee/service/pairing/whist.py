"""Whist schedules: a whole individual event in which every two players partner exactly once and
face each other exactly twice (Wh(n), n ≡ 0 or 1 mod 4).

Players are labels ``0 .. n - 1``. A schedule is a tuple of rounds; a round is a tuple of
tables ``((a, c), (b, d))``: a and c partner against b and d. With n ≡ 0 (mod 4) there are
``n - 1`` rounds and nobody sits out; with n ≡ 1 (mod 4), ``n`` rounds and one player (the
label missing from the round) sits out each, each player once.

Both ways of building one are cyclic: a first round whose translates by a group's elements are
the other rounds, so checking a first round checks the whole schedule (the differences of its
pairs):

- **a known construction** for a prime ``p`` ≡ 1 (mod 4): with ``x`` a primitive root and
  ``ω = x^((p-1)/4)`` (so ``ω² = -1``), the first round's tables are
  ``(x^i, x^i·ω, -x^i, -x^i·ω)``, i < (p-1)/4, partners ``x^i`` and ``-x^i``, player 0 sitting
  out; round j adds j to every label. The partner differences ``±2x^i, ±2ωx^i`` cover every
  non-zero residue once, the opponent differences ``±(1-ω)x^i, ±(1+ω)x^i`` (each twice, and
  ``1 + ω = ω(1 - ω)``) every one twice, which is the whist property;
- **a search**, for every other n up to ``SEARCHED`` (20): a first round over the group
  ``Z_(n-1)`` plus a fixed player ∞ (n ≡ 0 mod 4) or over ``Z_n`` (n ≡ 1 mod 4; ``Z_3 × Z_3``
  for 9, where ``Z_9`` has none), chosen by a depth-first search that counts the differences
  its pairs use and backs out of any used too often. The search is finite; that it finds a
  schedule for every size it is asked (4 to 20) is checked by the tests
  (tests/service/test_pairing_whist.py), and it takes under a second for the largest.

Other sizes have no whist schedule here; their events are paired round by round.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

Partnership = tuple[int, int]
Round = tuple[tuple[Partnership, Partnership], ...]

SEARCHED = 20  # the largest n the search is run for (the tests check it succeeds up to here)


def sizes(n: int) -> bool:
    """Whether a whole event of n players can be a whist schedule (n ≡ 0 or 1 mod 4)."""
    return n >= 4 and n % 4 in (0, 1)


def whole_event(n: int) -> int:
    """The rounds of a whole event of n players: n - 1 with nobody out, n with one out."""
    return n - 1 if n % 4 == 0 else n


@lru_cache(maxsize=None)
def whist(n: int) -> tuple[Round, ...] | None:
    """A whist schedule of n players, or None when none is built for n."""
    if not sizes(n):
        return None
    if n % 4 == 1 and _prime(n):
        return _develop_field(n)
    if n > SEARCHED:
        return None
    order = n - 1 if n % 4 == 0 else n
    for group in _groups(order):
        found = _search(group, infinity=n % 4 == 0)
        if found is not None:
            return found
    return None


def _prime(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))


def _develop_field(p: int) -> tuple[Round, ...]:
    root = next(x for x in range(2, p) if len({pow(x, k, p) for k in range(1, p)}) == p - 1)
    quarter = (p - 1) // 4
    omega = pow(root, quarter, p)
    first = []
    for i in range(quarter):
        a = pow(root, i, p)
        b = a * omega % p
        first.append(((a, (-a) % p), (b, (-b) % p)))
    return tuple(tuple((((a + j) % p, (c + j) % p), ((b + j) % p, (d + j) % p))
                       for (a, c), (b, d) in first) for j in range(p))


def _groups(order: int) -> list[tuple[int, ...]]:
    """The abelian groups tried, as cyclic factors: Z_order, then Z_p^k when order = p^k."""
    out = [(order,)]
    for p in range(2, order):
        k, power = 0, 1
        while power < order:
            power *= p
            k += 1
        if power == order and k > 1 and _prime(p):
            out.append((p,) * k)
            break
    return out


def _search(factors: tuple[int, ...], infinity: bool) -> tuple[Round, ...] | None:  # noqa: C901 (one backtracking search: its branches share the partial schedule's state)
    """The schedule developed from a first round over the group (plus ∞, the last label, when
    ``infinity``) found by a depth-first search, or None when it has none."""
    elements = list(product(*(range(f) for f in factors)))
    index = {e: i for i, e in enumerate(elements)}
    size = len(elements)
    minus = [[index[tuple((x - y) % f for x, y, f in zip(a, b, factors))] for b in elements]
             for a in elements]
    plus = [[index[tuple((x + y) % f for x, y, f in zip(a, b, factors))] for b in elements]
            for a in elements]
    negative = [minus[0][a] for a in range(size)]
    # how often each difference is used: partners once, opponents twice, over the schedule
    partner, opponent = [0] * size, [0] * size
    used = [False] * size
    used[0] = not infinity  # without ∞, element 0 sits out the first round
    tables: list[tuple[int | None, int, int, int]] = []

    def mark(counts: list[int], a: int, b: int, step: int, cap: int) -> bool:
        d = minus[a][b]
        counts[d] += step
        counts[negative[d]] += step
        return counts[d] <= cap and counts[negative[d]] <= cap

    def seat_last(table: tuple[int | None, int, int, int], last: int) -> bool:
        """Seat a table whose pairs all fit (``last`` its last member) and fill the rest."""
        used[last] = True
        tables.append(table)
        if fill(False):
            return True
        tables.pop()
        used[last] = False
        return False

    def fill(need_infinity: bool) -> bool:
        """Tables for the elements not yet seated, each pair checked as soon as it is chosen."""
        if all(used):
            return True
        first = used.index(False)
        used[first] = True
        free = [e for e in range(size) if not used[e]]
        if need_infinity and _infinity_table(first, free):
            return True
        if not need_infinity:
            for c in free:  # first's partner
                if mark(partner, first, c, 1, 1):
                    used[c] = True
                    rest = [e for e in free if e != c]
                    for i, b in enumerate(rest):  # an opponent, partnered by d below
                        if mark(opponent, first, b, 1, 2) & mark(opponent, c, b, 1, 2):
                            used[b] = True
                            for d in rest[i + 1:]:
                                if (mark(partner, b, d, 1, 1) & mark(opponent, first, d, 1, 2)
                                        & mark(opponent, c, d, 1, 2)):
                                    if seat_last((first, b, c, d), d):
                                        return True
                                mark(partner, b, d, -1, 1)
                                mark(opponent, first, d, -1, 2)
                                mark(opponent, c, d, -1, 2)
                            used[b] = False
                        mark(opponent, first, b, -1, 2)
                        mark(opponent, c, b, -1, 2)
                    used[c] = False
                mark(partner, first, c, -1, 1)
        used[first] = False
        return False

    def _infinity_table(first: int, free: list[int]) -> bool:
        """∞ partners ``first`` (any difference: ∞ meets every element once a translate) and
        faces b and d, who partner."""
        for i, b in enumerate(free):
            if mark(opponent, first, b, 1, 2):
                used[b] = True
                for d in free[i + 1:]:
                    if mark(opponent, first, d, 1, 2) & mark(partner, b, d, 1, 1):
                        if seat_last((None, b, first, d), d):
                            return True
                    mark(opponent, first, d, -1, 2)
                    mark(partner, b, d, -1, 1)
                used[b] = False
            mark(opponent, first, b, -1, 2)
        return False

    if not fill(infinity):
        return None
    last = size  # ∞'s label

    def moved(x: int | None, j: int) -> int:
        return last if x is None else plus[x][j]

    return tuple(tuple(((moved(a, j), moved(c, j)), (moved(b, j), moved(d, j)))
                       for a, b, c, d in tables) for j in range(size))
