"""Running the migrations: alembic over a connection the caller opens, no alembic.ini needed.

These helpers live beside the revisions, not in the store, so that nothing under ``referee/``
imports alembic: the CLI calls them where it upgrades (``domino db upgrade``, ``domino serve``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, TypeVar

from sqlalchemy import Connection, Engine

from referee.store.db import writing

T = TypeVar("T")


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Any:
    """An alembic Config for the migrations package, needing no alembic.ini in the CWD."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def upgrade(engine: Engine, revision: str = "head", *,
            then: Callable[[Connection], T] | None = None) -> T | None:
    """Apply the migrations up to ``revision`` in one transaction (both databases have
    transactional DDL: a failed upgrade leaves nothing half done). ``then``, called with the
    connection after the last revision and before the commit, fills what the revisions created
    empty (``domino db upgrade`` passes the service's ``fill_standings``: the migrations may not
    replay matches); its answer is returned, and if it fails nothing is upgraded."""
    from alembic import command

    with writing(engine) as conn:
        command.upgrade(alembic_config(conn), revision)
        return then(conn) if then is not None else None


def downgrade(engine: Engine, revision: str) -> None:
    from alembic import command

    with writing(engine) as conn:
        command.downgrade(alembic_config(conn), revision)


def head_revision() -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def is_current(engine: Engine) -> bool:
    """Whether the database has every migration (else an upgrade is due)."""
    return current_revision(engine) == head_revision()
