"""``domino verify``: a match log's chain head, and a signed acta checked offline, against the
server's public key and, given the log too, against the record. Neither the database nor the
service is loaded (a player checks a result on his own machine): only the rules core, and
``cryptography`` for a signature."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from referee import LogError, MatchLog, build_report, read_log, replay
from referee.core import acta as sheet
from referee.core import chain

from .logs import log_problem

UNREADABLE = 2  # as domino validate: 0 all good, 1 something fails, 2 cannot read


@click.command()
@click.argument("log", required=False, metavar="[LOG]")
@click.option("--acta", "acta_path", metavar="FILE",
              help="Check this signed acta (domino-acta/1): its signature, and with LOG, that "
                   "its head and scores are the log's.")
@click.option("--key", "key", metavar="PUBKEY",
              help="The server's public key, for --acta: a file or text holding its PEM, its "
                   "base64 (32 bytes) or the JSON of GET /api/v1/signing-key.")
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as one JSON object.")
def verify(log: str | None, acta_path: str | None, key: str | None, as_json: bool) -> None:
    """Check a match log and print its chain head; check a signed acta offline.

    LOG is a domino-log/1 file (- for stdin): it must be readable and replay without a
    violation (as domino validate), and its chain head (domino-chain/1, docs/verify.md) is
    printed: the one the match page and GET .../log (Domino-Chain-Head) show.

    With --acta FILE, the acta's Ed25519 signature is checked against --key; with LOG as well,
    its chain head, players, rounds, rulings, totals and winner must be the log's.

    Exit status: 0 all checks pass, 1 one fails, 2 a file cannot be read.

    \b
    Example:
      domino verify table7.jsonl
      domino verify --acta acta-12.json --key signing-key.json table7.jsonl
    """
    if log is None and acta_path is None:
        raise click.UsageError("give a LOG, an --acta FILE, or both")
    if acta_path is not None and key is None:
        raise click.UsageError("--acta needs --key: the server's public key "
                               "(GET /api/v1/signing-key, or domino signing-key on the server)")
    outcome: dict[str, Any] = {"ok": True, "problems": []}
    match_log = None
    if log is not None:
        match_log = _read_log(log)
        outcome.update(_check_log(match_log))
        if not outcome["valid"]:
            outcome["problems"].append(f"{log}: {outcome['violations']} violation(s): "
                                       "run domino validate for them")
    if acta_path is not None:
        assert key is not None
        acta = _read_acta(acta_path)
        signed_chain = acta.get("chain")
        outcome["acta"] = {"match": acta.get("match"), "key_id": acta.get("key_id"),
                           "head": signed_chain.get("head") if isinstance(signed_chain, dict)
                           else None}
        outcome["problems"] += _check_acta(acta, _public_key(key), match_log)
    outcome["ok"] = not outcome["problems"]
    _print(outcome, log, acta_path, as_json)
    sys.exit(0 if outcome["ok"] else 1)


def _fail(message: str) -> None:
    click.echo(click.style(message, fg="red"), err=True)
    sys.exit(UNREADABLE)


def _read_log(path: str) -> MatchLog:
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        _fail(f"{path}: cannot read the file: {error.strerror or error}")
    try:
        return read_log(data)
    except LogError as error:
        _fail(log_problem(path, error))
    raise AssertionError("unreachable")


def _check_log(log: MatchLog) -> dict[str, Any]:
    header = log.header
    report = build_report(replay(header.rules, header.players, log.events))
    return {"valid": report["valid"], "violations": len(report["violations"]),
            "events": len(log.events), "head": chain.head(header.fields, log.events)}


def _read_acta(path: str) -> dict[str, Any]:
    try:
        text = Path(path).read_bytes().decode("utf-8")
        acta = json.loads(text)
    except OSError as error:
        _fail(f"{path}: cannot read the file: {error.strerror or error}")
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        _fail(f"{path}: not a JSON acta: {error}")
    if not isinstance(acta, dict) or acta.get("format") != sheet.FORMAT:
        _fail(f"{path}: not a {sheet.FORMAT} acta (its format is "
              f"{acta.get('format') if isinstance(acta, dict) else None!r})")
    return acta


def _public_key(given: str) -> bytes:
    """The 32 raw bytes of the key given to --key (a file, or the text itself)."""
    path = Path(given)
    try:
        text = path.read_text(encoding="utf-8") if path.is_file() else given
    except (OSError, UnicodeDecodeError) as error:
        _fail(f"--key {given}: cannot read the file: {error}")
    text = text.strip()
    try:
        if text.startswith("{"):
            text = json.loads(text).get("public_key") or ""
        if text.startswith("-----BEGIN"):
            from cryptography.hazmat.primitives import serialization
            from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

            loaded = serialization.load_pem_public_key(text.encode("ascii"))
            if not isinstance(loaded, Ed25519PublicKey):
                raise ValueError("the PEM holds a key that is not Ed25519")
            return loaded.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        raw = sheet.decode(text, "the key")
    except (ValueError, AttributeError, UnicodeEncodeError) as error:
        _fail(f"--key: not an Ed25519 public key: {error}")
    if len(raw) != 32:
        _fail(f"--key: an Ed25519 public key is 32 bytes, not {len(raw)}")
    return raw


def _check_acta(acta: dict[str, Any], public_key: bytes, log: MatchLog | None) -> list[str]:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    problems = []
    if acta.get("key_id") != sheet.key_id(public_key):
        problems.append(f"the acta names key {acta.get('key_id')!r}, not this key "
                        f"({sheet.key_id(public_key)})")
    try:
        signature = sheet.decode(acta.get("signature"), "the signature")
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, sheet.signed_bytes(acta))
    except (ValueError, InvalidSignature) as error:
        problems.append("the signature does not match the acta: it was changed, or signed "
                        f"with another key" + (f" ({error})" if str(error) else ""))
    if log is not None:
        header = log.header
        expected = sheet.from_log(header.fields, log.events,
                                  replay(header.rules, header.players, log.events))
        problems += sheet.differences(acta, expected)
    return problems


def _print(outcome: dict[str, Any], log: str | None, acta_path: str | None,
           as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(outcome))
        return
    if log is not None:
        click.echo(f"{log}: chain head {outcome['head']} ({outcome['events']} events)")
    for problem in outcome["problems"]:
        click.echo(click.style(f"FAIL {problem}", fg="red"))
    if acta_path is not None and outcome["ok"]:
        acta = outcome["acta"]
        against = f", and agrees with {log}" if log is not None else ""
        click.echo(f"{acta_path}: acta of match {acta['match']}, signed by {acta['key_id']}, "
                   f"chain head {acta['head']}: the signature holds{against}")
