"""``domino match new/list/show/report/export`` (and ``import``, in cli/imports.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console, Group
from rich.table import Table

from referee.service import STATUSES, Service

from .connection import connect
from .options import at_option, club_option, match_argument
from .render import position_view, report_view, side_name, side_names


@click.group()
def match() -> None:
    """Matches: create, list, show, report, export, import.

    \b
    Example:
      domino match new --club casino --rules mano-a-mano --player Ana --player Beto
      domino match list --club casino --status in_progress
    """


def _rules(text: str) -> Any:
    """A preset name, or a JSON object of parameters ({"preset": ..., "target": 100})."""
    if not text.lstrip().startswith("{"):
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise click.BadParameter(f"not JSON: {error}", param_hint="--rules") from None


@match.command("new")
@club_option
@click.option("--rules", "rules_text", required=True, metavar="PRESET|JSON",
              help='A preset (mano-a-mano, parejas, veracruz, sircle, puerto-rico) or JSON '
                   'like \'{"preset": "parejas", "target": 100}\'.')
@click.option("--player", "players", multiple=True, required=True,
              help="A player, once per seat in the order of play (new names join the club).")
@click.option("--table", default=None, help="Which table it is played at.")
@click.option("--date", default=None, help="When (ISO 8601); default today.")
@click.option("--event", default=None, help="The tournament or club night.")
def match_new(club_slug: str, rules_text: str, players: tuple[str, ...], table: str | None,
              date: str | None, event: str | None) -> None:
    """Create a match and print its id (on a line of its own, for scripts).

    \b
    Example:
      domino match new --club casino --rules parejas \\
          --player Ana --player Beto --player Carla --player Dani --table 3
    """
    with connect() as service:
        created = service.recording.create_match(club_slug, _rules(rules_text), list(players),
                                       table=table, date=date, event=event)
    click.echo(f"created match {created['id']}: {', '.join(created['players'])}", err=True)
    click.echo(created["id"])


@match.command("list")
@club_option
@click.option("--status", type=click.Choice(STATUSES), default=None)
@click.option("--player", default=None, help="Only matches this player sat in.")
@click.option("--from", "date_from", default=None, help="Played on or after (ISO date).")
@click.option("--to", "date_to", default=None, help="Played on or before (ISO date).")
@click.option("--limit", type=click.IntRange(min=1), default=50, show_default=True)
@click.option("--offset", type=click.IntRange(min=0), default=0)
def match_list(club_slug: str, status: str | None, player: str | None, date_from: str | None,
               date_to: str | None, limit: int, offset: int) -> None:
    """List a club's matches, newest first.

    \b
    Example:
      domino match list --club casino --status finished --player Ana --from 2026-01-01
    """
    with connect() as service:
        found, total = service.reading.list_matches(club_slug, status=status, player=player,
                                            date_from=date_from, date_to=date_to,
                                            limit=limit, offset=offset)
    table = Table(title=f"{club_slug}: {len(found)} of {total} matches", title_justify="left")
    for column in ("id", "date", "players", "status", "round", "totals", "winner", "disputed"):
        table.add_column(column, justify="right" if column in ("id", "round", "disputed") else "left")
    for m in found:
        sides = side_names(m["rules"], m["players"])
        table.add_row(str(m["id"]), m["date"] or m["created_at"][:10], ", ".join(m["players"]),
                      m["status"].replace("_", " "), str(m["round"] or "-"),
                      " - ".join(map(str, m["totals"])),
                      side_name(m["winner"], sides) if m["winner"] is not None else "-",
                      str(m["violations"]))
    Console().print(table)


def match_view(service: Service, match_id: str | int, at: int | None) -> Group:
    """The table of a stored match after event ``at`` (default: the last), with the referee's
    verdict on that event if it was recorded as disputed."""
    summary = service.reading.get_match(match_id)
    pos = service.reading.state(summary["id"], at)
    violation = None
    if pos.seq:
        violation = next((v["message"] for v in service.reading.report(summary["id"])["violations"]
                          if v["seq"] == pos.seq), None)
    return position_view(pos, summary["rules"], summary["players"], violation)


@match.command("show")
@match_argument
@at_option
def match_show(match_id: str, at: int | None) -> None:
    """Draw the table of a match as it stood: the line, open ends, hands, scores.

    \b
    Example:
      domino match show 7 --at 12
    """
    with connect() as service:
        view = match_view(service, match_id, at)
    Console().print(view)


@match.command("report")
@match_argument
@click.option("--json", "as_json", is_flag=True, help="Print the domino-report/1 as JSON.")
def match_report(match_id: str, as_json: bool) -> None:
    """The referee's report: rounds, totals, winner and every violation.

    \b
    Example:
      domino match report 7
      domino match report 7 --json | jq .totals
    """
    with connect() as service:
        players = service.reading.get_match(match_id)["players"]
        report = service.reading.report(match_id)
    if as_json:
        click.echo(json.dumps(report))
    else:
        Console().print(report_view(report, players))


@match.command("export")
@match_argument
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write to this file (default: standard output).")
def match_export(match_id: str, output: str | None) -> None:
    """Write a match as a domino-log/1 (its header and every event, as recorded).

    \b
    Example:
      domino match export 7 -o table3.jsonl
    """
    with connect() as service:
        text = service.reading.export_log(match_id)
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise click.ClickException(f"cannot write {output}: {error.strerror or error}") from None
    click.echo(f"wrote match {match_id} to {output}", err=True)
