"""CSV as the product writes it (RFC 4180: a header line, one row a line, CRLF), safe to open in
a spreadsheet.

A text cell that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or a carriage return) is a
formula to Excel, LibreOffice and Google Sheets: a player named ``=HYPERLINK(...)`` would run in
the club secretary's spreadsheet. Such cells get a leading single quote, the OWASP recipe for
CSV injection: the spreadsheet shows the text, and the quote tells a reader it was escaped.
Numbers are written as they are (-5 is a number, not a formula); so is everything that is not
text, through ``str``.
"""

from __future__ import annotations

import csv
import io
from typing import Any, Iterable, Mapping, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """``value``, with a single quote before it when it is text a spreadsheet would run."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def to_csv(rows: Iterable[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """``rows`` as CSV, ``columns`` in that order (a missing value is empty, others are left
    out), each cell escaped by :func:`safe_cell`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([safe_cell(column) for column in columns])
    writer.writerows([safe_cell(row.get(column)) for column in columns] for row in rows)
    return out.getvalue()
