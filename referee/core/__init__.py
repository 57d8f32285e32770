"""The rules core: tiles, rules, events, the match and its replay, scoring, the log and the report.

This package does no I/O: it reads no file, socket or clock and imports nothing but the standard
library and itself (``tests/core/test_layers.py`` holds it to that). Everything it knows comes in
as values (rules, players, events) and goes out as values (a replay, a position, a report).

The names below are each imported from its module when first asked for (``__getattr__``), so
that importing one module of the core (``referee.core.vocab``) loads that module alone: a
``domino`` command loads what it uses (bench/cli_bench.py). The functions named as their
module is (``replay``, ``position``) are imported from it: once the module is loaded, the
package's attribute of that name is the module.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "EVENT_TYPES", "VIOLATION_CODES", "Violation", "Header", "LogError", "MatchLog", "read_log",
    "write_log", "Match", "RoundResult", "Position", "Replay", "positions",
    "build_report", "PRESETS", "Rules", "RulesError", "resolve_rules", "TileSet", "tile_set",
]

NAMES = {  # a name: the module of the core that holds it
    "EVENT_TYPES": "events", "VIOLATION_CODES": "events", "Violation": "events",
    "Header": "log", "LogError": "log", "MatchLog": "log", "read_log": "log", "write_log": "log",
    "Match": "match", "RoundResult": "match", "Position": "position",
    "Replay": "replay", "positions": "replay", "build_report": "report",
    "PRESETS": "rules", "Rules": "rules", "RulesError": "rules", "resolve_rules": "rules",
    "TileSet": "tiles", "tile_set": "tiles",
}


def __getattr__(name: str) -> Any:
    module = NAMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
