"""Hostile command lines: what a shell can hand ``domino`` that is not text. Bytes that are not
UTF-8 in an argument (a file name, a club's slug typed in Latin-1) reach Python as lone
surrogates, which no database, JSON or terminal takes: each was a traceback where it was stored
or printed. They are refused first, the argument named and its bytes shown, in the reader's
language, exit 2, and nothing is changed."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import CLUB, Cli
from sqlalchemy import text

ROOT = Path(__file__).resolve().parents[2]
LATIN1 = os.fsdecode(b"caf\xe9")  # 'caf\udce9': how Python hands over the byte 0xE9


@pytest.mark.parametrize("args", [
    ["club", "show", LATIN1],
    ["club", "create", LATIN1, "Café"],
    ["player", "add", LATIN1, "--club", CLUB],
    ["match", "import", "--club", CLUB, LATIN1],
    ["validate", LATIN1],
    ["verify", LATIN1],
    ["tournament", "show", LATIN1, "--club", CLUB],
    ["key", "init", "--club", LATIN1],
], ids=lambda args: " ".join(args[:2]))
def test_an_argument_that_is_not_utf8_is_refused_by_name(cli: Cli, args: list[str]) -> None:
    before = cli.run("player", "list", "--club", CLUB, "--json").stdout
    out = cli.run(*args, code=2).output
    assert f"Error: argument {args.index(LATIN1) + 1} is not UTF-8 text: caf\\xe9\n" in out
    out = cli.run("--lang", "it", *args, code=2).output
    assert f"l'argomento {args.index(LATIN1) + 3} non è testo UTF-8: caf\\xe9" in out
    assert cli.run("player", "list", "--club", CLUB, "--json").stdout == before


def test_the_fast_path_hands_such_a_line_to_click(tmp_path: Path) -> None:
    """``domino validate`` and ``show`` without click (cli.entry) decline it, and click
    refuses it as for every command: the bytes as a shell passes them."""
    for command in ("validate", "show"):
        done = subprocess.run([sys.executable, "-c", "from cli.entry import main; main()",
                               command, b"caf\xe9.jsonl"], cwd=tmp_path, capture_output=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT), "LC_ALL": "es_ES.UTF-8",
                                   "PYTHONIOENCODING": "utf-8"}, check=False, timeout=60)
        assert done.returncode == 2, done.stderr
        assert b"Traceback" not in done.stderr
        assert "el argumento 2 no es texto UTF-8: caf\\xe9.jsonl" in done.stderr.decode()


def test_a_name_too_long_for_a_file_is_said_not_a_traceback(cli: Cli, tmp_path: Path) -> None:
    """pathlib's exists() and is_file() raise for a name the system refuses to look up (longer
    than NAME_MAX): ``show`` took it as a file to look for, ``verify --key`` as a file or the
    keys' own text; each was a traceback. The one is a file that cannot be read, the other text."""
    long = "x" * 5000
    assert cli.run("show", long, code=1).output.endswith(
        f"{long}: cannot read the file: File name too long\n")
    assert cli.run("--lang", "es", "show", long, code=1).output.endswith(
        ": no se puede leer el archivo: nombre de archivo demasiado largo\n")
    done = subprocess.run([sys.executable, "-c", "from cli.entry import main; main()", "show",
                           long], cwd=tmp_path, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"},
                          timeout=60)
    assert done.returncode == 1
    assert done.stderr.endswith(f"{long}: cannot read the file: File name too long\n")
    acta = tmp_path / "acta.json"
    acta.write_text('{"format": "domino-acta/2"}', encoding="utf-8")
    out = cli.run("verify", "--acta", acta, "--key", long, code=2).output
    assert out.startswith("--key: ") and "Traceback" not in out


def test_a_database_that_cannot_be_used_is_said_in_the_readers_language(cli: Cli,
                                                                         tmp_path: Path,
                                                                         monkeypatch) -> None:
    """SQLite's refusals (a file that is not a database, a folder, a database opened read-only)
    were its English words in every language; nothing is written."""
    junk = tmp_path / "text.db"
    junk.write_text("not a database at all, " * 100)
    for url, lang, words in (
            (f"sqlite:///{junk}", "es", "error de la base de datos: el archivo no es una base de datos"),
            (f"sqlite:///{tmp_path}", "it", "errore del database: impossibile aprire il file del database"),
            (f"sqlite:///{junk}", "en", "database error: file is not a database")):
        monkeypatch.setenv("DOMINO_DATABASE_URL", url)
        assert words in cli.run("--lang", lang, "match", "list", "--club", CLUB, code=1).output
    database = cli.url.split("///", 1)[1]
    monkeypatch.setenv("DOMINO_DATABASE_URL", f"sqlite:///file:{database}?mode=ro&uri=true")
    out = cli.run("--lang", "es", "club", "create", "otro", "Otro", code=1).output
    assert "de solo lectura" in out
    with cli.service.engine.connect() as conn:
        assert list(conn.execute(text("SELECT slug FROM clubs")).scalars()) == [CLUB]


def test_a_postgresql_that_cannot_be_reached_is_said_in_the_readers_language(cli: Cli,
                                                                            monkeypatch) -> None:
    """libpq's words (the server it tried, and why) were English in every language, on two
    lines: a port bound by no server refuses the connection."""
    with socket.socket() as bound:  # bound and not listening: a connection to it is refused
        bound.bind(("127.0.0.1", 0))
        port = bound.getsockname()[1]
        monkeypatch.setenv("DOMINO_DATABASE_URL", f"postgresql+psycopg://domino@127.0.0.1:{port}/x")
        for lang, said in (
                ("es", "Error: error de la base de datos: el servidor de la base de datos "
                       f"127.0.0.1, puerto {port}: conexión rechazada\n"),
                ("it", "Errore: errore del database: il server del database 127.0.0.1, porta "
                       f"{port}: connessione rifiutata\n"),
                ("en", f"Error: database error: the database server 127.0.0.1, port {port}: "
                       "Connection refused\n")):
            assert cli.run("--lang", lang, "match", "list", "--club", CLUB, code=1).output == said


def test_an_output_file_that_cannot_be_written_says_why_in_the_readers_language(cli: Cli,
                                                                                tmp_path: Path) -> None:
    match_id = cli.new_match()
    target = tmp_path / "no" / "x.jsonl"
    assert cli.run("--lang", "es", "match", "export", match_id, "-o", target, code=1).output \
        == f"Error: no se puede escribir {target}: no existe el archivo o el directorio\n"
    assert cli.run("match", "export", match_id, "-o", target, code=1).output \
        == f"Error: cannot write {target}: No such file or directory\n"
    assert not target.parent.exists()


@pytest.mark.parametrize("url, said", [
    ("mysql://u@h/d", "Error: mysql://u@h/d: domino works on SQLite and PostgreSQL only, not mysql"),
    ("nonsense://x", "Error: nonsense://x: domino works on SQLite and PostgreSQL only, not nonsense"),
    ("postgresql+nodriver://u:secret@h/d", "Error: postgresql+nodriver://u:***@h/d: domino works on "
                                           "SQLite and PostgreSQL only, not postgresql+nodriver"),
    ("::::", "Error: the database URL cannot be read: give sqlite:///FILE or "
             "postgresql+psycopg://USER@HOST/DATABASE"),
])
def test_a_database_url_domino_cannot_use_is_said(cli: Cli, monkeypatch, url: str,
                                                  said: str) -> None:
    """A URL of another database, of no database, or of a driver not installed: a MySQL URL was
    a ModuleNotFoundError traceback, the others SQLAlchemy's English. Said in the reader's
    language, the password never shown."""
    monkeypatch.setenv("DOMINO_DATABASE_URL", url)
    out = cli.run("match", "list", "--club", CLUB, code=1).output
    assert out == said + "\n"
    out = cli.run("--lang", "es", "db", "upgrade", "--database-url", url, code=1).output
    assert "Error: " in out and "secret" not in out
    assert ("domino funciona solo con SQLite y PostgreSQL" in out
            or "no se puede leer la URL de la base de datos" in out
            or "que no está instalado" in out)


def test_reveal_without_tiles_nor_pips_is_said_in_the_readers_language(cli: Cli) -> None:
    """Its refusal was an English literal, outside the catalogs."""
    match_id = cli.new_match()
    for lang, words in (("en", "give the tiles or --pips, one of the two"),
                        ("es", "indique las fichas o --pips, una de las dos cosas"),
                        ("it", "indicare le tessere o --pips, una delle due cose")):
        out = cli.run("--lang", lang, "reveal", match_id, "--seat", "0", code=2).output
        assert out.endswith(f": {words}\n"), out
    assert cli.events(match_id) == []


def test_a_token_that_cannot_be_sent_is_named(cli: Cli, tmp_path: Path) -> None:
    """A --token (or DOMINO_TOKEN) no HTTP header can hold (not ASCII, a newline) was said as
    'not a URL that can be fetched', the URL blamed; nothing is fetched."""
    url = "http://127.0.0.1:9/api/v1/clubs/x/transparency"
    for token in ("añ€", "a\nb", "a b"):
        out = cli.run("--lang", "es", "verify", "--acta", url, "--key", "x", "--token", token,
                      code=2).output
        assert out == "--token (o DOMINO_TOKEN): una clave de acceso (bearer) es ASCII imprimible, sin espacios\n"


def test_serve_on_a_database_it_cannot_use_is_one_line(cli: Cli, tmp_path: Path,
                                                       monkeypatch) -> None:
    """domino serve opened its database outside the CLI's connect: a URL or a file it cannot use
    was a traceback (Invalid, or sqlite3's DatabaseError), where every other command says it."""
    monkeypatch.setenv("DOMINO_DATABASE_URL", "mysql://u@h/d")
    assert cli.run("--lang", "es", "serve", "--port", "0", code=1).output == (
        "Error: mysql://u@h/d: domino funciona solo con SQLite y PostgreSQL, no con mysql\n")
    junk = tmp_path / "text.db"
    junk.write_text("not a database at all, " * 100)
    monkeypatch.setenv("DOMINO_DATABASE_URL", f"sqlite:///{junk}")
    assert cli.run("serve", "--port", "0", code=1).output == (
        "Error: database error: file is not a database\n")
