"""Why the system could not open, read, write or fetch something, in the reader's language.

An ``OSError``'s own text (``strerror``) is the C library's, in English whatever ``--lang``
says; :func:`reason` says it through the catalogs instead. The English msgids are glibc's own
words, so an English reader sees what he saw before ("No such file or directory"), and the
Spanish and Italian readers see theirs. A network failure (a name not resolved, a connection
refused, a certificate not trusted, a server that hung up) is said the same way. What has no
words here is named by its code (``ENOSPC``, ``gaierror``), never by the English sentence.

SQLite's failures (a database locked, a file that is not one, one that cannot be written) are
said the same way, by their result code; PostgreSQL's (psycopg's errors) by
:mod:`words.pgerrors`, which uses these words.

Imports the standard library only, as the rest of :mod:`words`; ``ssl``, ``socket``,
``http.client`` and ``sqlite3`` are looked at only if already loaded (a failed fetch or query
has loaded them, a file that cannot be read has not, and need not).
"""

from __future__ import annotations

import errno
import sys

from . import N_, gettext

# errno's words (glibc's strerror, for the msgid).
ERRNO: dict[int, str] = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.ENAMETOOLONG: N_("File name too long"),
    errno.ELOOP: N_("Too many levels of symbolic links"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EDQUOT: N_("Disk quota exceeded"),
    errno.EROFS: N_("Read-only file system"),
    errno.EIO: N_("Input/output error"),
    errno.ENXIO: N_("No such device or address"),
    errno.ENODEV: N_("No such device"),
    errno.EFBIG: N_("File too large"),
    errno.EEXIST: N_("File exists"),
    errno.EBUSY: N_("Device or resource busy"),
    errno.ETXTBSY: N_("Text file busy"),
    errno.EMFILE: N_("Too many open files"),
    errno.ENFILE: N_("Too many open files in system"),
    errno.ENOMEM: N_("Cannot allocate memory"),
    errno.EINVAL: N_("Invalid argument"),
    errno.ECONNREFUSED: N_("Connection refused"),
    errno.ECONNRESET: N_("Connection reset by peer"),
    errno.ECONNABORTED: N_("Software caused connection abort"),
    errno.EPIPE: N_("Broken pipe"),
    errno.ETIMEDOUT: N_("Connection timed out"),
    errno.ENETUNREACH: N_("Network is unreachable"),
    errno.EHOSTUNREACH: N_("No route to host"),
    errno.EADDRNOTAVAIL: N_("Cannot assign requested address"),
    errno.EADDRINUSE: N_("Address already in use"),  # domino serve's port, taken
}
# SQLite's words (sqlite3_errstr, for the msgid), by primary result code (an extended code's
# low byte: SQLITE_READONLY_DBMOVED is SQLITE_READONLY's).
SQLITE: dict[int, str] = {
    3: N_("access permission denied"),  # SQLITE_PERM
    5: N_("database is locked"),  # SQLITE_BUSY: another connection holds it past the timeout
    6: N_("database table is locked"),  # SQLITE_LOCKED
    8: N_("attempt to write a readonly database"),  # SQLITE_READONLY
    10: N_("disk I/O error"),  # SQLITE_IOERR
    11: N_("database disk image is malformed"),  # SQLITE_CORRUPT
    13: N_("database or disk is full"),  # SQLITE_FULL
    14: N_("unable to open database file"),  # SQLITE_CANTOPEN
    26: N_("file is not a database"),  # SQLITE_NOTADB
}
TIMED_OUT = N_("no answer in time")  # a read that timed out (TimeoutError with no errno)
NO_SUCH_HOST = N_("the host name could not be resolved")
UNTRUSTED = N_("the server's certificate could not be verified")
TLS_FAILED = N_("the secure connection (TLS) failed")
HUNG_UP = N_("the server closed the connection without a whole answer")
NOT_HTTP = N_("the server's answer is not HTTP that can be read")  # a line or headers too long
OTHER = N_("the system's error %(code)s")  # an errno with no words here, or no errno at all


def reason(error: BaseException) -> str:
    """Why ``error`` happened, in the current language: its errno's words, or a network
    failure's; else its code (``errno.errorcode``'s name, or its class's), never its English."""
    ssl = sys.modules.get("ssl")
    if ssl is not None and isinstance(error, ssl.SSLCertVerificationError):
        return gettext(UNTRUSTED)
    if ssl is not None and isinstance(error, ssl.SSLError):  # its errno is the TLS library's
        return gettext(TLS_FAILED)
    socket = sys.modules.get("socket")
    if socket is not None and isinstance(error, socket.gaierror):  # errno: an EAI_ code
        return gettext(NO_SUCH_HOST)
    http = sys.modules.get("http.client")
    if http is not None and isinstance(error, (http.RemoteDisconnected, http.IncompleteRead,
                                               http.BadStatusLine)):
        return gettext(HUNG_UP)
    if http is not None and isinstance(error, http.HTTPException):
        return gettext(NOT_HTTP)
    sqlite3 = sys.modules.get("sqlite3")
    if sqlite3 is not None and isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF in SQLITE:
            return gettext(SQLITE[code & 0xFF])
        return gettext(OTHER, code=getattr(error, "sqlite_errorname", type(error).__name__))
    code = getattr(error, "errno", None)
    if code in ERRNO:
        return gettext(ERRNO[code])
    if isinstance(error, TimeoutError):  # socket.timeout: no errno
        return gettext(TIMED_OUT)
    name = errno.errorcode.get(code, type(error).__name__) if isinstance(code, int) \
        else type(error).__name__
    return gettext(OTHER, code=name)
