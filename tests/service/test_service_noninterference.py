"""Non-interference (docs/visibility.md, "The promise"): two worlds that differ only in what a caller
may not see give that caller the same answers on every channel (the worlds and the channels:
tests/noninterference_helpers.py)."""

from __future__ import annotations

from typing import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from noninterference_helpers import CASES, World, make_worlds, same_answers


@pytest.fixture(scope="module")
def worlds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[World, World]]:
    yield from make_worlds(tmp_path_factory)


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(**CASES)
def test_a_caller_gets_the_same_answers_whatever_it_may_not_see(
        worlds: tuple[World, World], seed: int, preset: str, depth: float, caller: str) -> None:
    same_answers(worlds, seed, preset, depth, caller)


