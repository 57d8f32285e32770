"""``domino validate`` and ``domino show``: the referee's verdict on log files (show also draws a
stored match)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console, Group

from referee import LogError, build_report, position, read_log, replay
from referee.core.report import error_report

from .connection import connect
from .matches import match_view
from .options import at_option
from .render import position_view, report_view


def _read(path: str):
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        raise LogError(0, f"cannot read the file: {error.strerror or error}") from None
    return read_log(data)


@click.command()
@click.argument("logs", nargs=-1, required=True, metavar="LOG...")
@click.option("--json", "as_json", is_flag=True, help="Print one domino-report/1 per log, one a line.")
def validate(logs: tuple[str, ...], as_json: bool) -> None:
    """Referee whole match logs (domino-log/1) and report every violation.

    Exit status: 0 when every log is valid, 1 when any holds violations, 2 when one cannot be read.

    \b
    Example:
      domino validate examples/parejas.jsonl
      domino validate --json club-night/*.jsonl > reports.jsonl
    """
    console = Console()
    status = 0
    for path in logs:
        try:
            log = _read(path)
        except LogError as error:
            status = 2
            if as_json:
                click.echo(json.dumps(error_report(path, error.line, error.message)))
            else:
                where = f"line {error.line}" if error.line else "file"
                console.print(f"[bold red]{path}[/]: cannot read {where}: {error.message}", highlight=False)
            continue
        report = build_report(replay(log.header.rules, log.header.players, log.events))
        if not report["valid"]:
            status = max(status, 1)
        if as_json:
            click.echo(json.dumps(report))
        else:
            console.rule(path)
            console.print(report_view(report, log.header.players))
    sys.exit(status)


@click.command()
@click.argument("log", metavar="LOG|MATCH")
@at_option
def show(log: str, at: int | None) -> None:
    """Draw the table of a match as it stood: the line, open ends, hands, scores. LOG is a
    domino-log/1 file (- for stdin); anything that is not a file is a match id in the database.

    \b
    Example:
      domino show examples/parejas.jsonl --at 12
      domino show 7 --at 30
    """
    if log == "-" or Path(log).exists():
        view = _file_view(log, at)
    elif log.isascii() and log.isdigit():
        with connect() as service:
            view = match_view(service, log, at)
    else:
        raise click.ClickException(f"{log} is neither a log file nor a match id")
    Console().print(view)


def _file_view(log: str, at: int | None) -> Group:
    try:
        match_log = _read(log)
    except LogError as error:
        raise click.ClickException(f"{log}: line {error.line}: {error.message}") from None
    events = match_log.events
    if at is not None and at > len(events):
        raise click.ClickException(f"{log} has {len(events)} events; there is no event {at}")
    stop = len(events) if at is None else at
    header = match_log.header
    # The record as it stood when event `stop` was recorded: only the voids before it count.
    result = replay(header.rules, header.players, events[:stop])
    refused = result.violation_at(stop)
    return position_view(position(result.match), header.rules.as_dict(), header.players,
                         refused.message if refused else None)
