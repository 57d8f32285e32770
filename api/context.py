"""What the views share within one app: its Service, and a small cache in front of it.

The cache holds who holds a token (``TOKEN_CACHE_SECONDS``, default 30; 0 turns it off), so
each worker keeps its own and nothing has to be shared between workers: the one risk is a token
revoked or deleted in the database working that much longer on the other workers (revoking
through the API drops it from its own worker's cache at once). It saves a database round trip on
every request.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Generic, Hashable, TypeVar

from flask import Flask, current_app

from referee.service import Service

EXTENSION = "domino-referee.service"
CACHES = "domino-referee.caches"
TOKEN_CACHE_SECONDS = 30.0

V = TypeVar("V")


class Cache(Generic[V]):
    """A bounded, thread-safe map whose entries expire after ``ttl`` seconds (None: never).
    Full, it starts afresh: simpler than LRU, and a refill costs one query an entry."""

    def __init__(self, ttl: float | None, size: int = 10_000) -> None:
        self._ttl, self._size = ttl, size
        self._entries: dict[Hashable, tuple[float, V]] = {}
        self._lock = threading.Lock()
        self._generation = 0  # bumped by discard: a load begun before it is not kept

    def get(self, key: Hashable, load: Callable[[], V]) -> V:
        if self._ttl == 0:
            return load()
        now = time.monotonic()
        with self._lock:
            found = self._entries.get(key)
            generation = self._generation
        if found is not None and (self._ttl is None or now - found[0] < self._ttl):
            return found[1]
        value = load()  # outside the lock: a slow query must not hold up the other threads
        with self._lock:
            if generation != self._generation:
                return value  # loaded before a discard: it may be what was discarded
            if len(self._entries) >= self._size:
                self._entries.clear()
            self._entries[key] = (now, value)
        return value

    def discard(self, which: Callable[[V], bool]) -> None:
        """Forget every entry whose value ``which`` picks (a revoked token's caller)."""
        with self._lock:
            self._generation += 1
            self._entries = {k: e for k, e in self._entries.items() if not which(e[1])}


def init_context(app: Flask, service: Service) -> None:
    app.extensions[EXTENSION] = service
    ttl = float(app.config.get("TOKEN_CACHE_SECONDS", TOKEN_CACHE_SECONDS))
    app.extensions[CACHES] = {"tokens": Cache(ttl)}


def service() -> Service:
    return current_app.extensions[EXTENSION]


def cache(name: str) -> Cache[Any]:
    return current_app.extensions[CACHES][name]
