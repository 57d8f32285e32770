"""The CLI tests' fixture (their helpers are in tests/cli_helpers.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from cli_helpers import CLUB, Cli
from click.testing import CliRunner
from sqlalchemy import Engine
from template_helpers import seeded

from referee.service import Service, open_service


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cli]:
    url = f"sqlite:///{tmp_path / 'domino.db'}"
    monkeypatch.setenv("DOMINO_DATABASE_URL", url)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")  # rich tables on one line each, for the assertions
    service = open_service(url)
    seeded(service.engine, "cli", _casino)  # a copy of a database made so once a session
    yield Cli(CliRunner(), service, url)
    service.close()


def _casino(engine: Engine) -> None:
    """The CLI tests' database: migrated, with the club ``casino``."""
    service = Service(engine)
    service.clubs.create_club(CLUB, "Casino Domino Club")
    service.close()
