"""``domino validate``'s work and ``domino show LOG``'s, written once for their two ways in: the
click commands (:mod:`cli.logs`) and the entry point's click-free fast path (:mod:`cli.entry`).

Nothing here imports click: a validation of many logs pays for the rules core, json and (for
the text report) rich, not for a command-line framework. Each way in hands over how a line is
written (click's ``echo`` or the fast path's copy of it), so the verdicts, the output and the
exit status are this module's, whichever way the command came.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from typing import Any, BinaryIO, Callable, Sequence

from referee.core import LogError, MatchLog, build_report, read_log
from referee.core.log import MAX_LINE_BYTES, first_long_line, line_too_long
from referee.core.replay import placed_tiles, replay
from referee.core.report import error_report
from referee.core.vocab import side_names

# A report as one line of JSON: json.dumps' own encoder but for its check for circular
# references (a report is a tree of fresh dicts and lists, none inside itself): the same bytes
# for some 9 % less of the encoding (in process, CPU, the bench's closed twins and mixed corpus).
report_json = json.JSONEncoder(check_circular=False).encode


CHUNK = 1024 * 1024  # what read_capped reads at a time past its first MAX_LINE_BYTES


def read_capped(stream: BinaryIO) -> bytes:
    """All of ``stream``, read in pieces so that a line longer than MAX_LINE_BYTES stops the
    reading there (a LogError naming it) rather than being held whole: a 200 MB line took some
    1 GB to read and decode. A file no longer than the limit is one read, as before."""
    data = stream.read(MAX_LINE_BYTES + 1)
    if len(data) <= MAX_LINE_BYTES:
        return data
    chunks = [data]
    line, carried = 1, 0  # the line the next piece starts in, and its bytes read so far
    while data:
        long_line = first_long_line(data, carried)
        if long_line is not None:
            raise line_too_long(line + long_line)
        newlines = data.count(b"\n")
        line += newlines
        carried = len(data) - data.rfind(b"\n") - 1 if newlines else carried + len(data)
        data = stream.read(CHUNK)
        chunks.append(data)
    return b"".join(chunks)


def read_bytes(path: str) -> bytes:
    """The bytes of the log at ``path`` (``-``: stdin), through read_capped; a file that cannot
    be read is a LogError of line 0."""
    try:
        if path == "-":
            return read_capped(sys.stdin.buffer)
        with open(path, "rb") as stream:
            info = os.fstat(stream.fileno())
            if stat.S_ISREG(info.st_mode) and info.st_size <= MAX_LINE_BYTES:
                # a file holding no line too long: one read, as Path.read_bytes (read_log
                # checks the lines again, should it have grown meanwhile)
                return stream.read()
            return read_capped(stream)
    except OSError as error:
        from words import _
        from words.oserrors import reason  # the system's words in the reader's language

        raise LogError(0, _("cannot read the file: %(why)s", why=reason(error))) from None


def named_file(path: str) -> bool:
    """Whether ``path`` names a file to read rather than something else (``show``'s match id):
    it exists, or it cannot be looked at for another reason than its absence (a name too long,
    a folder that may not be searched), which reading it will then say. pathlib's exists()
    raised those, a traceback."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return True
    return True


def read_file(path: str, *, shared: bool = False) -> MatchLog:
    """The log at ``path`` (``-``: stdin); a file that cannot be read is a LogError of line 0.
    ``shared``: read_log's (events that are only read)."""
    return read_log(read_bytes(path), shared=shared)


def spoken(value: Any) -> Any:
    """A report (or an error report) with the rules core's sentences in the output's language;
    English, the report as built."""
    from words import localize

    return localize(value)


def log_problem(path: str, error: LogError) -> str:
    """One line: the file, the line that cannot be read, the reader's message in the output's
    language (a file that cannot be read at all: its message says so)."""
    import words
    from words import _

    if error.line:
        return _("%(path)s: cannot read line %(line)s: %(why)s", path=path, line=error.line,
                 why=error.message)
    return f"{path}: {words.say(error.message)}"


def validate_logs(paths: Sequence[str], *, as_json: bool, list_suspicions: bool,
                  echo: Callable[[str], None], echo_problem: Callable[[str], None]) -> int:
    """Referee each log in turn and print its verdict as it comes: one domino-report/1 a line
    (``as_json``), else the rich report under a rule naming the file. ``echo`` writes a line,
    ``echo_problem`` the line of a log that cannot be read (in red on a terminal). The exit
    status: 0 every log valid, 1 some log holds violations, 2 some log cannot be read."""
    console: Any = None
    status = 0
    for path in paths:
        try:
            # The events are only read (replayed, reported): a line read before is taken as
            # read then, not copied (tests/cli/test_cli_logs.py holds validation to changing
            # no event)
            log = read_file(path, shared=True)
        except LogError as error:
            status = 2
            if as_json:
                echo(json.dumps(spoken(error_report(path, error.line, error.message))))
            else:
                echo_problem(log_problem(path, error))
            continue
        report = build_report(replay(log.header.rules, log.header.players, log.events))
        if not report["valid"]:
            status = max(status, 1)
        if as_json:
            echo(report_json(spoken(report)))
            continue
        # rich and the renderings only for what is drawn: --json prints JSON alone
        from rich.rule import Rule

        from .console import terminal
        from .render import report_view

        console = console or terminal()
        players = log.header.players
        # the rule naming the file and the report in one print: console.rule(path), then the
        # report, at half the cost of two prints
        console.print(Rule(path), report_view(
            report, players, side_names(log.header.rules, players), suspicions=list_suspicions,
            tiles=lambda seqs, log=log: placed_tiles(log.header.rules, log.events, seqs)))
    return status


class NoSuchEvent(ValueError):
    """``--at`` names an event past the log's last (``events``: how many it has)."""

    def __init__(self, events: int) -> None:
        super().__init__(events)
        self.events = events


def file_view(path: str, at: int | None) -> Any:
    """The table of the log at ``path`` as it stood after event ``at`` (None: the last), with
    the violations recorded up to it. Raises LogError (unreadable) or NoSuchEvent."""
    from referee.core.position import position  # (show's alone: validate never loads it)
    from words.events import knocks, sleeping

    from .render import position_view

    match_log = read_file(path)
    events = match_log.events
    if at is not None and at > len(events):
        raise NoSuchEvent(len(events))
    stop = len(events) if at is None else at
    header = match_log.header
    # The record as it stood when event `stop` was recorded: only the voids before it count.
    result = replay(header.rules, header.players, events[:stop])
    return position_view(position(result.match), header.players,
                         side_names(header.rules, header.players),
                         disputes=build_report(result)["violations"], knock=knocks(header.rules),
                         asleep=sleeping(header.rules))
