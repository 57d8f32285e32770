"""Matches with many open disputes, for the disputes desk's tests (service and pages)."""

from __future__ import annotations

import json
from typing import Any, Sequence

from referee.service import Service

# A refused tap recorded as disputed (a tile no set has): one more open dispute, the match
# playing on around it.
TAP = {"type": "play", "seat": 0, "tile": "9-9", "disputed": True}


def import_disputed(service: Service, club: str, rules: Any, players: Sequence[str],
                    events: Sequence[dict[str, Any]], taps: int) -> int:
    """The match of ``events`` with ``taps`` refused taps after its first event (the deal),
    imported whole as a referee imports a log; its id."""
    lines: list[dict[str, Any]] = [{"format": "domino-log/1", "rules": rules,
                                    "players": list(players)}]
    lines += [events[0], *[TAP] * taps, *events[1:]]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    return service.recording.import_log(club, text)["id"]
