"""What the store refuses: the service turns these into its own errors."""

from __future__ import annotations


class StoreError(Exception):
    pass


class StaleSeq(StoreError):
    """An append named a seq that is no longer the match's last: another writer came first."""

    def __init__(self, expected_seq: int) -> None:
        super().__init__(f"event {expected_seq} is no longer the last")
        self.expected_seq = expected_seq


class AlreadyExists(StoreError):
    """A unique name (club slug, player name) that is taken."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class MatchFull(StoreError):
    """A write that would take a match past its limits (referee.store.db.MatchLimits):
    ``limit`` is "events" or "bytes of events", ``maximum`` the limit, ``would_be`` the total it would
    have made. Nothing was stored."""

    def __init__(self, limit: str, maximum: int, would_be: int) -> None:
        super().__init__(f"a match may hold at most {maximum} {limit}; this one would hold "
                         f"{would_be}")
        self.limit = limit
        self.maximum = maximum
        self.would_be = would_be
