"""Why PostgreSQL failed (a psycopg error), in the reader's language.

psycopg's errors carry libpq's words and the server's, in English (or in the server's
``lc_messages``), whatever ``--lang`` says. A statement's error carries its SQLSTATE, said here
by its code. A failed connection carries none (libpq has no result to take it from): only the
text, ``connection to server at "HOST", port PORT failed: WHY`` (one such line a host or
address tried), whose WHY is one of the few sentences libpq and the server say then; those are
recognised by their words. What has no words here is named by its code (the SQLSTATE, or
psycopg's class), never by the English sentence, as :mod:`words.oserrors` does.

Imports the standard library only, and never psycopg: it is handed the error.
"""

from __future__ import annotations

import errno
import re

from . import N_, gettext
from .oserrors import ERRNO, NO_SUCH_HOST, TIMED_OUT, TLS_FAILED

SHUTTING_DOWN = N_("the database server is shutting down")
STARTING = N_("the database server is starting up or shutting down")
TOO_MANY = N_("the database server has too many connections already")
NO_DATABASE = N_("database %(name)s does not exist")
NO_ROLE = N_("role %(name)s does not exist")
BAD_PASSWORD = N_("password authentication failed for user %(name)s")
NO_PASSWORD = N_("the database server asks for a password and none was given")
NOT_LET_IN = N_("the database server's pg_hba.conf lets no such connection in")
PERMISSION = ERRNO[errno.EACCES]
CLOSED = N_("the connection to the database is closed")
UNRESOLVED = N_("the host name %(name)s could not be resolved")
HUNG_UP_DATABASE = N_("the database server closed the connection unexpectedly")
# A statement's error by its SQLSTATE (PostgreSQL's appendix A), or by its class (the first two
# characters) where the class says enough.
SQLSTATE: dict[str, str] = {
    "57P01": SHUTTING_DOWN,  # admin_shutdown: terminating connection due to administrator command
    "57P02": SHUTTING_DOWN,  # crash_shutdown
    "57P03": STARTING,  # cannot_connect_now
    "53300": TOO_MANY,  # too_many_connections
    "53100": N_("the database server's disk is full"),  # disk_full
    "53200": N_("the database server is out of memory"),  # out_of_memory
    "57014": N_("the statement took too long and was cancelled"),  # query_canceled
    "55P03": N_("a lock was not granted in time"),  # lock_not_available
    "40P01": N_("a deadlock was detected"),  # deadlock_detected
    "40001": N_("a change made at the same time conflicted with this one"),  # serialization
    "25006": N_("the database is read-only"),  # read_only_sql_transaction (a standby)
    "28P01": N_("password authentication failed"),  # invalid_password
    "28000": NOT_LET_IN,  # invalid_authorization_specification
    "3D000": N_("the database does not exist"),  # invalid_catalog_name
    "42501": PERMISSION,  # insufficient_privilege
}
SQLSTATE_CLASS: dict[str, str] = {
    "08": N_("the connection to the database failed"),  # connection_exception
}
# libpq's, the server's and psycopg's own English at a failed or lost connection, first match
# wins; a group "name" is the database, role or user the sentence names.
PHRASES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(pattern), msgid) for pattern, msgid in (
    (r'database "(?P<name>[^"]*)" does not exist', NO_DATABASE),
    (r'role "(?P<name>[^"]*)" does not exist', NO_ROLE),
    (r'password authentication failed for user "(?P<name>[^"]*)"', BAD_PASSWORD),
    (r"no password supplied", NO_PASSWORD),
    (r"no pg_hba\.conf entry", NOT_LET_IN),
    (r"permission denied for database", PERMISSION),
    (r"the database system is shutting down|terminating connection due to administrator",
     SHUTTING_DOWN),
    (r"the database system is (starting up|in recovery mode|not yet accepting connections)",
     STARTING),
    (r"too many clients already|remaining connection slots are reserved", TOO_MANY),
    (r"Connection refused", ERRNO[errno.ECONNREFUSED]),
    (r"Connection reset by peer", ERRNO[errno.ECONNRESET]),
    (r"Connection timed out", ERRNO[errno.ETIMEDOUT]),
    (r"Network is unreachable", ERRNO[errno.ENETUNREACH]),
    (r"No route to host", ERRNO[errno.EHOSTUNREACH]),
    (r"No such file or directory", ERRNO[errno.ENOENT]),  # a socket not there
    (r"timeout expired", TIMED_OUT),
    (r"could not translate host name \"(?P<name>[^\"]*)\"|failed to resolve host '(?P<host>[^']*)'",
     UNRESOLVED),
    (r"could not translate host name|failed to resolve host", NO_SUCH_HOST),
    (r"server closed the connection unexpectedly|the connection is lost", HUNG_UP_DATABASE),
    (r"the connection is closed", CLOSED),
    (r"SSL", TLS_FAILED),
))
# libpq's words for the server it tried: the last one tried is the one said.
SERVER = re.compile(r'connection to server (?:at "(?P<host>[^"]*)"(?: \([^)]*\))?, '
                    r'port (?P<port>\d+)|on socket "(?P<socket>[^"]*)") failed: ')
AT_HOST = N_("the database server %(host)s, port %(port)s: %(why)s")
ON_SOCKET = N_("the database server on socket %(socket)s: %(why)s")
OTHER = N_("PostgreSQL's error %(code)s")


def reason(error: BaseException) -> str:
    """Why PostgreSQL failed, in the current language: for a failed connection, which server
    and why; else the SQLSTATE's words; else its code, never libpq's English."""
    text = str(error)
    servers = list(SERVER.finditer(text))
    if servers:
        last = servers[-1]
        why = _why(error, text[last.end():].split("\n", 1)[0])
        if last["socket"] is not None:
            return gettext(ON_SOCKET, socket=last["socket"], why=why)
        return gettext(AT_HOST, host=last["host"], port=last["port"], why=why)
    return _why(error, text)


def _why(error: BaseException, text: str) -> str:
    state = getattr(error, "sqlstate", None)
    if isinstance(state, str):
        msgid = SQLSTATE.get(state) or SQLSTATE_CLASS.get(state[:2])
        return gettext(msgid) if msgid else gettext(OTHER, code=state)
    for pattern, msgid in PHRASES:
        if found := pattern.search(text):
            names = {key: value for key, value in found.groupdict().items() if value is not None}
            return gettext(msgid, name=names.get("name", names.get("host"))) if names \
                else gettext(msgid)
    return gettext(OTHER, code=type(error).__name__)
