"""The errors the service reports to its callers (:mod:`referee.service` re-exports each).

``DatabaseError`` is SQLAlchemy's base error under the name callers use: the database itself
failed (unreachable, or a schema that needs an upgrade), not the request.
:func:`database_unavailable` tells the database being out of reach for now (retry later) from
the rest (a bug, or a schema to upgrade); :func:`database_damaged` tells stored data that is
damaged (a corrupted file) from the rest; :func:`schema_behind` tells a schema behind the
code's (a read replica that has not replayed a migration yet) from the rest.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import exc as _sa
from sqlalchemy.exc import SQLAlchemyError as DatabaseError  # noqa: F401 (re-exported)

from ..core.said import said

# PostgreSQL's read_only_sql_transaction (25006): a write reached a server that takes none just
# now (a standby, the old primary of a failover not yet moved; default_transaction_read_only
# set while the disk is freed). psycopg files it under InternalError, not OperationalError, yet
# it is the database's state, not the request's nor the code's: SQLite's own (a file read-only)
# is an OperationalError.
_UNAVAILABLE_SQLSTATES = frozenset({"25006"})


def database_unavailable(error: BaseException) -> bool:
    """Whether a database error says the database cannot serve just now (down, restarting, a
    dropped connection, a full pool, a statement or lock timeout, read-only for now), so that a
    retry later may succeed: OperationalError and InterfaceError are the DBAPI's words for
    that."""
    return (isinstance(error, (_sa.OperationalError, _sa.InterfaceError, _sa.TimeoutError,
                               _sa.DisconnectionError))
            or (isinstance(error, _sa.DBAPIError) and (
                error.connection_invalidated
                or getattr(error.orig, "sqlstate", None) in _UNAVAILABLE_SQLSTATES)))


# A database whose stored data is damaged: SQLite's SQLITE_CORRUPT (11: "database disk image is
# malformed") and SQLITE_NOTADB (26: the file is no longer a database), PostgreSQL's
# data_corrupted (XX001) and index_corrupted (XX002). No retry mends it and no request caused it:
# the operator restores or repairs the database.
_DAMAGED_SQLITE = frozenset({11, 26})
_DAMAGED_SQLSTATES = frozenset({"XX001", "XX002"})


def database_damaged(error: BaseException) -> bool:
    """Whether a database error says the stored data itself is damaged (a corrupted SQLite
    file, a corrupted PostgreSQL page or index): not the request, not the code, not for now."""
    if not isinstance(error, _sa.DBAPIError):
        return False
    code = getattr(error.orig, "sqlite_errorcode", None)  # sqlite3's; psycopg's is sqlstate
    if isinstance(code, int):
        return code & 0xFF in _DAMAGED_SQLITE
    return getattr(error.orig, "sqlstate", None) in _DAMAGED_SQLSTATES


# What a statement meets on a database whose schema is behind the code's (a read replica that has
# not yet replayed a migration the code already reads): a table, column, function or type it
# names does not exist there. PostgreSQL's SQLSTATEs undefined_table (42P01), undefined_column
# (42703), undefined_function (42883) and undefined_object (42704: a type); not the rest of
# class 42 (a syntax error, a missing privilege), which is the code's or the replica's
# configuration and would fail the same way tomorrow. (42883 is also an operator the types do not
# have: the code's mistake, which the primary refuses in turn, so it still fails.) SQLite has no SQLSTATE, only its words
# (its SQLITE_ERROR is any error): "no such table: ...", "no such column: ...", "no such
# function: ...".
_SCHEMA_BEHIND_SQLSTATES = frozenset({"42P01", "42703", "42883", "42704"})
_SCHEMA_BEHIND_SQLITE = ("no such table:", "no such column:", "no such function:")


def schema_behind(error: BaseException) -> bool:
    """Whether a database error says a statement named a table, column, function or type the
    database does not have: on a replica, a migration the primary has and it has not replayed
    yet (on the primary itself it is an unmigrated database, not this)."""
    if not isinstance(error, _sa.DBAPIError):
        return False
    orig = error.orig
    state = getattr(orig, "sqlstate", None)  # psycopg 3's; the DBAPI has no common name for it
    if state is not None:
        return state in _SCHEMA_BEHIND_SQLSTATES
    return str(orig).startswith(_SCHEMA_BEHIND_SQLITE)


class Phrase(str):
    """Words for people inside an error's sentence ("club name" in "club name: must be
    non-empty text"), translated with it at the edge. Mark it where it is written:
    ``Phrase(N_("club name"))`` is extracted into the catalogs."""

    translatable = True


def N_(msgid: str) -> str:
    """Marks ``msgid`` for the catalogs (babel.cfg); the edge translates it."""
    return msgid


class Sentence:
    """An error said in a sentence for people: ``message``, in English, is made from ``msgid``
    (an English sentence with ``%(name)s`` placeholders, extracted into the catalogs from the
    raise) and ``params``, so that an edge says it in its caller's language
    (``words.message``, docs/i18n.md); a :class:`Phrase` among the params is translated too.
    The service itself knows no language."""

    def __init__(self, message: str, **params: Any) -> None:
        # an OSError among the params (why a file failed) is its strerror in English, as the
        # C library says it; words.message says it in the caller's language
        text = message % {key: value.strerror or value if isinstance(value, OSError) else value
                          for key, value in params.items()} if params else message
        super().__init__(text)
        self.message = text
        self.msgid = message
        self.params = params


class ServiceError(Sentence, Exception):
    """Base of every error the service reports to its callers (a :class:`Sentence`)."""


class NotFound(ServiceError):
    """An unknown club, player, match or token (HTTP 404)."""


class Invalid(ServiceError):
    """A malformed request: bad rules, players or log; ``line`` is set for logs (HTTP 422)."""

    def __init__(self, message: str, line: int | None = None, **params: Any) -> None:
        super().__init__(message, **params)
        self.line = line


class IllegalEvent(ServiceError):
    """An event the referee refuses; ``violation`` is the :class:`referee.Violation` (HTTP 422)."""

    def __init__(self, violation: Any, message: str | None = None, **params: Any) -> None:
        if message is None:  # the violation's message: the core's sentence, said at the edge
            super().__init__(N_("event %(seq)s: %(code)s: %(why)s"), seq=violation.seq,
                             code=violation.code, why=violation.message)
        else:
            super().__init__(message, **params)
        self.violation = violation


class Conflict(ServiceError):
    """The expected sequence number is not the last one; ``current_seq`` is (HTTP 412)."""

    def __init__(self, current_seq: int | None, expected_seq: int | None = None) -> None:
        if current_seq is None:
            super().__init__(N_("conflict: another event was recorded first; read the match "
                                "again and retry"))
        else:
            super().__init__(N_("conflict: the last event is %(current)s, not %(expected)s; "
                                "read the match again and retry"), current=current_seq,
                             expected=expected_seq)
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
        if limit == "events":
            super().__init__(N_("a match may hold at most %(maximum)s events (%(setting)s); "
                                "this one would hold %(would_be)s; nothing was stored"), maximum=maximum,
                             setting=setting, would_be=would_be)
        else:
            super().__init__(N_("a match may hold at most %(maximum)s bytes of events "
                                "(%(setting)s); this one would hold %(would_be)s; nothing was "
                                "stored"), maximum=maximum, setting=setting, would_be=would_be)
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
        lines = [what if seq is None else said("event %(seq)s: %(what)s", seq=seq, what=what)
                 for seq, what in problems]
        # the problems in a list said in the reader's language, each one by itself
        template = "; ".join("%%(p%d)s" % n for n in range(len(lines)))
        listed = said(template, **{"p%d" % n: line for n, line in enumerate(lines)})
        super().__init__(N_("match %(match)s's record fails its chain check, so nothing is "
                            "signed from it (%(problems)s); domino db audit lists every problem"),
                         match=match_id, problems=listed)
        self.match_id = match_id
        self.problems = problems


class RowForged(RecordBroken):
    """A row a result depends on fails its MAC (changed, inserted or removed behind the
    service's back: docs/verify.md), or carries none (written before the MACs, not sealed yet):
    nothing is read or signed from it (HTTP 409). ``problems``: (table, seq or None, what)."""

    def __init__(self, what: str, problems: list[tuple[str, int | None, str]], **params: Any
                 ) -> None:
        lines = [said("%(table)s: %(what)s", table=table, what=problem) if seq is None
                 else said("%(table)s, event %(seq)s: %(what)s", table=table, seq=seq,
                           what=problem) for table, seq, problem in problems[:3]]
        if len(problems) > 3:
            lines.append(said("%(more)s more", more=len(problems) - 3))
        template = "; ".join("%%(p%d)s" % n for n in range(len(lines)))
        listed = said(template, **{"p%d" % n: line for n, line in enumerate(lines)})
        super().__init__(N_("%(what)s fails its check against the server's row key (%(problems)s), "
                            "so nothing is read or signed from it; domino db audit names every "
                            "such row"), what=said(what, **params), problems=listed)
        self.problems = problems


class ActaPending(ServiceError):
    """A finished match whose acta cannot be signed yet: its club has no signing key here, or
    the key cannot be read (HTTP 409). ``reason`` says which file and what to do: for the
    operator (the server's log, the CLI), not for an HTTP client."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class RowKeyError(Sentence, RuntimeError):
    """The server's row key cannot be used: its file is missing while rows carry MACs, is
    readable by others, or is not a key (``referee.service.rowkey``). The server's setup is
    wrong, not the request."""


class SigningKeyError(Sentence, RuntimeError):
    """A signing key that cannot be used: its file is missing, unreadable, readable by others
    or not the key; or the club has none (:class:`NoSigningKey`). The server's setup is wrong,
    not a request: ``message`` says which file and what to do (``referee.service.keys``)."""


class NoSigningKey(SigningKeyError):
    """The club has no key that signs now."""
