"""A fast ``domino``: a command imports what it needs when it runs. ``--help`` lists the commands
from cli.main's table without importing one, and ``validate`` and ``show`` on a log file never
load the service, the store, SQLAlchemy, flask or alembic; a listing on SQLite loads SQLAlchemy
and the service but not alembic, flask nor the PostgreSQL dialect. (The console script's
click-free fast path for validate and show: tests/cli/test_cli_entry.py.)

Each check runs the command in a fresh interpreter (this one has imported everything) and reads
the modules it ended with.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cli.lazy import LazyGroup
from cli.main import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow  # start-up is measured in fresh interpreters
EXAMPLE = str(ROOT / "examples" / "parejas.jsonl")
RENEGE = str(ROOT / "examples" / "parejas-renege.jsonl")
HEAVY = ("sqlalchemy", "flask", "alembic", "referee.service", "referee.store", "migrations", "api")

RUN = """
import json, sys
from click.testing import CliRunner
from cli.main import main
result = CliRunner().invoke(main, json.loads(sys.argv[1]), prog_name="domino", terminal_width=80)
print(json.dumps({"exit_code": result.exit_code, "output": result.output,
                  "error": repr(result.exception), "modules": sorted(sys.modules)}))
"""


def run_alone(*args: str, env: dict[str, str] | None = None) -> dict:
    """``domino ARGS`` in a new interpreter: its exit code, output and every module loaded."""
    out = subprocess.run([sys.executable, "-c", RUN, json.dumps(list(args))], cwd=ROOT,
                         capture_output=True, text=True, check=True,
                         env=None if env is None else {**os.environ, **env}).stdout
    return json.loads(out.splitlines()[-1])


def heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


@pytest.mark.parametrize("args", [
    ["--help"], ["validate", EXAMPLE], ["validate", "--json", EXAMPLE, RENEGE],
    ["show", EXAMPLE], ["show", RENEGE, "--at", "5"], ["validate", "--help"], ["show", "--help"],
], ids=" ".join)
def test_help_and_the_log_commands_load_no_database_nor_web_framework(args: list[str]) -> None:
    ran = run_alone(*args)
    assert ran["exit_code"] in (0, 1), ran
    assert ran["output"], ran
    assert heavy(ran["modules"]) == []


def test_help_imports_no_command_module_nor_rich() -> None:
    ran = run_alone("--help")
    assert ran["exit_code"] == 0
    loaded = ran["modules"]
    # cli.argv: the group's check of its arguments (utf8), no import of its own; cli.entry is
    # not the group's: a process started as `domino` has it, this one does not
    assert [m for m in loaded if m.startswith("cli.")] == ["cli.argv", "cli.click_words",
                                                          "cli.lazy", "cli.main"]
    assert not [m for m in loaded if m == "rich" or m.startswith(("rich.", "referee"))]


def test_validate_json_loads_no_rich() -> None:
    ran = run_alone("validate", "--json", EXAMPLE)
    assert json.loads(ran["output"])["valid"] is True
    assert not [m for m in ran["modules"] if m == "rich" or m.startswith("rich.")]
    assert "referee.core.position" not in ran["modules"]  # show's table, not validate's


FAST_PATH = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))
from cli.entry import main
main()
"""


def test_the_fast_path_validating_an_undated_log_without_corrections_loads_no_hashlib_nor_datetime(
        tmp_path: Path) -> None:
    # hashlib (OpenSSL's library) is a void's or an amend's (disputes._Prefix), datetime a
    # header's date (log.iso_date): both imported where used, a start without them some 17
    # million instructions lighter (docs/performance.md)
    lines = Path(EXAMPLE).read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    del header["date"]
    log = tmp_path / "undated.jsonl"
    log.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", FAST_PATH, "validate", "--json", str(log)],
                          cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["valid"] is True
    modules = json.loads(done.stderr.splitlines()[-1])
    assert "referee.core.disputes" in modules and "referee.core.log" in modules
    assert not [m for m in modules if m in ("hashlib", "_hashlib", "datetime", "_datetime")]
    assert "click" not in modules  # the console script's fast path, not click's


EXITING = """
import atexit, gc, sys
atexit.register(lambda: print(gc.get_freeze_count(), file=sys.stderr))
from cli.entry import main
main()
"""


@pytest.mark.parametrize("args", [["validate", "--json", EXAMPLE, RENEGE], ["validate", EXAMPLE],
                                  ["show", EXAMPLE], ["validate", "--json", "missing.jsonl"],
                                  ["match", "--help"]], ids=" ".join)
def test_the_fast_path_leaves_the_collector_nothing_to_walk_at_exit(args: list[str]) -> None:
    # the interpreter's finalization runs full collections over every object alive; validate
    # and show, about to exit, freeze them (cli.collector.leave); click's commands keep them
    done = subprocess.run([sys.executable, "-c", EXITING, *args], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert done.returncode in (0, 1, 2), done.stderr
    frozen = int(done.stderr.splitlines()[-1])
    assert (frozen > 0) == (args[0] != "match"), frozen


def test_a_database_command_still_loads_the_service_when_it_runs(tmp_path: Path) -> None:
    # the check above would pass for a CLI that imported nothing: this one connects
    ran = run_alone("db", "upgrade", "--database-url", f"sqlite:///{tmp_path / 'x.db'}")
    assert ran["exit_code"] == 0, ran
    assert "referee.service" in ran["modules"] and "sqlalchemy" in ran["modules"]


def test_a_listing_on_sqlite_loads_no_alembic_flask_cryptography_nor_the_postgresql_dialect(
        tmp_path: Path) -> None:
    # alembic only to upgrade (or to say that an upgrade is due), flask only to serve,
    # cryptography only to sign or verify, openskill only to rate, the PostgreSQL dialect
    # (asyncpg's with it) only on PostgreSQL
    unneeded = ("alembic", "flask", "api", "migrations", "cryptography", "openskill")
    env = {"DOMINO_DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"}
    assert run_alone("db", "upgrade", env=env)["exit_code"] == 0
    assert run_alone("club", "create", "x", "--name", "X", env=env)["exit_code"] == 0
    for args in (["match", "list", "--club", "x"], ["match", "list", "--club", "x", "--json"],
                 ["player", "list", "--club", "x"]):
        ran = run_alone(*args, env=env)
        assert ran["exit_code"] == 0, ran
        assert "sqlalchemy" in ran["modules"] and "referee.service" in ran["modules"]
        assert not [m for m in ran["modules"] if m.split(".")[0] in unneeded
                    or m.startswith("sqlalchemy.dialects.postgresql")], args


def lazy_groups() -> list[tuple[str, LazyGroup]]:
    ctx = click.Context(main)
    groups: list[tuple[str, LazyGroup]] = [("domino", main)]
    for name in COMMANDS:
        command = main.get_command(ctx, name)
        if isinstance(command, LazyGroup) and command.lazy:
            groups.append((f"domino {name}", command))
    return groups


@pytest.mark.parametrize("path, group", lazy_groups(), ids=[p for p, _ in lazy_groups()])
def test_every_table_entry_is_the_command_it_names_with_its_short_help(path: str,
                                                                        group: LazyGroup) -> None:
    ctx = click.Context(group)
    for name, (target, short_help) in group.lazy.items():
        command = group.load(name)
        assert command.name == name, target
        wide = 10**6
        assert click.Command(name, help=short_help).get_short_help_str(wide) \
            == command.get_short_help_str(wide), f"{path} {name}: update the table's short help"
        assert group.get_command(ctx, name) is command


def test_the_lazy_listing_is_what_the_commands_would_list() -> None:
    lazily = run_alone("--help")["output"]
    ctx = click.Context(main)
    for name in main.list_commands(ctx):
        main.get_command(ctx, name)  # every command imported: click's own listing
    assert set(main.commands) == set(COMMANDS)
    eagerly = CliRunner().invoke(main, ["--help"], prog_name="domino", terminal_width=80).output
    assert lazily == eagerly


def test_an_unknown_command_is_a_usage_error_that_imports_nothing() -> None:
    ran = run_alone("nope")
    assert ran["exit_code"] == 2 and "No such command 'nope'" in ran["output"]
    assert not [m for m in ran["modules"] if m.startswith("cli.")
                and m not in ("cli.argv", "cli.click_words", "cli.lazy", "cli.main")]


HELPS = """
import json, sys
import click
from click.testing import CliRunner
from cli.main import main
name = sys.argv[1]
command = main.get_command(click.Context(main), name)
helps = [[name, "--help"]]
if isinstance(command, click.Group):
    helps += [[name, sub, "--help"] for sub in command.list_commands(click.Context(command))]
codes = [CliRunner().invoke(main, args, prog_name="domino").exit_code for args in helps]
print(json.dumps({"codes": codes, "modules": sorted(sys.modules)}))
"""


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_help_loads_no_service_nor_sqlalchemy(command: str) -> None:
    # `domino match --help`, `domino token create --help`: help is read before any connection
    out = subprocess.run([sys.executable, "-c", HELPS, command], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    ran = json.loads(out.splitlines()[-1])
    assert set(ran["codes"]) == {0}, ran["codes"]
    assert heavy(ran["modules"]) == []


@pytest.mark.parametrize("command", ["disputes", "dispute-sheet", "stands", "amend", "penalty"])
def test_the_dispute_commands_import_the_service_only_when_they_run(command: str) -> None:
    ran = run_alone(command, "--help")
    assert ran["exit_code"] == 0 and "Example" in ran["output"], ran
    assert heavy(ran["modules"]) == []


# What a database command imports of the service, and nothing heavy it does not use: each
# concern's module is imported when first used (referee.service._Part), so a listing loads no
# tournament, league, dispute, acta, key or audit code, and none of networkx (the pairings),
# cryptography (signing), openskill (rating), alembic or flask. A module added here is a cost
# every such command pays at start (bench/cli_bench.py: within 1.5x importing SQLAlchemy).
SERVICE_OF = {
    ("match", "list", "--club", "x"): {
        "access", "checks", "errors", "freshness", "keyfolder", "lookup", "reading", "record",
        "repository", "rowcheck", "rowkey", "summary", "uow"},
    ("standings", "--club", "x"): {
        "access", "checks", "errors", "freshness", "keyfolder", "lookup", "ratings", "record",
        "repository", "rowcheck", "rowkey", "standings", "uow"},
}
# difflib (a close name, when a name is seated or made), zoneinfo (the list of zones: a club's
# setting checked) and the scoreboard's notifier (an append) are imported when first used
# The store's tables a command builds beyond every command's (referee.store.schema: each
# concern's group is built the first time one of its tables is named): a listing none, the
# standings their projections'; the tournaments', keys' and leagues' never at such a start.
SCHEMA_OF = {("match", "list", "--club", "x"): set(),
             ("standings", "--club", "x"): {"schema_standings"}}
NEVER_AT_START = ("networkx", "cryptography", "openskill", "alembic", "flask", "api",
                  "migrations", "segno", "sqlalchemy.dialects.postgresql", "difflib", "zoneinfo",
                  "referee.store.notify")


@pytest.mark.parametrize("args", list(SERVICE_OF), ids=" ".join)
def test_a_database_command_imports_what_it_uses(args: tuple[str, ...], tmp_path: Path) -> None:
    env = {"DOMINO_DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"}
    assert run_alone("db", "upgrade", env=env)["exit_code"] == 0
    assert run_alone("club", "create", "x", "--name", "X", env=env)["exit_code"] == 0
    ran = run_alone(*args, env=env)
    assert ran["exit_code"] == 0, ran
    service = {m.removeprefix("referee.service.") for m in ran["modules"]
               if m.startswith("referee.service.")}
    assert service == SERVICE_OF[args]
    assert {m.removeprefix("referee.store.") for m in ran["modules"]
            if m.startswith("referee.store.schema_")} == SCHEMA_OF[args]
    assert [m for m in ran["modules"]
            if any(m == n or m.startswith(n + ".") for n in NEVER_AT_START)] == []


def test_the_standings_load_no_rules_core_replay_nor_icu_nor_rich_they_do_not_use(
        tmp_path: Path) -> None:
    # the standings read the store's rows: no match is replayed (the core's Match, replay and
    # disputes are types there), an empty table has no tie to collate (ICU), and --json
    # prints no table (rich)
    env = {"DOMINO_DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"}
    assert run_alone("db", "upgrade", env=env)["exit_code"] == 0
    assert run_alone("club", "create", "x", "--name", "X", env=env)["exit_code"] == 0
    unused = ("referee.core.match", "referee.core.replay", "referee.core.disputes", "icu")
    for args, more in ((["standings", "--club", "x"], ()),
                       (["standings", "--club", "x", "--json"], ("rich",))):
        ran = run_alone(*args, env=env)
        assert ran["exit_code"] == 0, ran
        assert "referee.service.standings" in ran["modules"]
        assert [m for m in ran["modules"] if any(m == n or m.startswith(n + ".")
                                                 for n in (*unused, *more))] == [], args


def test_a_listing_loads_no_rules_core_match_nor_view_of_a_match(tmp_path: Path) -> None:
    # the listing summarises each match from its row: the operator sees hands, so no match is
    # replayed, and the view, its screen and the rules core's match, replay and position (the
    # replay code the listing used to load through reading.py) are imported only to view one
    env = {"DOMINO_DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"}
    assert run_alone("db", "upgrade", env=env)["exit_code"] == 0
    assert run_alone("club", "create", "x", "--name", "X", env=env)["exit_code"] == 0
    unused = ("referee.core.match", "referee.core.replay", "referee.core.position",
              "referee.service.view", "referee.service.screen", "referee.service.players")
    for args in (["match", "list", "--club", "x"], ["match", "list", "--club", "x", "--json"]):
        ran = run_alone(*args, env=env)
        assert ran["exit_code"] == 0, ran
        assert "referee.service.reading" in ran["modules"]
        assert [m for m in ran["modules"] if m in unused] == [], args
