"""referee.store.driver: a statement run on psycopg's connection gives what SQLAlchemy's
execution gives (the same rows, read by name; the parameters' bind processors and the
statement's literals applied), and elsewhere it is SQLAlchemy's execution itself."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, Numeric, bindparam, literal, select, update

from referee.service import Service
from referee.store.db import optimistic, reading, writing
from referee.store.driver import DriverStatement, driver_rows
from referee.store.schema import clubs, matches


def test_rows_are_sqlalchemys_rows(service: Service) -> None:
    service.clubs.create_club("casino", "Casino")
    for _ in range(3):
        service.recording.create_match("casino", "parejas", ["Ana", "Beto", "Carla", "Dani"])
    statement = (select(matches.c.id, matches.c.totals, matches.c.created_at,
                        clubs.c.slug.label("club"), literal(7).label("seven"))
                 .join(clubs, clubs.c.id == matches.c.club_id)
                 .where(matches.c.id >= bindparam("low"), matches.c.last_seq == 0,
                        matches.c.totals == bindparam("totals"))
                 .order_by(matches.c.id))
    hot = DriverStatement(statement)
    params = {"low": 2, "totals": [0, 0]}  # the JSON one through its bind processor
    with reading(service.engine) as conn:
        expected = conn.execute(statement, params).all()
        rows = hot.rows(conn, params)
        again = hot.rows(conn, params)  # compiled once, run twice
    assert [tuple(r) for r in rows] == [tuple(r) for r in expected] == [tuple(r) for r in again]
    assert [r.id for r in rows] == [2, 3] and {r.club for r in rows} == {"casino"}
    assert {r.seven for r in rows} == {7}


def test_a_column_sqlalchemy_would_process_is_refused(engine: Engine) -> None:
    if engine.dialect.driver != "psycopg":
        pytest.skip("elsewhere the statement is SQLAlchemy's execution")
    hot = DriverStatement(select(literal(1.5, Numeric(asdecimal=False)).label("n")))
    with reading(engine) as conn, pytest.raises(TypeError, match="'n' needs SQLAlchemy"):
        hot.rows(conn, {})


def test_counts_are_sqlalchemys_counts_and_the_writes_the_same(service: Service) -> None:
    # an UPDATE run on the driver (psycopg or sqlite3) in the caller's transaction: the same
    # row count as SQLAlchemy's, its JSON parameter through its bind processor, and a rollback
    # takes it back as it takes back SQLAlchemy's own
    service.clubs.create_club("casino", "Casino")
    for _ in range(3):
        service.recording.create_match("casino", "parejas", ["Ana", "Beto", "Carla", "Dani"])
    statement = (update(matches).where(matches.c.id >= bindparam("low"))
                 .values(totals=bindparam("new_totals")))
    hot = DriverStatement(statement)
    with writing(service.engine) as conn:
        assert hot.count(conn, {"low": 2, "new_totals": [5, 7]}) == 2
        assert hot.count(conn, {"low": 99, "new_totals": [1, 1]}) == 0
    with reading(service.engine) as conn:
        assert conn.execute(select(matches.c.totals).order_by(matches.c.id)).scalars().all() \
            == [[0, 0], [5, 7], [5, 7]]
    try:
        with writing(service.engine) as conn:
            assert hot.count(conn, {"low": 1, "new_totals": [9, 9]}) \
                == conn.execute(statement, {"low": 1, "new_totals": [9, 9]}).rowcount == 3
            raise RuntimeError("roll it back")
    except RuntimeError:
        pass
    with reading(service.engine) as conn:
        assert conn.execute(select(matches.c.totals).order_by(matches.c.id)).scalars().all() \
            == [[0, 0], [5, 7], [5, 7]]


def test_a_pooled_connection_keeps_one_cursor_for_the_hot_statements(engine: Engine) -> None:
    if engine.dialect.driver != "psycopg":
        pytest.skip("rows are run on the driver on psycopg only")
    cursors = []
    hot = DriverStatement(select(literal(1).label("one")))
    for _ in range(2):
        with optimistic(engine) as conn:
            assert [r.one for r in hot.rows(conn, {})] == [1]
            assert driver_rows(conn, "SELECT 2", {}) == [(2,)]
            cursors.append(conn.connection.info["referee.store.driver:cursor"])
    # the pool lent the same connection twice: the same cursor; a connection made anew (the
    # old one invalidated, say) gets its own
    assert cursors[0] is cursors[1]
    with optimistic(engine) as conn:
        conn.invalidate()
    with optimistic(engine) as conn:
        assert [r.one for r in hot.rows(conn, {})] == [1]
        kept = conn.connection.info["referee.store.driver:cursor"]
    assert kept[0] is not cursors[0][0] and kept[1] is not cursors[0][1]
