"""The use cases, shared by the API, the CLI and the pages (``docs/service.md`` is the guide).

Each concern has a module and an object on :class:`Service`:

- ``svc.clubs`` (:mod:`.clubs`): clubs;
- ``svc.players`` (:mod:`.players`): a club's players, found by name key, renamed and merged;
- ``svc.tokens`` (:mod:`.tokens`): issuing tokens, and who holds one;
- ``svc.recording`` (:mod:`.recording`): creating and importing matches, appending events;
- ``svc.reading`` (:mod:`.reading`): a match's summary, events, state, screen, report and log;
- ``svc.standings`` (:mod:`.standings`): club standings, JSON-ready or CSV;
- ``svc.disputes`` (:mod:`.disputes`): disputes, previews of rulings, standard penalties, sheets;
- ``svc.seal`` (:mod:`.seal`): MACs, once, for the rows written before row MACs;
- ``svc.keys`` (:mod:`.keys`): each club's signing keys, made, rotated, retired, listed;
- ``svc.transparency`` (:mod:`.transparency`): each club's log of signed actas, heads, proofs;
- ``svc.audit`` (:mod:`.audit`): every chain, digest, tree, guard and row MAC checked again;
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

A concern's module is imported, and its object made, when it is first used
(``svc.tournaments``: :class:`_Part`), and so are the names below that only one concern
holds (``Recorded``, ``KeyRing``...: the module's ``__getattr__``): a ``domino`` command
that lists matches loads neither the pairing engine, the signing keys, the ratings nor the
audit (bench/cli_bench.py; tests/cli/test_cli_imports.py holds each command to what it needs).
A server makes them all at start (:meth:`Service.ready`).
"""

from __future__ import annotations

import datetime as dt
import importlib
import threading
from typing import TYPE_CHECKING, Any, Callable, Generic, TypeVar, overload

from sqlalchemy import Engine

from ..core.vocab import LADDER, ROLES, side_names
from ..core.vocab import MATCH_STATUSES as STATUSES
from ..store import db
from ..store.codec import utcnow
from ..store.db import MatchLimits, database_url, safe_url
from ..store.macs import install as install_row_key
from .access import OPERATOR, SERVER_CALLER, Action, Caller
from .errors import (
    N_,
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
    database_damaged,
    database_unavailable,
)
from .freshness import Freshness
from .keyfolder import keys_dir
from .repository import MatchRepository
from .rowkey import RowKeys
from .uow import Units

if TYPE_CHECKING:
    from ..store.notify import Notifier
    from .acta import Actas
    from .audit import Audit
    from .clubs import Clubs
    from .disputes import Disputes
    from .jobs import Jobs
    from .keys import KeyRing, Keys
    from .players import Players, Unconfirmed
    from .reading import Reading
    from .recording import Recorded, Recording
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

__all__ = [
    "Service", "open_service", "Recorded", "Screen", "side_names", "Caller", "Action",
    "OPERATOR", "SERVER_CALLER", "LADDER", "ServiceError", "NotFound", "Invalid",
    "IllegalEvent", "Conflict", "IdempotencyMismatch", "Duplicate", "Forbidden", "Unauthorized",
    "TooLarge", "MatchLimits", "NotFinished", "KeyRing", "SigningKeyError", "NoSigningKey",
    "ActaPending", "ChainBroken", "RecordBroken", "TreeBroken", "RowForged", "RowKeyError",
    "ROLES", "STANDING_COLUMNS", "STATUSES", "DatabaseError", "database_unavailable", "database_url",
    "safe_url", "database_damaged",
]
__all__ += ["Players", "Unconfirmed"]

# The names only one concern's module holds, imported from it when first asked for.
_LAZY = {"Recorded": ".recording", "Screen": ".screen", "KeyRing": ".keys",
         "STANDING_COLUMNS": (".standings", "COLUMNS"), "Players": ".players",
         "Unconfirmed": ".players"}


def __getattr__(name: str) -> Any:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attr = where if isinstance(where, tuple) else (where, name)
    value = getattr(importlib.import_module(module, __name__), attr)
    globals()[name] = value
    return value


T = TypeVar("T")


class _Part(Generic[T]):
    """A concern of the service, made (and its module imported) when first used, once: its
    maker runs under the service's lock, so two threads asking at once get the same object.
    Once made it is a plain attribute of the instance (this descriptor defines no ``__set__``),
    read with no lock."""

    def __init__(self, make: Callable[["Service"], T]) -> None:
        self.make = make
        self.__doc__ = make.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, svc: None, owner: type) -> "_Part[T]": ...

    @overload
    def __get__(self, svc: "Service", owner: type) -> T: ...

    def __get__(self, svc: "Service | None", owner: type) -> Any:
        if svc is None:
            return self
        with svc._making:
            if self.name not in svc.__dict__:
                svc.__dict__[self.name] = self.make(svc)
        return svc.__dict__[self.name]


class Service:
    """The use cases over one database: ``engine`` the primary, ``read_engine`` where the
    reads that may be a moment late go (the primary itself by default; a replica by
    configuration: :class:`.uow.Kind` says which use case reads which)."""

    def __init__(self, engine: Engine, *, cache_size: int = 256,
                 clock: Callable[[], dt.datetime] = utcnow, keys: "KeyRing | None" = None,
                 read_engine: Engine | None = None) -> None:
        self.engine = engine
        self.read_engine = read_engine if read_engine is not None else engine
        self.units = Units(engine, self.read_engine)
        self.clock = clock
        self._keyring = keys
        self._making = threading.RLock()  # the concerns made on first use (_Part)
        self.matches = MatchRepository(cache_size)
        # the row key, beside the clubs' keys: every row a result depends on is MAC'd with it
        # (its folder the keys' own, found without making svc.keys: a read signs nothing)
        self.row_keys = RowKeys(lambda: keys.directory if keys is not None else keys_dir())
        for bound in {engine, self.read_engine}:
            install_row_key(bound, self.row_keys)
        # how far behind the primary the pages' reads are, when a replica serves them
        self.freshness = Freshness(self.units)

    @_Part
    def notifier(self) -> "Notifier":
        """This process's one sender of scoreboard notices, made with the recording (a command
        that appends nothing builds none of its SQL)."""
        from ..store.notify import Notifier
        return Notifier(self.engine)

    @_Part
    def clubs(self) -> "Clubs":
        from .clubs import Clubs
        return Clubs(self.units, self.clock)

    @_Part
    def players(self) -> "Players":
        from .legresults import after_merge as legs_after_merge
        from .players import Players
        from .ratings import after_merge
        players = Players(self.units, self.clock)
        players.merge_hooks.append(after_merge)  # standing rows and ratings follow a merge
        players.merge_hooks.append(legs_after_merge)  # so do the league legs' results
        return players

    @_Part
    def tokens(self) -> "Tokens":
        from .tokens import Tokens
        return Tokens(self.units, self.clock)

    @_Part
    def signin(self) -> "SignIn":
        """One-time sign-in codes (the desk's QR codes)."""
        from .signin import SignIn
        return SignIn(self.units, self.clock)

    @_Part
    def recording(self) -> "Recording":
        from .legresults import LEG_RESULTS
        from .projectors import Projector
        from .recording import Recording
        recording = Recording(self.matches, self.units, self.clock, self.notifier)
        recording.projectors += (
            # A match finished by an append: its acta signed once the append is stored.
            Projector("acta", lambda change: change.match.finished,
                      after=lambda change: self.transparency.after_commit(change.match_id)),
            # A leg's match whose result may have moved (a ruling): its fixture's sheet signed
            # again once the change has committed.
            Projector("league sheet", lambda change: change.result_may_change,
                      after=lambda change: self.leagues.resign(change.match_id)),
            # A leg's match whose result may have moved: its leg's result row, in the
            # append's transaction (the tables and averages read it).
            LEG_RESULTS)
        return recording

    @_Part
    def reading(self) -> "Reading":
        from .reading import Reading
        return Reading(self.matches, self.units)

    @_Part
    def standings(self) -> "Standings":
        from .standings import Standings
        return Standings(self.units)

    @_Part
    def disputes(self) -> "Disputes":
        from .disputes import Disputes
        return Disputes(self.reading, self.recording)

    @_Part
    def keys(self) -> "Keys":
        from .keys import Keys
        return Keys(self.units, self.clock, self._keyring)

    @_Part
    def seal(self) -> "Seal":
        """MACs, once, for the rows written before row MACs."""
        from .seal import Seal
        return Seal(self.units, self.row_keys, self.clock)

    @_Part
    def setup(self) -> "Setup":
        """The first club, from the link `domino serve` prints, with its signing key."""
        from .setup import Setup
        return Setup(self.units, self.clock, self.keys.init)

    @_Part
    def transparency(self) -> "Transparency":
        from .transparency import Transparency
        return Transparency(self.units, self.clock, self.keys.signing_key)

    @_Part
    def actas(self) -> "Actas":
        from .acta import Actas
        return Actas(self.reading, self.units, self.keys.signing_key, self.transparency.acta_of)

    @_Part
    def audit(self) -> "Audit":
        from .audit import Audit
        return Audit(self.units, self.keys)

    @_Part
    def jobs(self) -> "Jobs":
        from .jobs import Jobs
        return Jobs(self.units, self.transparency)

    @_Part
    def tournaments(self) -> "Tournaments":
        from .tournaments import Tournaments
        return Tournaments(self.units, self.recording, self.clock)

    @_Part
    def leagues(self) -> "Leagues":
        from .seasons import Leagues
        return Leagues(self.units, self.recording, self.keys.signing_key, self.clock)

    PARTS = ("clubs", "players", "tokens", "signin", "recording", "reading", "standings",
             "disputes", "keys", "seal", "setup", "transparency", "actas", "audit", "jobs", "tournaments",
             "leagues")

    def ready(self) -> "Service":
        """Every concern made now (a server's start: no request pays for an import)."""
        for name in self.PARTS:
            getattr(self, name)
        return self

    def rebuild(self, *, force: bool = False) -> int:
        """Recompute every match's projection from its events; returns how many matches.
        ChainBroken, and nothing rebuilt, when a record fails its chain, unless ``force``."""
        from .maintenance import rebuild
        return rebuild(self.units, self.matches, force=force)

    def close(self) -> None:
        if "notifier" in self.__dict__:  # made (_Part): what it holds sent, pool still open
            self.notifier.close()
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
    engine = _engine(url, limits=limits, threads=threads)
    read_engine = _engine(read_url, limits=limits, threads=threads) if read_url else None
    return Service(engine, read_engine=read_engine)


# What a database URL that cannot be used is told (SQLAlchemy's words, or a traceback, else).
URL_TEXT = {
    "not_url": N_("the database URL cannot be read: give sqlite:///FILE or "
                  "postgresql+psycopg://USER@HOST/DATABASE"),
    "backend": N_("%(url)s: domino works on SQLite and PostgreSQL only, not %(backend)s"),
    "driver": N_("%(url)s needs the Python module %(module)s, which is not installed"),
}
BACKENDS = ("sqlite", "postgresql")  # the databases the store is written and tested for


def _engine(url: str | None, **kwargs: Any) -> Any:
    """db.make_engine on ``url``, once it is found to name a database domino works on; else
    Invalid, saying which (the URL without its password)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        parsed = make_url(database_url(url))
    except (ArgumentError, ValueError):
        raise Invalid(URL_TEXT["not_url"]) from None
    shown = parsed.render_as_string(hide_password=True)
    if parsed.get_backend_name() not in BACKENDS:
        raise Invalid(URL_TEXT["backend"], url=shown, backend=parsed.get_backend_name())
    try:
        return db.make_engine(url, **kwargs)
    except ModuleNotFoundError as error:  # a driver named in the URL that is not installed
        raise Invalid(URL_TEXT["driver"], url=shown, module=error.name) from None
    except NoSuchModuleError:  # a driver SQLAlchemy does not know (postgresql+nodriver)
        raise Invalid(URL_TEXT["backend"], url=shown, backend=parsed.drivername) from None
