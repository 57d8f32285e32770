"""The double round robin of a division by the circle method, over places (team numbers), with
home and away balanced so that no team has three home or three away fixtures running.

Places are numbered from 0, the team listed first being place 0 (or, in an odd division, place
1: place 0 is then the free place, and whoever is drawn against it has the week off).

**A half** is the circle method (:func:`referee.service.pairing.circle`, the pairing engine's
own): over ``m`` places (``n`` teams, plus the free place when ``n`` is odd), place 0 stays
still and the others turn one step a round; turn ``t`` seats the turned places in a row and
pairs the ``i``-th with the ``i``-th from the end (table ``i``, from 0). The first half's round
``j`` (from 0) is turn ``(j + 2) mod (m - 1)``: starting at the third turn is what keeps three
home or three away games from meeting across the two halves (starting at the first gives two
teams three running for every even ``n``). At turn ``t``, table 0 (place 0 against the last
place of the row) has place 0 at home when ``t`` is even; table ``i`` from 1 on has the place
on the left (the ``i``-th of the row) at home when ``i`` is odd.

**The second half** repeats the first, round by round, with venues swapped; for four teams in
reverse order (the last round of the first half, swapped, comes first), because every mirrored
season of four teams gives some team three running (``tests/service/test_league_fixtures.py``
tries them all).

The run of a team's venues, a week off left out (it neither breaks nor extends a run), never
holds three home or three away: checked for every ``n`` from 2 to 64 by the tests.
"""

from __future__ import annotations

from ..pairing import circle

# A round: its fixtures as (home place, away place), table by table, and the place with the
# week off (None in an even division).
Round = tuple[tuple[tuple[int, int], ...], int | None]

START = 2  # the turn the first round is (see the module's text)
MIRROR_REVERSED = 4  # the division size whose second half runs in reverse order


def half(n: int) -> list[Round]:
    """The first half of the season of ``n`` teams (places 0 to n - 1)."""
    odd = n % 2
    m = n + odd
    # in an odd division, place 0 of the circle is the free place, and team p is circle place p+1
    places: list[int | None] = [None, *range(n)] if odd else list(range(n))
    rounds: list[Round] = []
    for j in range(m - 1):
        turn = (j + START) % (m - 1)
        fixtures: list[tuple[int, int]] = []
        off: int | None = None
        for i, (left, right) in enumerate(circle(places, turn)):
            left_home = turn % 2 == 0 if i == 0 else i % 2 == 1
            home, away = (left, right) if left_home else (right, left)
            if home is None or away is None:
                off = away if home is None else home
                continue
            fixtures.append((home, away))
        rounds.append((tuple(fixtures), off))
    return rounds


def double_round_robin(n: int) -> list[Round]:
    """Every round of the season of ``n`` teams (``n`` at least 2): the first half, then the
    second, as the module's text says."""
    first = half(n)
    second = [(tuple((away, home) for home, away in fixtures), off) for fixtures, off in first]
    if n == MIRROR_REVERSED:
        second.reverse()
    return first + second
