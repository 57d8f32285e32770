"""referee.store.driver: a statement run on psycopg's connection gives what SQLAlchemy's
execution gives (the same rows, read by name; the parameters' bind processors and the
statement's literals applied), and elsewhere it is SQLAlchemy's execution itself."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, Numeric, bindparam, literal, select

from referee.service import Service
from referee.store.db import reading
from referee.store.driver import DriverStatement
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
