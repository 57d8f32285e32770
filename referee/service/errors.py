"""The errors the service reports to its callers (:mod:`referee.service` re-exports each).

``DatabaseError`` is SQLAlchemy's base error under the name callers use: the database itself
failed (unreachable, or a schema that needs an upgrade), not the request.
:func:`database_unavailable` tells the database being out of reach for now (retry later) from
the rest (a bug, or a schema to upgrade).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import exc as _sa
from sqlalchemy.exc import SQLAlchemyError as DatabaseError  # noqa: F401 (re-exported)


def database_unavailable(error: BaseException) -> bool:
    """Whether a database error says the database cannot serve just now (down, restarting, a
    dropped connection, a full pool, a statement or lock timeout), so that a retry later may
    succeed: OperationalError and InterfaceError are the DBAPI's words for that."""
    return (isinstance(error, (_sa.OperationalError, _sa.InterfaceError, _sa.TimeoutError,
                               _sa.DisconnectionError))
            or (isinstance(error, _sa.DBAPIError) and error.connection_invalidated))


class ServiceError(Exception):
    """Base of every error the service reports to its callers; ``message`` is for people."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(ServiceError):
    """An unknown club, player, match or token (HTTP 404)."""


class Invalid(ServiceError):
    """A malformed request: bad rules, players or log; ``line`` is set for logs (HTTP 422)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class IllegalEvent(ServiceError):
    """An event the referee refuses; ``violation`` is the :class:`referee.Violation` (HTTP 422)."""

    def __init__(self, violation: Any, message: str | None = None) -> None:
        super().__init__(message or f"event {violation.seq}: {violation.code}: {violation.message}")
        self.violation = violation


class Conflict(ServiceError):
    """The expected sequence number is not the last one; ``current_seq`` is (HTTP 412)."""

    def __init__(self, current_seq: int | None, expected_seq: int | None = None) -> None:
        if current_seq is None:
            text = "another event was recorded first"
        else:
            text = f"the last event is {current_seq}, not {expected_seq}"
        super().__init__(f"conflict: {text}; read the match again and retry")
        self.current_seq = current_seq
        self.expected_seq = expected_seq


class IdempotencyMismatch(ServiceError):
    """A client event id reused with a different body (HTTP 422)."""


class Duplicate(ServiceError):
    """A club slug or player name that exists already (HTTP 409)."""


class NotFinished(ServiceError):
    """What only a finished match has (its signed acta) asked of one still in play (HTTP 409)."""


class Unauthorized(ServiceError):
    """No valid token (HTTP 401)."""


class Forbidden(ServiceError):
    """A valid token of another club or of a role that may not do this (HTTP 403)."""


class TooLarge(ServiceError):
    """A write that would take a match past its limits (HTTP 413): ``limit`` says which
    ("events" or "bytes of events"), ``maximum`` how many, and the setting that raises it.
    Nothing was stored."""

    SETTINGS = {"events": "DOMINO_MAX_MATCH_EVENTS", "bytes of events": "DOMINO_MAX_MATCH_BYTES"}

    def __init__(self, limit: str, maximum: int, would_be: int) -> None:
        setting = self.SETTINGS.get(limit, "")
        super().__init__(f"a match may hold at most {maximum} {limit} ({setting}); "
                         f"this one would hold {would_be}; nothing was stored")
        self.limit = limit
        self.maximum = maximum
        self.would_be = would_be


class RecordBroken(ServiceError):
    """What is stored fails its own check, a match's chain or a club's tree: nothing is signed
    from it (HTTP 409); ``domino db audit`` lists every problem."""


class TreeBroken(RecordBroken):
    """A club's stored tree disagrees with itself (its leaves and its last head)."""


class ChainBroken(RecordBroken):
    """A match's stored record fails its own check: a digest that does not follow, an event
    missing, a header that does not name the match's club (docs/verify.md). Nothing is signed
    from it (HTTP 409). ``problems``: (seq or None, what) each."""

    def __init__(self, match_id: int, problems: list[tuple[int | None, str]]) -> None:
        lines = "; ".join(f"event {seq}: {what}" if seq is not None else what
                          for seq, what in problems)
        super().__init__(f"match {match_id}'s record fails its chain check, so nothing is "
                         f"signed from it ({lines}); domino db audit lists every problem")
        self.match_id = match_id
        self.problems = problems


class ActaPending(ServiceError):
    """A finished match whose acta cannot be signed yet: its club has no signing key here, or
    the key cannot be read (HTTP 409). ``reason`` says which file and what to do: for the
    operator (the server's log, the CLI), not for an HTTP client."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class SigningKeyError(RuntimeError):
    """A signing key that cannot be used: its file is missing, unreadable, readable by others
    or not the key; or the club has none (:class:`NoSigningKey`). The server's setup is wrong,
    not a request: ``message`` says which file and what to do (``referee.service.keys``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NoSigningKey(SigningKeyError):
    """The club has no key that signs now."""
