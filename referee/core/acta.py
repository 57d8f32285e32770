"""The score sheet of a finished match, ``domino-acta/1`` (an *acta*): who played, each round's
points per side, the rulings, the totals and the winner, and the chain head of the record it
was read from, signed by the server (``docs/verify.md``).

What here follows from the log alone (:func:`from_log`): anyone holding the exported log can
work it out again and compare it with a signed acta (``domino verify --acta FILE LOG``). The
server adds what only it knows (the match's id, when its first and last events were recorded)
and the signature; the signature itself is made and checked above the core (Ed25519 is not in
the standard library), over :func:`signed_bytes`.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any, Sequence

from . import chain
from .disputes import open_count
from .events import RULINGS
from .replay import Replay

FORMAT = "domino-acta/1"
SIGNATURE_ALGORITHM = "Ed25519"
# What the server adds to the log's part; a log can say nothing about these (a tournament's
# round is kept beside the match, not in its header).
SERVER_FIELDS = ("match", "tournament", "round", "started_at", "ended_at")
SIGNATURE_FIELDS = ("key_id", "signature")
HEADER_FIELDS = ("club", "table", "event", "date")


def from_log(header: dict[str, Any], events: Sequence[Any], result: Replay) -> dict[str, Any]:
    """The part of the acta the record itself gives: ``header`` as stored (or as the log's
    line 1), its ``events`` and their ``result`` (their replay)."""
    match = result.match
    rules = match.rules
    refused = {v.seq for v in result.violations}
    rounds = []
    for r in match.results():
        points = [0] * rules.sides
        if r.winner is not None:
            points[r.winner] = r.points
        rounds.append({"round": r.round, "outcome": r.outcome, "winner": r.winner,
                       "points": points})
    rulings = []
    for seq, event in enumerate(events, start=1):
        if (type(event) is dict and event.get("type") in RULINGS and seq not in refused):
            ruling = {"seq": seq, "type": event["type"], "target": event.get("target"),
                      "reason": event.get("reason"), "struck": seq in result.struck}
            if "side" in event:
                ruling["side"] = event["side"]
            if event["type"] == "penalty":
                ruling["points"] = event["points"]
            rulings.append(ruling)
    return {
        "format": FORMAT,
        **{name: header.get(name) for name in HEADER_FIELDS},
        "name": header.get("match"),  # the header's name for the match, if it gave one
        "rules": rules.as_dict(),
        "players": [{"seat": seat, "name": name, "side": rules.side_of(seat)}
                    for seat, name in enumerate(match.players)],
        "rounds": rounds,
        "rulings": rulings,
        "totals": list(match.totals),
        "winner": match.winner,
        "finished": match.finished,
        "open_disputes": open_count(match, refused),
        "events": len(events),
        "chain": {"algorithm": chain.ALGORITHM, "head": chain.head(header, events)},
    }


def signed_bytes(acta: dict[str, Any]) -> bytes:
    """What the signature covers: the acta without ``signature``, written canonically (sorted
    keys, no spaces, ASCII: :func:`referee.core.chain.canonical`)."""
    return chain.canonical({k: v for k, v in acta.items() if k != "signature"})


def key_id(public_key: bytes) -> str:
    """A key's name: ``ed25519:`` and the first 16 hex digits of the SHA-256 of its 32 raw
    bytes."""
    return "ed25519:" + hashlib.sha256(public_key).hexdigest()[:16]


def encode(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def decode(text: Any, what: str) -> bytes:
    """Standard base64 to bytes; ValueError naming ``what`` for anything else."""
    if not isinstance(text, str):
        raise ValueError(f"{what} must be a base64 string")
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        raise ValueError(f"{what} is not base64") from None


def differences(acta: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    """Where ``acta`` disagrees with what a log gives (``expected``, from :func:`from_log`):
    one line per field, empty when they agree."""
    return [f"{name}: the acta says {acta.get(name)!r}, the log gives {value!r}"
            for name, value in expected.items() if acta.get(name) != value]
