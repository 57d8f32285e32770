"""The terminal the commands print to: rich, with markup and emoji codes off.

Names, reasons and notes come from users; a player called "[/]" or "[bold]Ana" is text, not a
style (with markup on it crashed `domino validate` or restyled the table), and one called
":smile:" is those seven characters, not an emoji (which also spared a command rich's table of
emoji codes). Styles are given as Text objects and styles, never as markup in strings.
"""

from __future__ import annotations

from typing import Any


def terminal(**options: Any) -> Any:
    from rich.console import Console

    return Console(markup=False, emoji=False, **options)
