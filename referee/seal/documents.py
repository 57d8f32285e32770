"""The signed documents: a match's acta (``domino-acta/2``, and ``/1`` as it was) and a club's
tree head (``domino-tree-head/1``), signed and checked (``docs/verify.md``).

A signature covers the RFC 8785 bytes of the document without its ``signature`` member (a
``domino-acta/1`` the chain's canonical form instead); the document names its key (``key_id``)
and says when it was signed (an acta's ``signed_at``, a head's ``timestamp``), which a club's
listing of its keys must cover. A leaf of a club's tree is the RFC 8785 bytes of the whole
acta, signature included.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Sequence

from ..core import acta as sheet
from ..core import merkle
from .canonical import canonical
from .keys import PrivateKey, PublicKey, timestamp

TREE_HEAD_FORMAT = "domino-tree-head/1"
SHEET_FORMAT = "domino-league-sheet/1"  # a league fixture's result sheet (sign_sheet)
TREE_HEAD_FIELDS = ("format", "club", "size", "root", "timestamp", "key_id", "signature")


def signed_bytes(document: dict[str, Any]) -> bytes:
    """What ``document``'s signature covers."""
    if document.get("format") == sheet.LEGACY_FORMAT:
        return sheet.legacy_bytes(document)
    return canonical(sheet.unsigned(document))


def leaf(acta: dict[str, Any]) -> bytes:
    """The acta as a leaf of its club's tree: its RFC 8785 bytes, signature and all."""
    return canonical(acta)


def sign_acta(body: dict[str, Any], key: PrivateKey, signed_at: str,
              leaf_index: int) -> dict[str, Any]:
    """The acta ``body`` (from_log's part and the server's fields) signed by ``key`` at
    ``signed_at``, as leaf ``leaf_index`` of its club's tree."""
    return _signed({**body, "key_id": key.key_id, "signed_at": signed_at,
                    "leaf_index": leaf_index}, key)


def sign_head(club: str, size: int, root: bytes, at: str, key: PrivateKey) -> dict[str, Any]:
    """The signed head of ``club``'s tree of ``size`` leaves with root ``root``."""
    return _signed({"format": TREE_HEAD_FORMAT, "club": club, "size": size, "root": root.hex(),
                    "timestamp": at, "key_id": key.key_id}, key)


def sign_sheet(body: dict[str, Any], key: PrivateKey, signed_at: str) -> dict[str, Any]:
    """A league fixture's result sheet (``domino-league-sheet/1``: the teams, each leg's
    players, games, their matches' digests and result, the legs won, both confirmations)
    signed by the club's ``key`` at ``signed_at``; checked as an acta is
    (:func:`signature_problems`)."""
    return _signed({**body, "key_id": key.key_id, "signed_at": signed_at}, key)


def _signed(document: dict[str, Any], key: PrivateKey) -> dict[str, Any]:
    return {**document, "signature": sheet.encode(key.sign(signed_bytes(document)))}


def signed_when(document: dict[str, Any]) -> Any:
    """When the document says it was signed (None for a ``domino-acta/1``, which does not)."""
    return document.get("timestamp" if document.get("format") == TREE_HEAD_FORMAT
                        else "signed_at")


def signature_problems(document: dict[str, Any], keys: Sequence[PublicKey],
                       what: str) -> list[str]:
    """Why ``document`` (``what``: "the acta", "the tree head") is not signed by one of ``keys``
    within that key's validity: empty when it is."""
    named = document.get("key_id")
    key = next((k for k in keys if k.key_id == named), None)
    if key is None:
        given = ", ".join(k.key_id for k in keys) or "none"
        return [f"{what} names key {named!r}, not one of the keys given ({given})"]
    try:
        signature = sheet.decode(document.get("signature"), "the signature")
        good = key.verifies(signature, signed_bytes(document))
    except ValueError as error:
        return [f"{what}: {error}"]
    if not good:
        return [f"the signature does not match {what}: it was changed, or signed with another key"]
    when = signed_when(document)
    if when is None and document.get("format") == sheet.LEGACY_FORMAT:
        return []  # a /1 acta says nothing of when: its key's id is all there is to check
    try:
        moment = timestamp(when, "the signing time")
    except ValueError as error:
        return [f"{what}: {error}"]
    if not key.covers(moment):
        return [f"{what} was signed at {when}, outside the validity of key {key.key_id} "
                f"({_span(key)})"]
    return []


def _span(key: PublicKey) -> str:
    start = key.valid_from.isoformat() if key.valid_from else "always"
    end = key.valid_until.isoformat() if key.valid_until else "now"
    return f"from {start} until {end}"


def head_root(head: dict[str, Any]) -> tuple[int, bytes]:
    """A tree head's size and root; ValueError naming what is wrong with them."""
    size, root = head.get("size"), head.get("root")
    if type(size) is not int or size < 0:
        raise ValueError(f"the tree head's size must be a count, not {size!r}")
    if (raw := _hash(root)) is None:
        raise ValueError(f"the tree head's root must be 64 hex digits, not {root!r}")
    return size, raw


def _hash(text: Any) -> bytes | None:
    """The 32 bytes 64 hex digits name (None for anything else)."""
    try:
        raw = bytes.fromhex(text) if isinstance(text, str) else b""
    except ValueError:
        return None
    return raw if len(raw) == 32 else None


def hashes(path: Any, what: str) -> list[bytes]:
    """A proof's ``path``: a list of 64-hex-digit hashes."""
    if not isinstance(path, list):
        raise ValueError(f"{what} must be a list of hashes")
    out = []
    for node in path:
        if (raw := _hash(node)) is None:
            raise ValueError(f"{what} holds {node!r}, not 64 hex digits")
        out.append(raw)
    return out


def inclusion_problems(acta: dict[str, Any], head: dict[str, Any],
                       proof: dict[str, Any]) -> list[str]:
    """Why ``proof`` (``{"index", "size", "path"}``) does not show ``acta`` in the tree
    ``head`` signed: empty when it does."""
    try:
        size, root = head_root(head)
        index = acta.get("leaf_index")
        if type(index) is not int:
            raise ValueError("the acta names no leaf_index (a domino-acta/1 is in no tree)")
        if proof.get("index") != index or proof.get("size") != size:
            raise ValueError(f"the proof is for leaf {proof.get('index')!r} of "
                             f"{proof.get('size')!r}, not leaf {index} of {size}")
        if acta.get("club") != head.get("club"):
            raise ValueError(f"the acta is of club {acta.get('club')!r}, the tree head of "
                             f"{head.get('club')!r}")
        merkle.verify_inclusion(index, size, merkle.leaf_hash(leaf(acta)),
                                hashes(proof.get("path"), "the inclusion path"), root)
    except ValueError as error:  # merkle.ProofError included
        return [f"inclusion: {error}"]
    return []


def _heads(old: dict[str, Any], new: dict[str, Any]) -> tuple[int, bytes, int, bytes]:
    """Both heads' sizes and roots; ValueError when the heads alone show that ``new`` does not
    extend ``old`` (another club's, fewer leaves, or as many leaves under another root), so
    that no proof is needed to say so."""
    if old.get("club") != new.get("club"):
        raise ValueError(f"the heads are of clubs {old.get('club')!r} and {new.get('club')!r}")
    old_size, old_root = head_root(old)
    new_size, new_root = head_root(new)
    if old_size > new_size:
        raise ValueError(f"the tree shrank from {old_size} leaves to {new_size}: results were "
                         f"removed")
    if old_size == new_size and old_root != new_root:
        raise ValueError(f"both trees have {old_size} leaves but different roots: the old tree "
                         f"was rewritten")
    return old_size, old_root, new_size, new_root


def heads_problems(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What the two heads alone show against the tree ``new`` extending the tree ``old``,
    before any proof is asked for: a tree cut short or rewritten fails here (a server would
    refuse a proof from more leaves than it has)."""
    try:
        _heads(old, new)
    except ValueError as error:
        return [f"consistency: {error}"]
    return []


def consistency_problems(old: dict[str, Any], new: dict[str, Any],
                         proof: dict[str, Any]) -> list[str]:
    """Why ``proof`` (``{"from", "to", "path"}``) does not show that the tree ``new`` extends
    the tree ``old``: empty when it does."""
    try:
        old_size, old_root, new_size, new_root = _heads(old, new)
        if proof.get("from") != old_size or proof.get("to") != new_size:
            raise ValueError(f"the proof is from {proof.get('from')!r} to "
                             f"{proof.get('to')!r}, not from {old_size} to {new_size}")
        merkle.verify_consistency(old_size, new_size, old_root, new_root,
                                  hashes(proof.get("path"), "the consistency path"))
    except ValueError as error:
        return [f"consistency: {error}"]
    return []


def iso(moment: dt.datetime) -> str:
    """How every document here writes a time: ISO 8601, UTC."""
    return moment.astimezone(dt.timezone.utc).isoformat()
