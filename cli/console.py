"""The terminal the commands print to: rich, with markup off.

Names, reasons and notes come from users; a player called "[/]" or "[bold]Ana" is text, not a
style (with markup on it crashed `domino validate` or restyled the table). Styles are given as
Text objects and styles, never as markup in strings.
"""

from __future__ import annotations

from typing import Any


def terminal(**options: Any) -> Any:
    from rich.console import Console

    return Console(markup=False, **options)
