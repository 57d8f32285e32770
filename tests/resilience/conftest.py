"""The resilience suite: the real server killed, the database stopped, racing clients, hostile
input. Marked ``resilience`` and left out of the default run (pyproject's addopts); run it with

    DOMINO_TEST_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        python -m pytest -q -m resilience tests/resilience

Each test fills the ``figures`` fixture (counts, seconds, 503s, p99...). At the end of the run
they are written to tests/resilience/last-run.json and printed in the terminal summary, with or
without ``-s``.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import subprocess
from pathlib import Path
from typing import Any, Iterator

import pytest
from resilience_helpers import ROOT, pg_restore_if_stopped

HERE = Path(__file__).resolve().parent
LAST_RUN = HERE / "last-run.json"

_FIGURES: dict[str, dict[str, Any]] = {}
_RESULTS: dict[str, dict[str, Any]] = {}


def _ours(item: pytest.Item) -> bool:
    return HERE in Path(str(item.fspath)).resolve().parents


@pytest.fixture
def figures(request: pytest.FixtureRequest) -> Iterator[dict[str, Any]]:
    """A dict the test fills as it goes (so a failing test still shows how far it got)."""
    found: dict[str, Any] = {}
    _FIGURES[request.node.nodeid] = found
    yield found


@pytest.fixture(autouse=True)
def _postgres_back_up() -> Iterator[None]:
    """Whatever a test did, PostgreSQL is running again (pg_isready) before the next one."""
    yield
    pg_restore_if_stopped()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if _ours(item) and (report.when == "call" or report.outcome != "passed"):
        result = _RESULTS.setdefault(item.nodeid, {})
        if report.when == "call":
            result["duration_s"] = round(report.duration, 1)
        if hasattr(report, "wasxfail"):
            result["outcome"] = "xfailed" if report.skipped else "xpassed"
        elif report.outcome != "passed" or report.when == "call":
            result.setdefault("outcome", report.outcome if report.when == "call"
                              else f"{report.outcome} in {report.when}")
    return report


def _commit() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, timeout=10, check=False).stdout.strip() or None
    except (OSError, subprocess.TimeoutExpired):
        return None


def _document() -> dict[str, Any]:
    tests = {}
    for nodeid in sorted(set(_FIGURES) | set(_RESULTS)):
        tests[nodeid] = {**_RESULTS.get(nodeid, {}), **_FIGURES.get(nodeid, {})}
    return {
        "run_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "commit": _commit(),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_average": [round(x, 2) for x in os.getloadavg()]},
        "database": "postgresql" if os.environ.get("DOMINO_TEST_DATABASE_URL") else None,
        "tests": tests,
    }


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    pg_restore_if_stopped()
    if _FIGURES or _RESULTS:
        LAST_RUN.write_text(json.dumps(_document(), indent=2) + "\n")


def _lines(value: Any, indent: str) -> list[str]:
    if isinstance(value, dict):
        out = []
        for key, item in value.items():
            if isinstance(item, dict) and item and any(isinstance(v, (dict, list)) for v in item.values()):
                out.append(f"{indent}{key}:")
                out.extend(_lines(item, indent + "  "))
            elif isinstance(item, list) and item and isinstance(item[0], str) and len(item) > 1:
                out.append(f"{indent}{key}: ({len(item)})")
                out.extend(f"{indent}  - {line}" for line in item[:30])
            else:
                out.append(f"{indent}{key}: {json.dumps(item)}")
        return out
    return [f"{indent}{json.dumps(value)}"]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not (_FIGURES or _RESULTS):
        return
    terminalreporter.write_sep("=", f"resilience figures (also in {LAST_RUN.relative_to(ROOT)})")
    for nodeid, found in _document()["tests"].items():
        terminalreporter.write_line(nodeid)
        for line in _lines(found, "  "):
            terminalreporter.write_line(line)
