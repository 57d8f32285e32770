"""domino-referee: the rules core (``referee.core``), the event store (``referee.store``) and
the use cases (``referee.service``), each building only on the ones before it.

The package re-exports the rules core's public names, so ``from referee import replay`` works
without loading the store or the service (nor SQLAlchemy).
"""

from .core import (
    EVENT_TYPES,
    PRESETS,
    VIOLATION_CODES,
    Header,
    LogError,
    Match,
    MatchLog,
    Position,
    Replay,
    RoundResult,
    Rules,
    RulesError,
    TileSet,
    Violation,
    build_report,
    position,
    positions,
    read_log,
    replay,
    resolve_rules,
    tile_set,
    write_log,
)

__all__ = [
    "EVENT_TYPES", "VIOLATION_CODES", "Violation", "Header", "LogError", "MatchLog", "read_log",
    "write_log", "Match", "RoundResult", "Position", "position", "Replay", "positions", "replay",
    "build_report", "PRESETS", "Rules", "RulesError", "resolve_rules", "TileSet", "tile_set",
]
