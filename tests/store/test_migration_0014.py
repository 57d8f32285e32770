"""Migration 0014 from a 0013 database and back, on SQLite and PostgreSQL: a match may be
``abandoned`` (the status check grows, the rows stay as they are), ``matches.created_by`` is
there (NULL for the matches of before: only a referee may withdraw those); going down, an
abandoned match is finished again and the check refuses ``abandoned`` once more."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError
from template_helpers import at_revision

from migrations import runner

MATCH = ("INSERT INTO matches (id, club_id, header, played_on, rules, players, status, round, "
         "totals, winner, last_seq, violations, event_bytes, created_at, updated_at) VALUES "
         "(:id, 1, '{}', '2026-12-01', '{}', '[]', :status, NULL, '[0, 0]', NULL, 0, 0, 0, "
         "'2026-12-01 20:00:00+00:00', '2026-12-01 20:00:00+00:00')")


def insert(engine: Engine, match_id: int, status: str) -> None:
    with engine.begin() as conn:
        conn.execute(text(MATCH), {"id": match_id, "status": status})


def status_of(engine: Engine, match_id: int) -> str:
    with engine.connect() as conn:
        return conn.execute(text("SELECT status FROM matches WHERE id = :id"),
                            {"id": match_id}).scalar_one()


def test_upgrade_from_0013_and_back(engine: Engine) -> None:
    at_revision(engine, "0013")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO clubs (id, slug, name, created_at) VALUES "
                          "(1, 'casino', 'Casino', '2026-12-01 20:00:00+00:00')"))
    insert(engine, 1, "in_progress")
    with pytest.raises(DBAPIError):
        insert(engine, 2, "abandoned")  # 0013 knows no such status

    runner.upgrade(engine, "0014")
    assert runner.current_revision(engine) == "0014"
    with engine.connect() as conn:
        assert conn.execute(text("SELECT created_by FROM matches WHERE id = 1")).scalar_one() is None
    insert(engine, 2, "abandoned")
    with pytest.raises(DBAPIError):
        insert(engine, 3, "lost")  # the check still holds for anything else
    assert (status_of(engine, 1), status_of(engine, 2)) == ("in_progress", "abandoned")

    runner.downgrade(engine, "0013")
    assert status_of(engine, 2) == "finished"  # below 0014 a withdrawn match is finished
    with pytest.raises(DBAPIError):
        insert(engine, 4, "abandoned")
    with engine.connect() as conn, pytest.raises(DBAPIError):
        conn.execute(text("SELECT created_by FROM matches"))
    runner.upgrade(engine, "0014")
    assert runner.current_revision(engine) == "0014"
