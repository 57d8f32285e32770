"""``domino validate`` and ``domino show``: the referee's verdict on log files (show also draws a
stored match)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from referee import LogError, MatchLog, build_report, position, read_log, replay
from referee.core.report import error_report

from .options import at_option

# rich and the renderings are imported only for what is drawn: validate --json prints JSON alone.


def _read(path: str) -> MatchLog:
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        raise LogError(0, f"cannot read the file: {error.strerror or error}") from None
    return read_log(data)


def log_problem(path: str, error: LogError) -> str:
    """One line: the file, the line that cannot be read, the reader's message as it is (a file
    that cannot be read at all: its message says so)."""
    if error.line:
        return f"{path}: cannot read line {error.line}: {error.message}"
    return f"{path}: {error.message}"


@click.command()
@click.argument("logs", nargs=-1, required=True, metavar="LOG...")
@click.option("--json", "as_json", is_flag=True, help="Print one domino-report/1 per log, one a line.")
@click.option("--suspicions", "list_suspicions", is_flag=True,
              help="List the suspicions (what the record allows but does not prove), with "
                   "their facts; without it, only how many.")
def validate(logs: tuple[str, ...], as_json: bool, list_suspicions: bool) -> None:
    """Referee whole match logs (domino-log/1) and report every violation.

    A foul the record proves in hindsight (a closed recording) says which event completed the
    proof, then each fact of its evidence with its event. A line counts the suspicions;
    --suspicions lists them.

    Exit status: 0 when every log is valid, 1 when any holds violations, 2 when one cannot be read.

    \b
    Example:
      domino validate examples/parejas.jsonl
      domino validate --suspicions examples/veracruz-closed.jsonl
      domino validate --json club-night/*.jsonl > reports.jsonl
    """
    console: Any = None
    status = 0
    for path in logs:
        try:
            log = _read(path)
        except LogError as error:
            status = 2
            if as_json:
                click.echo(json.dumps(error_report(path, error.line, error.message)))
            else:
                click.echo(click.style(log_problem(path, error), fg="red"))
            continue
        report = build_report(replay(log.header.rules, log.header.players, log.events))
        if not report["valid"]:
            status = max(status, 1)
        if as_json:
            click.echo(json.dumps(report))
            continue
        from .console import terminal

        from .render import log_sides, report_view

        console = console or terminal()
        console.rule(path)
        players = log.header.players
        console.print(report_view(report, players, log_sides(log.header.rules, players),
                                  suspicions=list_suspicions))
    sys.exit(status)


@click.command()
@click.argument("log", metavar="LOG|MATCH")
@at_option
def show(log: str, at: int | None) -> None:
    """Draw the table of a match as it stood: the line, open ends, hands, whose turn and what
    that seat may do, scores. LOG is a domino-log/1 file (- for stdin); anything that is not a
    file is a match id in the database (as ``domino match show``).

    \b
    Example:
      domino show examples/parejas.jsonl --at 12
      domino show 7 --at 30
    """
    from .console import terminal

    from .render import screen_view

    if log == "-" or Path(log).exists():
        view = _file_view(log, at)
    elif log.isascii() and log.isdigit():
        from .connection import connect  # the database, only for a stored match
        from .matches import match_screen

        with connect() as service:
            view = screen_view(match_screen(service, log, at))
    else:
        raise click.ClickException(f"{log} is neither a log file nor a match id")
    terminal().print(view)


def _file_view(log: str, at: int | None) -> Any:
    from .render import log_sides, position_view

    try:
        match_log = _read(log)
    except LogError as error:
        raise click.ClickException(log_problem(log, error)) from None
    events = match_log.events
    if at is not None and at > len(events):
        raise click.BadParameter(f"{log} has {len(events)} events; there is no event {at}",
                                 param_hint="'--at'")
    stop = len(events) if at is None else at
    header = match_log.header
    # The record as it stood when event `stop` was recorded: only the voids before it count.
    result = replay(header.rules, header.players, events[:stop])
    return position_view(position(result.match), header.players,
                         log_sides(header.rules, header.players),
                         disputes=build_report(result)["violations"])
