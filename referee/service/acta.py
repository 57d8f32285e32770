"""Results anyone can verify: a match's chain head, where it may be published, and its signed
score sheet (``domino-acta/1``, ``referee.core.acta``), signed with the server's Ed25519 key.

**Who gets a head.** A digest of a record holding a hand the caller may not see would let him
find the hand by trying each candidate (a deal of 7 hidden tiles of 28 is about 1.2 million
tries a seat). So a head, or an acta carrying one, is given only for a *finished* match (every
hand recorded is shown then, see docs/visibility.md) and only when the caller's view is the
whole record (``MatchView.whole``: nothing withheld), which a finished match always gives but which
is checked all the same. A live match has no published head for anyone over HTTP; the operator
(the ``domino`` command on the database) sees everything and gets it always.

**The key.** The server's Ed25519 private key is a PEM file (PKCS#8), at ``DOMINO_SIGNING_KEY``
when that is set, else ``domino-signing-key.pem`` in ``DOMINO_DATA_DIR`` (or the current
folder), made on first use with mode 0600. Every worker and machine of one deployment must
read the same file (docs/deploy.md).
"""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import store
from ..core import acta as sheet
from ..store.db import DATA_DIR_VARIABLE
from ..store.tournaments import tournament_of_match
from .access import OPERATOR, Caller
from .errors import NotFinished
from .reading import Reading

# cryptography (some 20 ms to import) when a key is read, made or used, not by every command
# that opens the service
if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

KEY_VARIABLE = "DOMINO_SIGNING_KEY"
KEY_FILE = "domino-signing-key.pem"


def key_path() -> Path:
    """Where the server's signing key lives (see the module's docstring)."""
    if path := os.environ.get(KEY_VARIABLE):
        return Path(path)
    return Path(os.environ.get(DATA_DIR_VARIABLE) or ".") / KEY_FILE


class SigningKeyError(RuntimeError):
    """The signing key file cannot be read or made: the server's setup is wrong, not the
    request (the API answers 500 and logs it; the CLI says what is wrong). ``message`` says
    which file and why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Signer:
    """The server's Ed25519 key, read (or made) on first use."""

    def __init__(self, path: Path | None = None) -> None:
        self._path = path
        self._key: Ed25519PrivateKey | None = None
        self._lock = threading.Lock()

    @property
    def path(self) -> Path:
        return self._path if self._path is not None else key_path()

    def key(self) -> Ed25519PrivateKey:
        with self._lock:
            if self._key is None:
                self._key = _load_or_make(self.path)
            return self._key

    def public_raw(self) -> bytes:
        from cryptography.hazmat.primitives import serialization

        return self.key().public_key().public_bytes(serialization.Encoding.Raw,
                                                    serialization.PublicFormat.Raw)

    def public_pem(self) -> str:
        from cryptography.hazmat.primitives import serialization

        return self.key().public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()

    def key_id(self) -> str:
        return sheet.key_id(self.public_raw())

    def published(self) -> dict[str, Any]:
        """The public key as ``GET /api/v1/signing-key`` and ``domino verify --key`` give it."""
        return {"algorithm": sheet.SIGNATURE_ALGORITHM, "key_id": self.key_id(),
                "public_key": sheet.encode(self.public_raw()), "pem": self.public_pem()}

    def sign(self, acta: dict[str, Any]) -> dict[str, Any]:
        """``acta`` with this key's id and its signature over :func:`sheet.signed_bytes`."""
        signed = {**acta, "key_id": self.key_id()}
        signed["signature"] = sheet.encode(self.key().sign(sheet.signed_bytes(signed)))
        return signed


def _load_or_make(path: Path) -> Ed25519PrivateKey:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    try:
        return _load(path)
    except FileNotFoundError:
        pass
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written whole to a private temporary file, then linked into place: a second worker
        # making its own at the same moment loses the link and reads the winner's key.
        fd, scratch = tempfile.mkstemp(dir=path.parent, prefix=".signing-key-")
        try:
            with os.fdopen(fd, "wb") as out:  # mkstemp makes it 0600
                out.write(pem)
            try:
                os.link(scratch, path)
            except FileExistsError:
                return _load(path)
        finally:
            os.unlink(scratch)
    except OSError as error:
        raise SigningKeyError(f"cannot make the signing key {path}: {error.strerror}") from None
    return key


def _load(path: Path) -> Ed25519PrivateKey:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise
    except OSError as error:
        raise SigningKeyError(f"cannot read the signing key {path}: {error.strerror}") from None
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise SigningKeyError(f"{path} is not an unencrypted PEM private key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyError(f"{path} holds a key that is not Ed25519")
    return key


class Actas:
    """Chain heads and signed score sheets, as a caller may have them."""

    def __init__(self, reading: Reading, signer: Signer) -> None:
        self.reading = reading
        self.signer = signer

    def head(self, match_id: int | str, *, who: Caller = OPERATOR) -> str | None:
        """The match's chain head (hex) if ``who`` may have it (see the module's docstring),
        else None."""
        with self.reading.view(match_id, who=who) as view:
            return view.published_head()

    def acta(self, match_id: int | str, *, who: Caller = OPERATOR) -> dict[str, Any]:
        """The signed ``domino-acta/1`` of a finished match (NotFinished otherwise), for a
        reader of its club."""
        with self.reading.view(match_id, who=who) as view:
            record = view.record
            if not record.match.finished:
                raise NotFinished(f"match {record.id} is not finished: its acta comes when it is")
            head = view.published_head()
            if head is None:  # never for a finished match; kept as the rule says
                raise NotFinished(f"match {record.id} holds hands you may not see yet")
            conn = view.uow.conn
            started, ended = store.recorded_span(conn, record.id)
            paired = tournament_of_match(conn, record.id)  # a tournament's table, if it is one
        body = sheet.from_log(record.header, record.events, record.replayed())
        if body["chain"]["head"] != head:
            # The events were changed behind the database's append-only guard: sign nothing.
            raise RuntimeError(f"match {record.id}: the stored chain disagrees with its events")
        return self.signer.sign({
            **body, "match": record.id,
            "tournament": paired.slug if paired is not None else None,
            "round": paired.round if paired is not None else None,
            "started_at": store.iso(started), "ended_at": store.iso(ended)})


