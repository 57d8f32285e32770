"""What the command line's arguments must be before any command reads them (no I/O, no click):
imported by the click-free fast path (cli.entry) and by the click group (cli.main) alike."""

from __future__ import annotations


def utf8(arg: str) -> bool:
    """Whether a command-line argument was UTF-8: none of the lone surrogates Python puts for
    bytes that were not (cli.main refuses those; they were tracebacks where stored or shown)."""
    try:
        arg.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
