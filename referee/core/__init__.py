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


def lend(package: dict[str, Any], name: str, where: dict[str, str]) -> Any:
    """``name`` from the module of the core that ``where`` names for it, kept in ``package``
    (a package's globals) so that it is looked up once; AttributeError for a name not lent."""
    if name not in where:
        raise AttributeError(f"module {package['__name__']!r} has no attribute {name!r}")
    package[name] = getattr(importlib.import_module(f"{__name__}.{where[name]}"), name)
    return package[name]


def __getattr__(name: str) -> Any:
    return lend(globals(), name, NAMES)
