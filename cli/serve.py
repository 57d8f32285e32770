"""``domino serve``: the HTTP API under waitress, for one machine.

For production run several workers on PostgreSQL instead (see README, "API")::

    DOMINO_DATABASE_URL=postgresql+psycopg://domino@db/domino domino db upgrade
    DOMINO_DATABASE_URL=postgresql+psycopg://domino@db/domino \\
        gunicorn "api:create_app()" -w 4 -b 0.0.0.0:8000
"""

from __future__ import annotations

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 256),
              help="Requests served at once.")
@click.option("--database-url", envvar="DOMINO_DATABASE_URL", default=None,
              help="Default: DOMINO_DATABASE_URL, else the embedded SQLite file.")
def serve(host: str, port: int, threads: int, database_url: str | None) -> None:
    """Serve the HTTP API (waitress) on the configured database, upgrading it first.

    Docs at http://HOST:PORT/api/docs. Clubs are created with `domino club create`, or over
    HTTP with the server admin token set in DOMINO_ADMIN_TOKEN.

    \b
    Example:
      domino serve --port 8000
    """
    import waitress

    from api import create_app
    from migrations.runner import upgrade
    from referee.service import open_service
    from referee.service.maintenance import fill_standings

    with open_service(database_url) as service:
        # idempotent: the embedded database is created on first start; standings a database
        # upgraded past 0004 lacks are filled as `domino db upgrade` fills them
        upgrade(service.engine, then=fill_standings)
    app = create_app({"DATABASE_URL": database_url} if database_url else None)
    from words import _

    click.echo(_("domino-referee API on %(url)s", url=f"http://{host}:{port}/api/docs"), err=True)
    waitress.serve(app, host=host, port=port, threads=threads, ident="domino-referee")
