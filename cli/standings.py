"""``domino standings``: a club's table over its finished matches (the service computes it)."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from referee.service import STANDING_COLUMNS as COLUMNS

from .connection import connect
from .options import club_option



@click.command()
@club_option
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV (a header line, one player a line).")
def standings(club_slug: str, as_csv: bool) -> None:
    """A club's standings: per player, finished matches played, won, lost, and points for.

    \b
    Example:
      domino standings --club casino
      domino standings --club casino --csv > standings.csv
    """
    with connect() as service:
        if as_csv:
            click.echo(service.standings.csv(club_slug), nl=False)
            return
        rows = service.standings.table(club_slug)
    table = Table(title=f"{club_slug}: standings", title_justify="left")
    for column in COLUMNS:
        table.add_column(column.replace("_", " "), justify="left" if column == "player" else "right")
    for row in rows:
        table.add_row(*(str(row[c]) for c in COLUMNS))
    Console().print(table)
