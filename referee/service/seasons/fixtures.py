"""A season's fixtures: generated for every division at once (the engine's double round robin
on the season's calendar), postponed to a new date, a leg conceded, a walkover awarded; each
change written to the fixture's history with who made it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row

from ...core.vocab import SIDES
from ...store import leagues as store
from .. import checks
from ..access import OPERATOR, Action, Caller, require
from ..errors import N_, Forbidden, Invalid, Phrase
from ..leagues import season as engine_season
from ..uow import WRITE, UnitOfWork, use_case
from . import fields
from .base import Base, captain_of, divisions, fixture_row, season_row, teams


def note(uow: UnitOfWork, fixture: Row, kind: str, detail: dict[str, Any], who: Caller,
         clock: Any) -> None:
    """A line of the fixture's history: what happened, and who did it."""
    store.add_history(uow.conn, fixture.id, kind, detail, clock(), who.recorded_by,
                      who.token_id)


def reason_of(value: Any) -> str:
    return checks.name(value, Phrase(N_("reason")))


class SeasonFixtures(Base):
    @use_case(WRITE)
    def generate(self, uow: UnitOfWork, club: str, season: str, *,
                 who: Caller = OPERATOR) -> dict[str, Any]:
        """Every division's fixtures, from the season's calendar (the secretary), once: the
        teams in each division's order, the circle method's rounds on its fixture days.
        Invalid for a season with its fixtures already, a division of fewer than two teams,
        or rounds that do not fit before the season's last day."""
        require(who, club, Action.MANAGE)
        row = season_row(uow, club, season)
        if store.fixture_rows(uow.conn, row.id)[:1]:
            raise Invalid("season %(season)s has its fixtures already", season=row.slug)
        listed = divisions(uow, row)
        if not listed:
            raise Invalid("season %(season)s has no division yet", season=row.slug)
        by_division = {d.slug: [t.slug for t in teams(uow, row) if t.division_id == d.id]
                       for d in listed}
        made = engine_season(by_division, fields.calendar_of(row))
        ids = {t.slug: t.id for t in teams(uow, row)}
        division_ids = {d.slug: d.id for d in listed}
        rows = [{"season_id": row.id, "division_id": division_ids[f.division],
                 "round": f.round, "home_id": ids[f.home], "away_id": ids[f.away],
                 "played_on": f.date.isoformat(), "scheduled_on": f.date.isoformat()}
                for schedule in made.values() for f in schedule.fixtures]
        store.insert_fixtures(uow.conn, rows)
        return {"fixtures": len(rows),
                "rounds": {d: len(s.days) for d, s in made.items()}}

    @use_case(WRITE)
    def postpone(self, uow: UnitOfWork, club: str, season: str, fixture: int, to: Any, *,
                 reason: str, who: Caller = OPERATOR) -> dict[str, Any]:
        """The fixture moved to ``to`` (a date inside the season; it may fall in a week
        either team plays already), its old date and the reason kept in its history (the
        secretary)."""
        require(who, club, Action.MANAGE)
        why = reason_of(reason)
        row = season_row(uow, club, season)
        found = fixture_row(uow, row, fixture)
        day = fields.calendar_of(row).check(fields.day(to, "to"))
        if day.isoformat() == found.played_on:
            raise Invalid("fixture %(fixture)s is on %(day)s already", fixture=found.id,
                          day=found.played_on)
        store.update_fixture(uow.conn, found.id, played_on=day.isoformat())
        note(uow, found, "postponed", {"was": found.played_on, "to": day.isoformat(),
                                       "reason": why}, who, self.clock)
        return {"fixture": found.id, "was": found.played_on, "date": day.isoformat(),
                "reason": why}

    @use_case(WRITE)
    def swap(self, uow: UnitOfWork, club: str, season: str, fixture: int, *, reason: str,
             who: Caller = OPERATOR) -> dict[str, Any]:
        """The fixture's home and away swapped (the secretary): on its date its two teams
        meet at the away team's home, and on their other meeting's date at the home team's,
        so that each still plays the other once at each home. The two meetings exchange their
        rounds and dates (each keeps its number, history and teams' order: ``date`` is the
        fixture's new date, ``other_date`` the other's); both histories say so. Invalid once either has a leg recorded or conceded, a walkover or a
        confirmation: a recorded leg's side 0 is its home team."""
        require(who, club, Action.MANAGE)
        why = reason_of(reason)
        row = season_row(uow, club, season)
        found = fixture_row(uow, row, fixture, for_update=True)
        if found.cup_id is not None:  # else its league meeting's date would be exchanged
            raise Invalid("fixture %(fixture)s is a cup's tie: the draw made its home team",
                          fixture=found.id)
        other = next((f for f in store.fixture_rows(uow.conn, row.id, found.division_id)
                      if (f.home_id, f.away_id) == (found.away_id, found.home_id)), None)
        if other is None:
            raise Invalid("fixture %(fixture)s has no return fixture to swap with",
                          fixture=found.id)
        other = fixture_row(uow, row, other.id, for_update=True)
        for meeting in (found, other):
            if (meeting.walkover_by is not None or store.leg_games(uow.conn, [meeting.id])
                    or store.leg_rows(uow.conn, [meeting.id])
                    or meeting.home_confirmed is not None or meeting.away_confirmed is not None):
                raise Invalid("fixture %(fixture)s has begun (a leg recorded or conceded, a "
                              "walkover or a confirmation): its home and away stay as they "
                              "are", fixture=meeting.id)
        for mine, theirs in ((found, other), (other, found)):
            store.update_fixture(uow.conn, mine.id, round=theirs.round,
                                 played_on=theirs.played_on, scheduled_on=theirs.scheduled_on)
            note(uow, mine, "swapped", {"was": mine.played_on, "to": theirs.played_on,
                                        "with": theirs.id, "reason": why}, who, self.clock)
        return {"fixture": found.id, "date": other.played_on, "other": other.id,
                "other_date": found.played_on, "reason": why}

    @use_case(WRITE)
    def concede(self, uow: UnitOfWork, club: str, season: str, fixture: int, leg: int,
                side: str, *, reason: str, who: Caller = OPERATOR) -> dict[str, Any]:
        """Leg ``leg`` conceded by ``side`` (home or away): it goes to the other team and counts
        for no player's averages; conceded by both, it is void. The secretary, or the
        conceding team's captain. The reason is recorded."""
        require(who, club, Action.RECORD)
        side = checks.one_of(side, SIDES, "side")
        why = reason_of(reason)
        row = season_row(uow, club, season)
        found = fixture_row(uow, row, fixture, for_update=True)
        team = found.home_id if side == "home" else found.away_id
        if not who.is_operator and who.role != "admin" and captain_of(uow, who) != team:
            raise Forbidden("a leg is conceded by its team's captain, or the league's secretary")
        legs = len(fields.format_of(row).legs)
        if type(leg) is not int or not 1 <= leg <= legs:
            raise Invalid("a fixture of this season has legs 1 to %(legs)s, not %(leg)r",
                      legs=legs, leg=leg)
        if found.walkover_by is not None:
            raise Invalid("fixture %(fixture)s was a walkover: it has no legs to concede",
                          fixture=found.id)
        was = {r.leg: r.conceded_by for r in store.leg_rows(uow.conn, [found.id])}.get(leg)
        if was in (side, "both"):
            raise Invalid("leg %(leg)s is conceded by that team already", leg=leg)
        by = "both" if was is not None else side
        store.set_leg(uow.conn, found.id, leg, by, why)
        store.changed(uow.conn, found.id)
        store.project_legs(uow.conn, [found.id])
        note(uow, found, "conceded", {"leg": leg, "by": side, "reason": why}, who, self.clock)
        return {"fixture": found.id, "leg": leg, "conceded_by": by, "reason": why}

    @use_case(WRITE)
    def walkover(self, uow: UnitOfWork, club: str, season: str, fixture: int, by: str, *,
                 reason: str, who: Caller = OPERATOR) -> dict[str, Any]:
        """The fixture awarded as a walkover: ``by`` (home or away) did not turn up; a win at
        the season's walkover score for the other team, no points for ``by`` (the
        secretary). Invalid for a fixture with a leg recorded or conceded."""
        require(who, club, Action.MANAGE)
        by = checks.one_of(by, SIDES, "by")
        why = reason_of(reason)
        row = season_row(uow, club, season)
        found = fixture_row(uow, row, fixture, for_update=True)
        if found.walkover_by is not None:
            raise Invalid("fixture %(fixture)s is a walkover already", fixture=found.id)
        if store.leg_games(uow.conn, [found.id]) or store.leg_rows(uow.conn, [found.id]):
            raise Invalid("fixture %(fixture)s has legs recorded or conceded: it was played, "
                          "and is no walkover", fixture=found.id)
        store.update_fixture(uow.conn, found.id, walkover_by=by, walkover_reason=why)
        store.changed(uow.conn, found.id)
        note(uow, found, "walkover", {"by": by, "reason": why}, who, self.clock)
        return {"fixture": found.id, "walkover_by": by, "reason": why}


