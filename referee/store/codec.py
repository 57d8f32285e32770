"""Times and JSON as the store keeps them: timestamps in UTC, client JSON as exact text."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def as_utc(value: dt.datetime) -> dt.datetime:
    """SQLite gives timestamps back without a zone; everything is stored in UTC."""
    if value.tzinfo is None:
        return value.replace(tzinfo=dt.timezone.utc)
    return value.astimezone(dt.timezone.utc)


def iso(value: dt.datetime | None) -> str | None:
    return as_utc(value).isoformat() if value is not None else None


def dump_json(value: Any) -> str:
    """The exact text stored for a client's JSON value. Raises ValueError or TypeError for what
    is not JSON (NaN, objects). Control characters, NUL included, are escaped by json itself, so
    the text is safe in a PostgreSQL TEXT column; a lone surrogate (legal in a JSON string, not in
    UTF-8) makes us fall back to ASCII escapes."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    return text


def load_json(text: str) -> Any:
    return json.loads(text)


def canonical_json(value: Any) -> str:
    """One spelling per JSON value, to tell whether two bodies are the same."""
    return json.dumps(value, ensure_ascii=True, allow_nan=False, sort_keys=True,
                      separators=(",", ":"))
