"""The hash chain of a match (``domino-chain/1``): each event's digest covers every event before
it, so the last one, the *head*, stands for the whole record; change, add, drop or reorder
anything and the head changes. ``docs/verify.md`` states the algorithm for reimplementers.

The chain covers JSON *values*, not their text: a log pretty-printed, re-exported or imported
elsewhere keeps its head. Each value is written canonically (:func:`canonical`): object keys
sorted, no white space, every character outside ASCII escaped (so a lone surrogate, legal in a
JSON string but not in UTF-8, is still one spelling), then the digests are

    d(0) = SHA-256(32 zero bytes || canonical(header))
    d(n) = SHA-256(d(n - 1) || canonical(event n))

The header is link 0, so the rules and the players are covered too.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable

ALGORITHM = "domino-chain/1"
ZERO = bytes(32)  # what d(0) follows: the header has no predecessor


# One encoder for every value: json.dumps with these options would build a new one each call.
_ENCODER = json.JSONEncoder(ensure_ascii=True, allow_nan=False, sort_keys=True,
                            separators=(",", ":"))


def canonical(value: Any) -> bytes:
    """One spelling of a JSON value, as bytes (ASCII): sorted keys, no spaces, ``\\uXXXX`` for
    every character past ASCII. Raises ValueError for what is not JSON (NaN, infinities)."""
    return _ENCODER.encode(value).encode("ascii")


def step(previous: bytes, value: Any) -> bytes:
    """The next link: the digest of ``value`` after the link ``previous``."""
    return hashlib.sha256(previous + canonical(value)).digest()


def root(header: Any) -> bytes:
    """Link 0: the digest of the log's header (a dict, as written: the rules as given)."""
    return step(ZERO, header)


def links(header: Any, events: Iterable[Any]) -> list[bytes]:
    """Every link of a record: [d(0), d(1), ..., d(n)], d(n) being event n's."""
    digest = root(header)
    out = [digest]
    for event in events:
        digest = step(digest, event)
        out.append(digest)
    return out


def head(header: Any, events: Iterable[Any]) -> str:
    """The chain head of a record, in lowercase hex: the last event's digest (d(0) when there
    are no events)."""
    digest = root(header)
    for event in events:
        digest = step(digest, event)
    return digest.hex()


def extend(previous_hex: str, values: Iterable[Any]) -> list[str]:
    """The hex digests of ``values`` appended after the link ``previous_hex``."""
    digest = bytes.fromhex(previous_hex)
    out = []
    for value in values:
        digest = step(digest, value)
        out.append(digest.hex())
    return out


def breaks(header: Any, stored: Iterable[tuple[int, Any, str]]) -> list[tuple[int, str]]:
    """Where a stored chain does not hold: ``stored`` gives each event as (seq, value, stored
    digest in hex) in seq order; each link is checked against the stored link before it (link
    0: the header's digest), so a changed event breaks its own link alone, and a changed header
    the first. One (seq, what) for each break, and for each seq out of order (an event gone or
    added twice); empty when the chain holds. A chain whose digests were all computed again
    after a change holds: only a head kept elsewhere (a signed acta, a tree) tells it apart."""
    problems = []
    previous, expected = root(header), 1
    for seq, value, digest in stored:
        if seq != expected:
            problems.append((seq, f"event {expected} is missing: the record jumps to {seq}"
                             if seq > expected else f"event {seq} comes again after {expected - 1}"))
        expected = seq + 1
        try:
            link = step(previous, value)
        except ValueError as error:
            problems.append((seq, f"the event is not JSON the chain can write: {error}"))
            link = b""
        if link.hex() != digest:
            follows = "the header" if seq == 1 else f"event {seq - 1}'s digest"
            problems.append((seq, f"the stored digest {digest[:16]}... does not follow from "
                                  f"{follows} and the event as stored"))
        try:
            previous = bytes.fromhex(digest)
        except ValueError:
            previous = b""
    return problems
