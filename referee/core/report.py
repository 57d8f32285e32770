"""The ``domino-report/1`` document: what the referee found in a record."""

from __future__ import annotations

from typing import Any

from .disputes import disputes, open_violations, violations_of
from .hindsight import findings
from .replay import Replay

FORMAT = "domino-report/1"


def build_report(result: Replay) -> dict[str, Any]:
    match = result.match
    found = violations_of(result)
    still_open = open_violations(result, found)
    return {
        "format": FORMAT,
        "rules": match.rules.as_dict(),
        "valid": not still_open,
        "violations": [v.as_dict() for v in still_open],
        "rounds": [r.as_dict() for r in match.results()],
        "totals": list(match.totals),
        "finished": match.finished,
        "winner": match.winner,
        "suspicions": [v.as_dict() for v in findings(match).suspicions],
        "disputes": disputes(result, found),
    }


def error_report(file: str, line: int, message: str) -> dict[str, Any]:
    """What ``validate --json`` prints in place of a report for a log it cannot read."""
    return {"format": FORMAT, "file": file, "error": {"line": line, "message": message}}
