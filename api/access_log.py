"""One access log line per request, through :mod:`logging` (logger ``domino.access``).

A line says who asked (the remote address), what (the method and the path: never the query
string, never a header, so never the Authorization header and its token), how it ended (the
status) and how long the app took (ms)::

    127.0.0.1 "POST /api/v1/matches/7/events" 201 3.1ms

Each record also carries those as attributes (``remote_addr``, ``method``, ``path``,
``status``, ``duration_ms``) for a structured handler. The log is on unless ``ACCESS_LOG``
(``DOMINO_ACCESS_LOG``) is off. When nothing is configured to receive it (no handler on the
logger or above it, as under ``domino serve`` and a plain gunicorn), lines go to stderr;
configure ``domino.access`` (a gunicorn ``logconfig_dict``, say) to send them elsewhere.

Behind a proxy the remote address is the proxy's, unless ``TRUSTED_PROXIES``
(``DOMINO_TRUSTED_PROXIES``) says how many proxies to believe about X-Forwarded-For
(werkzeug's ProxyFix).
"""

from __future__ import annotations

import logging
import math
import re
import sys
import time
from typing import Any, Callable, Iterable
from urllib.parse import quote

LOGGER = "domino.access"
FORMAT = "%(asctime)s [access] %(message)s"
_LINE = '%s "%s %s" %s %.1fms'  # remote address, method, path, status, duration
# What may stay as it is in a logged path: RFC 3986 path characters and the percent escapes.
_PATH_SAFE = "/:@!$&'()*+,;=-._~%"

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


# A string of path characters only, which quote() would give back as it is.
_PLAIN = re.compile("[A-Za-z0-9" + re.escape(_PATH_SAFE) + "]*")


def _printable(text: str) -> str:
    """A WSGI string (bytes as latin-1) as it can go in a log line: anything that is not a path
    character percent-encoded, so no space, quote or newline can forge a line. A string with
    nothing to encode (an address, a method, the app's paths) is itself, without quote()'s
    encoding to bytes and back."""
    if _PLAIN.fullmatch(text):
        return text
    return quote(text.encode("latin-1", "replace"), safe=_PATH_SAFE)


class AccessLog:
    """WSGI middleware writing one line per request to the ``domino.access`` logger."""

    def __init__(self, app: WSGIApp, logger: logging.Logger | None = None) -> None:
        self.app = app
        self.logger = logger or logging.getLogger(LOGGER)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        began = time.perf_counter()
        status: list[str] = []

        def start(status_line: str, headers: Any, exc_info: Any = None) -> Any:
            status[:] = [status_line]
            return start_response(status_line, headers, exc_info)

        try:
            return self.app(environ, start)
        finally:
            self._log(environ, status[0].split(" ", 1)[0] if status else "-",
                      (time.perf_counter() - began) * 1000)

    def _log(self, environ: dict[str, Any], status: str, duration_ms: float) -> None:
        if not self.logger.isEnabledFor(logging.INFO):
            return
        fields = {
            "remote_addr": _printable(environ.get("REMOTE_ADDR") or "-"),
            "method": _printable(environ.get("REQUEST_METHOD") or "-"),
            "path": _printable(environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")),
            "status": status,
            "duration_ms": round(duration_ms, 1),
        }
        # The record logger.info would make: its place (file, line, function) is this frame,
        # which info() finds by walking the stack and its files' names (findCaller).
        here = sys._getframe()
        record = self.logger.makeRecord(
            self.logger.name, logging.INFO, here.f_code.co_filename, here.f_lineno, _LINE,
            (fields["remote_addr"], fields["method"], fields["path"], status, duration_ms),
            None, here.f_code.co_name, fields)
        self.logger.handle(record)


class _LineFormatter(logging.Formatter):
    """logging's Formatter, the date and time of a second written once: a line a request, and
    ``time.localtime`` and ``strftime`` for each were some 6 % of writing one (callgrind)."""

    _second: tuple[int | None, str] = (None, "")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        if datefmt is not None or self.default_msec_format is None:
            return super().formatTime(record, datefmt)
        second, text = self._second
        # logging's date is localtime(created): created to the second, rounded down
        if math.floor(record.created) != second:
            second = math.floor(record.created)
            text = time.strftime(self.default_time_format, self.converter(record.created))
            self._second = second, text  # one tuple: another thread sees the old or the new
        return self.default_msec_format % (text, record.msecs)


def enable(logger_name: str = LOGGER) -> logging.Logger:
    """The access logger at INFO, with a stderr handler when nothing would receive its lines."""
    logger = logging.getLogger(logger_name)
    if logger.level == logging.NOTSET:
        logger.setLevel(logging.INFO)
    if not logger.hasHandlers():
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(_LineFormatter(FORMAT))
        logger.addHandler(handler)
        # Its own line, once: a root handler set up later (waitress does) must not repeat it.
        logger.propagate = False
    return logger
