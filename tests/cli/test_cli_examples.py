"""Every log in examples/ imports as shipped, through the CLI and through the API, into the club
its header names (la-ceiba); the renege example with its refused pass as an open dispute, as the
table recorded it ("disputed": true). A log whose refused event is not marked is refused whole,
and the refusal names the line to mark, in the CLI and in the API's problem."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest
from api_helpers import Api, reused_api
from cli_helpers import Cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.jsonl"))
CLUB = "la-ceiba"  # the examples' header names it


def unmarked(path: Path) -> str:
    """The renege example without its mark: the pass the referee refuses, not disputed."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    events = [json.loads(line) for line in lines]
    marked = [i for i, e in enumerate(events) if e.get("disputed")]
    assert marked == [5], marked  # line 6, event 5: the only mark in the examples
    del events[5]["disputed"]
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)


def test_the_examples_are_all_here() -> None:
    assert {p.name for p in EXAMPLES} >= {"mano-a-mano.jsonl", "parejas.jsonl",
                                          "parejas-renege.jsonl", "veracruz-closed.jsonl",
                                          "fives-and-threes-pairs.jsonl", "all-fives.jsonl"}


def test_every_example_imports_through_the_cli(cli: Cli) -> None:
    cli.run("club", "create", CLUB, "--name", "La Ceiba")
    result = cli.run("match", "import", "--club", CLUB, "--json", *EXAMPLES)
    outcomes = json.loads(result.stdout)
    assert [o["file"] for o in outcomes] == [str(p) for p in EXAMPLES]
    assert all(o["match"] is not None and o["why"] is None for o in outcomes), outcomes
    for o in outcomes:
        events = len(Path(o["file"]).read_text(encoding="utf-8").splitlines()) - 1
        assert o["events"] == events and o["status"] == "finished", o
    renege = next(o for o in outcomes if o["file"].endswith("parejas-renege.jsonl"))
    report = cli.service.reading.report(renege["match"])
    assert [(d["seq"], d["code"], d["ruling"]) for d in report["disputes"]] == [(5, "renege", None)]
    # the table says it too, in 80 columns
    table = cli.run("match", "import", "--club", CLUB, str(EXAMPLES[0])).stdout
    assert "Imported 1 of 1 log" in table


def test_an_unmarked_refused_event_is_refused_saying_what_to_mark(cli: Cli, tmp_path: Path) -> None:
    cli.run("club", "create", CLUB, "--name", "La Ceiba")
    bare = tmp_path / "renege.jsonl"
    bare.write_text(unmarked(ROOT / "examples" / "parejas-renege.jsonl"), encoding="utf-8")
    result = cli.run("match", "import", "--club", CLUB, "--json", bare, code=1)
    [outcome] = json.loads(result.stdout)
    assert outcome["match"] is None and outcome["at"] == "line 6"
    assert 'event 5 (line 6): renege' in outcome["why"]
    assert 'mark that line "disputed": true' in outcome["why"]
    # The table names the file as given: by its name (the test's folder is the current one),
    # so that how its cells wrap does not hang on where the temporary folders are.
    shown = cli.run("match", "import", "--club", CLUB, bare.name, code=1).stdout
    assert "Imported 0 of 1 log" in shown and "Refused" in shown and '"disputed": true' in shown
    spanish = cli.run("--lang", "es", "match", "import", "--club", CLUB, bare.name, code=1).stdout
    assert "Importado 0 de 1 registro" in spanish and "Rechazado" in spanish and '"disputed": true' in spanish
    assert cli.service.reading.list_matches(CLUB)[1] == 0  # nothing stored


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Api]:
    built = reused_api(f"sqlite:///{tmp_path / 'api.db'}")
    built.service.clubs.create_club(CLUB, "La Ceiba")
    built.tokens[CLUB, "referee"] = built.service.tokens.create_token(CLUB, "referee")
    yield built
    built.service.close()


def post(api: Api, text: str) -> Any:
    return api.client.post(f"/api/v1/clubs/{CLUB}/matches/import", data=text.encode("utf-8"),
                           headers=api.auth("referee", CLUB))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_imports_through_the_api(api: Api, path: Path) -> None:
    response = post(api, path.read_text(encoding="utf-8"))
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["status"] == "finished"


def test_the_api_refusal_names_the_line_to_mark(api: Api) -> None:
    response = post(api, unmarked(ROOT / "examples" / "parejas-renege.jsonl"))
    assert response.status_code == 422
    body = response.get_json(force=True)
    assert body["violation"]["seq"] == 5 and body["violation"]["code"] == "renege"
    assert 'event 5 (line 6)' in body["detail"] and '"disputed": true' in body["detail"]
