"""Helpers for the database contract suite (fixtures are in conftest.py)."""

from __future__ import annotations

import os
import random
import shutil
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, NamedTuple

import pytest
from sqlalchemy import Engine, text
from sqlalchemy import event as sqlalchemy_event
from template_helpers import migrate

from referee.core.simulate import random_match
from referee.service import Service
from referee.service.keyfolder import KEYS_DIR_VARIABLE

# The PostgreSQL the database suites also run on, when set (tests/conftest.py).
PG_URL = os.environ.get("DOMINO_TEST_DATABASE_URL")

__all__ = ["PG_URL", "PRESET_PLAYERS", "Statement", "keyed_finished_match", "lending", "migrate",
           "own_keys", "record_all", "sample_match", "statements", "writes_in"]

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


def own_keys(service: Service, clubs: list[str], folder: Path,
             monkeypatch: pytest.MonkeyPatch) -> None:
    """The private key files of ``clubs``' keys in ``service``'s database (and the row key)
    copied into
    ``folder``, which becomes this test's keys folder. A database copied from a template
    (template_helpers.seeded) names the keys its build made, in the session's folder: with
    files of its own, a test may remove or open up one without the other copies losing it."""
    for club in clubs:
        for key in service.keys.listing(club)["keys"]:
            source = service.keys.ring.path(club, key["key_id"])
            (folder / club).mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / club / source.name)  # its mode (0600) too
    # and the server's row key its rows were MAC'd with (referee.service.rowkey), as it is
    for source in (service.row_keys.path, service.row_keys.sealed_path):
        if source.exists():
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / source.name)
    monkeypatch.setenv(KEYS_DIR_VARIABLE, str(folder))


def keyed_finished_match(engine: Engine, club: str, name: str,
                         **details: Any) -> tuple[Service, int, list[dict[str, Any]]]:
    """(A template's build, template_helpers.seeded.) ``club`` made with its signing key, and a
    parejas match of it played to its end (``sample_match``, seed 4), its acta signed: the
    service, the match's id and its events."""
    built = Service(engine)
    built.clubs.create_club(club, name)
    built.keys.init(club)
    _, events = sample_match("parejas", seed=4)
    match_id = built.recording.create_match(club, "parejas", PRESET_PLAYERS["parejas"],
                                            **details)["id"]
    record_all(built, match_id, events)
    return built, match_id, events


WRITES = ("INSERT", "UPDATE", "DELETE")


class Statement(NamedTuple):
    """A statement run: on which engine, its text (white space collapsed), its parameters."""

    engine: Engine
    text: str
    parameters: Any


@contextmanager
def statements(*engines: Engine) -> Iterator[list[Statement]]:
    """Each statement SQLAlchemy runs on ``engines`` inside the block, in order, on any thread
    (its before_cursor_execute; not the hot statements ``referee.store.driver`` runs on
    psycopg's connection: on PostgreSQL an append's compare-and-set and the token lookup)."""
    seen: list[Statement] = []
    listeners = []
    for engine in engines:
        def record(conn: Any, cursor: Any, statement: str, parameters: Any, *args: Any,
                   engine: Engine = engine) -> None:
            seen.append(Statement(engine, " ".join(statement.split()), parameters))

        sqlalchemy_event.listen(engine, "before_cursor_execute", record)
        listeners.append((engine, record))
    try:
        yield seen
    finally:
        for engine, record in listeners:
            sqlalchemy_event.remove(engine, "before_cursor_execute", record)


def writes_in(seen: list[Statement]) -> list[str]:
    """The statements of ``seen`` that write (INSERT, UPDATE, DELETE)."""
    return [s.text for s in seen if s.text.lstrip().upper().startswith(WRITES)]


@contextmanager
def lending(engines: dict[str, Engine], *, this_thread: bool = False) -> Iterator[set[str]]:
    """The names of ``engines`` that lent a connection inside the block (a pool's checkout:
    every use of an engine, the hot statements run on psycopg's connection too); with
    ``this_thread``, to the calling thread only (not the service's own threads: the notifier,
    an acta signed once an append has committed)."""
    used: set[str] = set()
    me = threading.get_ident()

    def listener(name: str) -> Any:
        def lent(*args: Any) -> None:
            if not this_thread or threading.get_ident() == me:
                used.add(name)
        return lent

    listeners = [(engine, listener(name)) for name, engine in engines.items()]
    for engine, lent in listeners:
        sqlalchemy_event.listen(engine, "checkout", lent)
    try:
        yield used
    finally:
        for engine, lent in listeners:
            sqlalchemy_event.remove(engine, "checkout", lent)


def upgrade_and_seal(engine: Engine) -> None:
    """The database at the head revision, and the rows written before the row MACs (a database
    downgraded past 0020 or 0022 loses them) sealed, as an upgrade is followed by ``domino db
    seal`` (docs/verify.md)."""
    from migrations import runner

    runner.upgrade(engine)
    service = Service(engine)
    service.seal.run(again=True)
    service.notifier.close()


def sql(service: Service, statement: str, **params: object) -> None:
    with service.engine.begin() as conn:
        conn.execute(text(statement), params)
    service.matches.forget_all()


@contextmanager
def lifted(service: Service, table: str) -> Iterator[None]:
    """The append-only triggers of ``table`` lifted for the block, then put back as they were."""
    pg = service.engine.dialect.name == "postgresql"
    if pg:
        sql(service, f"ALTER TABLE {table} DISABLE TRIGGER {table}_append_only")
    else:
        with service.engine.begin() as conn:
            saved = conn.execute(text("SELECT sql FROM sqlite_master WHERE type = 'trigger' "
                                      "AND tbl_name = :t"), {"t": table}).scalars().all()
            for action in ("update", "delete"):
                conn.execute(text(f"DROP TRIGGER {table}_no_{action}"))
    try:
        yield
    finally:
        if pg:
            sql(service, f"ALTER TABLE {table} ENABLE TRIGGER {table}_append_only")
        else:
            with service.engine.begin() as conn:
                for statement in saved:
                    conn.execute(text(statement))
