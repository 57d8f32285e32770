"""Reading a match: its summary, the club's list, its events, the table at any event, the
report and the log, each in one unit of work, through one view of the match as the caller may
see it (:meth:`Reading.view`, :class:`.view.MatchView`)."""

from __future__ import annotations

import datetime as dt
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Container, Iterator

from sqlalchemy import Row

from .. import store
from ..core.vocab import ABANDONED
from ..core.vocab import MATCH_STATUSES as STATUSES
from . import checks
from .access import OPERATOR, Action, Caller, require, require_match, sees_hands
from .errors import Invalid
from .lookup import club_row
from .repository import MatchRepository
from .summary import row_summary
from .uow import PRIMARY, READ, Kind, UnitOfWork, Units, use_case

# A listing reads rows and replays nothing (unless a match in play is shown to a caller who may
# not see hands): the view, its screen and the rules core's match are imported where a match
# is viewed, so that `domino match list` starts without them (bench/cli_bench.py).
if TYPE_CHECKING:
    from ..core.position import Position
    from .screen import Screen
    from .view import MatchView

# The statuses of matches played or in play: every one but a match withdrawn.
PLAYED = tuple(s for s in STATUSES if s != ABANDONED)


class Reading:
    """A match's reads are its table's (the scorekeeper's screen, its events, its report: read
    right after the table's own appends), so they read the primary; the club's listing and a
    log's export read the read engine."""

    def __init__(self, matches: MatchRepository, units: Units) -> None:
        self.matches = matches
        self.units = units

    @contextmanager
    def view(self, match_id: Any, *, who: Caller = OPERATOR,
             kind: Kind = PRIMARY) -> Iterator[MatchView]:
        """The match as ``who`` may see it, in a read-only unit of work of its own (``kind``):
        the caller is checked once to be a reader of the match's club, and everything the view
        answers is worked out from the one record it holds."""
        with self.units.open(kind) as uow:
            yield self.view_in(uow, match_id, who)

    def view_in(self, uow: UnitOfWork, match_id: Any, who: Caller) -> MatchView:
        """:meth:`view` inside a use case's own unit of work."""
        from .view import MatchView

        row = self.matches.row(uow, match_id)
        require_match(who, row.club, Action.READ, match_id)
        return MatchView(self.matches.get(uow, row), who, uow)

    def require_reader(self, match_id: Any, *, who: Caller) -> None:
        """NotFound, in the words an id that names no match gets, unless ``who`` may read match
        ``match_id``. What a path naming a match by its id alone asks first, before its
        headers (If-Match), query or body are looked at, so that another club's token is
        answered as an unknown id is, whatever else it sends (docs/api.md, "404 or 403"). A
        match's club never changes: once this process has seen it, no unit of work is opened
        (else one on the primary: a match just created is not on a replica yet)."""
        club = self.matches.club_of(match_id)
        if club is None:
            with self.units.open(PRIMARY) as uow:
                club = self.matches.row(uow, match_id).club
        require_match(who, club, Action.READ, match_id)

    # ------------------------------------------------------------------------ one match

    @use_case(PRIMARY)
    def get_match(self, uow: UnitOfWork, match_id: int | str, *,
                  who: Caller = OPERATOR) -> dict[str, Any]:
        return self.view_in(uow, match_id, who).summary()

    def list_events(self, match_id: int | str, after: int = 0, limit: int | None = None, *,
                    who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The events after ``after``, as ``who`` may see them."""
        return self.events_page(match_id, after, limit, who=who)[0]

    @use_case(PRIMARY)
    def events_page(self, uow: UnitOfWork, match_id: int | str, after: int = 0,
                    limit: int | None = None, *,
                    who: Caller = OPERATOR) -> tuple[list[dict[str, Any]], int]:
        """:meth:`list_events`, and the match's last seq (what an ETag names)."""
        after = checks.count(after, "after")
        if limit is not None:
            limit = checks.count(limit, "limit")
        view = self.view_in(uow, match_id, who)
        return view.event_records(after, limit), view.record.last_seq

    @use_case(PRIMARY)
    def state(self, uow: UnitOfWork, match_id: int | str, at: int | None = None, *,
              who: Caller = OPERATOR) -> Position:
        """The table after event ``at`` (the record as it stood then), or now, as ``who`` may
        see it."""
        view = self.view_in(uow, match_id, who)
        return view.position(_at(view, at))

    @use_case(PRIMARY)
    def screen(self, uow: UnitOfWork, match_id: int | str, at: int | None = None, *,
               who: Caller = OPERATOR) -> Screen:
        """The match as a scorekeeper's screen shows it to ``who``: now, or as the table stood
        after event ``at`` (with the disputes open then)."""
        view = self.view_in(uow, match_id, who)
        return view.screen(_at(view, at))

    @use_case(PRIMARY)
    def screen_if_changed(self, uow: UnitOfWork, match_id: int | str, seen: Container[int], *,
                          who: Caller = OPERATOR) -> tuple[int, Screen | None]:
        """The match's last seq, and its screen as ``who`` sees it unless that seq is one of
        ``seen`` (an If-None-Match: a polling phone's read costs no replay)."""
        row = self.matches.row(uow, match_id)
        require_match(who, row.club, Action.READ, match_id)
        if row.last_seq in seen:
            return row.last_seq, None
        from .view import MatchView

        return row.last_seq, MatchView(self.matches.get(uow, row), who, uow).screen()

    @use_case(PRIMARY)
    def report(self, uow: UnitOfWork, match_id: int | str, *,
               who: Caller = OPERATOR) -> dict[str, Any]:
        """The domino-report/1 of the match as ``who`` may see it."""
        return self.view_in(uow, match_id, who).report()

    @use_case(PRIMARY)
    def struck(self, uow: UnitOfWork, match_id: int | str, *,
               who: Caller = OPERATOR) -> frozenset[int]:
        """The sequence numbers the match's voids strike from the record now."""
        return self.view_in(uow, match_id, who).struck()

    @use_case(READ)
    def export_log(self, uow: UnitOfWork, match_id: int | str, *, who: Caller = OPERATOR) -> str:
        """The match as a domino-log/1: its header as stored and the same events back, as
        ``who`` may see them."""
        return self.view_in(uow, match_id, who).log()

    @use_case(PRIMARY)
    def lines(self, uow: UnitOfWork, match_id: int | str, *,
              who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """Each round's line of play (``[{"round", "line"}]``, tiles left to right, each
        written left pip first), as ``who`` may see the record."""
        return self.view_in(uow, match_id, who).lines()

    # ------------------------------------------------------------------------ the club's

    @use_case(READ)
    def list_matches(self, uow: UnitOfWork, club: str, status: str | None = None,
                     player: str | None = None, date_from: str | dt.date | None = None,
                     date_to: str | dt.date | None = None, limit: int = 50, offset: int = 0, *,
                     who: Caller = OPERATOR,
                     withdrawn: bool = True) -> tuple[list[dict[str, Any]], int]:
        """The club's matches, newest first, and how many match the filters in all.
        ``withdrawn=False`` leaves out the matches abandoned (a club's page lists what was
        played or is in play); asked for by status, they are listed."""
        require(who, club, Action.READ)
        if status is not None:
            checks.one_of(status, STATUSES, "status")
        date_from, date_to = checks.date(date_from, "date_from"), checks.date(date_to, "date_to")
        limit, offset = checks.count(limit, "limit"), checks.count(offset, "offset")
        club_id = club_row(uow, club).id
        player_id = None
        if player is not None:
            from .players import find as find_player

            player_row = find_player(uow.conn, club_id, player)  # by key, merges followed
            if player_row is None:
                return [], 0  # nobody of that name has played here
            player_id = player_row.id
        rows, total = store.list_matches(uow.conn, club_id, status=status, player_id=player_id,
                                         date_from=date_from, date_to=date_to,
                                         limit=limit, offset=offset,
                                         statuses=STATUSES if withdrawn else PLAYED)
        return [self.listed(uow, row, who) for row in rows], total

    def listed(self, uow: UnitOfWork, row: Row, who: Caller) -> dict[str, Any]:
        """A match's summary in a listing: the row's projection, but for a match in play and a
        caller who may not see hands, as its record shows to that caller (a dispute only a
        hidden hand proves stays out of its count)."""
        if row.status != "in_progress" or sees_hands(who, row.club):
            return row_summary(row)
        from .view import MatchView

        return MatchView(self.matches.get(uow, row), who).summary()


def _at(view: MatchView, at: int | None) -> int | None:
    if at is not None:
        at = checks.count(at, "at")
        if at > view.record.last_seq:
            raise Invalid("at is %(at)s but the match has %(count)s events", at=at,
                          count=view.record.last_seq)
    return at


def summary(row: Row) -> dict[str, Any]:
    """A match's summary, from its row: no replay."""
    return row_summary(row)


__all__ = ["Reading", "summary"]
