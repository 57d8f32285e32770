"""The unit of work, on SQLite and PostgreSQL: its transaction begins when its use case first
reads or writes, so a use case that refuses its caller or its input (as each does first) opens
none: no connection lent, no statement, and on SQLite no wait for the write lock another writer
holds. A use case's entry is its handler in a unit of work of the kind it declares."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import event

from referee.service import Caller, Forbidden, Invalid, Service
from referee.service.uow import READ, WRITE, UnitOfWork
from referee.store.db import writing

VIEWER = Caller("casino", "viewer", 3, "club screen")


def test_a_refused_use_case_opens_no_transaction(service: Service, club: str) -> None:
    lent: list[object] = []
    listener = lambda *args: lent.append(args)  # noqa: E731 - a pool's checkout, any use
    event.listen(service.engine, "checkout", listener)
    try:
        with pytest.raises(Forbidden):
            service.players.create(club, "Ana", who=VIEWER)
        with pytest.raises(Invalid):
            service.tokens.create_token(club, "king")
        with pytest.raises(Invalid):
            service.standings.table(club, group="trios")
    finally:
        event.remove(service.engine, "checkout", listener)
    assert lent == []


def test_a_refused_write_never_waits_for_the_write_lock(service: Service, club: str) -> None:
    """Another writer holds SQLite's write lock (PostgreSQL: a long transaction): a refused
    write is answered at once, not after the busy timeout."""
    with writing(service.engine) as conn:
        conn.exec_driver_sql("SELECT 1")  # the lock taken (BEGIN IMMEDIATE on SQLite)
        began = time.monotonic()
        with pytest.raises(Forbidden):
            service.players.create(club, "Ana", who=VIEWER)
        assert time.monotonic() - began < 5  # the busy timeout is 10 s


def test_an_entry_runs_its_handler_in_its_kind(service: Service, club: str) -> None:
    seen: list[UnitOfWork] = []
    table = type(service.standings).table.handler

    def spy(self: object, uow: UnitOfWork, *args: object, **kwargs: object) -> object:
        seen.append(uow)
        return table(self, uow, *args, **kwargs)

    type(service.standings).table.handler = spy  # type: ignore[method-assign]
    try:
        service.standings.table(club)
        with service.units.open(WRITE) as uow:
            service.standings.table.within(uow, club)
    finally:
        type(service.standings).table.handler = table  # type: ignore[method-assign]
    assert [u.kind for u in seen] == [READ, WRITE] and seen[1] is uow
