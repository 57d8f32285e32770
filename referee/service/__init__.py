"""The use cases, shared by the API, the CLI and the pages (``docs/service.md`` is the guide).

Each concern has a module and an object on :class:`Service`:

- ``svc.clubs`` (:mod:`.clubs`): clubs;
- ``svc.players`` (:mod:`.players`): a club's players, found by name key, renamed and merged;
- ``svc.tokens`` (:mod:`.tokens`): issuing tokens, and who holds one;
- ``svc.recording`` (:mod:`.recording`): creating and importing matches, appending events;
- ``svc.reading`` (:mod:`.reading`): a match's summary, events, state, screen, report and log;
- ``svc.standings`` (:mod:`.standings`): club standings, JSON-ready or CSV;
- ``svc.disputes`` (:mod:`.disputes`): disputes, previews of rulings, standard penalties, sheets;
- ``svc.actas`` (:mod:`.acta`): chain heads where they may be published, signed score sheets;
- ``svc.tournaments`` (:mod:`.tournaments`): tournaments, entrants, rounds paired, event standings;
- ``svc.matches`` (:mod:`.repository`): the match repository they share.

Who may do what, and who sees which hands, is decided in :mod:`.access`: every use case takes
``who`` (a :class:`Caller`; the CLI's operator by default) and checks it there. Every decision
about a match is the rules core's; every query is the store's. Nothing here imports alembic,
flask or click: migrations are run by ``migrations.runner``.
"""

from __future__ import annotations

import datetime as dt
from typing import Callable

from sqlalchemy import Engine

from ..store import db
from ..store.codec import utcnow
from ..core.vocab import LADDER, MATCH_STATUSES as STATUSES, ROLES
from .access import OPERATOR, SERVER_CALLER, Action, Caller
from .acta import Actas, Signer, SigningKeyError
from .clubs import Clubs
from .disputes import Disputes
from ..store.db import MatchLimits, database_url, safe_url
from .errors import (
    Conflict, DatabaseError, Duplicate, Forbidden, IdempotencyMismatch, IllegalEvent, Invalid,
    NotFinished, NotFound, ServiceError, TooLarge, Unauthorized, database_unavailable,
)
from .maintenance import rebuild
from .players import Players, Unconfirmed
from .ratings import after_merge
from .reading import Reading
from .recording import Recording
from .repository import MatchRepository, Recorded
from .screen import Screen
from ..core.vocab import side_names
from .standings import COLUMNS as STANDING_COLUMNS, Standings
from .tokens import Tokens
from .tournaments import Tournaments

__all__ = [
    "Service", "open_service", "Recorded", "Screen", "side_names", "Caller", "Action",
    "OPERATOR", "SERVER_CALLER", "LADDER", "ServiceError", "NotFound", "Invalid",
    "IllegalEvent", "Conflict", "IdempotencyMismatch", "Duplicate", "Forbidden", "Unauthorized",
    "TooLarge", "MatchLimits", "NotFinished", "Signer", "SigningKeyError",
    "ROLES", "STANDING_COLUMNS", "STATUSES", "DatabaseError", "database_unavailable", "database_url",
    "safe_url",
]
__all__ += ["Players", "Unconfirmed"]


class Service:
    """The use cases over one database."""

    def __init__(self, engine: Engine, *, cache_size: int = 256,
                 clock: Callable[[], dt.datetime] = utcnow, signer: Signer | None = None) -> None:
        self.engine = engine
        self.matches = MatchRepository(engine, cache_size, clock)
        self.clubs = Clubs(engine, clock)
        self.players = Players(engine, clock)
        self.players.merge_hooks.append(after_merge)  # standing rows and ratings follow a merge
        self.tokens = Tokens(engine, clock)
        self.recording = Recording(self.matches)
        self.reading = Reading(self.matches)
        self.standings = Standings(engine)
        self.disputes = Disputes(self.matches, self.reading, self.recording)
        self.actas = Actas(self.reading, signer or Signer())
        self.tournaments = Tournaments(engine, self.recording, self.clubs, clock)

    def rebuild(self) -> int:
        """Recompute every match's projection from its events; returns how many matches."""
        return rebuild(self.matches)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> "Service":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_service(url: str | None = None, *, limits: MatchLimits | None = None) -> Service:
    """A service over DOMINO_DATABASE_URL, or ``url``, or the embedded SQLite file, holding each
    match to ``limits`` (default: DOMINO_MAX_MATCH_EVENTS and DOMINO_MAX_MATCH_BYTES, else 5000
    events and 8 MiB). It runs no migration: ``migrations.runner.upgrade`` (``domino db
    upgrade``) does that."""
    return Service(db.make_engine(url, limits=limits))
