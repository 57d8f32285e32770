"""``domino standings``: a club's table over its finished matches (the service computes it)."""

from __future__ import annotations

import click

from .connection import connect
from .listing import echo_json, output_format
from .options import club_option, csv_option, json_option


@click.command()
@club_option
@json_option
@csv_option
def standings(club_slug: str, as_json: bool, as_csv: bool) -> None:
    """A club's standings: per player, finished matches played, won, lost, and points for.

    --json and --csv print one row per player: player, played, won, lost, points_for.

    \b
    Example:
      domino standings --club casino
      domino standings --club casino --csv > standings.csv
    """
    how = output_format(as_json, as_csv)
    with connect() as service:
        if how == "csv":
            click.echo(service.standings.csv(club_slug), nl=False)  # the service writes the CSV
            return
        rows = service.standings.table(club_slug)
    if how == "json":
        echo_json(rows)
        return
    from rich.console import Console
    from rich.table import Table

    from referee.service import STANDING_COLUMNS as COLUMNS

    table = Table(title=f"{club_slug}: standings", title_justify="left")
    for column in COLUMNS:
        table.add_column(column.replace("_", " "), justify="left" if column == "player" else "right")
    for row in rows:
        table.add_row(*(str(row[c]) for c in COLUMNS))
    Console().print(table)
