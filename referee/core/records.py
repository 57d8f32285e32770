"""Frozen records: what ``@dataclass(frozen=True)`` gives the core's few value classes, without
the dataclasses module.

Importing dataclasses and making each dataclass (it writes out and compiles every class's
methods) cost every ``domino validate`` process about 5 ms of its start-up, as much as its
reading of a dozen logs. A record names its fields in ``__slots__``, in order, and sets them
in its own ``__init__`` (with ``_set``: plain assignment is refused); from the fields this base
gives what a frozen dataclass has: equality and hashing over the fields (of the same class
only; ``_compared`` names the fields that count, when not all), a repr naming every field,
``__match_args__``, ``_replace`` (``dataclasses.replace``'s), copying and pickling, and
FrozenInstanceError (an AttributeError) on setting or deleting a field.
"""

from __future__ import annotations

from typing import Any, ClassVar

_set = object.__setattr__  # how a record's __init__ sets its fields


class FrozenInstanceError(AttributeError):
    """An attempt to change a record's field (as dataclasses.FrozenInstanceError)."""


class Record:
    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _compared: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._fields = tuple(cls.__dict__.get("__slots__", ()))
        if "_compared" not in cls.__dict__:
            cls._compared = cls._fields
        cls.__match_args__ = cls._fields

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _key(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self._compared])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key() == other._key()  # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({shown})"

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), tuple([getattr(self, name) for name in self._fields])

    def _replace(self, **changes: Any) -> Any:
        """A copy with the fields ``changes`` names set anew (as dataclasses.replace)."""
        values = {name: getattr(self, name) for name in self._fields}
        for name, value in changes.items():
            if name not in values:
                raise TypeError(f"{type(self).__qualname__} has no field {name!r}")
            values[name] = value
        return type(self)(**values)
