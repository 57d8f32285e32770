"""The ``domino-report/1`` document: what the referee found in a record."""

from __future__ import annotations

from typing import Any

from .disputes import disputes, open_violations, violations_of
from .events import Violation
from .hindsight import findings
from .replay import Replay

FORMAT = "domino-report/1"


def build_report(result: Replay) -> dict[str, Any]:
    match = result.match
    # once: the violations and the suspicions both come from it (a pass said as a knock in a
    # game scoring during play)
    hindsight = findings(match)
    found = violations_of(result, hindsight)
    still_open = open_violations(result, found)
    return {
        "format": FORMAT,
        "rules": match.rules.as_dict(),
        "valid": not still_open,
        "violations": list(map(Violation.as_dict, still_open)),
        "rounds": [r.as_dict() for r in match.rounds],
        "totals": list(match.totals),
        "finished": match.finished,
        "winner": match.winner,
        # (each by map: a closed recording's report lists some 25 suspicions a match)
        "suspicions": list(map(Violation.as_dict, hindsight.suspicions)),
        "disputes": disputes(result, found),
    }


def error_report(file: str, line: int, message: str) -> dict[str, Any]:
    """What ``validate --json`` prints in place of a report for a log it cannot read."""
    return {"format": FORMAT, "file": file, "error": {"line": line, "message": message}}


def report_changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What a change to the record changes in its report: the rounds, totals, winner and end,
    and the violations that appear or vanish (by seq and code)."""
    def keys(report: dict[str, Any]) -> dict[tuple[int, str], dict[str, Any]]:
        return {(v["seq"], v["code"]): v for v in report["violations"]}

    was, now = keys(before), keys(after)
    rounds = []
    for i in range(max(len(before["rounds"]), len(after["rounds"]))):
        old = before["rounds"][i] if i < len(before["rounds"]) else None
        new = after["rounds"][i] if i < len(after["rounds"]) else None
        if old != new:
            rounds.append({"round": i + 1, "before": old, "after": new})
    return {
        "rounds": rounds,
        "totals": {"before": before["totals"], "after": after["totals"]},
        "winner": {"before": before["winner"], "after": after["winner"]},
        "finished": {"before": before["finished"], "after": after["finished"]},
        "violations_appear": [now[k] for k in now if k not in was],
        "violations_vanish": [was[k] for k in was if k not in now],
    }
