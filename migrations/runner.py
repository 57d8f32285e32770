"""Running the migrations: alembic over a connection the caller opens, no alembic.ini needed.

These helpers live beside the revisions, not in the store, so that nothing under ``referee/``
imports alembic: the CLI calls them where it upgrades (``domino db upgrade``, ``domino serve``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, TypeVar

from sqlalchemy import Connection, Engine

from referee.store.db import writing

T = TypeVar("T")

# A revision whose module sets this true rebuilds, on SQLite, a table other tables' foreign keys
# point at (a constraint dropped: alembic's batch mode copies the table, drops the old one and
# renames the copy). With foreign keys on, SQLite refuses the DROP TABLE ("FOREIGN KEY
# constraint failed"; deferring them only moves the refusal to the commit), so such a revision
# runs with them off, as alembic's documentation for SQLite's batch migrations says.
PAUSES_FOREIGN_KEYS = "sqlite_foreign_keys_off"


class ForeignKeysBroken(RuntimeError):
    """A migration run with SQLite's foreign keys off left rows that point at nothing (``PRAGMA
    foreign_key_check``'s first rows): the whole upgrade or downgrade is rolled back."""


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

    paused = pauses_foreign_keys(engine, current_revision(engine), revision)
    with transaction(engine, paused=paused) as conn:
        command.upgrade(alembic_config(conn), revision)
        return then(conn) if then is not None else None


def downgrade(engine: Engine, revision: str) -> None:
    from alembic import command

    paused = pauses_foreign_keys(engine, current_revision(engine), revision)
    with transaction(engine, paused=paused) as conn:
        command.downgrade(alembic_config(conn), revision)


def pauses_foreign_keys(engine: Engine, current: str | None, target: str) -> bool:
    """Whether the revisions between ``current`` and ``target`` (up or down) take SQLite's
    foreign keys off (:data:`PAUSES_FOREIGN_KEYS`); never on PostgreSQL, whose ALTER TABLE needs
    no copy. A target alembic cannot place (a relative one) pauses nothing: a revision that
    needed it then fails loudly, as before."""
    if engine.dialect.name != "sqlite":
        return False
    from alembic.script import ScriptDirectory
    from alembic.script.revision import RevisionError
    from alembic.util import CommandError

    script = ScriptDirectory.from_config(alembic_config())
    here = current or "base"
    for upper, lower in ((target, here), (here, target)):
        try:
            between = list(script.iterate_revisions(upper, lower))
        except (CommandError, RevisionError):  # not this way round: the other
            continue
        return any(getattr(rev.module, PAUSES_FOREIGN_KEYS, False) for rev in between)
    return False


@contextmanager
def transaction(engine: Engine, *, paused: bool = False) -> Iterator[Connection]:
    """The migrations' one write transaction (:func:`referee.store.db.writing`). ``paused``
    (SQLite): foreign keys off for it, set on the connection before BEGIN (SQLite ignores the
    PRAGMA inside a transaction), every row checked by ``PRAGMA foreign_key_check`` before the
    commit (a row pointing at nothing raises :class:`ForeignKeysBroken` and nothing is
    changed), and on again after, whatever happened: the connection goes back to the pool."""
    if not paused:
        with writing(engine) as conn:
            yield conn
        return
    with engine.connect() as conn:
        raw = conn.connection.dbapi_connection
        assert raw is not None
        raw.execute("PRAGMA foreign_keys = OFF")  # autocommit: no BEGIN is open yet
        try:
            with conn.begin():
                yield conn
                broken = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
                if broken:
                    raise ForeignKeysBroken(
                        "rows point at nothing after the migration (table, rowid, parent): "
                        + ", ".join(str(tuple(row[:3])) for row in broken[:5]))
        finally:
            raw.execute("PRAGMA foreign_keys = ON")


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
