"""``domino db upgrade`` and ``domino db rebuild``: the database's schema and projections."""

from __future__ import annotations

import click

from .connection import connect

_URL_OPTION = click.option(
    "--database-url", envvar="DOMINO_DATABASE_URL", default=None,
    help="Default: DOMINO_DATABASE_URL, else the SQLite file domino.db "
         "(in DOMINO_DATA_DIR if set, else the current directory).")


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

    In the same transaction it fills the standings and ratings of finished matches that have
    none (a database upgraded past the revision that created them empty).

    \b
    Example:
      DOMINO_DATABASE_URL=postgresql+psycopg://domino@db/domino domino db upgrade
    """
    from referee.service import database_url, safe_url

    url = database_url(kwargs.get("database_url"))
    with connect(url, upgrading=True) as service:
        from migrations.runner import upgrade as upgrade_schema
        from referee.service.maintenance import fill_standings

        filled = upgrade_schema(service.engine, then=fill_standings)
    click.echo(f"database at the latest revision: {safe_url(url)}")
    if filled:
        click.echo(f"standings and ratings filled from {filled} finished "
                   f"match{'es' if filled != 1 else ''}")


@db.command("rebuild")
@_URL_OPTION
def rebuild(**kwargs: str | None) -> None:
    """Recompute every match's summary (status, round, totals, winner) from its events.

    \b
    Example:
      domino db rebuild
    """
    from referee.service import database_url, safe_url

    url = database_url(kwargs.get("database_url"))
    with connect(url) as service:
        count = service.rebuild()
    click.echo(f"rebuilt {count} match{'es' if count != 1 else ''}: {safe_url(url)}")
