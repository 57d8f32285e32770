"""``domino match import``: many domino-log/1 files into a club, each stored whole or refused."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import click

from words import N_, _, message, ngettext

from .connection import connect
from .listing import echo_json
from .matches import NEW_HINT, seating_new_option
from .options import club_option

if TYPE_CHECKING:
    from referee.service import Service


class Outcome(NamedTuple):
    file: str
    match_id: int | None  # None: refused
    events: int | None = None
    status: str | None = None
    where: str | None = None  # "line 3" (unreadable) or "event 17" (refused by the referee)
    message: str | None = None


def import_file(service: Service, club: str, path: str, *, confirm_new: bool = False) -> Outcome:
    """One file: imported atomically by the service, or refused with where and why.
    ``confirm_new``: the header's names that are new to the club are new players, even those
    close to a player's (else such a log is refused: "did you mean ...?")."""
    from referee.core import LogError
    from referee.service import IllegalEvent, Invalid, ServiceError, Unconfirmed

    from .logfiles import read_bytes

    try:
        data = read_bytes(path)  # stops at a line longer than a log's may be
    except LogError as error:
        import words

        return Outcome(path, None, where=_("line %(line)s", line=error.line) if error.line else None,
                       message=words.say(error.message))
    try:
        summary = service.recording.import_log(club, data, recorded_by="cli:import",
                                               confirm_new=confirm_new)
    except Invalid as error:
        hint = _(NEW_HINT) if isinstance(error, Unconfirmed) else ""
        return Outcome(path, None, where=_("line %(line)s", line=error.line) if error.line else None,
                       message=message(error) + hint)
    except IllegalEvent as error:
        # the service's sentence says which line to mark "disputed": true to import it
        return Outcome(path, None, where=_("line %(line)s", line=error.violation.seq + 1),
                       message=message(error))
    except ServiceError as error:
        return Outcome(path, None, message=message(error))
    return Outcome(path, summary["id"], summary["last_seq"], summary["status"])


def outcome_tables(outcomes: list[Outcome]) -> list[Any]:
    """A headline, then what was imported and what was refused, each table only if not empty."""
    from rich.table import Table
    from rich.text import Text

    imported = [o for o in outcomes if o.match_id is not None]
    refused = [o for o in outcomes if o.match_id is None]
    parts: list[Any] = [Text(ngettext("Imported %(imported)s of %(num)s log",
                                      "Imported %(imported)s of %(num)s logs", len(outcomes),
                                      imported=len(imported)),
                             style="bold green" if not refused else "bold red")]
    if imported:
        table = Table(title=_("Stored"), title_justify="left")
        for column, right in ((_("file"), False), (_("match"), True), (_("events"), True),
                              (_("status"), False)):
            table.add_column(column, justify="right" if right else "left", overflow="fold")
        for o in imported:
            table.add_row(o.file, str(o.match_id), str(o.events), _status(o.status))
        parts.append(table)
    if refused:
        table = Table(title=_("Refused"), title_justify="left")
        table.add_column(_("file"), overflow="fold")
        table.add_column(_("at"), no_wrap=True)
        table.add_column(_("why"), overflow="fold", ratio=1)
        for o in refused:
            table.add_row(o.file, o.where or "-", o.message or "-")
        parts.append(table)
    return parts


def _status(status: str | None) -> str:
    from words.terms import term

    if status is None:
        return ""
    return term("phase", status) if status == "in_progress" else term("status", status).lower()


def _size(path: str) -> int:
    try:
        return max(Path(path).stat().st_size, 1)
    except OSError:
        return 1


@click.command("import", help=N_("""\
Import whole match logs (domino-log/1). Each is stored whole or not at all: a log that
cannot be read, or holds an event the referee refuses, is refused, and the others go on.
Exit status 1 if any was refused.

An event the referee refuses is imported only when its line says "disputed": true (as the
table records a refused event it leaves to the referee, and as match export writes it):
the match is stored with it as an open dispute. A refusal names the line to mark.

The header's players are seated as `match new` seats them: a new name close to a player's
is refused ("did you mean ...?") unless --new says the new names are new players.

\b
Example:
  domino match import --club casino club-night/*.jsonl
  domino match import --club casino --new late-entries.jsonl"""))
@club_option
@seating_new_option
@click.option("--json", "as_json", is_flag=True,
              help=N_("Print JSON: a list with one object a file (file, match, events, status, "
                      "at, why)."))
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
def match_import(club_slug: str, confirm_new: bool, as_json: bool, files: tuple[str, ...]) -> None:
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

    from .console import terminal

    sizes = [_size(path) for path in files]
    outcomes: list[Outcome] = []
    with connect() as service:
        service.clubs.get_club(club_slug)  # an unknown club stops everything, before any file
        # The bar counts bytes, so one big log weighs what it takes; it goes to stderr, so the
        # summary on stdout stays clean for a pipe.
        columns = (TextColumn("{task.description}"), BarColumn(), DownloadColumn(),
                   TimeRemainingColumn())
        with Progress(*columns, console=terminal(file=sys.stderr), transient=True) as progress:
            task = progress.add_task(_("importing"), total=sum(sizes))
            for path, size in zip(files, sizes):
                progress.update(task, description=Path(path).name)
                outcomes.append(import_file(service, club_slug, path, confirm_new=confirm_new))
                progress.advance(task, size)
    if as_json:
        echo_json([{"file": o.file, "match": o.match_id, "events": o.events, "status": o.status,
                    "at": o.where, "why": o.message} for o in outcomes])
    else:
        terminal().print(*outcome_tables(outcomes), sep="\n")
    if any(o.match_id is None for o in outcomes):
        sys.exit(1)
