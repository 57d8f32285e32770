"""The terminal the commands print to: rich, with markup and emoji codes off.

Names, reasons and notes come from users; a player called "[/]" or "[bold]Ana" is text, not a
style (with markup on it crashed `domino validate` or restyled the table), and one called
":smile:" is those seven characters, not an emoji (which also spared a command rich's table of
emoji codes). Styles are given as Text objects and styles, never as markup in strings.

A log's text may hold what its output cannot: JSON's ``"\\ud800"`` is a lone surrogate, legal
in a log (docs/log.md keeps it, and writes it back escaped), never in UTF-8. A player called so
made `domino validate` and `domino show` a UnicodeEncodeError traceback as rich wrote the
report; such a character is written as its escape (``\\ud800``), as the log writes it.
"""

from __future__ import annotations

import sys
from typing import Any


class _Escaping:
    """``stream`` (the standard output), but a text it cannot encode is written with those
    characters as backslash escapes rather than raising."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)  # a text stream encodes it whole before writing any
        except UnicodeEncodeError:
            encoding = getattr(self.stream, "encoding", None) or "utf-8"
            return self.stream.write(text.encode(encoding, "backslashreplace").decode(encoding))

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding, flush: the stream's
        return getattr(self.stream, name)


def terminal(**options: Any) -> Any:
    from rich.console import Console

    if options.get("file") is None and sys.stdout is not None:
        options["file"] = _Escaping(sys.stdout)
    return Console(markup=False, emoji=False, **options)
