"""Matches with many open disputes, for the disputes desk's tests (service and pages)."""

from __future__ import annotations

import json
from typing import Any, Sequence

from referee.service import Service


def tap(n: int) -> dict[str, Any]:
    """The ``n``-th refused tap recorded as disputed (a tile no set has): one more open dispute,
    the match playing on around it. Each names another tile than the one before it: the same
    disputed event twice in a row is a repeat, which is not recorded."""
    return {"type": "play", "seat": 0, "tile": f"9-{n % 10}", "disputed": True}


def import_disputed(service: Service, club: str, rules: Any, players: Sequence[str],
                    events: Sequence[dict[str, Any]], taps: int) -> int:
    """The match of ``events`` with ``taps`` refused taps after its first event (the deal),
    imported whole as a referee imports a log; its id."""
    lines: list[dict[str, Any]] = [{"format": "domino-log/1", "rules": rules,
                                    "players": list(players)}]
    lines += [events[0], *map(tap, range(taps)), *events[1:]]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    return service.recording.import_log(club, text)["id"]
