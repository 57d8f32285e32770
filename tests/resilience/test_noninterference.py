"""The non-interference property of tests/service/test_service_noninterference.py over many
more cases, on each database: random matches of each seat count cut anywhere in a round, the
round played on by a second scorekeeper to its end (appends, retries, previews, undos, draws in
sight, events a typed hand contradicts), every channel compared for the second scorekeeper, a
viewer and the public, until at least 10,000 answers including 200 round ends were compared.
Its figures (answers, round ends, ...) go into tests/resilience/last-run.json."""

from __future__ import annotations

import os
import random
import time
from typing import Any, Iterator

import pytest
from noninterference_helpers import DATABASES, PRESETS, Tally, World, make_worlds, same_answers

pytestmark = pytest.mark.resilience

ANSWERS, ROUND_ENDS = 10_000, 200
MOST_CASES = 2_000  # a bound, never reached unless cases stop ending their rounds
RUN_SEED = 934_220_523  # passed on both databases on 6 December (f497fa8)


@pytest.fixture(scope="module", params=DATABASES)
def worlds(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[World, World]]:
    yield from make_worlds(request, tmp_path_factory)


def test_previews_refusals_and_every_channel_depend_only_on_what_the_caller_sees(
        worlds: tuple[World, World], figures: dict[str, Any]) -> None:
    # One run seed by default, so that CI judges the same cases each time (DOMINO_TWIN_SEED
    # names another; "random" draws a new one, to explore): a failure names its case, which
    # then stays below as a case of its own.
    chosen = os.environ.get("DOMINO_TWIN_SEED", str(RUN_SEED))
    run_seed = random.randrange(10**9) if chosen == "random" else int(chosen)
    figures["run_seed"] = run_seed
    rng = random.Random(run_seed)
    tally = Tally()
    started = time.monotonic()
    while tally.answers < ANSWERS or tally.round_ends < ROUND_ENDS:
        assert tally.cases < MOST_CASES, tally
        seed, preset, depth = rng.randrange(10**6), rng.choice(sorted(PRESETS)), rng.random()
        try:
            same_answers(worlds, seed, preset, depth, tally)
        except AssertionError as error:
            raise AssertionError(f"run seed {run_seed}, case {tally.cases}: same_answers(worlds, "
                                 f"{seed}, {preset!r}, {depth!r}): {error}") from None
        figures.update(tally.as_dict(), seconds=round(time.monotonic() - started, 1))
    assert tally.answers >= ANSWERS and tally.round_ends >= ROUND_ENDS


# Found on 6 December by run seed 623771817 (case 93): B's domino scored the round at once in
# world closed, where B's record knew seat 1's last tile (a draw B saw), and the match was over;
# in world open an unsighted play had made the whole record forget that hand (it held A's typed
# draw too), so the round awaited a reveal and B's undo was accepted there alone. Both answers
# are right, B seeing every hand then: the property no longer tries an undo offered in one world
# only (Case.undo_by_second; tests/core/test_core_unsighted.py and
# tests/service/test_service_noninterference.py hold the case cut down).
def test_the_case_a_random_run_found(worlds: tuple[World, World]) -> None:
    tally = Tally()
    same_answers(worlds, 248304, "mano-a-mano", 0.0728097377713921, tally)
    assert tally.kept_ends == 1 and tally.unsighted >= 1, tally
