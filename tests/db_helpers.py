"""Helpers for the database contract suite (fixtures are in conftest.py)."""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from migrations.runner import upgrade
from referee.core.simulate import random_match
from referee.service import Service
from referee.store.db import make_engine

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


_template: Path | None = None


def migrate(engine: Engine) -> None:
    """The engine's database brought to the head revision. A new SQLite file is a copy of one
    migrated once a session (running every migration costs each test a fifth of a second; the
    migrations are tested on their own, tests/store/test_migrations.py); anything else is
    upgraded."""
    global _template
    url = engine.url
    if url.get_backend_name() == "sqlite" and url.database and not Path(url.database).exists():
        if _template is None:
            path = Path(tempfile.mkdtemp(prefix="domino-template-")) / "domino.db"
            made = make_engine(f"sqlite:///{path}")
            upgrade(made)
            made.dispose()  # the last connection closed: the WAL is in the file
            _template = path
        shutil.copyfile(_template, url.database)
        return
    upgrade(engine)
