"""Club keys: each club signs its actas and tree heads with an Ed25519 key of its own, named by
a key id, made on purpose (``domino key init``, ``domino club create``), rotated and retired,
and listed with when each signed (docs/verify.md).

**Where the private keys live.** Never in the database (a writer of the database must not be
able to sign): each is a PEM file (PKCS#8, unencrypted, mode 0600) at
``KEYS_DIR/CLUB/HEX.pem``, ``HEX`` being the 16 hex digits of its key id, and ``KEYS_DIR``
``DOMINO_KEYS_DIR`` when set, else ``domino-keys`` in ``DOMINO_DATA_DIR`` (or the current
folder). A deployment can mount that folder from elsewhere than the database's host. The
database holds the public halves and their validity (``signing_keys``).

**No key is ever made or replaced in silence.** A signing key whose file is missing, cannot be
read, is readable by anyone but its owner, or holds another key is a :class:`SigningKeyError`
that says what to do; nothing is signed with it until that is done, and recording goes on
(the actas wait: ``referee.service.transparency``).

**Before club keys** the server had one key for every club (``DOMINO_SIGNING_KEY``, else
``domino-signing-key.pem`` in the data folder). ``init(club, adopt=True)`` takes that key over
as the club's first key, under its old key id, so that every ``domino-acta/1`` it signed still
verifies against the club's listing; ``rotate`` then gives the club a key of its own.
"""

from __future__ import annotations

import datetime as dt
import os
import stat
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from sqlalchemy import Connection, Row

from .. import store
from ..core import acta as sheet
from ..core.said import said
from ..seal.keys import KeyFormatError, PrivateKey, PublicKey
from ..store.db import DATA_DIR_VARIABLE
from ..store.signing import (
    all_key_rows,
    end_key,
    insert_key,
    key_rows,
    retire_key,
    signing_key_row,
)
from .access import OPERATOR, Caller
from .clubs import reader
from .errors import N_, Duplicate, Forbidden, Invalid, NoSigningKey, NotFound, SigningKeyError
from .keyfolder import OTHERS, PRIVATE, keys_dir
from .lookup import club_row
from .transparency import publish_head
from .uow import PRIMARY, READ, WRITE, UnitOfWork, Units, use_case

LEGACY_KEY_VARIABLE = "DOMINO_SIGNING_KEY"
LEGACY_KEY_FILE = "domino-signing-key.pem"

# Every sentence this module says to people.
TEXT = {
    "no_key": N_("club %(club)s has no signing key: make one with domino key init --club "
                 "%(club)s"),
    "missing": N_("club %(club)s's signing key %(key_id)s has no private key file at "
                  "%(path)s: restore the file from your backup of the keys folder "
                  "(docs/verify.md), or give the club a new key with domino key rotate --club "
                  "%(club)s (actas signed before stay valid)"),
    "open": N_("%(path)s can be read by others (mode %(mode)s): a private key must be readable "
               "by its owner alone: chmod 600 %(path)s; if anyone else may have read it, give "
               "the club a new key with domino key rotate --club %(club)s and retire this one"),
    "unreadable": N_("cannot read %(path)s: %(reason)s: the key file must belong to the user the "
                     "server runs as, with mode 0600"),
    "not_a_key": N_("%(path)s is not the signing key it should be (%(reason)s): restore the "
                    "file from your backup, or give the club a new key with domino key rotate "
                    "--club %(club)s"),
    "other_key": N_("%(path)s holds key %(found)s, not %(key_id)s: restore the right file from "
                    "your backup, or give the club a new key with domino key rotate --club "
                    "%(club)s"),
    "exists": N_("%(path)s exists already and holds another key: move it away first"),
    "cannot_write": N_("cannot write the key file %(path)s: %(reason)s"),
    "has_key": N_("club %(club)s has a signing key already (%(key_id)s): domino key rotate --club "
                  "%(club)s gives it a new one"),
    "no_legacy": N_("there is no server key to adopt at %(path)s (DOMINO_SIGNING_KEY, else "
                    "domino-signing-key.pem in DOMINO_DATA_DIR): without --adopt a new key is "
                    "made"),
    "unknown_key": N_("club %(club)s has no key %(key_id)s"),
    "retired": N_("key %(key_id)s of club %(club)s is retired already"),
    "operator": N_("only the operator (the domino command on the server) manages keys"),
}


def legacy_key_path() -> Path:
    """Where the server's one key of before club keys was (see the module's docstring)."""
    if path := os.environ.get(LEGACY_KEY_VARIABLE):
        return Path(path)
    return Path(os.environ.get(DATA_DIR_VARIABLE) or ".") / LEGACY_KEY_FILE


class KeyRing:
    """The private key files, read each time a key signs (a finish, a rotation: rare enough),
    so that a file removed, opened up or replaced stops the signing at once."""

    def __init__(self, directory: Path | None = None) -> None:
        self._directory = directory

    @property
    def directory(self) -> Path:
        return self._directory if self._directory is not None else keys_dir()

    def path(self, club: str, key_id: str) -> Path:
        return self.directory / club / (key_id.split(":")[-1] + ".pem")

    def load(self, club: str, key_id: str) -> PrivateKey:
        """The club's private key ``key_id`` (SigningKeyError saying what is wrong)."""
        path = self.path(club, key_id)
        key = read_private(path, club)
        if key.key_id != key_id:
            raise SigningKeyError(TEXT["other_key"], path=path, found=key.key_id,
                                  key_id=key_id, club=club)
        return key

    def problem(self, club: str, key_id: str) -> str | None:
        """What is wrong with the club's key file (None: it can sign)."""
        try:
            self.load(club, key_id)
        except SigningKeyError as error:
            return error.message
        return None

    def write(self, club: str, key: PrivateKey) -> Path:
        """Store ``key`` for ``club``: a new file, 0600, in a folder only its owner may enter;
        a file already there is kept if it holds this key, else refused."""
        path = self.path(club, key.key_id)
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
        except FileExistsError:
            if read_private(path, club).key_id != key.key_id:
                raise SigningKeyError(TEXT["exists"], path=path) from None
            return path
        except OSError as error:
            raise SigningKeyError(TEXT["cannot_write"], path=path,
                                  reason=error) from None  # an OSError: said at the edge (words.message)
        with os.fdopen(fd, "wb") as out:
            out.write(key.pem())
        return path

    @contextmanager
    def made(self, club: str, key: PrivateKey) -> Iterator[Path]:
        """Write ``key``'s new file (:meth:`write`) for the block that records it. A block that
        raises recorded nothing (a statement failed, the club vanished meanwhile): the file is
        taken away again, or it would lie there, a private key of nothing. A failure after the
        block (at the commit) keeps it: the commit may have happened, and a recorded key
        without its file signs nothing until the file is restored."""
        existed = self.path(club, key.key_id).exists()
        path = self.write(club, key)
        try:
            yield path
        except BaseException:
            if not existed:
                path.unlink(missing_ok=True)
            raise


def read_private(path: Path, club: str) -> PrivateKey:
    """The key in ``path``, once it is found private (mode 0600 or stricter)."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & OTHERS:
            raise SigningKeyError(TEXT["open"], path=path, mode="%04o" % mode, club=club)
        data = path.read_bytes()
    except FileNotFoundError:
        raise SigningKeyError(TEXT["missing"], club=club, key_id=_id_of(path),
                              path=path) from None
    except OSError as error:
        raise SigningKeyError(TEXT["unreadable"], path=path,
                              reason=error) from None  # an OSError: said at the edge (words.message)
    try:
        return PrivateKey.from_pem(data)
    except KeyFormatError as error:
        raise SigningKeyError(TEXT["not_a_key"], path=path, reason=str(error),
                              club=club) from None


def _id_of(path: Path) -> str:
    return "ed25519:" + path.stem


@dataclass(frozen=True)
class ClubKey:
    """A key as a club's listing gives it."""

    row: Row

    @property
    def status(self) -> str:
        if self.row.retired_at is not None:
            return "retired"
        return "signing" if self.row.valid_until is None else "rotated"

    def as_dict(self) -> dict[str, Any]:
        public = PublicKey(sheet.decode(self.row.public_key, "the stored key"))
        return {**public.published(), "status": self.status,
                "valid_from": store.iso(self.row.valid_from),
                "valid_until": store.iso(self.row.valid_until),
                "retired_at": store.iso(self.row.retired_at),
                "retired_reason": self.row.retired_reason, "adopted": bool(self.row.adopted)}


class Keys:
    """A club's keys: made, adopted, rotated, retired, listed; and the one that signs now."""

    def __init__(self, units: Units, clock: Callable[[], dt.datetime],
                 ring: KeyRing | None = None) -> None:
        self.units = units
        self.clock = clock
        self.ring = ring or KeyRing()

    # --------------------------------------------------------------------- the operator's

    def init(self, club: str, *, adopt: bool | str | Path = False,
             who: Caller = OPERATOR) -> dict[str, Any]:
        """The club's first signing key: made new, or (``adopt``: True for the server's old key
        where it was, or a path) the server's key of before club keys, valid since the club was
        made. Duplicate when the club has one already. The tree's head is signed with it."""
        _operator(who)
        # Checked before the key file is written (an existing club key's file is never
        # replaced), and again in the writing unit of work: made meanwhile, say.
        with self.units.open(PRIMARY) as uow:
            _no_key_yet(uow, club)
        key = self._adopted(adopt, club) if adopt else PrivateKey.generate()
        now = self.clock()
        with self.units.open(WRITE) as uow:
            with self.ring.made(club, key):
                row = _no_key_yet(uow, club)
                insert_key(uow.conn, row.id, key.key_id, sheet.encode(key.public.raw),
                           row.created_at if adopt else now, adopted=bool(adopt))
                publish_head(uow.conn, row.id, club, key, now)
                return self._entry(uow.conn, row.id, key.key_id)

    def _adopted(self, adopt: bool | str | Path, club: str) -> PrivateKey:
        path = legacy_key_path() if adopt is True else Path(adopt)
        if not path.exists():
            raise Invalid(TEXT["no_legacy"], path=path)
        return read_private(path, club)

    @use_case(WRITE)
    def rotate(self, uow: UnitOfWork, club: str, *, who: Caller = OPERATOR) -> dict[str, Any]:
        """A new signing key for the club; the one that signed until now stops (what it signed
        stays valid: its listing says until when). The tree's head is signed again with it."""
        _operator(who)
        conn = uow.conn
        row = club_row(uow, club)  # an unknown club: refused before any file is written
        key = PrivateKey.generate()
        now = self.clock()
        with self.ring.made(club, key):
            if (current := signing_key_row(conn, row.id)) is not None:
                end_key(conn, current.id, now)
            insert_key(conn, row.id, key.key_id, sheet.encode(key.public.raw), now)
            publish_head(conn, row.id, club, key, now)
            return self._entry(conn, row.id, key.key_id)

    @use_case(WRITE)
    def retire(self, uow: UnitOfWork, club: str, key_id: str, reason: str, *,
               who: Caller = OPERATOR) -> dict[str, Any]:
        """Retire a key (lost, exposed, or simply done with): it signs nothing more, and the
        listing says since when and why. Retiring the key that signs leaves the club with none
        until ``rotate``: its actas wait."""
        _operator(who)
        reason = reason.strip() if isinstance(reason, str) else ""
        if not reason:
            raise Invalid("say why the key is retired (--reason)")
        conn = uow.conn
        row = club_row(uow, club)
        found = next((k for k in key_rows(conn, row.id) if k.key_id == key_id), None)
        if found is None:
            raise NotFound(TEXT["unknown_key"], club=club, key_id=key_id)
        if found.retired_at is not None:
            raise Duplicate(TEXT["retired"], club=club, key_id=key_id)
        retire_key(conn, found.id, self.clock(), reason)
        return self._entry(conn, row.id, key_id)

    # ---------------------------------------------------------------------------- reading

    @use_case(READ)
    def listing(self, uow: UnitOfWork, club: str, *,
                who: Caller | None = OPERATOR) -> dict[str, Any]:
        """The club's keys with their validity, oldest first (``GET /clubs/{club}/keys``):
        anyone's on a public club (``who`` None), else a reader of the club's."""
        reader(uow, club, who)  # who reads it (without a token: a public club's reader)
        conn = uow.conn
        row = club_row(uow, club)
        return {"club": row.slug,
                "keys": [ClubKey(k).as_dict() for k in key_rows(conn, row.id)]}

    def _entry(self, conn: Connection, club_id: int, key_id: str) -> dict[str, Any]:
        return next(ClubKey(k).as_dict() for k in key_rows(conn, club_id) if k.key_id == key_id)

    def signing_key(self, conn: Connection, club_id: int, club: str) -> PrivateKey:
        """The key that signs for the club now, read from its file: NoSigningKey when the club
        has none, SigningKeyError when its file cannot be used."""
        row = signing_key_row(conn, club_id)
        if row is None:
            raise NoSigningKey(TEXT["no_key"], club=club)
        return self.ring.load(club, row.key_id)

    def published(self, conn: Connection, club_id: int) -> list[PublicKey]:
        """The club's public keys with their validity, to check what it signed."""
        return [public_key(k) for k in key_rows(conn, club_id)]

    def file_problems(self, conn: Connection) -> list[tuple[str, str]]:
        """(club, what) for each club whose signing key's file cannot be used, or whose stored
        public key is not its id's."""
        problems = []
        for k in all_key_rows(conn):
            if public_key(k).key_id != k.key_id:
                problems.append((k.club, said("key %(key_id)s's stored public key is another "
                                              "key's: the signing_keys row was changed",
                                              key_id=k.key_id)))
            elif k.valid_until is None and (problem := self.ring.problem(k.club, k.key_id)):
                problems.append((k.club, problem))
        return problems


def public_key(row: Row) -> PublicKey:
    return PublicKey(sheet.decode(row.public_key, "the stored key"), store.as_utc(row.valid_from),
                     store.as_utc(row.valid_until) if row.valid_until is not None else None)


def _no_key_yet(uow: UnitOfWork, club: str) -> Row:
    """The club's row, once it is found to have no signing key (else Duplicate)."""
    row = club_row(uow, club)
    if (current := signing_key_row(uow.conn, row.id)) is not None:
        raise Duplicate(TEXT["has_key"], club=club, key_id=current.key_id)
    return row


def _operator(who: Caller) -> None:
    if not who.is_operator:
        raise Forbidden(TEXT["operator"])
