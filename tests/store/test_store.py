"""The event store's guarantees, on both databases: no duplicate and no gap under racing
writers, every loser told so, retries that store nothing, and any JSON text kept exactly."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from db_helpers import sample_match
from sqlalchemy import Engine, func, select

from referee import store
from referee.service import Conflict, IdempotencyMismatch, Service
from referee.store.db import reading, writing
from referee.store.schema import events, matches

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


def note(text: str) -> dict[str, Any]:
    return {"type": "note", "text": text}


def stored_seqs(engine: Engine, match_id: int) -> list[int]:
    with reading(engine) as conn:
        return [r.seq for r in store.event_rows(conn, match_id)]


@pytest.fixture
def match_id(service: Service, club: str) -> int:
    return service.recording.create_match(club, "parejas", PLAYERS)["id"]


def run_threads(count: int, work) -> list[Any]:
    results: list[Any] = [None] * count
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            results[i] = work(i)
        except BaseException as error:  # surfaced below, not lost in the thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    return results


# ------------------------------------------------------------------------------ racing writers

def test_racing_appends_at_one_seq_one_wins_every_loser_gets_conflict(
        service: Service, match_id: int) -> None:
    threads = 8
    for round_ in range(3):
        barrier = threading.Barrier(threads)
        expected = round_

        def work(i: int) -> Any:
            barrier.wait()
            try:
                return service.recording.record_event(match_id, note(f"r{round_} t{i}"),
                                            expected_seq=expected)
            except Conflict as conflict:
                return conflict

        outcomes = run_threads(threads, work)
        winners = [o for o in outcomes if not isinstance(o, Conflict)]
        losers = [o for o in outcomes if isinstance(o, Conflict)]
        assert len(winners) == 1 and winners[0].seq == expected + 1
        assert len(losers) == threads - 1
        assert all(c.current_seq == expected + 1 for c in losers)
    assert stored_seqs(service.engine, match_id) == [1, 2, 3]
    assert service.reading.get_match(match_id)["last_seq"] == 3


def test_racing_writers_with_retries_leave_no_duplicate_and_no_gap(
        engine: Engine, club: str, match_id: int) -> None:
    # Separate Service objects stand for separate processes: separate caches, one database.
    threads, per_thread = 6, 8
    services = [Service(engine) for _ in range(threads)]
    conflicts = [0] * threads

    def work(i: int) -> list[int]:
        svc, mine = services[i], []
        while len(mine) < per_thread:
            last = svc.reading.get_match(match_id)["last_seq"]
            try:
                mine.append(svc.recording.record_event(match_id, note(f"{i}-{len(mine)}"),
                                             expected_seq=last).seq)
            except Conflict as conflict:
                assert conflict.current_seq is not None and conflict.current_seq > last
                conflicts[i] += 1
        return mine

    won = run_threads(threads, work)
    total = threads * per_thread
    assert sorted(seq for mine in won for seq in mine) == list(range(1, total + 1))
    assert stored_seqs(engine, match_id) == list(range(1, total + 1))
    texts = [e["event"]["text"] for e in services[0].reading.list_events(match_id)]
    assert sorted(texts) == sorted(f"{i}-{n}" for i in range(threads) for n in range(per_thread))
    assert services[0].reading.get_match(match_id)["last_seq"] == total


def test_appends_without_expected_seq_all_land(engine: Engine, match_id: int) -> None:
    services = [Service(engine) for _ in range(4)]

    def work(i: int) -> list[int]:
        return [services[i].recording.record_event(match_id, note(f"{i}/{n}"), expected_seq=None).seq
                for n in range(10)]

    won = run_threads(4, work)
    assert sorted(s for mine in won for s in mine) == list(range(1, 41))
    assert stored_seqs(engine, match_id) == list(range(1, 41))


def test_store_append_with_a_stale_seq_is_a_conflict_and_stores_nothing(
        service: Service, match_id: int) -> None:
    service.recording.record_event(match_id, note("first"), expected_seq=0)
    with writing(service.engine) as conn:
        row = store.match_row(conn, match_id)
    projection = store.Projection("in_progress", None, [0, 0], None, 1, 0, store.utcnow())
    new = [store.NewEvent(store.dump_json(note("late")), "note")]
    with pytest.raises(store.StaleSeq):
        with writing(service.engine) as conn:
            store.append(conn, match_id, 0, new, projection, store.utcnow(),
                         store.chain_link(conn, match_id, 0))
    assert row.last_seq == 1
    assert stored_seqs(service.engine, match_id) == [1]


# ----------------------------------------------------------------------------- idempotent retry

def test_a_retry_returns_the_original_and_stores_nothing(service: Service, match_id: int) -> None:
    first = service.recording.record_event(match_id, note("once"), expected_seq=0, client_event_id="k-1")
    service.recording.record_event(match_id, note("another"), expected_seq=1)
    again = service.recording.record_event(match_id, note("once"), expected_seq=0, client_event_id="k-1")
    assert (again.seq, again.event, again.violation) == (first.seq, first.event, first.violation)
    assert again.duplicate and not first.duplicate
    assert again.state == first.state  # the table as it was after the original
    assert stored_seqs(service.engine, match_id) == [1, 2]
    # Key order and spacing do not make a different body.
    same = service.recording.record_event(match_id, {"text": "once", "type": "note"}, expected_seq=None,
                                client_event_id="k-1")
    assert same.seq == 1
    with pytest.raises(IdempotencyMismatch):
        service.recording.record_event(match_id, note("twice"), expected_seq=2, client_event_id="k-1")
    assert stored_seqs(service.engine, match_id) == [1, 2]


def test_a_retry_naming_the_new_last_seq_still_gets_the_original(service: Service,
                                                                club: str) -> None:
    # The client re-read the match (it saw its own event) and retried with the same key: the
    # retried play would now be illegal (the tile is on the line), the note legal; both are
    # recognised as retries first.
    _, evs = sample_match("parejas", seed=3)
    m = service.recording.create_match(club, "parejas", PLAYERS)["id"]
    service.recording.record_event(m, evs[0], expected_seq=0)
    lead = service.recording.record_event(m, evs[1], expected_seq=1, client_event_id="lead")
    again = service.recording.record_event(m, evs[1], expected_seq=2, client_event_id="lead")
    assert again.duplicate and again.seq == lead.seq == 2
    service.recording.record_event(m, note("n"), expected_seq=2, client_event_id="note")
    assert service.recording.record_event(m, note("n"), expected_seq=3, client_event_id="note").seq == 3
    assert stored_seqs(service.engine, m) == [1, 2, 3]


def test_client_event_ids_are_scoped_to_the_match(service: Service, club: str,
                                                  match_id: int) -> None:
    other = service.recording.create_match(club, "parejas", PLAYERS)["id"]
    a = service.recording.record_event(match_id, note("a"), expected_seq=0, client_event_id="same")
    b = service.recording.record_event(other, note("b"), expected_seq=0, client_event_id="same")
    assert (a.seq, b.seq, a.duplicate, b.duplicate) == (1, 1, False, False)


def test_racing_retries_of_one_event_store_it_once(engine: Engine, match_id: int) -> None:
    services = [Service(engine) for _ in range(6)]
    barrier = threading.Barrier(6)

    def work(i: int) -> Any:
        barrier.wait()
        return services[i].recording.record_event(match_id, note("the one"), expected_seq=0,
                                        client_event_id="retry-me")

    outcomes = run_threads(6, work)
    assert {o.seq for o in outcomes} == {1}
    assert sum(not o.duplicate for o in outcomes) == 1
    assert stored_seqs(engine, match_id) == [1]


# ----------------------------------------------------------------------------------- odd text

@pytest.mark.parametrize("text", [
    "nul \x00 inside", "\x00", "\u0000\u0001\u001f", "tab\tand\nnewline", "ñandú 🁣 \u2028",
    "lone surrogate \ud800 here", "surrogate \udfff and line separator \u2028 \x85",
    "backslash \\u0000 literal",
])
def test_any_json_string_is_kept_exactly(service: Service, match_id: int, text: str) -> None:
    event = {"type": "note", "text": text, "extra": {"k\x00": [text]}}
    service.recording.record_event(match_id, event, expected_seq=0)
    assert service.reading.list_events(match_id)[0]["event"] == event
    exported = service.reading.export_log(match_id).encode("utf-8")  # what the API sends
    imported = service.recording.import_log("casino", exported)
    assert service.reading.list_events(imported["id"])[0]["event"] == event


def test_a_one_megabyte_note(service: Service, match_id: int) -> None:
    text = ("0123456789abcdef" * 65536) + "\x00end"
    assert len(text) > 1_000_000
    service.recording.record_event(match_id, note(text), expected_seq=0)
    assert service.reading.list_events(match_id)[0]["event"]["text"] == text
    with reading(service.engine) as conn:
        assert conn.execute(select(func.count()).select_from(events)).scalar_one() == 1
        assert conn.execute(select(matches.c.last_seq)).scalar_one() == 1


def test_store_append_of_several_events_is_all_or_nothing(service: Service,
                                                          match_id: int) -> None:
    new = [store.NewEvent(store.dump_json(note(str(i))), "note") for i in range(3)]
    projection = store.Projection("in_progress", None, [0, 0], None, 3, 0, store.utcnow())
    with writing(service.engine) as conn:
        link = store.chain_link(conn, match_id, 0)
        assert store.append(conn, match_id, 0, new, projection, store.utcnow(), link).seq == 3
    with pytest.raises(store.StaleSeq):
        with writing(service.engine) as conn:
            store.append(conn, match_id, 2, new, projection, store.utcnow(),
                         store.chain_link(conn, match_id, 2))
    clash = [store.NewEvent(store.dump_json(note("x")), "note", client_event_id="a"),
             store.NewEvent(store.dump_json(note("y")), "note", client_event_id="a")]
    with pytest.raises(store.StaleSeq):
        with writing(service.engine) as conn:
            store.append(conn, match_id, 3, clash, projection, store.utcnow(),
                         store.chain_link(conn, match_id, 3))
    assert stored_seqs(service.engine, match_id) == [1, 2, 3]
    assert service.reading.get_match(match_id)["last_seq"] == 3


def test_the_store_packages_modules_are_modules() -> None:
    # the package once rebound its standings attribute to a function of that module
    import types

    import referee.store.standings as standings_module

    assert isinstance(standings_module, types.ModuleType)
    assert not hasattr(store, "standings") or isinstance(store.standings, types.ModuleType)


def test_the_appends_errors_are_sqlalchemys_and_change_nothing(database_url: str) -> None:
    """The one-event append runs on the driver on PostgreSQL (referee.store.driver):
    what it stores and how it fails are what SQLAlchemy's execution would give. A lock held on
    the match past the lock timeout is SQLAlchemy's OperationalError (the service answers it
    as the database being unavailable), a clash of client event ids is StaleSeq, and neither
    stores anything."""
    from db_helpers import migrate
    from sqlalchemy.exc import OperationalError

    from referee.service.errors import database_unavailable
    from referee.store.db import Timeouts, make_engine, optimistic

    engine = make_engine(database_url, timeouts=Timeouts(lock_ms=200, busy_ms=200))
    try:
        service = Service(engine)
        migrate(engine)
        service.clubs.create_club("casino", "Casino")
        m = service.recording.create_match("casino", "mano-a-mano", ["Ana", "Beto"])["id"]
        service.recording.record_event(m, note("one"), expected_seq=0, client_event_id="a")
        service.notifier.close()

        def append(seq: int, key: str | None) -> store.Appended:
            projection = store.Projection("in_progress", None, [0, 0], None, seq + 1, 0,
                                          store.utcnow())
            with optimistic(engine) as conn:
                return store.append(conn, m, seq, [store.NewEvent(store.dump_json(note(key or "-")),
                                                                  "note", client_event_id=key)],
                                    projection, store.utcnow(), store.chain_link(conn, m, seq))

        with pytest.raises(store.StaleSeq):
            append(1, "a")  # the client event id the first append stored
        with engine.connect() as holder:
            holder.execute(select(matches.c.id).where(matches.c.id == m).with_for_update())
            with pytest.raises(OperationalError) as refused:
                append(1, "b")
            assert database_unavailable(refused.value)
            holder.rollback()
        assert stored_seqs(engine, m) == [1]
        assert append(1, "b").seq == 2  # and the connection the refusal used is fine again
        with reading(engine) as conn:
            row = conn.execute(select(matches.c.last_seq, matches.c.totals)
                               .where(matches.c.id == m)).one()
            stored = conn.execute(select(events.c.client_event_id, events.c.digest)
                                  .where(events.c.match_id == m, events.c.seq == 2)).one()
        assert (row.last_seq, row.totals) == (2, [0, 0])
        assert stored.client_event_id == "b" and len(stored.digest) == 64
        # The driver's path processes only the totals as SQLAlchemy would: they must stay the
        # only column of the statement with a bind processor.
        dialect = engine.dialect
        processed = {c.name for c in [*matches.c, *events.c]
                     if c.type.dialect_impl(dialect).bind_processor(dialect) is not None}
        if dialect.driver == "psycopg":
            assert processed == {"totals", "rules", "players"}  # the matches' JSON columns
    finally:
        engine.dispose()


def test_the_appends_plans_find_the_match_by_its_key_after_an_analyze_of_a_few_rows(
        database_url: str) -> None:
    """On PostgreSQL one event is appended by the procedure ``append_event`` (migration 0028),
    whose generic plans are made once a connection and kept. A generic plan made after an
    ANALYZE of a fresh database's few rows would scan them, and keep scanning as the tables
    grow (referee.store.db); the procedure's own ``enable_seqscan = off`` keeps its plans (the
    compare-and-set's, and the foreign key's check of the match) on the primary key: each plan
    the server makes for an append, as auto_explain logs it, is generic (a parameter, no value,
    in its index condition) and scans nothing."""
    if not database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's plans")
    from db_helpers import migrate
    from sqlalchemy import event as sa_event

    from referee.store.db import make_engine

    logged: list[str] = []
    engine = make_engine(database_url, pool_size=1, max_overflow=0)
    try:
        service = Service(engine)
        service.notifier.enabled = False  # its batches would take another connection
        migrate(engine)
        service.clubs.create_club("casino", "Casino")
        m = service.recording.create_match("casino", "mano-a-mano", ["Ana", "Beto"])["id"]
        for seq in range(3):
            service.recording.record_event(m, note(str(seq)), expected_seq=seq,
                                           client_event_id=str(seq))
        with engine.connect() as conn:
            conn.exec_driver_sql("ANALYZE")  # a few rows: a scan is the cheapest way to them
            conn.commit()
        engine.dispose()  # the next connection is new: it plans afresh

        @sa_event.listens_for(engine, "connect")
        def _explain(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.add_notice_handler(lambda d: logged.append(d.message_primary))
            dbapi_connection.autocommit = True
            for setting in ("LOAD 'auto_explain'", "SET auto_explain.log_min_duration = 0",
                            "SET auto_explain.log_nested_statements = on",
                            "SET client_min_messages = log"):
                dbapi_connection.execute(setting)
            dbapi_connection.autocommit = False

        for seq in range(3, 6):
            logged.clear()
            service.recording.record_event(m, note(str(seq)), expected_seq=seq,
                                           client_event_id=str(seq))
    finally:
        engine.dispose()
    plans = [text for text in logged if "UPDATE matches" in text or "FOR KEY SHARE" in text]
    assert len(plans) == 2, logged  # the compare-and-set's, and the foreign key's check
    for plan in plans:
        assert "Index Scan using pk_matches on matches" in plan, plan
        assert "Seq Scan" not in plan, plan
        assert re.search(r"Index Cond: \((?:\w+\.)?id = \$\d+\)", plan), plan  # generic


