"""Statements compiled once a test session, not once an engine (installed by tests/conftest.py).

SQLAlchemy keeps the statements it compiled per engine, keyed by the engine's dialect object, and
a test makes an engine of its own for its own database (``engine``, ``service``, every app and
in-process CLI command): each compiled every statement it ran again, some 4 ms of CPU a test
that writes (a new migrated service's first club, 60 of them: 10.2-10.9 ms a club, 6.4-6.9 with
this). Every SQLite connection of the test process is given one cache instead, through
SQLAlchemy's ``compiled_cache`` execution option, keyed as SQLAlchemy keys it with the dialect
replaced by what makes its SQL (:func:`dialect_kind`): two pysqlite dialects made alike compile
every statement alike. Each engine keeps its own dialect (its events, its first connection's
``initialize``); the service's own code and what each test checks are unchanged. PostgreSQL's
engines keep their own caches: their dialect reads the server it connects to.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import Connection, Engine, event
from sqlalchemy.util import LRUCache

# Statements of the whole suite (each engine's own cache holds 500, SQLAlchemy's default).
CAPACITY = 5_000

# What a dialect's compiled SQL depends on, besides its class: its parameter style, what the
# first connection's ``initialize`` learnt (the library's version, and what it supports), and
# the options create_engine may give it.
_KIND = ("paramstyle", "positional", "server_version_info", "default_schema_name",
         "label_length", "max_identifier_length", "native_datetime", "_json_serializer",
         "_json_deserializer", "insert_returning", "update_returning", "delete_returning",
         "supports_multivalues_insert", "use_insertmanyvalues", "supports_native_boolean",
         "supports_default_values", "supports_default_metavalue", "supports_empty_insert")


def dialect_kind(dialect: Any) -> tuple[Any, ...]:
    """What a dialect compiles by: two dialects of one kind make the same SQL of a statement."""
    return (type(dialect), *(getattr(dialect, name, None) for name in _KIND))


class SharedCompiled:
    """A compiled-statement cache for many engines: SQLAlchemy's key with its dialect (the
    first item) replaced by the dialect's kind."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.cache: LRUCache[Any, Any] = LRUCache(capacity)
        self._kinds: WeakKeyDictionary[Any, tuple[Any, ...]] = WeakKeyDictionary()

    def _key(self, key: tuple[Any, ...]) -> tuple[Any, ...]:
        dialect = key[0]
        kind = self._kinds.get(dialect)
        if kind is None:  # asked first when the engine has connected: initialize has run
            kind = self._kinds[dialect] = dialect_kind(dialect)
        return (kind, *key[1:])

    def get(self, key: tuple[Any, ...]) -> Any:
        return self.cache.get(self._key(key))

    def __setitem__(self, key: tuple[Any, ...], compiled: Any) -> None:
        self.cache[self._key(key)] = compiled


SHARED = SharedCompiled()


def _share(conn: Connection) -> None:
    if conn.dialect.name == "sqlite" and "compiled_cache" not in conn.get_execution_options():
        conn.execution_options(compiled_cache=SHARED)


def share_compiled_statements() -> None:
    """Every SQLite connection of this process, of engines made before or after, uses SHARED."""
    if not event.contains(Engine, "engine_connect", _share):
        event.listen(Engine, "engine_connect", _share)
