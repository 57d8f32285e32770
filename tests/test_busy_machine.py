"""No test may fail because the machine is busy (tests/README.md, "What may not go red by
chance"): the property tests run without a per-example deadline and without the health check
on generation time, whatever their own @settings say, and no test sets a deadline of its own."""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import HealthCheck, settings

TESTS = Path(__file__).resolve().parent


def test_the_profile_sets_no_deadline_and_no_timed_health_check() -> None:
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
    only_examples = settings(max_examples=3)  # as a test that sets only its count
    assert only_examples.deadline is None
    assert HealthCheck.too_slow in only_examples.suppress_health_check


def test_no_property_sets_a_deadline() -> None:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        source = path.read_text()
        if "deadline" not in source:
            continue  # no keyword of that name in it, so nothing to find: parsed only if one
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "settings":
                found += [f"{path.relative_to(TESTS)}:{node.lineno}" for k in node.keywords
                          if k.arg == "deadline" and not (isinstance(k.value, ast.Constant)
                                                          and k.value.value is None)]
    assert not found, found
