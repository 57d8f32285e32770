"""The alembic environment: the same revisions run on SQLite and PostgreSQL.

``migrations.runner.upgrade(engine)`` hands a connection in through ``config.attributes`` (no
alembic.ini needed); the alembic command line works too, with ``-c migrations/alembic.ini`` and
the database taken from DOMINO_DATABASE_URL.
"""

from __future__ import annotations

from alembic import context

from referee.store.db import make_engine
from referee.store.schema import metadata

config = context.config


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite cannot ALTER most things: later revisions get table-copying batch mode there.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    from migrations.runner import current_revision, pauses_foreign_keys, transaction

    engine = make_engine(config.get_main_option("sqlalchemy.url") or None)
    try:
        # as migrations.runner runs them: SQLite's foreign keys off for a revision that says so
        target = context.get_revision_argument()  # the revision itself, None for base
        if isinstance(target, tuple):
            target = target[0] if target else None
        paused = pauses_foreign_keys(engine, current_revision(engine), target or "base")
        with transaction(engine, paused=paused) as connection:
            _run(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported: run them against a database")
run_migrations_online()
