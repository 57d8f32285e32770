"""What a season shows: its settings, divisions, teams and squads; its fixtures (by division,
team or round) with their results; a fixture whole (legs, games, history, sheet); a division's
table; the players' averages; a team's page. Every figure is the league engine's, computed
from the legs' matches as they stand, so a ruling on a leg shows at once."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row

from ...store import cups as cup_store
from ...store import leagues as store
from ..access import OPERATOR, Action, Caller, require
from ..clubs import reader
from ..errors import N_
from ..leagues import Deduction, averages, division_table
from ..lookup import club_row
from ..rowcheck import require_rows
from ..uow import READ, UnitOfWork, use_case
from . import fields, outcomes
from .base import Base, division_row, divisions, fixture_row, season_row, team_row, teams


def settings(row: Row) -> dict[str, Any]:
    return {"slug": row.slug, "name": row.name, "format": row.format,
            "leg_rules": row.leg_rules, "points": row.points,
            "tie_breakers": list(row.tie_breakers), "promotion": row.promotion,
            "relegation": row.relegation, "min_legs": row.min_legs,
            "max_squad": row.max_squad, "first_day": row.first_day,
            "weeks_off": list(row.weeks_off), "last_day": row.last_day}


def fixture_line(row: Row, slugs: dict[int, str], division: str, played: Any
                 ) -> dict[str, Any]:
    """A fixture as a listing shows it: teams, round, dates, the legs won, whether complete."""
    outcome = played.outcomes[row.id]
    return {"id": row.id, "division": division, "round": row.round, "date": row.played_on,
            "scheduled": row.scheduled_on, "home": slugs[row.home_id],
            "away": slugs[row.away_id], "walkover_by": row.walkover_by,
            "legs_won": {"home": outcome.home_legs, "away": outcome.away_legs},
            "complete": outcome.complete, "version": row.version,
            "confirmed": {"home": row.home_confirmed == row.version,
                          "away": row.away_confirmed == row.version}}


def _division_played(uow: UnitOfWork, season: Row, division: Row
                     ) -> tuple[list[Row], list[Row], Any]:
    """The division's teams, its fixtures by round and what they came to (the legs' results),
    read once a unit of work: a team's page shows its division's table and its own fixtures,
    all of them the division's."""
    def read() -> tuple[list[Row], list[Row], Any]:
        listed = [t for t in teams(uow, season) if t.division_id == division.id]
        found = store.fixture_rows(uow.conn, season.id, division.id)
        played = outcomes.projected(uow.conn, fields.format_of(season), found,
                                    {t.id: t.slug for t in listed}, division_id=division.id)
        return listed, found, played
    return uow.remember(("division played", division.id), read)


def _reader(uow: UnitOfWork, club: str, who: Caller | None) -> Caller:
    """``who``, who must read the club; None: anyone, for a public club (Unauthorized else)."""
    who = reader(uow, club, who)
    require(who, club, Action.READ)
    return who


class SeasonReads(Base):
    @use_case(READ)
    def seasons(self, uow: UnitOfWork, club: str, *,
                who: Caller | None = OPERATOR) -> list[dict[str, Any]]:
        """The club's seasons, newest first (slug and name)."""
        who = _reader(uow, club, who)
        return [{"slug": r.slug, "name": r.name}
                for r in store.season_rows(uow.conn, club_row(uow, club).id)]

    @use_case(READ)
    def season(self, uow: UnitOfWork, club: str, season: str, *,
               who: Caller | None = OPERATOR) -> dict[str, Any]:
        """The season: its settings, its divisions with their teams in order, each team's
        squad now, and the transfers made."""
        who = _reader(uow, club, who)
        row = season_row(uow, club, season)
        listed = teams(uow, row)
        slugs = {t.id: t.slug for t in listed}
        squads = store.squad_rows(uow.conn, row.id, current=False)
        return {**settings(row), "divisions": [
            {"slug": d.slug, "name": d.name, "teams": [
                {"slug": t.slug, "name": t.name, "venue": t.venue,
                 "min_players": t.min_players,
                 "squad": [s.name for s in squads if s.team_id == t.id and s.left_on is None]}
                for t in listed if t.division_id == d.id]}
            for d in divisions(uow, row)],
            "transfers": [{"player": s.name, "to": slugs[s.team_id], "on": s.joined_on,
                           "reason": s.reason} for s in squads if s.reason is not None]}

    @use_case(READ)
    def fixtures(self, uow: UnitOfWork, club: str, season: str, *, division: str | None = None,
                 team: str | None = None, round: int | None = None,
                 who: Caller | None = OPERATOR) -> list[dict[str, Any]]:
        """The season's fixtures (a division's, a team's, a round's), by round, each with the
        legs won so far."""
        who = _reader(uow, club, who)
        row = season_row(uow, club, season)
        division_id = division_row(uow, row, division).id if division is not None else None
        team_id = team_row(uow, row, team).id if team is not None else None
        found = store.fixture_rows(uow.conn, row.id, division_id, team_id)
        if round is not None:
            found = [f for f in found if f.round == round]
        slugs = {t.id: t.slug for t in teams(uow, row)}
        names = {d.id: d.slug for d in divisions(uow, row)}
        whole = {"division_id": division_id} if team_id is None and division_id is not None \
            else {"season_id": row.id} if team_id is None and division_id is None else {}
        played = outcomes.projected(uow.conn, fields.format_of(row), found, slugs, **whole)
        return [fixture_line(f, slugs, names[f.division_id], played) for f in found]

    @use_case(READ)
    def cup_fixtures(self, uow: UnitOfWork, club: str, season: str, *,
                     team: str | None = None,
                     who: Caller | None = OPERATOR) -> list[dict[str, Any]]:
        """The season's cups' ties played as fixtures (or a team's), each a fixture's line
        with its ``cup`` (slug) and ``tie``, and what names the tie as the cup's page does:
        ``cup_name``, ``cup_format`` and ``cup_rounds`` (its winners' bracket's: a single
        elimination's last is its final). The league's listings leave them out, the desks and
        the calendar feeds show them apart (a captain names their team sheets and confirms
        them)."""
        who = _reader(uow, club, who)
        row = season_row(uow, club, season)
        team_id = team_row(uow, row, team).id if team is not None else None
        found = store.season_cup_fixture_rows(uow.conn, row.id, team_id)
        if not found:
            return []
        slugs = {t.id: t.slug for t in teams(uow, row)}
        names = {d.id: d.slug for d in divisions(uow, row)}
        played = outcomes.read(uow.conn, fields.format_of(row), found, slugs)
        cups = {c.slug: c for c in cup_store.cup_rows(uow.conn, club_row(uow, club).id, row.id)}
        used = [cups[slug] for slug in sorted({f.cup for f in found})]
        require_rows(uow.conn, "league_cups", used, N_("cup %(cup)s"),
                     cup=", ".join(c.slug for c in used))
        return [{**fixture_line(f, slugs, names[f.division_id], played), "cup": f.cup,
                 "tie": f.cup_tie, "cup_name": cups[f.cup].name,
                 "cup_format": cups[f.cup].format,
                 "cup_rounds": (len(cups[f.cup].entrants) - 1).bit_length()} for f in found]

    @use_case(READ)
    def fixture(self, uow: UnitOfWork, club: str, season: str, fixture: int, *,
                who: Caller | None = OPERATOR) -> dict[str, Any]:
        """A fixture whole: its line, each leg (kind, status, winner, players, games with their
        matches), its history, and its sheet's number if one is signed."""
        who = _reader(uow, club, who)
        row = season_row(uow, club, season)
        found = fixture_row(uow, row, fixture)
        slugs = {t.id: t.slug for t in teams(uow, row)}
        names = {d.id: d.slug for d in divisions(uow, row)}
        played = outcomes.read(uow.conn, fields.format_of(row), [found], slugs)
        outcome = played.outcomes[found.id]
        games = played.games.get(found.id, {})
        people = {int(p) for leg in outcome.legs for s in ("home", "away")
                  for p in leg.players(s)}
        named = store.player_names(uow.conn, people)
        sheets = store.sheet_rows(uow.conn, found.id)
        return {**fixture_line(found, slugs, names[found.division_id], played),
                "walkover_reason": found.walkover_reason,
                "legs": [{"leg": leg.number, "kind": leg.kind, "best_of": leg.best_of,
                          "status": leg.status, "winner": leg.winner,
                          "home": [named.get(int(p), p) for p in leg.home],
                          "away": [named.get(int(p), p) for p in leg.away],
                          "conceded_by": list(leg.conceded_by),
                          "games": [{"game": g.game, "match": g.match_id, "status": g.status}
                                    for g in games.get(leg.number, [])]}
                         for leg in outcome.legs],
                "history": [{"kind": h.kind, **h.detail, "at": h.recorded_at.isoformat(),
                             "by": h.recorded_by}
                            for h in store.history_rows(uow.conn, found.id)],
                "sheet": len(sheets) or None}

    @use_case(READ)
    def table(self, uow: UnitOfWork, club: str, season: str, division: str, *,
              who: Caller | None = OPERATOR) -> dict[str, Any]:
        """The division's table (the engine's): each team's line in order with its place,
        zone and form; the fixtures pending; teams level across a line."""
        who = _reader(uow, club, who)
        row = season_row(uow, club, season)
        home = division_row(uow, row, division)
        listed, found, played = _division_played(uow, row, home)
        slugs = {t.id: t.slug for t in listed}
        taken = [Deduction(slugs[d.team_id], d.points, d.reason)
                 for d in store.deduction_rows(uow.conn, slugs)]
        made = division_table(outcomes.schedule(home.slug, listed, found),
                              [played.outcomes[f.id] for f in found], fields.table_rules(row),
                              taken)
        names = {t.slug: t.name for t in listed}
        return {"division": home.slug, "name": home.name, "rows": [
            {"place": r.place, "team": r.team, "name": names[r.team], "played": r.played,
             "won": r.won, "drawn": r.drawn, "lost": r.lost, "legs_for": r.legs_for,
             "legs_against": r.legs_against, "leg_difference": r.leg_difference,
             "points": r.points, "deducted": r.deducted, "form": list(r.form),
             "zone": r.zone} for r in made.rows],
            "pending": [list(key) for key in made.pending],
            "level_across": [{"zone": zone, "teams": list(group)}
                             for zone, group in made.level_across]}

    @use_case(READ)
    def averages(self, uow: UnitOfWork, club: str, season: str, *,
                 division: str | None = None, who: Caller | None = OPERATOR) -> list[dict[str, Any]]:
        """The players' averages over the season (or one division's fixtures), ranked by win
        rate then legs won; players with fewer legs than the season's minimum unranked."""
        who = _reader(uow, club, who)
        row = season_row(uow, club, season)
        division_id = division_row(uow, row, division).id if division is not None else None
        found = store.fixture_rows(uow.conn, row.id, division_id)
        slugs = {t.id: t.slug for t in teams(uow, row)}
        played = outcomes.projected(uow.conn, fields.format_of(row), found, slugs,
                                    division_id=division_id,
                                    season_id=row.id if division_id is None else None)
        lines = averages([played.outcomes[f.id] for f in found], row.min_legs)
        names = store.player_names(uow.conn, (int(a.player) for a in lines))
        return [{"rank": a.rank, "player": names[int(a.player)],
                 "teams": list(a.teams), "singles_played": a.singles_played,
                 "singles_won": a.singles_won, "pairs_played": a.pairs_played,
                 "pairs_won": a.pairs_won, "legs_played": a.legs_played,
                 "legs_won": a.legs_won, "win_rate": round(float(a.win_rate), 4),
                 "games_played": a.games_played, "games_won": a.games_won} for a in lines]

    @use_case(READ)
    def team(self, uow: UnitOfWork, club: str, season: str, team: str, *,
             who: Caller | None = OPERATOR) -> dict[str, Any]:
        """A team's page: the team, its squad now, its fixtures with their results, and its
        line of its division's table (place, points, form)."""
        who = _reader(uow, club, who)
        row = season_row(uow, club, season)
        mine = team_row(uow, row, team)
        home = next(d for d in divisions(uow, row) if d.id == mine.division_id)
        table = self.table.within(uow, club, season, home.slug, who=who)
        line = next(r for r in table["rows"] if r["team"] == mine.slug)
        listed, found, played = _division_played(uow, row, home)  # the table's, read once
        slugs = {t.id: t.slug for t in listed}
        return {"team": mine.slug, "name": mine.name, "venue": mine.venue,
                "division": home.slug,
                "squad": [s.name for s in store.squad_rows(uow.conn, row.id, team_id=mine.id)],
                "fixtures": [fixture_line(f, slugs, home.slug, played) for f in found
                             if mine.id in (f.home_id, f.away_id)],
                "table": line}
