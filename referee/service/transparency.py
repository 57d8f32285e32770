"""Each club's transparency log: an append-only Merkle tree (RFC 9162's hashing,
``referee.core.merkle``) of every acta the club signs, in the order signed, a new leaf for each
new version of a match's acta; its signed tree heads; inclusion and consistency proofs
(docs/verify.md).

**When an acta is signed.** A match's acta is due when the match is finished and no acta is
signed for its record as it stands: it has just finished, or a ruling (or any event) changed a
finished match. Nothing is marked: due is read from the record (``store.due_matches``), so it
cannot drift. Recording never waits for a key: after the append commits, the same process signs
what is due for that match (:meth:`Transparency.after_commit`, a hook of the match repository)
if its club's key can be read; if it cannot (no key yet, a file missing or opened up), the acta
stays due, the server logs why, and ``domino key sign-due`` signs it once the key is put right;
``domino db audit`` lists what is due. Asking for the acta (``GET .../acta``, ``domino acta``)
tries again.

**Signing a leaf** is one transaction that holds the club's row: the acta is signed naming its
leaf index (the tree's size then), its leaf (the acta's RFC 8785 bytes, signature and all) is
added, and the head of the grown tree is signed and kept with the roots of its perfect subtrees
(``merkle.Frontier``), so that the next leaf costs O(log n) and never the whole tree.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from dataclasses import dataclass
from typing import Any, Callable

from sqlalchemy import Connection, Row

from .. import store
from ..core import merkle
from ..core.said import said
from ..seal import documents
from ..seal.keys import PrivateKey
from ..store.errors import AlreadyExists
from ..store.signing import signing_key_row
from ..store.transparency import (
    current_leaf,
    due_matches,
    insert_head,
    insert_leaf,
    latest_head,
    leaf_count,
    leaf_hashes,
    leaf_rows,
    lock_club,
)
from . import checks
from .access import OPERATOR, Caller
from .acta import acta_body
from .clubs import reader
from .errors import (
    N_,
    ActaPending,
    Invalid,
    NoSigningKey,
    NotFinished,
    NotFound,
    RecordBroken,
    SigningKeyError,
    TreeBroken,
)
from .lookup import club_row, match_row
from .uow import PRIMARY, READ, WRITE, UnitOfWork, Units, use_case

log = logging.getLogger("domino.transparency")
LEAVES_PAGE = 1000  # actas a leaves request gives at most
SIGN_ATTEMPTS = 3

TEXT = {
    # the server's log, for the operator: English, as the rest of the log
    "pending": "match %(match)s's acta is not signed yet: its club's signing key cannot be used "
               "on this server just now (%(reason)s)",
    "no_head": N_("club %(club)s has signed no tree head yet: it has no signing key (the "
                  "operator runs domino key init --club %(club)s)"),
}


def publish_head(conn: Connection, club_id: int, club: str, key: PrivateKey,
                 now: dt.datetime) -> dict[str, Any]:
    """Sign the head of the club's tree as it stands with ``key`` (a key that starts signing
    signs the tree it takes over), in the caller's transaction."""
    lock_club(conn, club_id)
    frontier = _frontier(conn, club_id, club)
    head = documents.sign_head(club, frontier.size, frontier.root(), documents.iso(now), key)
    insert_head(conn, club_id, frontier.size, _text(head), [h.hex() for h in frontier.hashes()],
                now)
    return head


def append_leaf(conn: Connection, club_id: int, club: str, key: PrivateKey, now: dt.datetime,
                sign: Callable[[int], dict[str, Any]], *, seq: int, match_id: int | None = None,
                fixture_id: int | None = None) -> dict[str, Any]:
    """The document ``sign(leaf_index)`` makes, added as the next leaf of the club's log (a
    match's acta at event ``seq``, or a fixture's result sheet number ``seq``), with the grown
    tree's head signed by ``key``; the club's row held (:func:`lock_club`, taken already by a
    caller that checked what it signs under it). AlreadyExists when that acta is a leaf
    already."""
    lock_club(conn, club_id)
    frontier = _frontier(conn, club_id, club)
    document = sign(frontier.size)
    leaf = documents.leaf(document)
    frontier.append(merkle.leaf_hash(leaf))
    insert_leaf(conn, club_id, frontier.size - 1, match_id, seq, leaf.decode("utf-8"),
                merkle.leaf_hash(leaf).hex(), now, fixture_id=fixture_id)
    head = documents.sign_head(club, frontier.size, frontier.root(), documents.iso(now), key)
    insert_head(conn, club_id, frontier.size, _text(head), [h.hex() for h in frontier.hashes()],
                now)
    return document


def _frontier(conn: Connection, club_id: int, club: str) -> merkle.Frontier:
    row = latest_head(conn, club_id)
    frontier = (merkle.Frontier(row.size, [bytes.fromhex(h) for h in row.frontier])
                if row is not None else merkle.Frontier())
    if (leaves := leaf_count(conn, club_id)) != frontier.size:
        raise TreeBroken("club %(club)s's tree holds %(leaves)s leaves but its last head says "
                         "%(size)s: run domino db audit", club=club, leaves=leaves,
                         size=frontier.size)
    return frontier


def _text(document: dict[str, Any]) -> str:
    return documents.leaf(document).decode("utf-8")


@dataclass(frozen=True)
class _Draft:
    """An acta ready to be signed: read and replayed before the club's lock is taken."""

    row: Row
    key: PrivateKey
    body: dict[str, Any]


class Transparency:
    """Signing what is due into the clubs' logs (a job: after an append's commit, the
    operator's commands, ``domino serve``'s background), and reading the logs as a club's pages
    are read."""

    def __init__(self, units: Units, clock: Callable[[], dt.datetime],
                 signing_key: Callable[[Connection, int, str], PrivateKey]) -> None:
        self.units = units
        self.clock = clock
        self.signing_key = signing_key  # the club's key that signs now (Keys.signing_key)

    # ------------------------------------------------------------------------- signing

    def sign(self, match_id: int) -> dict[str, Any] | None:
        """Sign the match's acta into its club's log if it is due; the acta signed for its
        record as it stands (None while the match is not finished). NoSigningKey or
        SigningKeyError when the club's key cannot sign, RecordBroken for a broken record or
        tree. Two units of work: the record is read and replayed in a read-only one
        (:meth:`_draft`), so the club's lock is held only to sign and store it (:meth:`_store`)."""
        with self.units.open(PRIMARY) as uow:
            draft = self._draft(uow, match_id)
        if not isinstance(draft, _Draft):
            return draft
        with self.units.open(WRITE) as uow:
            return self._store(uow, draft)

    def _draft(self, uow: UnitOfWork, match_id: int) -> _Draft | dict[str, Any] | None:
        """The match's acta to sign; or the one signed already, or None when not finished."""
        conn = uow.conn
        row = store.match_row(conn, match_id)
        if row is None:
            raise NotFound("no match %(match)r", match=match_id)
        if row.status != "finished":
            return None
        if (done := current_leaf(conn, row.id, row.last_seq)) is not None:
            return json.loads(done.acta)
        key = self.signing_key(conn, row.club_id, row.club)  # before any replay
        return _Draft(row, key, acta_body(conn, row))

    def _store(self, uow: UnitOfWork, draft: _Draft) -> dict[str, Any] | None:
        """Sign ``draft`` as the next leaf of its club's log, with the grown tree's head, if
        the match and its club's key are still as it was read; None when they moved on."""
        conn, row, key = uow.conn, draft.row, draft.key
        now = self.clock()
        lock_club(conn, row.club_id)
        now_row = store.match_row(conn, row.id)
        if now_row.last_seq != row.last_seq or now_row.status != "finished":
            return None  # it moved on meanwhile: its own commit signs the new record
        if (done := current_leaf(conn, row.id, row.last_seq)) is not None:
            return json.loads(done.acta)  # another process signed it first
        signing = signing_key_row(conn, row.club_id)
        if signing is None or signing.key_id != key.key_id:
            return None  # rotated or retired meanwhile: it stays due, for the new key
        try:
            return append_leaf(conn, row.club_id, row.club, key, now, lambda index: (
                documents.sign_acta(draft.body, key, documents.iso(now), index)),
                match_id=row.id, seq=row.last_seq)
        except AlreadyExists:
            return None  # raced by another signer; its leaf stands

    def acta_of(self, match_id: int) -> dict[str, Any]:
        """The signed acta of a finished match as it stands, signed now if it is due
        (ActaPending when the club's key cannot sign): the operator's ``domino acta``, which
        asks for the signing explicitly; a read never signs (:meth:`.acta.Actas.acta`)."""
        for _ in range(SIGN_ATTEMPTS):  # None: the match moved on, or its key, while signing
            try:
                acta = self.sign(match_id)
            except SigningKeyError as error:
                log.warning("%s", TEXT["pending"] % {"match": match_id, "reason": error.message})
                raise ActaPending(N_("the club's signing key is not available on the server; "
                                     "the operator is told (domino db audit) and signs it with "
                                     "domino key sign-due"), error.message) from None
            if acta is not None:
                return acta
        raise NotFinished("match %(match)s is not finished, or changes as it is signed: ask again",
                          match=match_id)

    def after_commit(self, match_id: int) -> None:
        """Sign what an append that left the match finished made due. Never raises: the append
        is stored whatever happens here, and an acta not signed now stays due."""
        try:
            self.sign(match_id)
        except NoSigningKey as error:
            log.info("match %s: acta not signed: %s", match_id, error.message)
        except SigningKeyError as error:
            log.warning("match %s: acta not signed: %s", match_id, error.message)
        except RecordBroken as error:
            log.error("%s", error.message)
        except Exception:  # a database error, a bug: logged, and the acta stays due
            log.exception("match %s: acta not signed", match_id)

    def sign_due(self, club: str | None = None) -> tuple[list[tuple[int, int]], list[str]]:
        """Sign every acta due (of ``club``, or every club's): the (match, leaf index) signed,
        and why each one not signed was not. A job: ``domino key sign-due``, and ``domino
        serve``'s background (:mod:`.jobs`)."""
        with self.units.open(PRIMARY) as uow:
            club_id = club_row(uow, club).id if club is not None else None
            due = due_matches(uow.conn, club_id)
        signed, failed = [], []
        for row in due:
            try:
                acta = self.sign(row.id)
            except (SigningKeyError, RecordBroken) as error:
                failed.append(said("match %(match)s: %(problem)s", match=row.id,
                                   problem=said(error.msgid, **error.params)))
                continue
            if acta is not None:
                signed.append((row.id, acta["leaf_index"]))
        return signed, failed

    # ------------------------------------------------------------------------- reading

    @staticmethod
    def _club(uow: UnitOfWork, club: str, who: Caller | None) -> Row:
        reader(uow, club, who)  # who reads it (without a token: a public club's reader)
        return club_row(uow, club)

    @use_case(READ)
    def head(self, uow: UnitOfWork, club: str, *,
             who: Caller | None = OPERATOR) -> dict[str, Any]:
        """The club's latest signed tree head (``domino-tree-head/1``)."""
        row = latest_head(uow.conn, self._club(uow, club, who).id)
        if row is None:
            raise NotFound(TEXT["no_head"], club=club)
        return json.loads(row.head)

    @staticmethod
    def _size(conn: Connection, club_id: int, club: str) -> int:
        row = latest_head(conn, club_id)
        if row is None:
            raise NotFound(TEXT["no_head"], club=club)
        return row.size

    @use_case(READ)
    def leaves(self, uow: UnitOfWork, club: str, start: Any = 0, end: Any = None, *,
               who: Caller | None = OPERATOR) -> list[dict[str, Any]]:
        """The actas of leaves start, ..., end - 1, in order; at most LEAVES_PAGE of them, and
        none past the tree's size."""
        start = checks.count(start, "start")
        end = checks.count(end, "end") if end is not None else None
        club_id = self._club(uow, club, who).id
        size = self._size(uow.conn, club_id, club)
        stop = min(size, end if end is not None else size, start + LEAVES_PAGE)
        if end is not None and end < start:
            raise Invalid("end must be at least start")
        return [json.loads(r.acta) for r in leaf_rows(uow.conn, club_id, start, stop)]

    @use_case(READ)
    def inclusion(self, uow: UnitOfWork, club: str, index: Any, size: Any = None, *,
                  who: Caller | None = OPERATOR) -> dict[str, Any]:
        """The audit path of leaf ``index`` in the club's tree of ``size`` leaves (now: its
        latest head's size), RFC 9162 §2.1.3."""
        index = checks.count(index, "index")
        size, hashes = self._tree(uow, club, size, "size", who)
        if index >= size:
            raise Invalid("index must be a leaf of the tree of that size (0 to %(last)s)",
                          last=size - 1)
        return {"index": index, "size": size,
                "path": [h.hex() for h in merkle.inclusion_path(index, hashes)]}

    @use_case(READ)
    def consistency(self, uow: UnitOfWork, club: str, first: Any, second: Any = None, *,
                    who: Caller | None = OPERATOR) -> dict[str, Any]:
        """The proof that the club's tree of ``first`` leaves is a prefix of its tree of
        ``second`` (now: its latest head's size), RFC 9162 §2.1.4."""
        first = checks.count(first, "from")
        second, hashes = self._tree(uow, club, second, "to", who)
        if first > second:
            raise Invalid("from must be at most to")
        return {"from": first, "to": second,
                "path": [h.hex() for h in merkle.consistency_path(first, hashes)]}

    def _tree(self, uow: UnitOfWork, club: str, size: Any, name: str,
              who: Caller | None) -> tuple[int, list[bytes]]:
        """The size asked for (``name``; None: the latest head's) and the hashes of the club's
        first that many leaves; Invalid for a size past the latest head."""
        club_id = self._club(uow, club, who).id
        current = self._size(uow.conn, club_id, club)
        size = checks.count(size, name) if size is not None else current
        if size > current:
            raise Invalid("%(name)s must be at most the tree's size, %(size)s", name=name,
                          size=current)
        return size, leaf_hashes(uow.conn, club_id, size)

    @use_case(READ)
    def leaf_index(self, uow: UnitOfWork, match_id: int) -> int | None:
        """The leaf of the acta signed for the match's record as it stands, if one is."""
        return leaf_in(uow, match_id)


def leaf_in(uow: UnitOfWork, match_id: int) -> int | None:
    """The leaf of the acta signed for the match's record as it stands, if one is, in a use
    case's unit of work (a page's)."""
    return signed_leaf(uow, match_id, lambda leaf: leaf.leaf_index)


def signed_leaf(uow: UnitOfWork, match_id: int, part: Callable[[Row], Any]) -> Any:
    """``part`` of the leaf signed for the match's record as it stands, or None."""
    row = match_row(uow, match_id)
    leaf = current_leaf(uow.conn, match_id, row.last_seq) if row is not None else None
    return part(leaf) if leaf is not None else None
