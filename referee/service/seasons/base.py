"""What every league use case holds (where its units of work come from, the recording use cases
a leg's matches are created by, the club's signing key, the clock), and the rows a request
names found once, with NotFound for what does not exist; who a captain is."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, Callable

from sqlalchemy import Connection, Row

from ...seal.keys import PrivateKey
from ...store import leagues as store
from ..access import Caller
from ..errors import Forbidden, NotFound
from ..lookup import club_row
from ..uow import UnitOfWork, Units

if TYPE_CHECKING:
    from ..recording import Recording


class Base:
    def __init__(self, units: Units, recording: Recording,
                 signing_key: Callable[[Connection, int, str], PrivateKey],
                 clock: Callable[[], dt.datetime]) -> None:
        self.units = units
        self.recording = recording
        self.signing_key = signing_key  # the club's key that signs now (Keys.signing_key)
        self.clock = clock


def season_row(uow: UnitOfWork, club: str, season: Any) -> Row:
    """The club's season ``season`` (its slug); NotFound for none."""
    club_id = club_row(uow, club).id
    row = None
    if isinstance(season, str):
        row = uow.remember(("season", club_id, season),
                           lambda: store.season_row(uow.conn, club_id, season))
    if row is None:
        raise NotFound("%(club)s has no season %(season)r", club=club, season=season)
    return row


def divisions(uow: UnitOfWork, season: Row) -> list[Row]:
    return uow.remember(("divisions", season.id),
                        lambda: store.division_rows(uow.conn, season.id))


def division_row(uow: UnitOfWork, season: Row, division: Any) -> Row:
    for row in divisions(uow, season):
        if row.slug == division:
            return row
    raise NotFound("season %(season)s has no division %(division)r", season=season.slug,
                   division=division)


def teams(uow: UnitOfWork, season: Row) -> list[Row]:
    """The season's teams, by division and number (read once a unit of work)."""
    return uow.remember(("teams", season.id), lambda: store.team_rows(uow.conn, season.id))


def team_row(uow: UnitOfWork, season: Row, team: Any) -> Row:
    for row in teams(uow, season):
        if row.slug == team:
            return row
    raise NotFound("season %(season)s has no team %(team)r", season=season.slug, team=team)


def fixture_row(uow: UnitOfWork, season: Row, fixture: Any, *,
                for_update: bool = False) -> Row:
    """The season's fixture numbered ``fixture``; NotFound for none (or another season's)."""
    row = None
    if type(fixture) is int:
        row = store.fixture_row(uow.conn, fixture, for_update=for_update)
    if row is None or row.season_id != season.id:
        raise NotFound("season %(season)s has no fixture %(fixture)r", season=season.slug,
                       fixture=fixture)
    return row


def captain_of(uow: UnitOfWork, who: Caller) -> int | None:
    """The team ``who``'s token is captain of, if any."""
    if who.token_id is None:
        return None
    return uow.remember(("captain", who.token_id),
                        lambda: store.captain_team(uow.conn, who.token_id))


def require_captain(uow: UnitOfWork, who: Caller, fixture: Row, side: str | None) -> str:
    """The side of ``fixture`` ``who`` speaks for: a captain's own team's (Forbidden for a
    captain of neither team, or naming the other side); the operator's, the side named."""
    if who.is_operator:
        if side not in ("home", "away"):
            raise Forbidden("say which team you confirm for: home or away")
        return side
    team = captain_of(uow, who)
    mine = ("home" if team == fixture.home_id else "away" if team == fixture.away_id
            else None)
    if mine is None or (side is not None and side != mine):
        raise Forbidden("only the captain of each team confirms its result, and this token "
                        "is not that team's captain")
    return mine
