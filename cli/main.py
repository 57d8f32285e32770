"""The ``domino`` command. Each command module holds a few click commands; this file gathers them."""

from __future__ import annotations

import click

from . import recording, rulings
from .admin import club, player, token
from .db import db
from .imports import match_import
from .logs import show, validate
from .matches import match
from .serve import serve
from .standings import standings
from .table import table


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="domino-referee")
def main() -> None:
    """domino-referee: referee and scorekeeper for real-table domino matches.

    Works on the configured database (DOMINO_DATABASE_URL, by default the SQLite file
    domino.db) or, for validate and show, on domino-log/1 files.

    \b
    Example:
      domino db upgrade
      domino club create casino --name "Casino Domino Club"
      domino match new --club casino --rules mano-a-mano --player Ana --player Beto
      domino table 1
    """


match.add_command(match_import)
for command in (validate, show, serve, db, club, player, token, match, table, standings,
                *recording.COMMANDS, *rulings.COMMANDS):
    main.add_command(command)
