"""Listings as a table, JSON or CSV: every listing command takes ``--json`` and ``--csv``
(:mod:`cli.options`) and prints its rows through here."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import click

from words import N_


def output_format(as_json: bool, as_csv: bool) -> str:
    """"json", "csv" or "table"; both flags at once is a usage error."""
    if as_json and as_csv:
        from words import _

        raise click.UsageError(_("give --json or --csv, not both"))
    return "json" if as_json else "csv" if as_csv else "table"


def echo_json(rows: Any) -> None:
    click.echo(json.dumps(rows, ensure_ascii=False))


def echo_csv(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> None:
    """The service's CSV writer, so a command's CSV escapes formula cells as the API's does."""
    from referee.service.csvfile import to_csv

    click.echo(to_csv(rows, columns), nl=False)


def echo_rows(how: str, rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> bool:
    """Print ``rows`` as JSON or CSV when ``how`` asks; False when the caller draws a table."""
    if how == "json":
        echo_json(rows)
    elif how == "csv":
        echo_csv(rows, columns)
    return how != "table"


def all_pages(fetch: Callable[[int, int], tuple[list[Any], int]]) -> list[Any]:
    """Every item of a paged listing: ``fetch(limit, offset)`` gives a page and the total."""
    found: list[Any] = []
    while True:
        page, total = fetch(500, len(found))
        found += page
        if not page or len(found) >= total:
            return found


def page_note(offset: int, shown: int, total: int) -> str | None:
    """"showing 1–50 of 120; --offset 50 for more" when the page is not the whole list."""
    from words import _

    if shown == 0 and offset and total:
        return _("nothing at --offset %(offset)s: there are %(total)s", offset=offset, total=total)
    if shown == total:
        return None
    note = _("showing %(first)s–%(last)s of %(total)s", first=offset + 1, last=offset + shown,
             total=total)
    if offset + shown < total:
        note += _("; --offset %(offset)s for more", offset=offset + shown)
    return note


# ------------------------------------------------------------------ tables that fit the terminal

wide_option = click.option("--wide", is_flag=True,
                           help=N_("Show every column, however wide the lines (default: the "
                                   "columns that fit the terminal, the least needed left out)."))


@dataclass(frozen=True)
class Col:
    """A column of a listing's table. ``drop``: 0 is always shown; the others are left out,
    the highest first, while the table does not fit the terminal. ``wrap``: its cells may wrap
    at spaces (names, lists of names), down to ``least`` characters; every other cell is kept
    on one line, so that a number or a date is never cut."""

    header: str
    right: bool = False
    drop: int = 0
    wrap: bool = False
    least: int = 12


def _frame(widths: Sequence[int]) -> int:
    """The width of a table with these column widths: a space each side of a cell, a border
    between and around (rich's default box)."""
    return sum(widths) + 3 * len(widths) + 1


_AFTER_HYPHEN = re.compile(r"(?<=\w-)(?=\w)")


def _longest_word(cells: Sequence[str], hyphens: bool = False) -> int:
    """The widest word of the cells; with ``hyphens`` a compound ("Fernández-Gutiérrez") is
    two words, "Fernández-" and "Gutiérrez"."""
    from rich.cells import cell_len

    return max((cell_len(part) for c in cells for w in c.split()
                for part in (_AFTER_HYPHEN.split(w) if hyphens else (w,))), default=1)


def _narrowest(column: Col, cells: Sequence[str], hyphens: bool = False) -> int:
    """The least width of a column: its widest cell, or for a wrapped one its longest word
    (never cut) or ``least``, whichever is wider."""
    from rich.cells import cell_len

    natural = max(cell_len(c) for c in cells)
    if not column.wrap:
        return natural
    return max(_longest_word(cells, hyphens), min(natural, column.least))


def _word_widths(columns: Sequence[Col], rows: Sequence[Sequence[str]], shown: Sequence[int],
                 width: int) -> tuple[dict[int, int], bool]:
    """The least width of each wrapped column shown, so that no word is cut: its longest word,
    else (when that leaves the table too wide) its longest part of a compound, the cells then
    broken after their hyphens (True). Empty when even that does not fit (a word wider than
    the terminal): rich then folds it."""
    for hyphens in (False, True):
        least = {j: _narrowest(columns[j], [columns[j].header, *(r[j] for r in rows)], hyphens)
                 for j in shown}
        if _frame(list(least.values())) <= width:
            return {j: least[j] for j in shown if columns[j].wrap}, hyphens
    return {}, False


def fit_columns(columns: Sequence[Col], rows: Sequence[Sequence[str]], width: int) -> list[int]:
    """The indices of the columns shown in ``width`` characters: every column, less those
    with the highest ``drop`` first until the narrowest table (wrapped columns at their
    ``least``, never below their longest word) fits. Always the columns with ``drop`` 0."""
    least = {i: _narrowest(c, [c.header, *(row[i] for row in rows)]) for i, c in enumerate(columns)}
    shown = list(range(len(columns)))
    droppable = sorted((i for i, c in enumerate(columns) if c.drop),
                       key=lambda i: (-columns[i].drop, -i))
    for index in droppable:
        if _frame([least[i] for i in shown]) <= width:
            break
        shown.remove(index)
    return shown


def print_table(title: str, columns: Sequence[Col], rows: Sequence[Sequence[str]], *,
                wide: bool = False, caption: str | None = None) -> None:
    """A listing's table on standard output, in the terminal's width (COLUMNS, else the
    terminal's, else 80): the columns that fit, wrapped names; the columns left out are named
    once on standard error, with --wide to see them. ``wide``: every column, lines as long as
    they need."""
    from rich.cells import cell_len
    from rich.table import Table

    from words import _

    from .console import terminal

    console = terminal()
    if wide:
        natural = [max(cell_len(c) for c in (col.header, *(r[i] for r in rows)))
                   for i, col in enumerate(columns)]
        shown = list(range(len(columns)))
        console = terminal(width=max(_frame(natural), cell_len(title), console.width))
    else:
        shown = fit_columns(columns, rows, console.width)
    # A wrapped column is never narrower than its longest word, so a name wraps at its spaces
    # and never mid-word ("Fernández-Gutié" / "rrez"); where the columns that must stay leave
    # no room for that, a compound name breaks after its hyphen ("Fernández-" / "Gutiérrez").
    least, hyphens = _word_widths(columns, rows, shown, console.width) if not wide else ({}, False)
    table = Table(title=title, title_justify="left", caption=caption, caption_justify="left")
    for i in shown:
        column = columns[i]
        table.add_column(column.header, justify="right" if column.right else "left",
                         no_wrap=not column.wrap, overflow="fold" if column.wrap else "ellipsis",
                         min_width=least.get(i))
    for row in rows:
        table.add_row(*(_AFTER_HYPHEN.sub("\n", row[i]) if hyphens and columns[i].wrap
                        else row[i] for i in shown))
    console.print(table)
    left_out = [columns[i].header for i in range(len(columns)) if i not in shown]
    if left_out:
        click.echo(_("left out to fit %(width)s columns: %(columns)s (--wide shows them)",
                     width=console.width, columns=", ".join(left_out)), err=True)
