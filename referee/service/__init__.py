"""The use cases, shared by the API, the CLI and the pages (``docs/service.md`` is the guide).

Each concern has a module and an object on :class:`Service`:

- ``svc.clubs`` (:mod:`.clubs`): clubs;
- ``svc.players`` (:mod:`.players`): a club's players, found by name key, renamed and merged;
- ``svc.tokens`` (:mod:`.tokens`): issuing tokens, and who holds one;
- ``svc.recording`` (:mod:`.recording`): creating and importing matches, appending events;
- ``svc.reading`` (:mod:`.reading`): a match's summary, events, state, screen, report and log;
- ``svc.standings`` (:mod:`.standings`): club standings, JSON-ready or CSV;
- ``svc.disputes`` (:mod:`.disputes`): disputes, previews of rulings, standard penalties, sheets;
- ``svc.keys`` (:mod:`.keys`): each club's signing keys, made, rotated, retired, listed;
- ``svc.transparency`` (:mod:`.transparency`): each club's log of signed actas, heads, proofs;
- ``svc.audit`` (:mod:`.audit`): every chain, digest, tree, guard and row MAC checked again;
- ``svc.seal`` (:mod:`.seal`): MACs, once, for the rows written before row MACs;
- ``svc.actas`` (:mod:`.acta`): chain heads where they may be published, signed score sheets;
- ``svc.tournaments`` (:mod:`.tournaments`): tournaments, entrants, rounds paired, event standings;
- ``svc.leagues`` (:mod:`.seasons`): league seasons, fixtures, legs, results, tables, averages;
- ``svc.jobs`` (:mod:`.jobs`): the ratings' catch-up and the actas due, outside any read;
- ``svc.matches`` (:mod:`.repository`): the match repository they share.

Every use case is a handler given its unit of work (:mod:`.uow`); ``svc.units`` opens them, on
the primary (``svc.engine``) or the read engine (``svc.read_engine``) as the use case declares.

Who may do what, and who sees which hands, is decided in :mod:`.access`: every use case takes
``who`` (a :class:`Caller`; the CLI's operator by default) and checks it there. Every decision
about a match is the rules core's; every query is the store's. Nothing here imports alembic,
flask or click: migrations are run by ``migrations.runner``.
"""

from __future__ import annotations

import datetime as dt
from typing import Callable

from sqlalchemy import Engine

from ..core.vocab import LADDER, ROLES, side_names
from ..core.vocab import MATCH_STATUSES as STATUSES
from ..store import db
from ..store.codec import utcnow
from ..store.db import MatchLimits, database_url, safe_url
from ..store.macs import install as install_row_key
from ..store.notify import Notifier
from .access import OPERATOR, SERVER_CALLER, Action, Caller
from .acta import Actas
from .audit import Audit
from .clubs import Clubs
from .disputes import Disputes
from .errors import (
    ActaPending,
    ChainBroken,
    Conflict,
    DatabaseError,
    Duplicate,
    Forbidden,
    IdempotencyMismatch,
    IllegalEvent,
    Invalid,
    NoSigningKey,
    NotFinished,
    NotFound,
    RecordBroken,
    RowForged,
    RowKeyError,
    ServiceError,
    SigningKeyError,
    TooLarge,
    TreeBroken,
    Unauthorized,
    database_unavailable,
)
from .freshness import Freshness
from .jobs import Jobs
from .keys import KeyRing, Keys
from .maintenance import rebuild
from .players import Players, Unconfirmed
from .projectors import Projector
from .ratings import after_merge
from .reading import Reading
from .recording import Recorded, Recording
from .repository import MatchRepository
from .rowkey import RowKeys
from .screen import Screen
from .seal import Seal
from .seasons import Leagues
from .setup import Setup
from .signin import SignIn
from .standings import COLUMNS as STANDING_COLUMNS
from .standings import Standings
from .tokens import Tokens
from .tournaments import Tournaments
from .transparency import Transparency
from .uow import Units

__all__ = [
    "Service", "open_service", "Recorded", "Screen", "side_names", "Caller", "Action",
    "OPERATOR", "SERVER_CALLER", "LADDER", "ServiceError", "NotFound", "Invalid",
    "IllegalEvent", "Conflict", "IdempotencyMismatch", "Duplicate", "Forbidden", "Unauthorized",
    "TooLarge", "MatchLimits", "NotFinished", "KeyRing", "SigningKeyError", "NoSigningKey",
    "ActaPending", "ChainBroken", "RecordBroken", "TreeBroken", "RowForged", "RowKeyError",
    "ROLES", "STANDING_COLUMNS", "STATUSES", "DatabaseError", "database_unavailable", "database_url",
    "safe_url",
]
__all__ += ["Players", "Unconfirmed"]


class Service:
    """The use cases over one database: ``engine`` the primary, ``read_engine`` where the
    reads that may be a moment late go (the primary itself by default; a replica by
    configuration: :class:`.uow.Kind` says which use case reads which)."""

    def __init__(self, engine: Engine, *, cache_size: int = 256,
                 clock: Callable[[], dt.datetime] = utcnow, keys: KeyRing | None = None,
                 read_engine: Engine | None = None) -> None:
        self.engine = engine
        self.read_engine = read_engine if read_engine is not None else engine
        self.units = Units(engine, self.read_engine)
        # how far behind the primary the pages' reads are, when a replica serves them
        self.freshness = Freshness(self.units)
        self.clock = clock
        self.matches = MatchRepository(cache_size)
        self.notifier = Notifier(engine)  # this process's one sender of scoreboard notices
        self.clubs = Clubs(self.units, clock)
        self.players = Players(self.units, clock)
        self.players.merge_hooks.append(after_merge)  # standing rows and ratings follow a merge
        self.tokens = Tokens(self.units, clock)
        self.signin = SignIn(self.units, clock)  # one-time sign-in codes (the desk's QR codes)
        self.recording = Recording(self.matches, self.units, clock, self.notifier)
        self.reading = Reading(self.matches, self.units)
        self.standings = Standings(self.units)
        self.disputes = Disputes(self.reading, self.recording)
        self.keys = Keys(self.units, clock, keys)
        # the row key, beside the clubs' keys: every row a result depends on is MAC'd with it
        self.row_keys = RowKeys(lambda: self.keys.ring.directory)
        for bound in {engine, self.read_engine}:
            install_row_key(bound, self.row_keys)
        self.seal = Seal(self.units, self.row_keys, clock)  # rows from before the MACs, once
        # the first club, from the link `domino serve` prints, with its signing key
        self.setup = Setup(self.units, clock, self.keys.init)
        self.transparency = Transparency(self.units, clock, self.keys.signing_key)
        self.actas = Actas(self.reading, self.units, self.keys.signing_key,
                           self.transparency.acta_of)
        self.audit = Audit(self.units, self.keys)
        self.jobs = Jobs(self.units, self.transparency)
        # A match finished by an append: its acta signed once the append is stored.
        self.recording.projectors += (Projector(
            "acta", lambda change: change.match.finished,
            after=lambda change: self.transparency.after_commit(change.match_id)),)
        self.tournaments = Tournaments(self.units, self.recording, clock)
        self.leagues = Leagues(self.units, self.recording, self.keys.signing_key, clock)
        # A leg's match whose result may have moved (a ruling): its fixture's sheet signed
        # again once the change has committed.
        self.recording.projectors += (Projector(
            "league sheet", lambda change: change.result_may_change,
            after=lambda change: self.leagues.resign(change.match_id)),)

    def rebuild(self, *, force: bool = False) -> int:
        """Recompute every match's projection from its events; returns how many matches.
        ChainBroken, and nothing rebuilt, when a record fails its chain, unless ``force``."""
        return rebuild(self.units, self.matches, force=force)

    def close(self) -> None:
        self.notifier.close()  # what it holds sent, before the pool's connections close
        self.engine.dispose()
        if self.read_engine is not self.engine:
            self.read_engine.dispose()

    def __enter__(self) -> "Service":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_service(url: str | None = None, *, limits: MatchLimits | None = None,
                 threads: int | None = None, read_url: str | None = None) -> Service:
    """A service over DOMINO_DATABASE_URL, or ``url``, or the embedded SQLite file, holding each
    match to ``limits`` (default: DOMINO_MAX_MATCH_EVENTS and DOMINO_MAX_MATCH_BYTES, else 5000
    events and 8 MiB), its connections enough for ``threads`` request threads; with
    ``read_url`` (the server's DOMINO_READ_DATABASE_URL: a replica), its reads that may be a
    moment late go there (:class:`.uow.Kind`). It runs no migration:
    ``migrations.runner.upgrade`` (``domino db upgrade``) does that."""
    engine = db.make_engine(url, limits=limits, threads=threads)
    read_engine = db.make_engine(read_url, limits=limits, threads=threads) if read_url else None
    return Service(engine, read_engine=read_engine)
