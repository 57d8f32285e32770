"""Helpers for the database contract suite (fixtures are in conftest.py)."""

from __future__ import annotations

import os
import random
from typing import Any

from template_helpers import migrate

from referee.core.simulate import random_match
from referee.service import Service

# The PostgreSQL the database suites also run on, when set (tests/conftest.py).
PG_URL = os.environ.get("DOMINO_TEST_DATABASE_URL")

__all__ = ["PRESET_PLAYERS", "migrate", "record_all", "sample_match"]

# A player list for each preset (its seat count).
PRESET_PLAYERS = {
    "mano-a-mano": ["Ana", "Beto"],
    "parejas": ["Ana", "Beto", "Carla", "Dani"],
    "veracruz": ["Ana", "Beto", "Carla"],
    "sircle": ["Ana", "Beto"],
    "puerto-rico": ["Ana", "Beto", "Carla", "Dani"],
}


def sample_match(preset: str = "parejas", seed: int = 1,
                 **kwargs: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A random legal match (header, events) from the rules core's simulator."""
    return random_match(preset, PRESET_PLAYERS[preset], random.Random(seed), **kwargs)


def record_all(service: Service, match_id: int, events: list[Any], start: int = 0) -> None:
    for seq, event in enumerate(events, start=start):
        service.recording.record_event(match_id, event, expected_seq=seq)
