"""The score sheet of a finished match, ``domino-acta/2`` (an *acta*): who played, each round's
points per side, the rulings, the totals and the winner, and the chain head of the record it
was read from, signed with its club's key (``docs/verify.md``).

What here follows from the log alone (:func:`from_log`): anyone holding the exported log can
work it out again and compare it with a signed acta (``domino verify --acta FILE LOG``). The
server adds what only it knows (the match's id, when its first and last events were recorded,
its place in the club's transparency log, when it was signed) and the signature; signing and
its RFC 8785 bytes are above the core (``referee.seal``: neither is in the standard library).

``domino-acta/1``, the format before club keys, is still read: the same members less
``signed_at`` and ``leaf_index``, signed by the server's one key over :func:`legacy_bytes`.
"""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Any, Sequence

from . import chain
from .disputes import open_count
from .events import RULINGS
from .replay import Replay
from .vocab import kind_of

FORMAT = "domino-acta/2"
LEGACY_FORMAT = "domino-acta/1"  # signed by the server's one key, before club keys
FORMATS = (FORMAT, LEGACY_FORMAT)
SIGNATURE_ALGORITHM = "Ed25519"
SIGNATURE_FIELDS = ("key_id", "signed_at", "leaf_index", "signature")
HEADER_FIELDS = ("club", "table", "event", "date")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def from_log(header: dict[str, Any], events: Sequence[Any], result: Replay,
             form: str = FORMAT) -> dict[str, Any]:
    """The part of the acta the record itself gives: ``header`` as stored (or as the log's
    line 1), its ``events`` and their ``result`` (their replay), in the format ``form``."""
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
        if kind_of(event) in RULINGS and seq not in refused:
            ruling = {"seq": seq, "type": event["type"], "target": event.get("target"),
                      "reason": event.get("reason"), "struck": seq in result.struck}
            if "side" in event:
                ruling["side"] = event["side"]
            if event["type"] == "penalty":
                ruling["points"] = event["points"]
            rulings.append(ruling)
    body = {
        "format": form,
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
    return body if form == LEGACY_FORMAT else _utf8(body)


def _utf8(value: Any) -> Any:
    """``value`` with each lone surrogate in its text as U+FFFD. JSON may carry one (a note's
    "\\ud800"), UTF-8 and so RFC 8785 cannot; the acta says what it can of the text, and
    from_log says it the same way every time, so a log still agrees with its acta."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_utf8(v) for v in value]
    if isinstance(value, dict):
        return {_utf8(k): _utf8(v) for k, v in value.items()}
    return value


def unsigned(document: dict[str, Any]) -> dict[str, Any]:
    """What a signature covers: the document without its ``signature``."""
    return {k: v for k, v in document.items() if k != "signature"}


def legacy_bytes(acta: dict[str, Any]) -> bytes:
    """What a ``domino-acta/1`` signature covers: the acta without ``signature``, written as the
    chain writes its values (sorted keys, no spaces, ASCII: :func:`referee.core.chain.canonical`)."""
    return chain.canonical(unsigned(acta))


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
