"""Migration 0015 from a 0014 database and back, on SQLite and PostgreSQL: every club gets no
default rules and no default target (NULL: the start form's first preset, at its own target);
an admin's defaults are kept, and going down drops both columns and nothing else."""

from __future__ import annotations

from db_helpers import upgrade_and_seal
from sqlalchemy import Engine, inspect, text
from template_helpers import at_revision

from migrations import runner
from referee.service import Service


def columns(engine: Engine) -> set[str]:
    return {c["name"] for c in inspect(engine).get_columns("clubs")}


def test_upgrade_from_0014_and_down_again(engine: Engine) -> None:
    at_revision(engine, "0014")
    assert not {"default_rules", "default_target"} & columns(engine)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO clubs (slug, name, created_at, public, language) "
                          "VALUES ('casino', 'Casino', '2026-12-01 00:00:00', true, 'es')"))

    upgrade_and_seal(engine)  # 0015 and on: the service of today needs its row MACs (0020, 0022)
    svc = Service(engine)
    club = svc.clubs.get_club("casino")
    assert (club["default_rules"], club["default_target"]) == (None, None)
    assert (club["public"], club["language"]) == (True, "es")  # the rest as it was
    svc.clubs.settings("casino", default_rules="veracruz", default_target=150)
    assert svc.clubs.get_club("casino")["default_rules"] == "veracruz"

    runner.downgrade(engine, "0014")
    assert not {"default_rules", "default_target"} & columns(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT name, language FROM clubs")).one() == ("Casino", "es")
    upgrade_and_seal(engine)
    club = Service(engine).clubs.get_club("casino")
    assert (club["default_rules"], club["default_target"], club["name"]) == (None, None, "Casino")
