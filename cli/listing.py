"""Listings as a table, JSON or CSV: every listing command takes ``--json`` and ``--csv``
(:mod:`cli.options`) and prints its rows through here."""

from __future__ import annotations

import csv
import io
import json
from typing import Any, Sequence

import click


def output_format(as_json: bool, as_csv: bool) -> str:
    """"json", "csv" or "table"; both flags at once is a usage error."""
    if as_json and as_csv:
        raise click.UsageError("give --json or --csv, not both")
    return "json" if as_json else "csv" if as_csv else "table"


def echo_json(rows: Any) -> None:
    click.echo(json.dumps(rows, ensure_ascii=False))


def csv_text(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    """RFC 4180, as the service writes standings: a header line, one row a line, CRLF."""
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, extrasaction="ignore", lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def echo_csv(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> None:
    click.echo(csv_text(rows, columns), nl=False)


def page_note(offset: int, shown: int, total: int) -> str | None:
    """"showing 1–50 of 120; --offset 50 for more" when the page is not the whole list."""
    if shown == 0 and offset and total:
        return f"nothing at --offset {offset}: there are {total}"
    if shown == total:
        return None
    note = f"showing {offset + 1}–{offset + shown} of {total}"
    return note + (f"; --offset {offset + shown} for more" if offset + shown < total else "")
