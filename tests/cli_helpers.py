"""Helpers for the CLI tests (tests/cli/). Their fixture ``cli`` (tests/cli/conftest.py) gives
each test its own SQLite file, named by DOMINO_DATABASE_URL as a user would, migrated, with the
club ``casino``."""

from __future__ import annotations

import json
import random
import traceback
from dataclasses import dataclass
from typing import Any

from click.testing import CliRunner, Result

from cli.main import main
from referee.core.simulate import random_match
from referee.service import Service

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


def legal_match(rules: Any = "mano-a-mano", players: tuple[str, ...] = ("Ana", "Beto"),
                seed: int = 1, **kwargs: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return random_match(rules, list(players), random.Random(seed), **kwargs)
