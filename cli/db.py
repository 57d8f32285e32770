"""``domino db upgrade`` and ``domino db rebuild``: the database's schema and projections."""

from __future__ import annotations

import click

from referee.db import database_url

from .connection import connect

_URL_OPTION = click.option(
    "--database-url", envvar="DOMINO_DATABASE_URL", default=None,
    help="Default: DOMINO_DATABASE_URL, else the SQLite file domino.db "
         "(in DOMINO_DATA_DIR if set, else the current directory).")


def _safe(url: str) -> str:
    """The URL without its password, for messages."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


@click.group()
def db() -> None:
    """The database: schema migrations and projections.

    \b
    Example:
      domino db upgrade
      domino db rebuild
    """


@db.command("upgrade")
@_URL_OPTION
def upgrade(**kwargs: str | None) -> None:
    """Create or migrate the tables to the latest revision (safe to run again).

    \b
    Example:
      DOMINO_DATABASE_URL=postgresql+psycopg://domino@db/domino domino db upgrade
    """
    url = database_url(kwargs.get("database_url"))
    with connect(url, upgrading=True) as service:
        service.upgrade()
    click.echo(f"database at the latest revision: {_safe(url)}")


@db.command("rebuild")
@_URL_OPTION
def rebuild(**kwargs: str | None) -> None:
    """Recompute every match's summary (status, round, totals, winner) from its events.

    \b
    Example:
      domino db rebuild
    """
    url = database_url(kwargs.get("database_url"))
    with connect(url) as service:
        count = service.rebuild()
    click.echo(f"rebuilt {count} match{'es' if count != 1 else ''}: {_safe(url)}")
