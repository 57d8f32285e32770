"""``domino serve``: the HTTP API on one machine, as production serves it (uvicorn, the ASGI
front of api.asgi with its edge limits), on the configured database.

For production run gunicorn with deploy/gunicorn.conf.py instead (docs/deploy.md): the same
server as several worker processes on PostgreSQL.
"""

from __future__ import annotations

import click

from words import N_

from .options import Whole


@click.command(help=N_("""\
Serve the HTTP API on the configured database, upgrading it first.

Docs at http://HOST:PORT/api/docs. On a database with no club it also prints a one-time
link (/setup#code=...) that makes the first club from a browser. Clubs are created with
`domino club create`, or over HTTP with the server admin token set in DOMINO_ADMIN_TOKEN.

\b
Example:
  domino serve --port 8000"""))
@click.option("--host", default="127.0.0.1", show_default=True, help=N_("Address to listen on."))
@click.option("--port", default=8000, show_default=True, type=Whole(0, 65535),
              help=N_("Port to listen on; 0: a free one the system picks (the address printed "
                      "says which)."))
@click.option("--threads", default=8, show_default=True, type=Whole(1, 256),
              help=N_("Requests the app works on at once (live scoreboard streams take none)."))
@click.option("--database-url", envvar="DOMINO_DATABASE_URL", default=None,
              help=N_("Default: DOMINO_DATABASE_URL, else the embedded SQLite file."))
def serve(host: str, port: int, threads: int, database_url: str | None) -> None:
    from api.asgi import create_asgi
    from api.server import listening, run
    from migrations.runner import upgrade
    from referee.service.maintenance import fill_standings
    from words import _

    from .connection import connect

    # Bound before anything else: a port in use (or an unknown host) is one line, and the
    # database is left as it was. --port 0 is a port the system picks, held from here on: the
    # address printed below is the real one (the tests start servers so, never on a port
    # picked first and bound later, which another process can take meanwhile).
    try:
        sockets = listening(host, port)
    except OSError as error:
        from words.oserrors import reason  # the system's words in the reader's language

        raise click.ClickException(_("cannot listen on %(host)s port %(port)s: %(cause)s",
                                     host=host, port=port, cause=reason(error))) from None
    port = sockets[0].getsockname()[1]
    try:
        # connect: a database that cannot be used (its URL, its file, its server) is one line,
        # as for every command, not a traceback
        with connect(database_url, upgrading=True) as service:
            # idempotent: the embedded database is created on first start; standings a database
            # upgraded past 0004 lacks are filled as `domino db upgrade` fills them
            upgrade(service.engine, then=fill_standings)
            setup = service.setup.issue()  # None once the database has a club
        config: dict[str, object] = {"THREADS": threads}
        if database_url:
            config["DATABASE_URL"] = database_url
        app = create_asgi(config)
        from .collector import settle

        settle()  # a server runs for hours: the collector as usual from here (cli.collector)
        site = "http://%s:%s" % (host, port)
        click.echo(_("domino-referee on %(site)s/: the clubs' pages; scoring on a phone at "
                     "%(site)s/score; the API at %(site)s/api/docs", site=site), err=True)
        if setup is not None:
            # The code goes after '#': a browser never sends it to the server, so no log keeps it.
            from referee.service.setup import SETUP_LIFETIME

            click.echo(_("No club yet: open %(site)s/setup#code=%(code)s to make the first one and "
                         "sign its secretary into the club desk (the link works once, within "
                         "%(hours)s hours; each start prints a new one until the first club is made)",
                         site=site, code=setup["code"],
                         hours=int(SETUP_LIFETIME.total_seconds() // 3600)), err=True)
    except BaseException:  # the database refused, or an interrupt: the port is let go at once
        for sock in sockets:
            sock.close()
        raise
    run(app, sockets=sockets)
