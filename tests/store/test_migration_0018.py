"""Migration 0018 from a 0017 database and back, on SQLite and PostgreSQL: every club gets no
time zone (NULL: its times are said in UTC, as before); a club's zone is kept, and going down
drops the column and nothing else."""

from __future__ import annotations

from db_helpers import upgrade_and_seal
from sqlalchemy import Engine, inspect, text
from template_helpers import at_revision

from migrations import runner
from referee.service import Service


def columns(engine: Engine) -> set[str]:
    return {c["name"] for c in inspect(engine).get_columns("clubs")}


def test_upgrade_from_0017_and_down_again(engine: Engine) -> None:
    at_revision(engine, "0017")
    before = columns(engine)
    assert "timezone" not in before
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO clubs (slug, name, created_at, public, language) "
                          "VALUES ('casino', 'Casino', '2026-12-01 00:00:00', true, 'es')"))

    upgrade_and_seal(engine)  # 0018 and on: the service of today needs its row MACs (0020, 0022)
    svc = Service(engine)
    club = svc.clubs.get_club("casino")
    assert club["timezone"] is None  # UTC
    assert (club["public"], club["language"]) == (True, "es")
    svc.clubs.settings("casino", timezone="Europe/Madrid")
    assert svc.clubs.get_club("casino")["timezone"] == "Europe/Madrid"

    runner.downgrade(engine, "0017")
    assert columns(engine) == before
    with engine.connect() as conn:
        assert conn.execute(text("SELECT name, language FROM clubs")).one() == ("Casino", "es")
    upgrade_and_seal(engine)
    assert Service(engine).clubs.get_club("casino")["timezone"] is None
