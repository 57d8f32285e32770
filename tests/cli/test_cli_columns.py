"""The terminal in 80 columns: every listing fits (the least needed columns left out, named once
on standard error; names wrapped; numbers and dates whole), --wide shows every column, and data
goes to standard output, messages to standard error, each clean: ``match new`` prints its id
alone on stdout; the table prompt's first screen says each thing once."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_helpers import CLUB, Cli
from click.testing import CliRunner
from sqlalchemy import Engine
from template_helpers import seeded

from referee.service import Service

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.jsonl"))
# Long names, so that a table that ignores the width would not fit
LONG = ("Ana María de los Ángeles", "Bartolomé Esteban", "Carla Domínguez", "Daniel Ortega Ruiz")


@pytest.fixture
def narrow(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> Cli:
    """The club la-ceiba with every example imported, and casino with a parejas match of long
    names, its token list and a dispute; in a terminal 80 columns wide. The database is built
    by ``_narrow`` once a session and copied (template_helpers.seeded)."""
    seeded(cli.service.engine, "cli narrow", _narrow)
    cli.service.matches.forget_all()
    monkeypatch.setenv("COLUMNS", "80")
    return cli


def _narrow(engine: Engine) -> None:
    """``narrow``'s database, made through the command line as the ``cli`` fixture's is."""
    url = engine.url.render_as_string(hide_password=False)
    service = Service(engine)
    service.clubs.create_club(CLUB, "Casino Domino Club")
    cli = Cli(CliRunner(), service, url)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DOMINO_DATABASE_URL", url)
        patch.setenv("COLUMNS", "200")
        cli.run("club", "create", "la-ceiba", "--name", "La Ceiba")
        cli.run("match", "import", "--club", "la-ceiba", *EXAMPLES)
        cli.new_match("parejas", LONG)
        cli.run("token", "issue", "--club", CLUB, "--role", "scorekeeper", "--label",
                "the scorekeeper's tablet at table three, by the window")
    service.close()


def assert_fits(text: str, width: int = 80) -> None:
    too_long = [line for line in text.splitlines() if len(line) > width]
    assert not too_long, "\n".join(too_long)


def cells(text: str) -> list[str]:
    """Every cell's text in a table, stripped (the frame's characters taken out)."""
    return [c.strip() for line in text.splitlines() for c in re.split(r"[│┃]", line) if c.strip()]


def test_standings_fit_80_columns_with_the_numbers_that_rank(narrow: Cli) -> None:
    result = narrow.run("standings", "--club", "la-ceiba")
    assert_fits(result.stdout)
    rows = {r["player"]: r for r in narrow.service.standings.table("la-ceiba")}
    shown = cells(result.stdout)
    for name in ("Ana", "Ema", "Juan"):
        row = rows[name]
        i = shown.index(name)
        # rank, then the name, played, won, lost, points for and difference: all there
        assert shown[i - 1] == str(row["rank"])
        assert shown[i + 1:i + 4] == [str(row["played"]), str(row["won"]), str(row["lost"])]
        assert str(row["points_for"]) in shown[i:i + 8] and str(row["difference"]) in shown[i:i + 8]
    assert "games" not in result.stdout
    assert result.stderr.count("left out to fit 80 columns") == 1 and "--wide" in result.stderr
    wide = narrow.run("standings", "--club", "la-ceiba", "--wide")
    assert "games" in wide.stdout and "against" in wide.stdout and not wide.stderr
    assert max(len(line) for line in wide.stdout.splitlines()) > 80
    as_json = json.loads(narrow.run("standings", "--club", "la-ceiba", "--json").stdout)
    assert as_json and not narrow.run("standings", "--club", "la-ceiba", "--json").stderr


def test_partnership_standings_fit_80_columns(narrow: Cli) -> None:
    result = narrow.run("standings", "--club", "la-ceiba", "--group", "partnerships")
    assert_fits(result.stdout)
    assert "Ana & Carla" in result.stdout


def test_match_list_fits_80_columns_names_wrapped_numbers_whole(narrow: Cli) -> None:
    result = narrow.run("match", "list", "--club", "la-ceiba")
    assert_fits(result.stdout)
    found, total = narrow.service.reading.list_matches("la-ceiba")
    text = result.stdout
    for m in found:
        assert re.search(rf"│\s+{m['id']} │", text), m["id"]
        totals = " - ".join(map(str, m["totals"]))
        assert totals in text, totals  # on one line: a total is never cut
    assert f"{len(EXAMPLES)} of {len(EXAMPLES)} matches" in text  # every example, imported
    assert result.stderr.count("left out to fit 80 columns") == 1
    long_names = narrow.run("match", "list", "--club", CLUB)
    assert_fits(long_names.stdout)
    for name in LONG:  # wrapped at spaces, every word of it there
        assert all(word in long_names.stdout for word in name.split())
    wide = narrow.run("match", "list", "--club", "la-ceiba", "--wide")
    assert "round" in wide.stdout and "date" in wide.stdout and not wide.stderr


def test_token_list_fits_80_columns_with_label_role_and_last_use(narrow: Cli) -> None:
    result = narrow.run("token", "list", "--club", CLUB)
    assert_fits(result.stdout)
    for word in ("scorekeeper's", "tablet", "window", "scorekeeper", "last used", "never"):
        assert word in result.stdout, word
    assert "issued by" not in result.stdout and "issued by" in result.stderr
    wide = narrow.run("token", "list", "--club", CLUB, "--wide")
    assert "issued by" in wide.stdout
    [token] = json.loads(narrow.run("token", "list", "--club", CLUB, "--json").stdout)
    assert token["label"].startswith("the scorekeeper's tablet") and token["role"] == "scorekeeper"


def test_disputes_player_list_and_imports_fit_80_columns(narrow: Cli) -> None:
    for args in (["disputes", "--club", "la-ceiba"], ["player", "list", "--club", CLUB],
                 ["match", "import", "--club", "la-ceiba", *EXAMPLES[:2]]):
        result = narrow.run(*args)
        assert_fits(result.stdout)
    disputes = narrow.run("disputes", "--club", "la-ceiba").stdout
    assert "renege" in disputes and "Ana (0)" in disputes


def test_match_new_prints_its_id_alone_on_stdout_and_its_message_on_stderr(narrow: Cli) -> None:
    result = narrow.run("match", "new", "--club", CLUB, "--rules", "mano-a-mano",
                        "--player", "Ana", "--player", "Beto")
    assert re.fullmatch(r"\d+\n", result.stdout), result.stdout
    match_id = result.stdout.strip()
    assert result.stderr == f"created match {match_id}: Ana, Beto\n"


def test_the_table_prompts_first_screen_says_each_thing_once(narrow: Cli) -> None:
    match_id = narrow.new_match()
    out = narrow.run("table", match_id, input="q\n").stdout
    first = out[:out.index(f"match {match_id}>")]
    assert first.count("Line: (empty)") == 1, first
    assert first.count("No round in progress") == 1, first
    assert "type deal" in first
    assert_fits(out)


# Compound surnames: one word each, longer than a squeezed name column
HYPHENATED = ("María José Fernández-Gutiérrez", "Bartolomé Esteban Murillo-Santos",
              "Carla Domínguez-Villalobos", "Íñigo Ortega Ruiz-Zorrilla")


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_names_wrap_at_their_spaces_never_mid_word_in_80_columns(cli: Cli, lang: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    cli.new_match("parejas", HYPHENATED)
    monkeypatch.setenv("COLUMNS", "80")
    for args in (["standings", "--club", CLUB], ["match", "list", "--club", CLUB],
                 ["player", "list", "--club", CLUB]):
        out = cli.run("--lang", lang, *args).stdout
        assert_fits(out)
        for name in HYPHENATED:  # each word whole on a line, or broken after its hyphen only
            for part in re.split(r"\s+|(?<=-)", name):  # never "Fernández-Gutié" / "rrez"
                assert part in out, (args, part, out)
