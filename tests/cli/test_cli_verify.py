"""``domino verify``, ``domino acta`` and ``domino signing-key``: a good log and its acta pass;
a log with an event changed or removed, an acta whose score was edited, and a wrong key fail;
the offline check loads neither the database nor the web framework."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cli_helpers import CLUB, Cli, cli  # noqa: F401 (fixture)
from referee.core import chain
from referee.core.simulate import random_match
from test_cli_startup import heavy, run_alone

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


@pytest.fixture
def played(cli: Cli, tmp_path: Path) -> dict[str, Path]:
    """A finished match in the database, exported: its log, its acta and the public key."""
    header, events = random_match("parejas", PLAYERS, random.Random(11))
    source = tmp_path / "source.jsonl"
    source.write_text("".join(json.dumps(v) + "\n" for v in [header, *events]), encoding="utf-8")
    cli.run("match", "import", "--club", CLUB, source)
    (match_id,) = [m["id"] for m in cli.service.reading.list_matches(CLUB)[0]]
    paths = {"log": tmp_path / "m.jsonl", "acta": tmp_path / "acta.json",
             "key": tmp_path / "key.json"}
    cli.run("match", "export", match_id, "-o", paths["log"])
    cli.run("acta", match_id, "-o", paths["acta"])
    paths["key"].write_text(cli.run("signing-key").stdout, encoding="utf-8")
    return paths


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def write(path: Path, values: list) -> Path:
    path.write_text("".join(json.dumps(v) + "\n" for v in values), encoding="utf-8")
    return path


def test_a_good_log_prints_its_head(cli: Cli, played: dict[str, Path]) -> None:
    log = lines(played["log"])
    out = cli.run("verify", played["log"]).stdout
    assert f"chain head {chain.head(log[0], log[1:])}" in out
    acta = json.loads(played["acta"].read_text(encoding="utf-8"))
    assert acta["chain"]["head"] == chain.head(log[0], log[1:])
    as_json = json.loads(cli.run("verify", "--json", played["log"]).stdout)
    assert as_json["ok"] and as_json["head"] == acta["chain"]["head"]
    told = cli.run("match", "export", acta["match"], "-o", played["log"]).output
    assert f"chain head {acta['chain']['head']}" in told


def test_a_good_acta_passes_alone_and_with_its_log(cli: Cli, played: dict[str, Path]) -> None:
    out = cli.run("verify", "--acta", played["acta"], "--key", played["key"]).stdout
    assert "the signature holds" in out
    out = cli.run("verify", "--acta", played["acta"], "--key", played["key"], played["log"]).stdout
    assert "agrees with" in out
    # The key as its PEM, and as the base64 text itself.
    key = json.loads(played["key"].read_text(encoding="utf-8"))
    pem = played["key"].with_suffix(".pem")
    pem.write_text(cli.run("signing-key", "--pem").stdout, encoding="utf-8")
    cli.run("verify", "--acta", played["acta"], "--key", pem)
    cli.run("verify", "--acta", played["acta"], "--key", key["public_key"])


def test_a_changed_or_removed_event_fails_against_the_acta(cli: Cli, played: dict[str, Path],
                                                            tmp_path: Path) -> None:
    log = lines(played["log"])
    played_at = next(i for i, e in enumerate(log) if e.get("type") == "play" and i > 2)
    changed = [dict(e) for e in log]
    changed[played_at]["end"] = "left" if changed[played_at].get("end") != "left" else "right"
    noted = [dict(e) for e in log]
    noted[-1] = {**noted[-1], "recorded": "later"}  # a field the referee ignores: still a change
    removed = log[:played_at] + log[played_at + 1:]
    for name, tampered in (("changed", changed), ("noted", noted), ("removed", removed)):
        path = write(tmp_path / f"{name}.jsonl", tampered)
        result = cli.run("verify", "--acta", played["acta"], "--key", played["key"], path,
                         code=1)
        assert "chain: the acta says" in result.stdout, name
        head = json.loads(cli.run("verify", "--json", path, code=None).stdout)["head"]
        assert head != chain.head(log[0], log[1:])


def test_an_edited_acta_or_a_wrong_key_fails(cli: Cli, played: dict[str, Path],
                                             tmp_path: Path) -> None:
    acta = json.loads(played["acta"].read_text(encoding="utf-8"))
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps({**acta, "totals": [acta["totals"][0] + 10, acta["totals"][1]]}),
                      encoding="utf-8")
    out = cli.run("verify", "--acta", edited, "--key", played["key"], code=1).stdout
    assert "the signature does not match" in out
    out = cli.run("verify", "--acta", edited, "--key", played["key"], played["log"], code=1).stdout
    assert "totals: the acta says" in out
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives import serialization

    other = Ed25519PrivateKey.generate().public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    (tmp_path / "other.pem").write_bytes(other)
    out = cli.run("verify", "--acta", played["acta"], "--key", tmp_path / "other.pem",
                  code=1).stdout
    assert "names key" in out and "the signature does not match" in out


def test_bad_input_is_a_clear_error(cli: Cli, played: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "junk").write_text("{nope", encoding="utf-8")
    assert "cannot read line 1" in cli.run("verify", tmp_path / "junk", code=2).output
    assert "not a JSON acta" in cli.run("verify", "--acta", tmp_path / "junk", "--key",
                                        played["key"], code=2).output
    assert "not an Ed25519 public key" in cli.run("verify", "--acta", played["acta"], "--key",
                                                  "AAAA!", code=2).output
    assert "--acta needs --key" in cli.run("verify", "--acta", played["acta"], code=2).output
    assert "not finished" in cli.run("acta", cli.new_match(), code=1).output


@pytest.mark.slow  # starts a process
def test_verify_loads_no_database_nor_web_framework(played: dict[str, Path]) -> None:
    ran = run_alone("verify", "--acta", str(played["acta"]), "--key", str(played["key"]),
                    str(played["log"]))
    assert ran["exit_code"] == 0, ran
    assert heavy(ran["modules"]) == []


def test_a_key_file_that_is_no_key_is_one_line(cli: Cli, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "bad.pem"
    bad.write_text("not a key", encoding="utf-8")
    monkeypatch.setenv("DOMINO_SIGNING_KEY", str(bad))
    assert "not an unencrypted PEM private key" in cli.run("signing-key", code=1).output
