"""The ``domino`` command. Each command module holds a few click commands; this file gathers them."""

from __future__ import annotations

import click

from .admin import club, token
from .db import db
from .logs import show, validate
from .serve import serve


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="domino-referee")
def main() -> None:
    """domino-referee: referee and scorekeeper for real-table domino matches.

    Works on the configured database (DOMINO_DATABASE_URL, by default the SQLite file
    domino.db) or, for validate and show, on domino-log/1 files.
    """


main.add_command(validate)
main.add_command(show)
main.add_command(serve)
main.add_command(club)
main.add_command(token)
main.add_command(db)
