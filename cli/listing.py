"""Listings as a table, JSON or CSV: every listing command takes ``--json`` and ``--csv``
(:mod:`cli.options`) and prints its rows through here."""

from __future__ import annotations

import json
from typing import Any, Callable, Sequence

import click


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
