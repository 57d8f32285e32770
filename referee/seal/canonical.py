"""RFC 8785, the JSON Canonicalization Scheme, by the maintained ``rfc8785`` package: the one
spelling of a JSON value that a signature covers (members sorted by their UTF-16 code units,
no white space, strings in UTF-8 with the fewest escapes, numbers as ECMAScript writes them).
Any verifier built on the standard finds the same bytes."""

from __future__ import annotations

from typing import Any

import rfc8785


def canonical(value: Any) -> bytes:
    """The RFC 8785 bytes of ``value``; ValueError for what has none (a lone surrogate, an
    integer past 2**53, NaN)."""
    try:
        return rfc8785.dumps(value)
    except rfc8785.CanonicalizationError as error:
        raise ValueError(f"no RFC 8785 form: {error}") from None
