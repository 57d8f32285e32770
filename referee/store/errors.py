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
