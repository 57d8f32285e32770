"""Migration 0015 from a 0014 database and back, on SQLite and PostgreSQL: every club gets no
default rules and no default target (NULL: the start form's first preset, at its own target);
an admin's defaults are kept, and going down drops both columns and nothing else."""

from __future__ import annotations

from sqlalchemy import Engine, inspect, text

from migrations import runner
from referee.service import Service


def columns(engine: Engine) -> set[str]:
    return {c["name"] for c in inspect(engine).get_columns("clubs")}


def lend_timezone(engine: Engine, *, add: bool) -> None:
    """The service of today reads 0018's clubs.timezone: lent to the 0015 database while the
    service reads it, taken back before the migrations move on."""
    with engine.begin() as conn:
        conn.execute(text("ALTER TABLE clubs ADD COLUMN timezone VARCHAR(64)") if add
                     else text("ALTER TABLE clubs DROP COLUMN timezone"))


def test_upgrade_from_0014_and_down_again(engine: Engine) -> None:
    runner.upgrade(engine, "0014")
    assert not {"default_rules", "default_target"} & columns(engine)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO clubs (slug, name, created_at, public, language) "
                          "VALUES ('casino', 'Casino', '2026-12-01 00:00:00', true, 'es')"))

    runner.upgrade(engine, "0015")
    assert runner.current_revision(engine) == "0015"
    lend_timezone(engine, add=True)
    svc = Service(engine)
    club = svc.clubs.get_club("casino")
    assert (club["default_rules"], club["default_target"]) == (None, None)
    assert (club["public"], club["language"]) == (True, "es")  # the rest as it was
    svc.clubs.settings("casino", default_rules="veracruz", default_target=150)
    assert svc.clubs.get_club("casino")["default_rules"] == "veracruz"
    lend_timezone(engine, add=False)

    runner.downgrade(engine, "0014")
    assert not {"default_rules", "default_target"} & columns(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT name, language FROM clubs")).one() == ("Casino", "es")
    runner.upgrade(engine)
    club = Service(engine).clubs.get_club("casino")
    assert (club["default_rules"], club["default_target"], club["name"]) == (None, None, "Casino")
