"""The server's row key: the secret every row a result depends on is MAC'd under
(``referee.core.macs``, ``referee.store.macs``; docs/verify.md, "Who can forge what").

**Where it lives.** Beside the clubs' private keys, never in the database: ``row-mac.key`` in the
keys folder (``DOMINO_KEYS_DIR``, else ``domino-keys`` in ``DOMINO_DATA_DIR``), 64 hex digits,
mode 0600. Back it up with the keys: without it no row can be checked, and nothing recorded
can be read.

**Made once, never replaced in silence.** It is made the first time the service needs it on a
database where no row carries a MAC yet (a new database, or one just upgraded past migrations
0020 and 0022). On a database whose rows carry MACs, a missing, unreadable or open file is a
:class:`RowKeyError` saying what to do: a new key would make every row fail.

**The seal.** Rows written before the MACs carry none and are refused until ``domino db seal``
MACs them, once (:mod:`.seal`); ``row-mac.sealed`` beside the key says it was done (made with
the key itself on a database that had nothing to seal).
"""

from __future__ import annotations

import os
import secrets
import stat
import threading
from pathlib import Path
from typing import Callable

from sqlalchemy import Connection

from ..core.macs import KEY_BYTES, RowKey, fingerprint
from ..store.macs import any_mac, holds_anything
from .errors import N_, RowKeyError
from .keyfolder import OTHERS, PRIVATE

ROW_KEY_FILE = "row-mac.key"
SEALED_FILE = "row-mac.sealed"

TEXT = {
    "missing": N_("the row key %(path)s is missing, but rows of the database carry MACs made with "
                  "it: restore the file from your backup of the keys folder (docs/verify.md); a "
                  "new key would make every row fail its check"),
    "open": N_("%(path)s can be read by others (mode %(mode)s): the row key must be readable by "
               "its owner alone: chmod 600 %(path)s"),
    "unreadable": N_("cannot read the row key %(path)s: %(reason)s"),
    "not_a_key": N_("%(path)s is not a row key (64 hex digits): restore it from your backup"),
}


class RowKeys:
    """The row key of the keys folder (``directory()``), read (or made) the first time it is
    asked for and kept for the process: a source for ``referee.store.macs.install``."""

    def __init__(self, directory: Callable[[], Path]) -> None:
        self._directory = directory
        self._key: RowKey | None = None
        self._lock = threading.Lock()

    @property
    def path(self) -> Path:
        return self._directory() / ROW_KEY_FILE

    @property
    def sealed_path(self) -> Path:
        return self._directory() / SEALED_FILE

    def __call__(self, conn: Connection) -> RowKey:
        key = self._key
        if key is None:
            key = self._load(conn)
        return key

    def _load(self, conn: Connection) -> RowKey:
        with self._lock:
            if self._key is not None:
                return self._key
            path = self.path
            if not path.exists():
                if any_mac(conn):
                    raise RowKeyError(TEXT["missing"], path=path)
                self._make(path, fresh=not holds_anything(conn))
            self._key = RowKey(read_secret(path))
            return self._key

    def _make(self, path: Path, *, fresh: bool) -> None:
        """A new key at ``path`` (another process making it at once: its key is kept); on a
        database holding nothing yet, sealed from the start (there is nothing to seal)."""
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
        except FileExistsError:
            return
        except OSError as error:
            raise RowKeyError(TEXT["unreadable"], path=path,
                              reason=error) from None  # an OSError: said at the edge (words.message)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_bytes(KEY_BYTES).hex() + "\n")
        if fresh:
            mark_sealed(self.sealed_path, "made with the key, on a database holding no row")

    def fingerprint(self, conn: Connection) -> str:
        """What names the key in the operator's messages (never the key)."""
        self(conn)
        return fingerprint(read_secret(self.path))


def read_secret(path: Path) -> bytes:
    """The secret in ``path``, once it is found private (mode 0600 or stricter)."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & OTHERS:
            raise RowKeyError(TEXT["open"], path=path, mode="%04o" % mode)
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise RowKeyError(TEXT["missing"], path=path) from None
    except (OSError, UnicodeDecodeError) as error:
        raise RowKeyError(TEXT["unreadable"], path=path,
                          reason=error) from None  # said at the edge (words.message)
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        secret = b""
    if len(secret) != KEY_BYTES:
        raise RowKeyError(TEXT["not_a_key"], path=path)
    return secret


def mark_sealed(path: Path, how: str) -> None:
    """Write the note that the seal was done (see the module's docstring)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE)
    with os.fdopen(fd, "w") as out:
        out.write(how + "\n")
