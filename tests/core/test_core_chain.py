"""The hash chain (referee.core.chain): one spelling per JSON value, and a head that changes
with any change to any event or to the header."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import chain
from referee.core.simulate import random_match

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


def test_canonical_is_sorted_compact_ascii() -> None:
    assert chain.canonical({"type": "play", "seat": 2, "tile": "6-5"}) == \
        b'{"seat":2,"tile":"6-5","type":"play"}'
    assert chain.canonical({"text": "ñandú \ud800 🁣"}) == \
        b'{"text":"\\u00f1and\\u00fa \\ud800 \\ud83c\\udc63"}'
    assert chain.canonical([1, 1.5, True, None, "\x00\n\x7f"]) == \
        b'[1,1.5,true,null,"\\u0000\\n\\u007f"]'


def test_canonical_refuses_what_is_not_json() -> None:
    with pytest.raises(ValueError):
        chain.canonical({"x": float("nan")})


def test_the_algorithm_as_documented() -> None:
    # docs/verify.md: d(0) = SHA-256(32 zero bytes || header), d(n) = SHA-256(d(n-1) || event n)
    header = {"format": "domino-log/1", "rules": "parejas", "players": PLAYERS}
    event = {"type": "deal"}
    d0 = hashlib.sha256(bytes(32) + json.dumps(header, sort_keys=True, separators=(",", ":"))
                        .encode()).digest()
    d1 = hashlib.sha256(d0 + b'{"type":"deal"}').digest()
    assert chain.links(header, [event]) == [d0, d1]
    assert chain.head(header, [event]) == d1.hex()
    assert chain.head(header, []) == d0.hex() == chain.root(header).hex()
    assert chain.extend(d0.hex(), [event]) == [d1.hex()]


def test_spelling_does_not_matter_values_do() -> None:
    header = {"format": "domino-log/1", "rules": "parejas", "players": PLAYERS}
    a = json.loads('{"type": "play", "seat": 1, "tile": "6-6"}')
    b = json.loads('{"tile":"6-6","seat":1,"type":"play"}')
    assert chain.head(header, [a]) == chain.head(header, [b])
    assert chain.head(header, [a]) != chain.head(header, [{**a, "tile": "6-5"}])


def _record(seed: int) -> tuple[dict, list]:
    return random_match("parejas", PLAYERS, random.Random(seed))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), data=st.data())
def test_changing_any_byte_of_any_event_changes_the_head(seed: int, data: st.DataObject) -> None:
    header, events = _record(seed)
    lines = [json.dumps(header, separators=(",", ":"))] + [
        json.dumps(e, separators=(",", ":")) for e in events]
    original = chain.head(header, events)
    line = data.draw(st.integers(0, len(lines) - 1), label="line")
    at = data.draw(st.integers(0, len(lines[line]) - 1), label="byte")
    new = data.draw(st.characters(min_codepoint=32, max_codepoint=126), label="char")
    changed = lines[line][:at] + new + lines[line][at + 1:]
    try:
        value = json.loads(changed)
    except ValueError:
        return  # no longer JSON: the log reader refuses it before any chain
    values = [json.loads(x) for x in lines]
    if value == values[line]:
        return  # the same value spelled otherwise (a space, an escape): the same record
    values[line] = value
    assert chain.head(values[0], values[1:]) != original


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), data=st.data())
def test_dropping_or_swapping_events_changes_the_head(seed: int, data: st.DataObject) -> None:
    header, events = _record(seed)
    original = chain.head(header, events)
    i = data.draw(st.integers(0, len(events) - 1))
    assert chain.head(header, events[:i] + events[i + 1:]) != original
    j = data.draw(st.integers(0, len(events) - 1))
    if events[i] != events[j]:
        swapped = list(events)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        assert chain.head(header, swapped) != original
    assert chain.head(header, events[:i]) == chain.links(header, events)[i].hex()
