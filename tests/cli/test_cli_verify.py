"""``domino verify`` and ``domino acta``, as a member would use them: a good log and its acta
pass (exit 0); a record with an open dispute is verified but flagged (1); what cannot be read
is 2; every tampering of the log or the acta, a wrong key, an acta outside its club's tree,
and a tree that no longer extends the head a member kept are 3. Inclusion and consistency are
checked from files and over HTTP from a real server. The offline check loads neither the
database nor the web framework."""

from __future__ import annotations

import http.server
import json
import random
import socket
import threading
from pathlib import Path
from typing import Iterator

import pytest
from api_helpers import served
from cli_helpers import CLUB, Cli
from sqlalchemy import text
from test_cli_startup import heavy, run_alone

from api import create_app
from referee.core import chain
from referee.core.log import MAX_LINE_BYTES
from referee.core.simulate import random_match

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


def write(path: Path, values: list) -> Path:
    path.write_text("".join(json.dumps(v) + "\n" for v in values), encoding="utf-8")
    return path


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def import_match(cli: Cli, tmp_path: Path, seed: int, name: str) -> int:
    header, events = random_match("parejas", PLAYERS, random.Random(seed))
    source = write(tmp_path / f"{name}-source.jsonl", [header, *events])
    cli.run("match", "import", "--club", CLUB, source)
    return max(m["id"] for m in cli.service.reading.list_matches(CLUB)[0])


@pytest.fixture
def played(cli: Cli, tmp_path: Path) -> dict[str, Path]:
    """A finished match, signed: its log, its acta, the club's keys and its tree head, as a
    member keeps them."""
    cli.run("key", "init", "--club", CLUB)
    match_id = import_match(cli, tmp_path, 11, "m")
    paths = {"log": tmp_path / "m.jsonl", "acta": tmp_path / "acta.json",
             "keys": tmp_path / "keys.json", "head": tmp_path / "head.json",
             "proof": tmp_path / "proof.json"}
    cli.run("match", "export", match_id, "-o", paths["log"])
    cli.run("acta", match_id, "-o", paths["acta"])
    paths["keys"].write_text(cli.run("key", "list", "--club", CLUB, "--json").stdout)
    head = cli.service.transparency.head(CLUB)
    paths["head"].write_text(json.dumps(head))
    acta = json.loads(paths["acta"].read_text(encoding="utf-8"))
    paths["proof"].write_text(json.dumps(
        cli.service.transparency.inclusion(CLUB, acta["leaf_index"], head["size"])))
    return paths


def test_a_good_log_prints_its_head(cli: Cli, played: dict[str, Path]) -> None:
    log = lines(played["log"])
    head = chain.head(log[0], log[1:])
    assert f"chain head {head}" in cli.run("verify", played["log"]).stdout
    acta = json.loads(played["acta"].read_text(encoding="utf-8"))
    assert acta["chain"]["head"] == head
    as_json = json.loads(cli.run("verify", "--json", played["log"]).stdout)
    assert as_json["ok"] and as_json["status"] == 0 and as_json["head"] == head
    cli.run("verify", played["log"], "--head", head)
    out = cli.run("verify", played["log"], "--head", "0" * 64, code=3).stdout
    assert "not that record" in out


def test_a_good_acta_passes_alone_with_its_log_and_in_its_tree(cli: Cli,
                                                               played: dict[str, Path]) -> None:
    out = cli.run("verify", "--acta", played["acta"], "--key", played["keys"]).stdout
    assert "the signature holds" in out
    out = cli.run("verify", "--acta", played["acta"], "--key", played["keys"],
                  played["log"]).stdout
    assert "agrees with" in out
    out = cli.run("verify", "--acta", played["acta"], "--key", played["keys"], "--tree-head",
                  played["head"], "--proof", played["proof"]).stdout
    assert "included" in out
    # One key alone, as its PEM or its base64, instead of the club's listing.
    key = json.loads(played["keys"].read_text())["keys"][0]
    cli.run("verify", "--acta", played["acta"], "--key", key["public_key"])
    pem = played["keys"].with_suffix(".pem")
    pem.write_text(key["pem"])
    cli.run("verify", "--acta", played["acta"], "--key", pem)


def test_every_change_to_the_log_fails_against_the_acta(cli: Cli, played: dict[str, Path],
                                                        tmp_path: Path) -> None:
    log = lines(played["log"])
    at = next(i for i, e in enumerate(log) if e.get("type") == "play" and i > 2)
    changed = [dict(e) for e in log]
    changed[at]["end"] = "left" if changed[at].get("end") != "left" else "right"
    noted = [dict(e) for e in log]
    noted[-1] = {**noted[-1], "recorded": "later"}  # a field the referee ignores: still a change
    header, other = random_match("parejas", PLAYERS, random.Random(12))
    for name, tampered in (("changed", changed), ("noted", noted),
                           ("dropped the last", log[:-1]), ("removed", log[:at] + log[at + 1:]),
                           ("added", log + [{"type": "note", "text": "later"}]),
                           ("replaced", [{**header, "club": CLUB}, *other])):
        path = write(tmp_path / f"{name}.jsonl", tampered)
        result = cli.run("verify", "--acta", played["acta"], "--key", played["keys"], path,
                         code=3)
        assert "chain: the acta says" in result.stdout, name


def test_an_edited_acta_or_a_wrong_key_fails(cli: Cli, played: dict[str, Path],
                                             tmp_path: Path) -> None:
    acta = json.loads(played["acta"].read_text(encoding="utf-8"))
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps({**acta, "totals": [acta["totals"][0] + 10, acta["totals"][1]]}))
    out = cli.run("verify", "--acta", edited, "--key", played["keys"], code=3).stdout
    assert "the signature does not match" in out
    out = cli.run("verify", "--acta", edited, "--key", played["keys"], played["log"],
                  code=3).stdout
    assert "totals: the acta says" in out
    out = cli.run("verify", "--acta", edited, "--key", played["keys"], "--tree-head",
                  played["head"], "--proof", played["proof"], code=3).stdout
    assert "inclusion: the inclusion path does not lead to the tree head's root" in out
    from referee.seal.keys import PrivateKey

    (tmp_path / "other.pem").write_text(PrivateKey.generate().public.pem())
    out = cli.run("verify", "--acta", played["acta"], "--key", tmp_path / "other.pem",
                  code=3).stdout
    assert "names key" in out


def test_an_open_dispute_is_verified_but_flagged(cli: Cli, played: dict[str, Path],
                                                 tmp_path: Path) -> None:
    log = lines(played["log"])
    disputed = write(tmp_path / "disputed.jsonl", [*log[:3], {"type": "play", "seat": 0,
                                                              "tile": "9-9", "disputed": True}])
    out = cli.run("verify", disputed, code=1).stdout
    assert "1 open dispute(s)" in out
    # Its acta, signed all the same once the match is finished, says so too.
    match_id = json.loads(played["acta"].read_text())["match"]
    seq = cli.service.reading.get_match(match_id)["last_seq"]
    cli.service.recording.record_event(match_id, {"type": "play", "seat": 0, "tile": "9-9",
                                                  "disputed": True}, expected_seq=seq)
    flagged = tmp_path / "flagged.json"
    cli.run("acta", match_id, "-o", flagged)
    assert "open dispute" in cli.run("verify", "--acta", flagged, "--key", played["keys"],
                                     code=1).stdout


def test_what_cannot_be_read_is_2(cli: Cli, played: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "junk").write_text("{nope", encoding="utf-8")
    assert "cannot read line 1" in cli.run("verify", tmp_path / "junk", code=2).output
    assert "not JSON" in cli.run("verify", "--acta", tmp_path / "junk", "--key",
                                 played["keys"], code=2).output
    (tmp_path / "binary").write_bytes(b"{\"x\": \"\xcf\x28\"}")
    for language, words in (("en", "binary: not JSON: the text is not UTF-8 (byte 7)"),
                            ("es", "el texto no es UTF-8 (byte 7)"),
                            ("it", "il testo non è UTF-8 (byte 7)")):
        assert words in cli.run("--lang", language, "verify", "--acta", tmp_path / "binary",
                                "--key", played["keys"], code=2).output
    # where and what, in the caller's language (json's own words are English)
    (tmp_path / "comma").write_text('{"format": "domino-acta/2",\n "x": 1 "y": 2}')
    for language, words in (("en", "comma: not JSON: line 2, column 9: a comma was expected"),
                            ("es", "comma: no es JSON: línea 2, columna 9: se esperaba una coma"),
                            ("it", "comma: non è JSON: riga 2, colonna 9: era attesa una virgola")):
        out = cli.run("--lang", language, "verify", "--acta", tmp_path / "comma", "--key",
                      played["keys"], code=2).output
        assert words in out and "Expecting" not in out
    assert "not an Ed25519 public key" in cli.run("verify", "--acta", played["acta"], "--key",
                                                  "AAAA!", code=2).output
    assert "needs the club's keys" in cli.run("verify", "--acta", played["acta"], code=2).output
    assert "needs its proof" in cli.run("verify", "--acta", played["acta"], "--key",
                                        played["keys"], "--tree-head", played["head"],
                                        code=2).output
    assert "cannot read the file" in cli.run("verify", "--acta", tmp_path / "absent.json",
                                             "--key", played["keys"], code=2).output
    log = played["log"].read_text(encoding="utf-8").splitlines()
    twice = tmp_path / "twice.jsonl"
    twice.write_text("\n".join([*log, '{"type": "play", "seat": 1, "tile": "0-0", '
                                      '"tile": "6-6"}']) + "\n", encoding="utf-8")
    for command in ("verify", "validate"):
        out = cli.run(command, twice, code=2).output
        assert f"line {len(log) + 1}" in out and "'tile' appears twice" in out, command
    acta = played["acta"].read_text(encoding="utf-8")
    repeated = tmp_path / "repeated.json"
    repeated.write_text(acta.replace('"winner":', '"winner": 1, "winner":', 1), encoding="utf-8")
    assert "appears twice" in cli.run("verify", "--acta", repeated, "--key", played["keys"],
                                      code=2).output
    assert "not finished" in cli.run("acta", cli.new_match(), code=1).output


def _cut_short(cli: Cli, match_id: int) -> None:
    """The club's tree cut back behind the triggers (SQLite's): ``match_id``'s leaf and the
    last head removed."""
    with cli.service.engine.begin() as conn:
        for table in ("acta_leaves", "tree_heads"):
            conn.execute(text(f"DROP TRIGGER IF EXISTS {table}_no_delete"))
        conn.execute(text("DELETE FROM acta_leaves WHERE match_id = :m"), {"m": match_id})
        conn.execute(text("DELETE FROM tree_heads WHERE id = (SELECT MAX(id) FROM tree_heads)"))


def test_a_tree_cut_short_or_rewritten_fails_on_the_heads_alone(cli: Cli, played: dict[str, Path],
                                                               tmp_path: Path) -> None:
    """Today's head with fewer leaves than the kept one, or as many under another root: 3, with
    no proof to give or fetch (none could show it)."""
    second = import_match(cli, tmp_path, 13, "second")
    kept = tmp_path / "kept.json"
    kept.write_text(json.dumps(cli.service.transparency.head(CLUB)))
    _cut_short(cli, second)
    shorter = tmp_path / "shorter.json"
    shorter.write_text(json.dumps(cli.service.transparency.head(CLUB)))
    out = cli.run("verify", "--key", played["keys"], "--since", kept, shorter, "--json", code=3)
    outcome = json.loads(out.stdout)
    assert outcome["status"] == 3 and not outcome["tree"]["consistent"]
    assert "shrank from 2 leaves to 1" in outcome["problems"][0]
    import_match(cli, tmp_path, 14, "third")  # another result signed in the removed one's place
    rewritten = tmp_path / "rewritten.json"
    rewritten.write_text(json.dumps(cli.service.transparency.head(CLUB)))
    out = cli.run("verify", "--key", played["keys"], "--since", kept, rewritten, code=3).stdout
    assert "the old tree was rewritten" in out


@pytest.mark.slow  # a real server
def test_inclusion_and_consistency_over_http(cli: Cli, played: dict[str, Path],
                                             tmp_path: Path) -> None:
    """A member holding an acta and an old head checks both against the club's server; once
    the tree is rewritten behind the triggers, the old head catches it."""
    token = cli.service.tokens.create_token(CLUB, "viewer", label="member")
    app = create_app({"DATABASE_URL": cli.url, "ACCESS_LOG": "0"})
    with served(app) as base:
        log_url = f"{base}/api/v1/clubs/{CLUB}/transparency"
        out = cli.run("verify", "--acta", played["acta"], "--key", played["keys"],
                      "--tree-head", log_url, "--token", token).stdout
        assert "included" in out
        # The keys fetched too (trust on first use, said so), the head URL itself given.
        out = cli.run("verify", "--acta", played["acta"], "--tree-head", f"{log_url}/head",
                      "--token", token).stdout
        assert "included" in out and "trust on first use" in out
        assert "HTTP 401" in cli.run("verify", "--acta", played["acta"], "--key",
                                     played["keys"], "--tree-head", log_url, code=2).output
        second = import_match(cli, tmp_path, 13, "second")
        out = cli.run("verify", "--key", played["keys"], "--since", played["head"], log_url,
                      "--token", token).stdout
        assert "extends the one of 1 leaves you kept" in out
        kept = tmp_path / "kept.json"
        kept.write_text(json.dumps(cli.service.transparency.head(CLUB)))
        # Cut short: the last leaf and head removed behind the triggers. The server refuses a
        # proof from 2 leaves to 1; the heads alone fail.
        _cut_short(cli, second)
        out = cli.run("verify", "--key", played["keys"], "--since", kept, log_url, "--token",
                      token, code=3).stdout
        assert "shrank from 2 leaves to 1" in out
        # Rewritten: another result signed in the removed one's place.
        import_match(cli, tmp_path, 14, "third")
        out = cli.run("verify", "--key", played["keys"], "--since", kept, log_url, "--token",
                      token, code=3).stdout
        assert "the old tree was rewritten" in out
        # Files alone: the old head, today's, and the proof between them.
        today = tmp_path / "today.json"
        today.write_text(json.dumps(cli.service.transparency.head(CLUB)))
        proof = tmp_path / "consistency.json"
        proof.write_text(json.dumps(cli.service.transparency.consistency(CLUB, 1, 2)))
        cli.run("verify", "--key", played["keys"], "--since", played["head"], today, "--proof",
                proof)


def test_domino_acta_on_a_broken_record_says_what_is_wrong(cli: Cli,
                                                            played: dict[str, Path]) -> None:
    match_id = json.loads(played["acta"].read_text())["match"]
    with cli.service.engine.begin() as conn:
        conn.execute(text("DROP TRIGGER events_no_update"))
        conn.execute(text("UPDATE events SET data = :d WHERE match_id = :m AND seq = 3"),
                     {"d": json.dumps({"type": "note", "text": "forged"}), "m": match_id})
        conn.execute(text("INSERT INTO events (match_id, seq, type, data, recorded_at, digest) "
                          "SELECT match_id, seq + 1, 'note', '{\"type\":\"note\",\"text\":\"x\"}', "
                          "recorded_at, digest FROM events WHERE match_id = :m AND seq = "
                          "(SELECT MAX(seq) FROM events WHERE match_id = :m)"), {"m": match_id})
        conn.execute(text("UPDATE matches SET last_seq = last_seq + 1 WHERE id = :m"),
                     {"m": match_id})
    out = cli.run("acta", match_id, code=1).output
    assert "fails its check against the server's row key" in out and "domino db audit" in out


@pytest.mark.slow  # starts a process
def test_verify_loads_no_database_nor_web_framework(played: dict[str, Path]) -> None:
    ran = run_alone("verify", "--acta", str(played["acta"]), "--key", str(played["keys"]),
                    "--tree-head", str(played["head"]), "--proof", str(played["proof"]),
                    str(played["log"]))
    assert ran["exit_code"] == 0, ran
    assert heavy(ran["modules"]) == []


# ------------------------------------------------------------- what is read, and how it fails

class _Hostile(http.server.BaseHTTPRequestHandler):
    """A server that answers what a member's verify must survive."""

    languages: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        _Hostile.languages.append(self.headers.get("Accept-Language", ""))
        if self.path == "/endless-line":  # longer than a log's line may be, and no newline
            self.send_response(200)
            self.end_headers()
            chunk = b"x" * 65536
            for _ in range(MAX_LINE_BYTES // len(chunk) + 2):
                self.wfile.write(chunk)
        elif self.path == "/refused":
            body = json.dumps({"status": 403, "detail": "not yours\x1b[2J"}).encode()
            self.send_response(403)
            self.send_header("Content-Type", "application/problem+json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif self.path == "/refused-nested":  # a refusal's body nested past the parser's depth
            body = b"[" * 50_000
            self.send_response(404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:  # hangs up without an answer
            self.close_connection = True

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def hostile() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Hostile)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_document_is_read_as_a_log_is_a_line_too_long_stops_it(cli: Cli, played: dict[str, Path],
                                                                  tmp_path: Path,
                                                                  hostile: str) -> None:
    """A file or a body holding a line longer than a log's may be is not read whole: it stops
    there, said as a log's reader says it (the acta, the tree head, the keys, a URL's body)."""
    huge = tmp_path / "huge.json"
    huge.write_bytes(b'{"format": "' + b"x" * MAX_LINE_BYTES + b'"}')
    too_long = f"cannot read line 1: the line is longer than {MAX_LINE_BYTES} bytes"
    for args in (("--acta", huge, "--key", played["keys"]),
                 ("--acta", played["acta"], "--key", huge),
                 ("--acta", played["acta"], "--key", played["keys"], "--tree-head", huge),
                 ("--key", played["keys"], "--since", huge, played["head"])):
        assert cli.run("verify", *args, code=2).output == f"{huge}: {too_long}\n", args
    url = f"{hostile}/endless-line"
    assert cli.run("verify", "--acta", url, "--key", played["keys"], code=2).output \
        == f"{url}: {too_long}\n"
    assert "riga 1: la riga supera" in cli.run("--lang", "it", "verify", "--acta", url, "--key",
                                               played["keys"], code=2).output


def test_why_a_file_or_url_failed_is_said_in_the_reader_s_language(cli: Cli, played: dict[str, Path],
                                                                   tmp_path: Path,
                                                                   hostile: str) -> None:
    """The system's reason (a missing file, a directory, a connection refused, a server that
    hangs up) and a server's refusal, in the reader's words, naming the file or URL."""
    missing = tmp_path / "missing.json"
    for lang, words in (("en", "cannot read the file: No such file or directory"),
                        ("es", "no se puede leer el archivo: no existe el archivo o el directorio"),
                        ("it", "impossibile leggere il file: file o directory inesistente")):
        assert cli.run("--lang", lang, "verify", "--acta", missing, "--key", played["keys"],
                       code=2).output == f"{missing}: {words}\n"
    assert cli.run("--lang", "es", "verify", "--acta", tmp_path, "--key", played["keys"],
                   code=2).output == f"{tmp_path}: no se puede leer el archivo: es un directorio\n"
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    refused = f"http://127.0.0.1:{port}/api/v1/clubs/x/transparency"
    assert cli.run("--lang", "es", "verify", "--acta", played["acta"], "--key", played["keys"],
                   "--tree-head", refused, code=2).output \
        == f"{refused}/head: no se puede traer: conexión rechazada\n"
    out = cli.run("--lang", "it", "verify", "--acta", f"{hostile}/hang-up", "--key",
                  played["keys"], code=2).output
    assert out == (f"{hostile}/hang-up: impossibile scaricarlo: il server ha chiuso la "
                   "connessione senza una risposta intera\n")
    _Hostile.languages.clear()
    out = cli.run("--lang", "es", "verify", "--acta", f"{hostile}/refused", "--key",
                  played["keys"], code=2).output
    # the problem's detail, asked in the reader's language, and no terminal escape of the server's
    assert out == (f"{hostile}/refused: no se puede traer: el servidor respondió HTTP 403: "
                   "not yours\ufffd[2J\n")
    assert _Hostile.languages == ["es"]
    out = cli.run("verify", "--acta", f"{hostile}/refused-nested", "--key", played["keys"],
                  code=2).output  # no problem in it: the start of its body, not a traceback
    assert out == f"{hostile}/refused-nested: cannot fetch it: the server answered HTTP 404: {'[' * 300}\n"
