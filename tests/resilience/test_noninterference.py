"""The non-interference property of tests/service/test_service_noninterference.py over many
more cases (random matches of each seat count, hidden hands, callers, and the second
scorekeeper's appends, retries, previews and undos): a few minutes."""

from __future__ import annotations

from typing import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from noninterference_helpers import CASES, World, make_worlds, same_answers

pytestmark = pytest.mark.resilience


@pytest.fixture(scope="module")
def worlds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[World, World]]:
    yield from make_worlds(tmp_path_factory)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**CASES)
def test_previews_refusals_and_every_channel_depend_only_on_what_the_caller_sees(
        worlds: tuple[World, World], seed: int, preset: str, depth: float, caller: str) -> None:
    same_answers(worlds, seed, preset, depth, caller)
