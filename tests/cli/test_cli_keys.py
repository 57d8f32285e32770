"""``domino key`` (init, list, rotate, retire, sign-due), ``domino club create`` making the
club's key, and ``domino db audit`` / ``db rebuild`` over a record that fails its chain: every
problem a line naming its match and event, no traceback, exit status 1."""

from __future__ import annotations

import json
import os
import random
import stat
from pathlib import Path

import pytest
from cli_helpers import CLUB, Cli
from db_helpers import own_keys
from sqlalchemy import text

from referee.core.simulate import random_match


def finished(cli: Cli, seed: int = 3) -> int:
    header, events = random_match("mano-a-mano", ["Ana", "Beto"], random.Random(seed))
    m = cli.new_match()
    for seq, event in enumerate(events):
        cli.service.recording.record_event(m, event, expected_seq=seq)
    return m


def test_a_club_is_created_with_its_key(cli: Cli) -> None:
    out = cli.run("club", "create", "pena", "--name", "La Peña").stdout
    assert "signing key ed25519:" in out and "back the keys folder up" in out
    listing = json.loads(cli.run("key", "list", "--club", "pena", "--json").stdout)
    (key,) = listing["keys"]
    path = cli.service.keys.ring.path("pena", key["key_id"])
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert "has a signing key already" in cli.run("key", "init", "--club", "pena", code=1).output


def test_rotate_retire_and_the_listing(cli: Cli) -> None:
    cli.run("key", "init", "--club", CLUB)
    m = finished(cli)
    first = cli.service.actas.acta(m)["key_id"]
    assert "signs from now on" in cli.run("key", "rotate", "--club", CLUB).stdout
    out = cli.run("key", "list", "--club", CLUB).stdout
    assert f"{first}  rotated" in out and "signing" in out
    rows = cli.run("key", "list", "--club", CLUB, "--csv").stdout.splitlines()
    assert rows[0].startswith("key_id,status,valid_from") and rows[1].startswith(f"{first},rotated")
    second = json.loads(cli.run("key", "list", "--club", CLUB, "--json").stdout)["keys"][1]
    out = cli.run("key", "retire", "--club", CLUB, second["key_id"], "--reason", "laptop lost").stdout
    assert "retired (laptop lost)" in out and "has no signing key now" in out
    seq = cli.service.reading.get_match(m)["last_seq"]
    cli.service.recording.record_event(m, {"type": "note", "text": "x"}, expected_seq=seq)
    failed = cli.run("key", "sign-due", code=1)
    assert f"match {m}: club {CLUB} has no signing key" in failed.output
    cli.run("key", "rotate", "--club", CLUB)
    assert f"match {m} (leaf 1)" in cli.run("key", "sign-due").stdout
    assert "no acta is due" in cli.run("key", "sign-due").stdout


def test_a_key_the_database_did_not_record_leaves_no_file(cli: Cli, tmp_path: Path,
                                                          monkeypatch) -> None:
    """A private key's file was written before its club was looked up and its row stored:
    `domino key rotate --club nosuch` left keys/nosuch/HEX.pem behind its refusal, and a
    database failing the rotation or the first key (full, locked, gone) left the club's folder
    a key the listing never had. Nothing is left of either."""
    from sqlalchemy import exc

    import referee.service.keys as keys

    own_keys(cli.service, [CLUB], tmp_path / "keys", monkeypatch)  # the worker's holds others'
    folder = cli.service.keys.ring.directory
    assert "no existe el club 'nosuch'" in cli.run("--lang", "es", "key", "rotate", "--club",
                                                    "nosuch", code=1).output
    assert not (folder / "nosuch").exists()

    def full(*args: object, **kwargs: object) -> None:
        raise exc.OperationalError("INSERT", {}, Exception("database or disk is full"))

    insert_key = keys.insert_key
    monkeypatch.setattr(keys, "insert_key", full)
    assert "Traceback" not in cli.run("key", "init", "--club", CLUB, code=1).output
    assert not list((folder / CLUB).glob("*.pem"))
    monkeypatch.setattr(keys, "insert_key", insert_key)
    cli.run("key", "init", "--club", CLUB)
    (kept,) = (folder / CLUB).glob("*.pem")
    monkeypatch.setattr(keys, "publish_head", full)
    assert "Traceback" not in cli.run("key", "rotate", "--club", CLUB, code=1).output
    assert list((folder / CLUB).glob("*.pem")) == [kept]
    assert [k["status"] for k in cli.service.keys.listing(CLUB)["keys"]] == ["signing"]


def test_a_missing_or_open_key_file_says_what_to_do(cli: Cli) -> None:
    cli.run("key", "init", "--club", CLUB)
    key_id = cli.service.keys.listing(CLUB)["keys"][0]["key_id"]
    path = cli.service.keys.ring.path(CLUB, key_id)
    m = finished(cli)  # signed after commit
    seq = cli.service.reading.get_match(m)["last_seq"]
    os.chmod(path, 0o644)
    cli.service.recording.record_event(m, {"type": "note", "text": "x"}, expected_seq=seq)
    out = cli.run("acta", m, code=1).output
    assert "can be read by others (mode 0644)" in out and f"chmod 600 {path}" in out
    os.rename(path, path.with_suffix(".bak"))
    out = cli.run("acta", m, code=1).output
    assert "has no private key file" in out and "restore the file from your backup" in out
    assert not path.exists()  # never made again in silence
    out = cli.run("db", "audit", code=1).stdout
    assert f"PROBLEM club {CLUB}:" in out and f"PROBLEM match {m}, event {seq + 1}:" in out
    os.rename(path.with_suffix(".bak"), path)
    os.chmod(path, 0o600)
    cli.run("key", "sign-due")
    assert "no problem" in cli.run("db", "audit").stdout


def test_the_servers_old_key_is_adopted(cli: Cli, tmp_path, monkeypatch) -> None:
    from referee.seal.keys import PrivateKey

    old = PrivateKey.generate()
    pem = tmp_path / "domino-signing-key.pem"
    pem.write_bytes(old.pem())
    monkeypatch.setenv("DOMINO_SIGNING_KEY", str(pem))
    os.chmod(pem, 0o644)
    assert "can be read by others" in cli.run("key", "init", "--club", CLUB, "--adopt",
                                              code=1).output
    os.chmod(pem, 0o600)
    out = cli.run("key", "init", "--club", CLUB, "--adopt").stdout
    assert f"adopted the server's key {old.key_id}" in out
    assert cli.service.keys.listing(CLUB)["keys"][0]["adopted"] is True


def test_audit_and_rebuild_over_a_broken_record(cli: Cli) -> None:
    cli.run("key", "init", "--club", CLUB)
    m = finished(cli)
    assert "no problem" in cli.run("db", "audit").stdout
    with cli.service.engine.begin() as conn:
        conn.execute(text("DROP TRIGGER events_no_update"))
        conn.execute(text("UPDATE events SET data = :d WHERE match_id = :m AND seq = 2"),
                     {"d": json.dumps({"type": "note", "text": "forged"}), "m": m})
    out = cli.run("db", "audit", code=1).stdout
    assert f"PROBLEM match {m}, event 2: the stored digest" in out
    assert "events: the trigger events_no_update is missing" in out
    found = json.loads(cli.run("db", "audit", "--json", code=1).stdout)
    assert not found["ok"] and {"club": None, "match": m, "seq": 2} .items() <= \
        next(p for p in found["problems"] if p["match"] == m).items()
    assert f"PROBLEM events row, match {m}, event 2: fails its MAC" in out
    out = cli.run("db", "rebuild", code=1).output
    assert f"match {m} fails its check against the server's row key" in out and "event 2" in out
    assert "rebuilt 1 match" in cli.run("db", "rebuild", "--force").stdout


def test_a_key_folder_that_cannot_be_written_is_said_in_the_readers_language(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A key command's refusal in the reader's language, the system's reason too: it printed
    the service's English sentence, and the C library's English reason in every language.
    The test's own keys folder: the club's folder a file in it would be every later test's of
    this worker (keys the cli fixture's clubs make there could not be read)."""
    own_keys(cli.service, [CLUB], tmp_path / "keys", monkeypatch)  # the row key's copy too
    cli.run("key", "init", "--club", CLUB)
    folder = cli.service.keys.ring.path(CLUB, "x").parent
    listing = cli.service.keys.listing(CLUB)
    for pem in folder.iterdir():
        pem.unlink()
    folder.rmdir()
    folder.write_text("not a folder")  # the club's key folder, a file in its place
    out = cli.run("--lang", "es", "key", "rotate", "--club", CLUB, code=1).output
    assert out.startswith(f"Error: no se puede leer {folder}/") and ": no es un directorio: el archivo" in out
    out = cli.run("--lang", "it", "key", "rotate", "--club", CLUB, code=1).output
    assert ": non è una directory: " in out and "Not a directory" not in out
    assert cli.service.keys.listing(CLUB) == listing  # nothing changed
    assert ": Not a directory: the key file must" in cli.run("key", "rotate", "--club", CLUB,
                                                               code=1).output
