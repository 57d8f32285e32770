"""``domino validate`` and ``domino show``: the referee's verdict on log files (show also draws a
stored match)."""

from __future__ import annotations

import sys
from typing import Any

import click

from referee import LogError
from words import N_

from .logfiles import NoSuchEvent, file_view, log_problem, named_file, validate_logs
from .options import at_option


@click.command(help=N_("""\
Referee whole match logs (domino-log/1) and report every violation.

A foul the record proves in hindsight (a closed recording) says which event completed the
proof, then each fact of its evidence with its event. A line counts the suspicions;
--suspicions lists them.

Exit status: 0 when every log is valid, 1 when any holds violations, 2 when one cannot be read.

\b
Example:
  domino validate examples/parejas.jsonl
  domino validate --suspicions examples/veracruz-closed.jsonl
  domino validate --json club-night/*.jsonl > reports.jsonl"""))
@click.argument("logs", nargs=-1, required=True, metavar="LOG...")
@click.option("--json", "as_json", is_flag=True, help=N_("Print one domino-report/1 per log, one a line."))
@click.option("--suspicions", "list_suspicions", is_flag=True,
              help=N_("List the suspicions (what the record allows but does not prove), with "
                      "their facts; without it, only how many."))
def validate(logs: tuple[str, ...], as_json: bool, list_suspicions: bool) -> None:
    sys.exit(validate_logs(logs, as_json=as_json, list_suspicions=list_suspicions, echo=click.echo,
                           echo_problem=lambda line: click.echo(click.style(line, fg="red"))))


@click.command(help=N_("""\
Draw the table of a match as it stood: the line, open ends, hands, whose turn and what
that seat may do, scores. LOG is a domino-log/1 file (- for stdin); anything that is not a
file is a match id in the database (as ``domino match show``).

\b
Example:
  domino show examples/parejas.jsonl --at 12
  domino show 7 --at 30"""))
@click.argument("log", metavar="LOG|MATCH")
@at_option
def show(log: str, at: int | None) -> None:
    from .console import terminal
    from .render import screen_view

    if log == "-" or named_file(log):
        view = _file_view(log, at)
    elif log.isascii() and log.isdigit():
        from .connection import connect  # the database, only for a stored match
        from .matches import match_screen

        with connect() as service:
            view = screen_view(match_screen(service, log, at))
    else:
        from words import _

        raise click.ClickException(_("%(log)s is neither a log file nor a match id", log=log))
    terminal().print(view)


def _file_view(log: str, at: int | None) -> Any:
    try:
        return file_view(log, at)
    except LogError as error:
        raise click.ClickException(log_problem(log, error)) from None
    except NoSuchEvent as error:
        from words import ngettext

        raise click.BadParameter(ngettext("%(log)s has %(num)s event; there is no event %(at)s",
                                          "%(log)s has %(num)s events; there is no event %(at)s",
                                          error.events, log=log, at=at),
                                 param_hint="'--at'") from None
