"""Fixtures and helpers for the CLI tests (tests/test_cli_*.py): each test gets its own SQLite
file, named by DOMINO_DATABASE_URL as a user would, upgraded, with the club ``casino``."""

from __future__ import annotations

import json
import random
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest
from click.testing import CliRunner, Result
from template_helpers import migrate

from cli.main import main
from referee.core.simulate import random_match
from referee.service import Service, open_service

CLUB = "casino"
OPEN_HANDS = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
              ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"]]


@dataclass
class Cli:
    runner: CliRunner
    service: Service
    url: str

    def run(self, *args: Any, input: str | None = None, code: int | None = 0) -> Result:
        """Invoke ``domino ARGS``; check the exit code (unless None) and that nothing ended in a
        traceback (a ClickException or sys.exit is a SystemExit; anything else is a bug)."""
        result = self.runner.invoke(main, [str(a) for a in args], input=input)
        assert result.exception is None or isinstance(result.exception, SystemExit), \
            "".join(traceback.format_exception(result.exception))
        if code is not None:
            assert result.exit_code == code, result.output
        return result

    def new_match(self, rules: Any = "mano-a-mano", players: tuple[str, ...] = ("Ana", "Beto"),
                  *extra: str) -> int:
        spec = rules if isinstance(rules, str) else json.dumps(rules)
        args = ["match", "new", "--club", CLUB, "--rules", spec]
        for name in players:
            args += ["--player", name]
        return int(self.run(*args, *extra).stdout.strip())

    def events(self, match_id: int) -> list[dict[str, Any]]:
        return [e["event"] for e in self.service.reading.list_events(match_id)]


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cli]:
    url = f"sqlite:///{tmp_path / 'domino.db'}"
    monkeypatch.setenv("DOMINO_DATABASE_URL", url)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")  # rich tables on one line each, for the assertions
    service = open_service(url)
    migrate(service.engine)
    service.clubs.create_club(CLUB, "Casino Domino Club")
    yield Cli(CliRunner(), service, url)
    service.close()


def legal_match(rules: Any = "mano-a-mano", players: tuple[str, ...] = ("Ana", "Beto"),
                seed: int = 1, **kwargs: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return random_match(rules, list(players), random.Random(seed), **kwargs)
