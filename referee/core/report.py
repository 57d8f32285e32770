"""The ``domino-report/1`` document: what the referee found in a record."""

from __future__ import annotations

from typing import Any

from .replay import Replay

FORMAT = "domino-report/1"


def build_report(result: Replay) -> dict[str, Any]:
    match = result.match
    return {
        "format": FORMAT,
        "rules": match.rules.as_dict(),
        "valid": result.valid,
        "violations": [v.as_dict() for v in result.violations],
        "rounds": [r.as_dict() for r in match.results()],
        "totals": list(match.totals),
        "finished": match.finished,
        "winner": match.winner,
    }


def error_report(file: str, line: int, message: str) -> dict[str, Any]:
    """What ``validate --json`` prints in place of a report for a log it cannot read."""
    return {"format": FORMAT, "file": file, "error": {"line": line, "message": message}}
