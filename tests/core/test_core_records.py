"""core/records.py is a hand-made copy of what ``@dataclass(frozen=True)`` gives (it keeps the
dataclasses module out of ``domino validate``'s start-up: bench/records_bench.py). Held here to
the library: the same record written both ways behaves the same."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core.records import FrozenInstanceError, Record, _set


class Point(Record):
    __slots__ = ("x", "y", "label")

    def __init__(self, x: int, y: int, label: str) -> None:
        _set(self, "x", x)
        _set(self, "y", y)
        _set(self, "label", label)


@dataclasses.dataclass(frozen=True)
class DataPoint:
    x: int
    y: int
    label: str


values = st.tuples(st.integers(), st.integers(), st.text(max_size=5))


@given(values, values)
def test_equality_hashing_and_repr_are_the_dataclass_ones(a: tuple, b: tuple) -> None:
    assert (Point(*a) == Point(*b)) == (DataPoint(*a) == DataPoint(*b))
    assert (hash(Point(*a)) == hash(Point(*b))) == (hash(DataPoint(*a)) == hash(DataPoint(*b)))
    assert hash(Point(*a)) == hash(a) == hash(DataPoint(*a))  # both hash the fields' tuple
    assert repr(Point(*a)).replace("Point", "DataPoint", 1) == repr(DataPoint(*a))


@given(values, st.integers())
def test_replace_copy_pickle_and_match_args(a: tuple, x: int) -> None:
    point, data = Point(*a), DataPoint(*a)
    assert point._replace(x=x) == Point(x, *a[1:])
    assert dataclasses.replace(data, x=x) == DataPoint(x, *a[1:])
    assert copy.copy(point) == point and pickle.loads(pickle.dumps(point)) == point
    assert Point.__match_args__ == DataPoint.__match_args__ == ("x", "y", "label")


def test_fields_cannot_be_set_nor_deleted_as_in_a_frozen_dataclass() -> None:
    point, data = Point(1, 2, "a"), DataPoint(1, 2, "a")
    for target in (point, data):
        with pytest.raises(AttributeError):
            target.x = 5  # type: ignore[misc]
        with pytest.raises(AttributeError):
            del target.x  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        point.y = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        point._replace(z=1)
    assert Point(1, 2, "a") != DataPoint(1, 2, "a")  # another class is never equal
