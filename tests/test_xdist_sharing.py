"""How `-n 2` shares the tests between its workers (tests/README.md): by work stealing, so that
a worker that runs out takes half of the other's queue, not xdist's default chunks, which stay
with the worker they were given to."""

from __future__ import annotations

import pytest


def test_the_workers_steal_work(pytestconfig: pytest.Config) -> None:
    addopts = pytestconfig.getini("addopts")
    assert "--dist" in addopts and addopts[addopts.index("--dist") + 1] == "worksteal", addopts
