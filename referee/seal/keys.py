"""Ed25519 keys: a public key with the validity its club gives it (:class:`PublicKey`), read
from whatever form a verifier was handed (:func:`read_keys`), and a private key that signs
(:class:`PrivateKey`). A key's id is ``ed25519:`` and the first 16 hex digits of the SHA-256 of
its 32 raw bytes (:func:`referee.core.acta.key_id`)."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core import acta as sheet

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

ALGORITHM = sheet.SIGNATURE_ALGORITHM
RAW_SIZE = 32


class KeyFormatError(ValueError):
    """Text that holds no Ed25519 key of a form read here; the message says what it holds."""


@dataclass(frozen=True)
class PublicKey:
    """A public key, and (from a club's listing) from when until when it signed for the club:
    ``valid_until`` None while it still signs. A key given alone has no validity to check."""

    raw: bytes
    valid_from: dt.datetime | None = None
    valid_until: dt.datetime | None = None
    status: str | None = None  # signing, rotated or retired, as the listing says

    @property
    def key_id(self) -> str:
        return sheet.key_id(self.raw)

    def verifies(self, signature: bytes, data: bytes) -> bool:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        try:
            Ed25519PublicKey.from_public_bytes(self.raw).verify(signature, data)
        except InvalidSignature:
            return False
        return True

    def covers(self, when: dt.datetime) -> bool:
        """Whether the key signed for its club at ``when`` (always, for a key without validity)."""
        if self.valid_from is not None and when < self.valid_from:
            return False
        return self.valid_until is None or when <= self.valid_until

    def pem(self) -> str:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        return Ed25519PublicKey.from_public_bytes(self.raw).public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()

    def published(self) -> dict[str, Any]:
        """The key as a listing gives it (without its validity)."""
        return {"algorithm": ALGORITHM, "key_id": self.key_id,
                "public_key": sheet.encode(self.raw), "pem": self.pem()}


def timestamp(text: Any, what: str) -> dt.datetime:
    """An ISO 8601 date and time with its zone (as every document here writes one)."""
    if not isinstance(text, str):
        raise ValueError(f"{what} must be an ISO 8601 time, not {text!r}")
    try:
        value = dt.datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{what} is not an ISO 8601 time: {text!r}") from None
    if value.tzinfo is None:
        raise ValueError(f"{what} has no time zone: {text!r}")
    return value


def read_keys(text: str) -> list[PublicKey]:
    """Every key in ``text``: a club's listing (``GET /api/v1/clubs/{club}/keys``: ``{"keys":
    [...]}``, each with its validity), one key's JSON (``{"public_key": BASE64, ...}``), a PEM
    public key, or the base64 of the 32 raw bytes."""
    text = text.strip()
    try:
        if text.startswith("{"):
            value = json.loads(text)
            if isinstance(value, dict) and isinstance(value.get("keys"), list):
                return [_listed(entry) for entry in value["keys"]]
            if isinstance(value, dict):
                return [PublicKey(_raw(value.get("public_key")))]
            raise KeyFormatError("the JSON holds no key")
        if text.startswith("-----BEGIN"):
            return [PublicKey(_from_pem(text))]
        return [PublicKey(_raw(text))]
    except (ValueError, TypeError, AttributeError) as error:
        raise KeyFormatError(f"not an Ed25519 public key: {error}") from None


def _listed(entry: Any) -> PublicKey:
    if not isinstance(entry, dict):
        raise KeyFormatError("each of the listing's keys must be an object")
    until = entry.get("valid_until")
    return PublicKey(_raw(entry.get("public_key")),
                     timestamp(entry.get("valid_from"), "valid_from"),
                     timestamp(until, "valid_until") if until is not None else None,
                     entry.get("status"))


def _raw(text: Any) -> bytes:
    raw = sheet.decode(text, "the key")
    if len(raw) != RAW_SIZE:
        raise KeyFormatError(f"an Ed25519 public key is {RAW_SIZE} bytes, not {len(raw)}")
    return raw


def _from_pem(text: str) -> bytes:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    loaded = serialization.load_pem_public_key(text.encode("ascii"))
    if not isinstance(loaded, Ed25519PublicKey):
        raise KeyFormatError("the PEM holds a key that is not Ed25519")
    return loaded.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


class PrivateKey:
    """An Ed25519 private key: made new, or read from its PEM (PKCS#8, unencrypted)."""

    def __init__(self, key: "Ed25519PrivateKey") -> None:
        from cryptography.hazmat.primitives import serialization

        self._key = key
        self.public = PublicKey(key.public_key().public_bytes(serialization.Encoding.Raw,
                                                              serialization.PublicFormat.Raw))

    @classmethod
    def generate(cls) -> "PrivateKey":
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_pem(cls, data: bytes) -> "PrivateKey":
        """KeyFormatError for anything but an unencrypted PEM of an Ed25519 private key."""
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError):
            raise KeyFormatError("not an unencrypted PEM private key") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise KeyFormatError("a private key that is not Ed25519")
        return cls(key)

    @property
    def key_id(self) -> str:
        return self.public.key_id

    def pem(self) -> bytes:
        from cryptography.hazmat.primitives import serialization

        return self._key.private_bytes(serialization.Encoding.PEM,
                                       serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption())

    def sign(self, data: bytes) -> bytes:
        return self._key.sign(data)
