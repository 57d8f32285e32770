"""The ``domino`` console script (``[project.scripts]`` in pyproject.toml): a click-free fast path
for ``domino validate`` and ``domino show LOG``, the commands run over many files and in loops;
everything else goes to the click group (:mod:`cli.main`).

Importing click costs about as much as the whole validation of a log or two (some 40 ms here;
the rules core loads in 5), so these two run without it when their command line is one they
are sure to read as click would read it: only their own options (``--json``, ``--suspicions``;
``--at N`` with N in digits), at least one file, no ``--``, no ``-h``/``--help``, an environment
where click would print exactly what they print (POSIX, a UTF-8 stdout, no shell-completion
request). Any other command line goes to click, which answers it: help, usage errors, an
unknown option. ``show`` also hands over to click before printing anything when it meets what
click reports (a log it cannot read, an ``--at`` past the last event; a match id, which needs
the database), so every error reads as click's. The work itself is :mod:`cli.logfiles`, the
same code the click commands call; the output and the exceptions are handled here as click's
standalone ``main`` handles them. tests/cli/test_cli_entry.py runs the same command lines both
ways and compares output and exit status.
"""

from __future__ import annotations

import os
import sys
from typing import Callable, NoReturn

from .argv import utf8


def main() -> NoReturn:
    from .collector import hold

    hold()  # fewer young collections: a command's start is mostly imports (cli.collector)
    args = sys.argv[1:]
    if args and args[0] in ("validate", "show") and _plain_environment() and not _catalog_readable():
        args = []  # click says which catalog cannot be read (cli.main's --lang)
    if args and _plain_environment() and all(map(utf8, args)):  # else click refuses it
        if args[0] == "validate":
            _validate(args[1:])
        elif args[0] == "show":
            _show(args[1:])
    from .main import main as group  # the fast path declined: click answers

    group()
    raise SystemExit(0)  # click's standalone main exits itself; this is for the type checker


def _catalog_readable() -> bool:
    """Whether the locale environment's catalog can be read (the output's words)."""
    import words

    try:
        words.check_catalogs([words.current()])
    except words.CatalogError:
        return False
    return True


def _plain_environment() -> bool:
    """Where click's echo writes a str as it is (bar ANSI codes off a terminal) and reads no
    environment of its own: POSIX (no Windows console streams, no argument globbing), a UTF-8
    stdout (click re-wraps an ASCII one), no shell-completion request (``_DOMINO_COMPLETE``)."""
    if os.name == "nt" or sys.stdout is None:
        return False
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    if encoding != "utf8":
        return False
    return not any(key.startswith("_") and key.endswith("_COMPLETE") and value
                   for key, value in os.environ.items())


def _validate(args: list[str]) -> None:
    """``domino validate [--json] [--suspicions] LOG...``, or return to let click answer."""
    flags = {"--json": False, "--suspicions": False}
    paths = []
    for arg in args:
        if arg in flags:
            flags[arg] = True
        elif arg.startswith("-") and arg != "-":  # --help, --, an option click would refuse
            return
        else:
            paths.append(arg)
    if not paths:  # click's "Missing argument"
        return

    def work() -> int:
        from .logfiles import validate_logs

        return validate_logs(paths, as_json=flags["--json"], list_suspicions=flags["--suspicions"],
                             echo=echo, echo_problem=lambda line: echo(f"\x1b[31m{line}\x1b[0m"))

    _standalone(work)


def _show(args: list[str]) -> None:
    """``domino show [--at N] LOG`` on a log file, or return to let click answer."""
    log: str | None = None
    value: str | None = None
    rest = iter(args)
    for arg in rest:
        if arg == "--at" or arg.startswith("--at="):
            if value is not None:  # given twice: click's to settle
                return
            value = arg[5:] if arg.startswith("--at=") else next(rest, None)
            # digits only, as int() reads them without a sign, spaces or _ (and few enough for
            # int(): a larger one is past any log's end, and click then says so)
            if value is None or not (value.isascii() and value.isdigit() and len(value) <= 10):
                return
        elif arg.startswith("-") or log is not None:  # -h, stdin, an extra argument
            return
        else:
            log = arg
    if log is None:
        return
    at = int(value) if value is not None else None

    def work() -> int | None:
        from .logfiles import LogError, NoSuchEvent, file_view, named_file

        if not named_file(log):  # a match id (the database), or neither: click's
            return None

        try:
            view = file_view(log, at)
        except (LogError, NoSuchEvent):  # click reports it, as click does
            return None
        from .console import terminal

        terminal().print(view)
        return 0

    _standalone(work)


def echo(text: str) -> None:
    """What ``click.echo(text)`` does on POSIX with a UTF-8 stdout: the text and a newline,
    ANSI codes taken out unless stdout is a terminal, flushed at once."""
    out = sys.stdout
    if out is None:
        return
    line = text + "\n"
    if "\x1b" in line and not _isatty(out):
        import re

        line = re.sub(r"\033\[[;?0-9]*[a-zA-Z]", "", line)  # click's strip_ansi
    out.write(line)
    out.flush()


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except Exception:
        return False


def _standalone(work: Callable[[], int | None]) -> None:
    """Run ``work`` and exit with its status, handling what click's standalone ``main`` handles
    as it does (Ctrl-C or EOF: "Aborted!", status 1; a closed pipe: quietly, status 1). A work
    that returns None declined before printing anything: return, and click answers."""
    try:
        try:
            status = work()
            if status is None:
                return
        except (EOFError, KeyboardInterrupt):
            _echo_err("")  # closes the terminal's ^C echo
            _echo_err("Aborted!")
            status = 1
        except OSError as error:
            import errno

            if error.errno != errno.EPIPE:
                raise
            sys.stdout = _PacifyFlush(sys.stdout)  # type: ignore[assignment]
            sys.stderr = _PacifyFlush(sys.stderr)  # type: ignore[assignment]
            status = 1
        from .collector import leave

        leave()  # the exit's own collections skipped (cli.collector)
        sys.exit(status)
    except (EOFError, KeyboardInterrupt):  # interrupted while saying so: the status still wins
        sys.exit(1)


def _echo_err(text: str) -> None:
    if sys.stderr is not None:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()


class _PacifyFlush:
    """click's wrapper for a closed pipe: the interpreter's last flush at exit is silent."""

    def __init__(self, wrapped: object) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()  # type: ignore[attr-defined]
        except OSError as error:
            import errno

            if error.errno != errno.EPIPE:
                raise

    def __getattr__(self, attr: str) -> object:
        return getattr(self.wrapped, attr)
