"""``domino db upgrade`` and ``domino db rebuild`` on both databases."""

from __future__ import annotations

from click.testing import CliRunner

from cli.main import main
from migrations.runner import current_revision, head_revision
from referee.store.db import make_engine
from referee.service import Service


def test_db_upgrade_then_rebuild(database_url: str) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["db", "upgrade", "--database-url", database_url])
    assert result.exit_code == 0, result.output
    engine = make_engine(database_url)
    try:
        assert current_revision(engine) == head_revision()
        service = Service(engine)
        service.clubs.create_club("casino", "Casino")
        service.recording.create_match("casino", "parejas", ["Ana", "Beto", "Carla", "Dani"])
        result = runner.invoke(main, ["db", "rebuild"], env={"DOMINO_DATABASE_URL": database_url})
        assert result.exit_code == 0, result.output
        assert "rebuilt 1 match" in result.output
    finally:
        engine.dispose()


def test_db_upgrade_reports_an_unreachable_database() -> None:
    result = CliRunner().invoke(main, ["db", "upgrade", "--database-url",
                                       "postgresql+psycopg://nobody@127.0.0.1:1/none"])
    assert result.exit_code == 1 and "database error" in result.output
