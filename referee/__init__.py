"""domino-referee: the rules core, the event store and the service layer.

The rules core is pure: ``tiles``, ``rules``, ``events``, ``match``, ``scoring``, ``replay``,
``report``, ``position``, ``log`` and ``simulate`` do no I/O, read no clock and import nothing
but the standard library (``tests/test_layers.py`` holds them to it). The store and the service
build on the core, never the other way round.
"""

from .events import EVENT_TYPES, VIOLATION_CODES, Violation
from .log import Header, LogError, MatchLog, read_log, write_log
from .match import Match, RoundResult
from .position import Position, position
from .replay import Replay, positions, replay
from .report import build_report
from .rules import PRESETS, Rules, RulesError, resolve_rules
from .tiles import TileSet, tile_set

__all__ = [
    "EVENT_TYPES", "VIOLATION_CODES", "Violation", "Header", "LogError", "MatchLog", "read_log",
    "write_log", "Match", "RoundResult", "Position", "position", "Replay", "positions", "replay",
    "build_report", "PRESETS", "Rules", "RulesError", "resolve_rules", "TileSet", "tile_set",
]
