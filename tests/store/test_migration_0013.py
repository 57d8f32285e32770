"""Migration 0013 from a 0012 database, on SQLite and PostgreSQL: every club gets the default
place for its players with no counted match (unranked NULL: listed apart), a club's setting
survives nothing but a downgrade, which drops the column."""

from __future__ import annotations

from db_helpers import record_all, sample_match, upgrade_and_seal
from sqlalchemy import Engine, inspect, text
from template_helpers import at_revision

from migrations import runner
from referee.service import Service

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


def columns(engine: Engine) -> set[str]:
    return {c["name"] for c in inspect(engine).get_columns("clubs")}


def test_upgrade_from_0012_and_down_again(engine: Engine) -> None:
    at_revision(engine, "0012")
    assert "unranked" not in columns(engine)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO clubs (slug, name, created_at, public) "
                          "VALUES ('casino', 'Casino', '2026-12-01 00:00:00', false)"))
    upgrade_and_seal(engine)
    assert "unranked" in columns(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT unranked FROM clubs")).scalar_one() is None
    svc = Service(engine)
    assert svc.standings.unranked("casino") == "apart"
    _, evs = sample_match("parejas", seed=4)
    m = svc.recording.create_match("casino", "parejas", PLAYERS)["id"]
    record_all(svc, m, evs)
    svc.players.create("casino", "Zoe")
    assert [r["ranked"] for r in svc.standings.table("casino")] == [True] * 4 + [False]
    svc.standings.set_unranked("casino", "hidden")
    assert len(svc.standings.table("casino")) == 4
    runner.downgrade(engine, "0012")
    assert "unranked" not in columns(engine)
    upgrade_and_seal(engine)
    assert Service(engine).standings.unranked("casino") == "apart"
