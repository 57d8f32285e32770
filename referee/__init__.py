"""domino-referee: the rules core (``referee.core``), the event store (``referee.store``) and
the use cases (``referee.service``), each building only on the ones before it.

The package re-exports the rules core's public names, so ``from referee import replay`` works
without loading the store or the service (nor SQLAlchemy). Each is imported from its module of
the core when first asked for (``__getattr__``), so that ``import referee.store`` loads no more
of the core than the store uses (bench/cli_bench.py).
"""

from __future__ import annotations

from typing import Any

from . import core

__all__ = [
    "EVENT_TYPES", "VIOLATION_CODES", "Violation", "Header", "LogError", "MatchLog", "read_log",
    "write_log", "Match", "RoundResult", "Position", "position", "Replay", "positions", "replay",
    "build_report", "PRESETS", "Rules", "RulesError", "resolve_rules", "TileSet", "tile_set",
]

# the core's names, and the two functions named as their modules are (the core's own package
# cannot lend those: once such a module is loaded, its attribute of that name is the module)
_WHERE = {**core.NAMES, "position": "position", "replay": "replay"}


def __getattr__(name: str) -> Any:
    return core.lend(globals(), name, _WHERE)
