"""``domino standings``: a club's table over its finished matches, and ``domino club set``: how it
breaks ties (the service computes both; docs/standings.md)."""

from __future__ import annotations

import click

from .connection import connect
from .listing import echo_json, output_format
from referee.core.vocab import STANDING_GROUPS, TIE_BREAKERS, side_name

from .options import DATE, club_option, csv_option, json_option


@click.command()
@club_option
@click.option("--group", type=click.Choice(STANDING_GROUPS), default="players",
              show_default=True, help="Per player, or per fixed partnership (the same two partners).")
@click.option("--from", "date_from", type=DATE, default=None, metavar="YYYY-MM-DD",
              help="Only matches played on or after this day.")
@click.option("--to", "date_to", type=DATE, default=None, metavar="YYYY-MM-DD",
              help="Only matches played on or before this day.")
@click.option("--event", default=None, help="Only matches whose log header names this event.")
@json_option
@csv_option
def standings(club_slug: str, group: str, date_from: str | None, date_to: str | None,
              event: str | None, as_json: bool, as_csv: bool) -> None:
    """A club's standings: per player, finished matches played, won, lost, and points for.

    Also rounds won, points against, their difference, the win rate, the rating (OpenSkill,
    mu - 3 sigma, over every finished match of the club), how many matches it is made of, how
    many matches counted still have an open dispute (flagged), and whether the rating is still
    provisional. Ranked by the club's tie-breakers (domino club set --tie-breakers); rows tied
    on all of them share a rank.

    --json and --csv print one row per player: rank, player, played, won, lost, rounds_won,
    points_for, points_against, difference, win_rate, rating, rating_games, flagged,
    provisional (--group partnerships: partners, or partner_1 and partner_2 in CSV).

    \b
    Example:
      domino standings --club casino
      domino standings --club casino --from 2026-01-01 --to 2026-03-31 --event liga
      domino standings --club casino --group partnerships --csv > parejas.csv
    """
    how = output_format(as_json, as_csv)
    filters = {"group": group, "date_from": date_from, "date_to": date_to, "event": event}
    with connect() as service:
        if how == "csv":
            # the service writes the CSV
            click.echo(service.standings.csv(club_slug, **filters), nl=False)
            return
        rows = service.standings.table(club_slug, **filters)
    if how == "json":
        echo_json(rows)
        return
    from .console import terminal
    from rich.table import Table

    shown = ("rank", "partners" if group == "partnerships" else "player", "played", "won",
             "lost", "rounds_won", "points_for", "points_against", "difference", "win_rate",
             "rating", "rating_games", "flagged")
    headers = {"rounds_won": "rounds", "points_for": "for", "points_against": "against",
               "difference": "diff", "win_rate": "win %", "rating_games": "games"}
    title = f"{club_slug}: standings" + (" (partnerships)" if group == "partnerships" else "")
    period = " to ".join(d for d in (date_from or "…", date_to or "…")) \
        if date_from or date_to else None
    caption = ", ".join(x for x in (period, event and f"event {event}") if x)
    table = Table(title=title, title_justify="left", caption=caption or None,
                  caption_justify="left")
    for column in shown:
        table.add_column(headers.get(column, column.replace("_", " ")),
                         justify="left" if column in ("player", "partners") else "right")
    for row in rows:
        cells = []
        for column in shown:
            value = row[column]
            if column == "partners":
                value = side_name(value)
            elif column == "win_rate":
                value = f"{100 * value:.1f}"
            elif column == "rating":
                value = f"{value:.2f}" + ("?" if row["provisional"] else "")
            cells.append(str(value))
        table.add_row(*cells)
    terminal().print(table)
    if any(row["provisional"] for row in rows):
        click.echo("?: provisional rating (too few matches yet)")


@click.command("set")
@click.argument("slug")
@click.option("--tie-breakers", "tie_breakers", required=True, metavar="NAME,NAME,...",
              help=f"How standings break ties, in order: some of {', '.join(TIE_BREAKERS)}; "
                   f"or 'default' (won,difference,points_for,head_to_head).")
def club_set(slug: str, tie_breakers: str) -> None:
    """Change a club's settings: how its standings break ties.

    \b
    Example:
      domino club set casino --tie-breakers won,head_to_head,difference
      domino club set casino --tie-breakers default
    """
    chosen: list[str] | None = None
    if tie_breakers.strip() != "default":
        chosen = [name.strip() for name in tie_breakers.split(",")]
        unknown = [name for name in chosen if name not in TIE_BREAKERS]
        if unknown or not chosen:
            raise click.BadParameter(
                f"{', '.join(repr(n) for n in unknown) or 'nothing'}: give some of "
                f"{', '.join(TIE_BREAKERS)}, comma-separated, or default",
                param_hint="'--tie-breakers'")
        if len(set(chosen)) != len(chosen):
            raise click.BadParameter("a tie-breaker is named twice", param_hint="'--tie-breakers'")
    with connect() as service:
        club = service.standings.set_tie_breakers(slug, chosen)
    click.echo(f"{club['slug']}: tie-breakers {', '.join(club['tie_breakers'])}")
