"""The rules core: tiles, rules, events, the match and its replay, scoring, the log and the report.

This package does no I/O: it reads no file, socket or clock and imports nothing but the standard
library and itself (``tests/core/test_layers.py`` holds it to that). Everything it knows comes in
as values (rules, players, events) and goes out as values (a replay, a position, a report).
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
