"""Row MACs (referee.core.macs): HMAC-SHA256 as the standard library computes it, over an
encoding that tells any two different rows apart."""

from __future__ import annotations

import hmac

from hypothesis import given
from hypothesis import strategies as st

from referee.core.macs import RowKey, encode, fingerprint

fields = st.lists(st.one_of(st.none(), st.text(max_size=12), st.integers(-5, 10**6),
                            st.booleans()), max_size=6).map(tuple)
tables = st.sampled_from(["events", "matches", "matches.head", "players"])


@given(st.binary(min_size=32, max_size=32), tables, fields)
def test_the_mac_is_hmac_sha256_of_the_encoding(secret: bytes, table: str, values: tuple) -> None:
    key = RowKey(secret)
    expected = hmac.digest(secret, encode(table, values), "sha256").hex()
    assert key.mac(table, *values) == expected
    assert key.holds(expected, table, *values)


def normal(values: tuple) -> tuple:
    """What a row's values say to its MAC: a bool is its integer, else the value's text."""
    return tuple(None if v is None else str(int(v)) if not isinstance(v, str) else v
                 for v in values)


@given(tables, fields, tables, fields)
def test_two_rows_that_differ_never_encode_alike(t1: str, v1: tuple, t2: str, v2: tuple) -> None:
    if (t1, normal(v1)) != (t2, normal(v2)):
        assert encode(t1, v1) != encode(t2, v2)


def test_another_key_or_no_mac_never_holds() -> None:
    key, other = RowKey(bytes(32)), RowKey(bytes(31) + b"\x01")
    mac = key.mac("events", 1, "x")
    assert not other.holds(mac, "events", 1, "x")
    assert not key.holds(None, "events", 1, "x")
    assert not key.holds(mac, "events", 1, "y")
    assert repr(key) == "RowKey(...)" and len(fingerprint(bytes(32))) == 16
