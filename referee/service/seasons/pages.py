"""What a league's pages show (and their JSON twins are), one call a page in one unit of work:
the club (as its pages give it), the season's name and teams' names, and the season's reads
(:mod:`.reads`) with the caller passed on, so who may read what stays theirs. Also the
fixtures a calendar feed lists, with how many times each was postponed (its SEQUENCE)."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from ...core.vocab import IN_PROGRESS
from ...store import leagues as store
from ..access import Action, Caller, desk_caller, require
from ..clubs import reader_in
from ..errors import Forbidden
from ..uow import PRIMARY, READ, UnitOfWork, use_case
from . import fields
from .base import Base, captain_of, season_row, team_row, teams

LATEST_RESULTS = 12  # on the league's home


class SeasonPages(Base):
    def _frame(self, uow: UnitOfWork, club: str, season: str,
               who: Caller | None) -> tuple[Caller, dict[str, Any]]:
        """The reader and what every league page shows: the club, the season's slug and name,
        its divisions (slug, name, teams' slugs) and its teams' names by slug."""
        who, info = reader_in(uow, club, who)
        whole = self.season.within(uow, club, season, who=who)
        return who, {"club": info, "season": {"slug": whole["slug"], "name": whole["name"]},
                     "divisions": [{"slug": d["slug"], "name": d["name"],
                                    "teams": [t["slug"] for t in d["teams"]]}
                                   for d in whole["divisions"]],
                     "teams": {t["slug"]: t["name"] for d in whole["divisions"]
                               for t in d["teams"]}}

    def _today(self, info: dict[str, Any]) -> dt.date:
        """Today in the club's time zone (UTC for a club that has set none)."""
        zone = ZoneInfo(info["timezone"]) if info.get("timezone") else dt.timezone.utc
        return self.clock().astimezone(zone).date()

    @use_case(READ)
    def seasons_page(self, uow: UnitOfWork, club: str, *,
                     who: Caller | None = None) -> dict[str, Any]:
        """The club's leagues page: its seasons, newest first."""
        who, info = reader_in(uow, club, who)
        return {"club": info, "seasons": self.seasons.within(uow, club, who=who)}

    @use_case(READ)
    def home_page(self, uow: UnitOfWork, club: str, season: str, *,
                  who: Caller | None = None) -> dict[str, Any]:
        """The league's home: its divisions; the fixtures still to play this week (Monday to
        Sunday in the club's time zone; or, in a week with none left, of the next day with
        some: ``later``); those played (every leg decided) whose result is not yet confirmed by
        both captains (``awaiting``, newest first); and the latest results, confirmed by both
        (newest first). A played fixture is never listed as one to play, whatever its day."""
        who, frame = self._frame(uow, club, season, who)
        today = self._today(frame["club"])
        listed = self.fixtures.within(uow, club, season, who=who)
        to_play = [f for f in listed if not f["complete"]]
        monday = today - dt.timedelta(days=today.weekday())
        week = [f for f in to_play
                if monday.isoformat() <= f["date"] <= (monday + dt.timedelta(days=6)).isoformat()]
        later = not week
        if later:
            coming = sorted(f["date"] for f in to_play if f["date"] > today.isoformat())
            week = [f for f in to_play if coming and f["date"] == coming[0]]
        played = sorted((f for f in listed if f["complete"]),
                        key=lambda f: (f["date"], f["id"]), reverse=True)
        awaiting, confirmed = [], []
        for f in played:
            both = f["confirmed"]["home"] and f["confirmed"]["away"]
            (confirmed if both else awaiting).append(f)
        return {**frame, "today": today.isoformat(), "later": later,
                "this_week": sorted(week, key=lambda f: (f["date"], f["division"], f["id"])),
                "awaiting": awaiting,
                "latest": confirmed[:LATEST_RESULTS]}

    @use_case(READ)
    def table_page(self, uow: UnitOfWork, club: str, season: str, division: str, *,
                   who: Caller | None = None) -> dict[str, Any]:
        """A division's page: its table, with the season's promotion and relegation places."""
        who, frame = self._frame(uow, club, season, who)
        row = season_row(uow, club, season)
        return {**frame, "table": self.table.within(uow, club, season, division, who=who),
                "promotion": row.promotion, "relegation": row.relegation}

    @use_case(READ)
    def fixtures_page(self, uow: UnitOfWork, club: str, season: str, *,
                      division: str | None = None, who: Caller | None = None) -> dict[str, Any]:
        """Fixtures and results by week (a division's, or every division's): the rounds in
        order, each with its fixtures by date."""
        who, frame = self._frame(uow, club, season, who)
        listed = self.fixtures.within(uow, club, season, division=division, who=who)
        rounds: dict[int, list[dict[str, Any]]] = {}
        for line in listed:
            rounds.setdefault(line["round"], []).append(line)
        return {**frame, "division": division, "weeks": [
            {"round": number, "fixtures": sorted(found, key=lambda f: (f["date"], f["id"]))}
            for number, found in sorted(rounds.items())]}

    @use_case(READ)
    def team_page(self, uow: UnitOfWork, club: str, season: str, team: str, *,
                  who: Caller | None = None) -> dict[str, Any]:
        """A team's page: its squad, its fixtures with their results, its line of the table."""
        who, frame = self._frame(uow, club, season, who)
        return {**frame, "team": self.team.within(uow, club, season, team, who=who)}

    @use_case(READ)
    def averages_page(self, uow: UnitOfWork, club: str, season: str, *,
                      division: str | None = None, who: Caller | None = None) -> dict[str, Any]:
        """The players' averages (the season's, or a division's), with the minimum of legs to
        be ranked."""
        who, frame = self._frame(uow, club, season, who)
        row = season_row(uow, club, season)
        return {**frame, "division": division, "min_legs": row.min_legs,
                "averages": self.averages.within(uow, club, season, division=division,
                                                 who=who)}

    @use_case(READ)
    def calendar(self, uow: UnitOfWork, club: str, season: str, *, team: str | None = None,
                 who: Caller | None = None) -> dict[str, Any]:
        """What a calendar feed of the season's fixtures (or a team's) lists: the club, the
        season, the teams' names and venues, and each fixture with ``postponed``, how many
        times it was moved (the feed's SEQUENCE, so a calendar app replaces its old date).
        The season's cups' ties played as fixtures are listed too, after the league's, each
        with its cup and tie (``cup_fixtures``' lines): a team plays them on its fixture days
        as well."""
        who, frame = self._frame(uow, club, season, who)
        row = season_row(uow, club, season)
        if team is not None:
            team_row(uow, row, team)  # NotFound before anything else
        listed = self.fixtures.within(uow, club, season, team=team, who=who)
        tied = self.cup_fixtures.within(uow, club, season, team=team, who=who)
        moved = store.postponements(uow.conn, [f["id"] for f in listed + tied])
        venues = {t.slug: t.venue for t in store.team_rows(uow.conn, row.id)}
        return {**frame, "team": team, "venues": venues,
                "fixtures": [{**f, "postponed": moved.get(f["id"], 0)} for f in listed + tied]}


    @use_case(PRIMARY)
    def desk_seasons(self, uow: UnitOfWork, club: str, *,
                     who: Caller | None = None) -> dict[str, Any]:
        """The league desk's list (the secretary's: an admin, Forbidden below; no token, the
        sign-in: :func:`..access.desk_caller`): the club and its seasons, and the presets a
        new season's legs of each kind may be played under (its form's choices)."""
        who = desk_caller(who)
        require(who, club, Action.MANAGE)
        return {**self.seasons_page.within(uow, club, who=who),
                "leg_presets": fields.leg_presets()}

    @use_case(PRIMARY)
    def desk_season(self, uow: UnitOfWork, club: str, season: str, *,
                    who: Caller | None = None) -> dict[str, Any]:
        """A season on the secretary's desk: the fixtures by week (to postpone, to award as a
        walkover, a leg to concede), the teams' venues (their forms) and the season's legs
        (kind, best of)."""
        who = desk_caller(who)
        require(who, club, Action.MANAGE)
        row = season_row(uow, club, season)
        return {**self.fixtures_page.within(uow, club, season, who=who),
                "cup_fixtures": self.cup_fixtures.within(uow, club, season, who=who),
                "venues": {t.slug: t.venue for t in teams(uow, row)},
                "legs": [{"leg": number, "kind": leg.kind, "best_of": leg.best_of}
                         for number, leg in enumerate(fields.format_of(row).legs, start=1)]}

    @use_case(PRIMARY)
    def captain_desk(self, uow: UnitOfWork, club: str, season: str, *,
                     who: Caller | None = None) -> dict[str, Any]:
        """A captain's desk: the team the token is captain of in this season, its fixtures with
        each side's confirmation, the games in play (``playing``), the legs to name players for
        (``to_name``) and the signed sheet's number (``sheet``), the season's legs and the squads (for its team sheets) (no token, the
        sign-in; Forbidden for a token that is no captain of a team of the season)."""
        who = desk_caller(who)
        require(who, club, Action.RECORD)
        row = season_row(uow, club, season)
        mine = captain_of(uow, who)
        team = next((t for t in teams(uow, row) if t.id == mine), None)
        if team is None:
            raise Forbidden("this page is a team captain's: sign in with your captain's token")
        _, frame = self._frame(uow, club, season, who)
        listed = (self.fixtures.within(uow, club, season, team=team.slug, who=who)
                  + self.cup_fixtures.within(uow, club, season, team=team.slug, who=who))
        whole = self.season.within(uow, club, season, who=who)
        return {**frame, "team": team.slug,
                "squads": {t["slug"]: t["squad"] for d in whole["divisions"] for t in d["teams"]},
                "legs": [{"leg": number, "kind": leg.kind, "best_of": leg.best_of}
                         for number, leg in enumerate(fields.format_of(row).legs, start=1)],
                "fixtures": [{**f, "side": "home" if f["home"] == team.slug else "away",
                              **_to_play(self.fixture.within(uow, club, season, f["id"],
                                                             who=who)
                                         if not f["complete"] and not f["walkover_by"]
                                         else None),
                              "sheet": len(store.sheet_rows(uow.conn, f["id"])) or None
                              if f["complete"] else None}
                             for f in listed]}

    @use_case(PRIMARY)
    def captaincy(self, uow: UnitOfWork, *, who: Caller) -> dict[str, Any] | None:
        """The team ``who``'s token is captain of (``season``, ``team``: slugs; ``name``, the
        team's), None for a token that is no captain's: the phone says a captain is one (a
        captain's token is a scorekeeper's of the club, bound to its team)."""
        team = captain_of(uow, who)
        if team is None or who.club is None:
            return None
        season = store.captain_season(uow.conn, who.token_id)
        row = season_row(uow, who.club, season)
        found = next(t for t in teams(uow, row) if t.id == team)
        return {"season": row.slug, "team": found.slug, "name": found.name}


def _to_play(fixture: dict[str, Any] | None) -> dict[str, Any]:
    """What is left to play of a fixture: its games in play (``playing``: leg, game, match,
    the players each side), which the captain scores on the phone from the captain's desk,
    and the legs whose next game is to be named (``to_name``: in play, no game going on)."""
    if fixture is None:
        return {"playing": [], "to_name": []}
    playing = [{"leg": leg["leg"], "game": g["game"], "match": g["match"],
                "home": leg["home"], "away": leg["away"]}
               for leg in fixture["legs"] for g in leg["games"] if g["status"] == IN_PROGRESS]
    busy = {g["leg"] for g in playing}
    return {"playing": playing,
            "to_name": [leg["leg"] for leg in fixture["legs"]
                        if leg["status"] == "in_play" and leg["leg"] not in busy]}
