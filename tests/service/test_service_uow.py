"""The unit of work, on SQLite and PostgreSQL: its transaction begins when its use case first
reads or writes, so a use case that refuses its caller or its input (as each does first) opens
none: no connection lent, no statement, and on SQLite no wait for the write lock another writer
holds. A use case's entry is its handler in a unit of work of the kind it declares."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import event

from referee.service import Caller, Forbidden, Invalid, Service
from referee.service.uow import LOOKUP, PRIMARY, READ, SINGLE, WRITE, UnitOfWork
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




def test_sharing_lends_a_token_lookup_and_an_append_one_connection(service: Service,
                                                                   club: str) -> None:
    """What the API's append does: on PostgreSQL the token's lookup and the append (one
    statement each, in autocommit) take one connection from the pool between them; on SQLite
    (transactions both) each takes its own, as outside the block. Either way the append is
    stored."""
    token = service.tokens.create_token(club, "scorekeeper", label="table 1")
    match_id = service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"])["id"]
    who = service.tokens.authenticate(token)
    service.recording.record_event(match_id, {"type": "deal"}, expected_seq=0, who=who)
    lent: list[int] = []
    # a checkout by this thread (the scoreboards' notifier sends from its own, when it will)
    listener = lambda *args: lent.append(threading.get_ident())  # noqa: E731
    event.listen(service.engine, "checkout", listener)
    try:
        with service.units.sharing():
            who = service.tokens.authenticate(token)
            recorded = service.recording.record_event(
                match_id, {"type": "note", "text": "shared"}, expected_seq=1, who=who)
    finally:
        event.remove(service.engine, "checkout", listener)
    mine = lent.count(threading.get_ident())
    assert mine == (1 if service.engine.dialect.name == "postgresql" else 2)
    assert recorded.seq == 2 and service.reading.get_match(match_id)["last_seq"] == 2


def test_a_shared_connection_goes_back_before_another_kind_takes_one(service: Service,
                                                                     club: str) -> None:
    """Never two of the pool's connections for one thread's sharing: a unit of work of another
    kind finds the shared one given back first, and the next autocommit unit takes one
    again."""
    pool = service.engine.pool
    with service.units.sharing():
        with service.units.open(LOOKUP) as uow:
            uow.conn.exec_driver_sql("SELECT 1")
        held = pool.checkedout()
        with service.units.open(PRIMARY) as uow:
            uow.conn.exec_driver_sql("SELECT 1")
            assert pool.checkedout() == 1
        with service.units.open(SINGLE) as uow:
            uow.conn.exec_driver_sql("SELECT 1")
        assert pool.checkedout() == held
    assert held == (1 if service.engine.dialect.name == "postgresql" else 0)
    assert pool.checkedout() == 0


def test_a_failed_unit_gives_the_shared_connection_back(service: Service) -> None:
    """A statement that fails in a unit sharing the connection: the connection goes back to the
    pool at once (as a unit's own would), and the next unit works on another."""
    pool = service.engine.pool
    with service.units.sharing():
        with pytest.raises(Exception), service.units.open(LOOKUP) as uow:
            uow.conn.exec_driver_sql("SELECT no_such_column FROM no_such_table")
        assert pool.checkedout() == 0
        with service.units.open(SINGLE) as uow:
            assert uow.conn.exec_driver_sql("SELECT 1").scalar() == 1
    assert pool.checkedout() == 0
