"""Row MACs: HMAC-SHA256, under a server secret no database writer holds, of the columns of a row
that a result depends on (docs/verify.md, "Who can forge what").

A row's MAC covers its table's name and its fields in a fixed order, each written with its
length (``7:example``) or as ``-`` for None, so that no two different rows, of one table or
two, give the same bytes: a value moved from one column (or row, or table) to another changes
the MAC. It is a pure function of the key and the values; the store says which columns each
table's MAC covers (``referee.store.macs``) and the service keeps the key
(``referee.service.rowkey``).
"""

from __future__ import annotations

import hashlib
import hmac

KEY_BYTES = 32
Field = str | int | bool | None


def encode(table: str, fields: tuple[Field, ...]) -> bytes:
    """The bytes a row's MAC is computed over (see the module's docstring)."""
    parts = [f"{len(table)}:{table}"]
    for value in fields:
        if value is None:
            parts.append("-")
        else:
            text = value if type(value) is str else str(int(value))
            parts.append(f"{len(text)}:{text}")
    return "|".join(parts).encode("utf-8")


class RowKey:
    """The server's secret for row MACs (32 bytes): it computes and checks them."""

    __slots__ = ("_inner", "_outer")

    def __init__(self, secret: bytes) -> None:
        if len(secret) != KEY_BYTES:
            raise ValueError(f"a row key is {KEY_BYTES} bytes, not {len(secret)}")
        # HMAC (RFC 2104) with its two padded-key states hashed once: each MAC then copies
        # them, some 2 us, where hmac.digest sets up OpenSSL's HMAC afresh (some 8 us here).
        # tests/core/test_core_macs.py holds it to hmac.digest.
        block = secret.ljust(64, b"\0")
        self._inner = hashlib.sha256(bytes(b ^ 0x36 for b in block))
        self._outer = hashlib.sha256(bytes(b ^ 0x5C for b in block))

    def mac(self, table: str, *fields: Field) -> str:
        """The row's MAC, 64 lowercase hex digits: HMAC-SHA256 of :func:`encode`."""
        inner = self._inner.copy()
        inner.update(encode(table, fields))
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.hexdigest()

    def holds(self, stored: str | None, table: str, *fields: Field) -> bool:
        """Whether ``stored`` is the row's MAC (False for None: a row never sealed)."""
        return stored is not None and hmac.compare_digest(stored, self.mac(table, *fields))

    def __repr__(self) -> str:  # never the secret, in a log or a traceback
        return "RowKey(...)"


def fingerprint(secret: bytes) -> str:
    """What names a row key without telling it (16 hex digits): for the operator's messages."""
    return hashlib.sha256(b"domino-row-key/1|" + secret).hexdigest()[:16]
