"""``domino db upgrade`` and ``domino db rebuild``: the database's schema and projections."""

from __future__ import annotations

import click

from words import _, ngettext

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
    click.echo(_("database at the latest revision: %(url)s", url=safe_url(url)))
    if filled:
        click.echo(ngettext("standings and ratings filled from %(num)s finished match",
                            "standings and ratings filled from %(num)s finished matches", filled))


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
    click.echo(ngettext("rebuilt %(num)s match: %(url)s", "rebuilt %(num)s matches: %(url)s",
                        count, url=safe_url(url)))
