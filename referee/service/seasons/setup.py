"""The secretary's set-up of a season (an admin of the organising club): the season with its
format, points, tie-breakers and calendar; its divisions and teams; the squads and transfers;
the captains' tokens; points deductions."""

from __future__ import annotations

import secrets
from typing import Any, Sequence

from ...store import leagues as store
from ...store.clubs import insert_token, revoke_tokens
from ...store.codec import iso
from ...store.errors import AlreadyExists
from ...store.players import ensure_players
from ...store.signin_codes import insert_signin_code
from .. import checks
from ..access import OPERATOR, Action, Caller, require
from ..errors import N_, Duplicate, Invalid, Phrase
from ..leagues import Deduction
from ..lookup import club_row
from ..players import seating
from ..signin import CAPTAIN, CODE_LIFETIME, token_of
from ..tokens import digest
from ..uow import WRITE, UnitOfWork, use_case
from . import fields
from .base import Base, division_row, divisions, season_row, team_row, teams

MAX_SQUAD = 100
KEEP: Any = object()  # a field not given: the team's venue stays as it is


class SeasonSetup(Base):
    @use_case(WRITE)
    def create_season(self, uow: UnitOfWork, club: str, slug: str, name: str, *, format: Any,
                      first_day: Any, weeks_off: Sequence[Any] = (), last_day: Any = None,
                      points: Any = None, leg_rules: Any = None, tie_breakers: Any = None,
                      promotion: int = 0, relegation: int = 0, min_legs: int = 1,
                      max_squad: int | None = None, who: Caller = OPERATOR) -> dict[str, Any]:
        """A new season of the club's league (the secretary: an admin). Every setting is
        checked before anything is written; Duplicate for a slug the club has already."""
        require(who, club, Action.MANAGE)
        made = fields.fixture_format(format)
        table = fields.tie_breakers(tie_breakers, promotion, relegation)
        calendar = fields.calendar(first_day, weeks_off, last_day)
        values = {
            "slug": checks.slug(slug, Phrase(N_("season slug"))),
            "name": checks.name(name, Phrase(N_("season name"))),
            "format": fields.format_json(made), "leg_rules": fields.leg_rules(leg_rules),
            "points": fields.points_json(fields.points_rule(points)),
            "tie_breakers": list(table.tie_breakers), "promotion": table.promotion,
            "relegation": table.relegation,
            "min_legs": fields.whole(min_legs, "min_legs", 1),
            "max_squad": None if max_squad is None else fields.whole(max_squad, "max_squad",
                                                                     1, MAX_SQUAD),
            "first_day": calendar.first.isoformat(),
            "weeks_off": [d.isoformat() for d in calendar.weeks_off],
            "last_day": None if calendar.last is None else calendar.last.isoformat(),
        }
        try:
            store.insert_season(uow.conn, club_row(uow, club).id, values, self.clock())
        except AlreadyExists:
            raise Duplicate("a season %(slug)r exists already", slug=values["slug"]) from None
        return {"slug": values["slug"], "name": values["name"]}

    @use_case(WRITE)
    def add_division(self, uow: UnitOfWork, club: str, season: str, slug: str, name: str, *,
                     who: Caller = OPERATOR) -> dict[str, Any]:
        """A division of the season, below those it has (the secretary)."""
        require(who, club, Action.MANAGE)
        slug = checks.slug(slug, Phrase(N_("division slug")))
        name = checks.name(name, Phrase(N_("division name")))
        row = season_row(uow, club, season)
        _not_generated(uow, row)
        position = len(store.division_rows(uow.conn, row.id))
        try:
            store.insert_division(uow.conn, row.id, slug, name, position)
        except AlreadyExists:
            raise Duplicate("a division %(slug)r exists already", slug=slug) from None
        return {"slug": slug, "name": name, "position": position}

    @use_case(WRITE)
    def add_team(self, uow: UnitOfWork, club: str, season: str, division: str, slug: str,
                 name: str, *, venue: str | None = None, min_players: int | None = None,
                 players: Sequence[str] | None = None, on: Any = None,
                 who: Caller = OPERATOR) -> dict[str, Any]:
        """A team of the division, numbered after its others (the secretary); before the
        fixtures are made. ``min_players``: by default the fewest the format needs.
        ``players``: its squad from ``on``, as :meth:`add_players` adds them, in the same
        transaction (a refused player: no team either)."""
        require(who, club, Action.MANAGE)
        slug = checks.slug(slug, Phrase(N_("team slug")))
        name = checks.name(name, Phrase(N_("team name")))
        venue = checks.optional_name(venue, Phrase(N_("venue")))
        row = season_row(uow, club, season)
        least = fields.least_players(fields.format_of(row))
        if min_players is None:
            min_players = least
        fields.whole(min_players, "min_players", 1, MAX_SQUAD)
        home = division_row(uow, row, division)
        _not_generated(uow, row)
        try:
            store.insert_team(uow.conn, row.id, home.id, {"slug": slug, "name": name,
                                                          "venue": venue,
                                                          "min_players": min_players})
        except AlreadyExists:
            raise Duplicate("a team %(slug)r exists already", slug=slug) from None
        uow.forget(("teams", row.id))
        squad = [] if players is None else self.add_players.within(uow, club, season, slug,
                                                                   players, on=on, who=who)
        return {"slug": slug, "name": name, "division": division, "venue": venue,
                "min_players": min_players, "players": squad}

    @use_case(WRITE)
    def edit_division(self, uow: UnitOfWork, club: str, season: str, division: str, *,
                      name: str, who: Caller = OPERATOR) -> dict[str, Any]:
        """The division renamed (the secretary), at any time: its slug, its place and its
        fixtures stay."""
        require(who, club, Action.MANAGE)
        name = checks.name(name, Phrase(N_("division name")))
        row = season_row(uow, club, season)
        found = division_row(uow, row, division)
        store.update_division(uow.conn, found.id, name)
        uow.forget(("divisions", row.id))
        return {"slug": found.slug, "name": name, "position": found.position}

    @use_case(WRITE)
    def remove_division(self, uow: UnitOfWork, club: str, season: str, division: str, *,
                        who: Caller = OPERATOR) -> dict[str, Any]:
        """The division removed (the secretary), before the fixtures are made and once it has
        no team (each removed or moved first); those below it move up a place."""
        require(who, club, Action.MANAGE)
        row = season_row(uow, club, season)
        found = division_row(uow, row, division)
        _not_generated(uow, row)
        if any(t.division_id == found.id for t in teams(uow, row)):
            raise Invalid("%(division)s has teams: remove them or move them to another "
                          "division first", division=found.name)
        store.delete_division(uow.conn, row.id, found.id)
        uow.forget(("divisions", row.id))
        return {"slug": found.slug, "name": found.name, "removed": True}

    @use_case(WRITE)
    def edit_team(self, uow: UnitOfWork, club: str, season: str, team: str, *,
                  name: str | None = None, venue: Any = KEEP, division: str | None = None,
                  who: Caller = OPERATOR) -> dict[str, Any]:
        """The team's name or venue changed (the secretary), at any time (a pub renamed;
        ``venue`` None or empty: none), or the team moved to another division, numbered after
        its teams, before the fixtures are made. Its slug, squad and captains stay."""
        require(who, club, Action.MANAGE)
        row = season_row(uow, club, season)
        found = team_row(uow, row, team)
        values: dict[str, Any] = {}
        if name is not None:
            values["name"] = checks.name(name, Phrase(N_("team name")))
        if venue is not KEEP:
            values["venue"] = checks.optional_name(venue or None, Phrase(N_("venue")))
        moved_to = found.division_id
        if division is not None:
            moved_to = division_row(uow, row, division).id
            if moved_to != found.division_id:
                _not_generated(uow, row)
                values["division_id"] = moved_to
        if values:
            store.update_team(uow.conn, found.id, **values)
            uow.forget(("teams", row.id))
        now = team_row(uow, row, team)
        slug_of = {d.id: d.slug for d in divisions(uow, row)}
        return {"slug": now.slug, "name": now.name, "venue": now.venue,
                "division": slug_of[now.division_id], "min_players": now.min_players}

    @use_case(WRITE)
    def remove_team(self, uow: UnitOfWork, club: str, season: str, team: str, *,
                    who: Caller = OPERATOR) -> dict[str, Any]:
        """The team removed (the secretary) before the fixtures are made, with its squad (its
        players stay the club's, free to join another squad) and its captains' tokens
        (revoked). Refused for a team in a cup's pot, or with a points deduction."""
        require(who, club, Action.MANAGE)
        row = season_row(uow, club, season)
        found = team_row(uow, row, team)
        _not_generated(uow, row)
        cups = store.cups_with_team(uow.conn, row.id, found.id)
        if cups:
            raise Invalid("%(team)s is an entrant of the cup %(cup)s: a team in a cup's pot "
                          "stays", team=found.name, cup=cups[0])
        if store.deduction_rows(uow.conn, [found.id]):
            raise Invalid("%(team)s has a points deduction: a team with a ruling stays",
                          team=found.name)
        revoked = store.delete_team(uow.conn, found.id)
        if revoked:
            revoke_tokens(uow.conn, club_row(uow, club).id, revoked, self.clock())
        uow.forget(("teams", row.id))
        return {"slug": found.slug, "name": found.name, "removed": True,
                "captains_revoked": len(revoked)}

    @use_case(WRITE)
    def add_players(self, uow: UnitOfWork, club: str, season: str, team: str,
                    players: Sequence[str], *, on: Any = None, who: Caller = OPERATOR) -> list[str]:
        """The players (names; new ones registered in the club) in the team's squad from
        ``on`` (today by default). Invalid, and nobody added, for a player in a squad of the
        season already (a move is a transfer) or a squad past the season's largest."""
        require(who, club, Action.MANAGE)
        if isinstance(players, str) or not isinstance(players, Sequence) or not players:
            raise Invalid("players: a list of one name or more")
        names = [checks.player_name(p) for p in players]
        row = season_row(uow, club, season)
        joined = _date(on, self.clock)
        squad_team = team_row(uow, row, team)
        keyed = seating(names, line=None)
        ids = ensure_players(uow.conn, club_row(uow, club).id, keyed, self.clock())
        current = {r.player_id: r for r in store.squad_rows(uow.conn, row.id)}
        # A team is named by its name in what people read; its slug is the callers' code.
        named = {t.id: t.name for t in teams(uow, row)}
        for key, name in keyed.items():
            found = current.get(ids[key])
            if found is not None:
                raise Invalid("%(player)s is in the squad of %(team)s already: a move to "
                              "another team is a transfer", player=name,
                              team=named[found.team_id])
        size = sum(1 for r in current.values() if r.team_id == squad_team.id) + len(names)
        if row.max_squad is not None and size > row.max_squad:
            raise Invalid("a squad has at most %(most)s players, and %(team)s would have "
                          "%(count)s", most=row.max_squad, team=squad_team.name, count=size)
        for key in keyed:
            store.join_squad(uow.conn, row.id, squad_team.id, ids[key], joined)
        return names

    @use_case(WRITE)
    def transfer(self, uow: UnitOfWork, club: str, season: str, player: str, to: str, *,
                 reason: str, on: Any = None, who: Caller = OPERATOR) -> dict[str, Any]:
        """The player moved from the squad they are in to team ``to``'s, on ``on`` (today by
        default), with the reason recorded (the secretary)."""
        require(who, club, Action.MANAGE)
        reason = checks.name(reason, Phrase(N_("reason")))
        row = season_row(uow, club, season)
        moved = _date(on, self.clock)
        target = team_row(uow, row, to)
        found = [r for r in store.squad_rows(uow.conn, row.id)
                 if checks.name_key(r.name) == checks.name_key(checks.player_name(player))]
        if not found:
            raise Invalid("%(player)s is in no squad of the season: add them to one",
                          player=player)
        was = found[0]
        if was.team_id == target.id:
            raise Invalid("%(player)s is in the squad of %(team)s already", player=was.name,
                          team=target.name)
        if moved < was.joined_on:
            raise Invalid("%(player)s joined their squad on %(day)s: a transfer comes after",
                          player=was.name, day=was.joined_on)
        store.leave_squad(uow.conn, row.id, was.player_id, moved)
        store.join_squad(uow.conn, row.id, target.id, was.player_id, moved, reason)
        slugs = {t.id: t.slug for t in teams(uow, row)}
        return {"player": was.name, "from": slugs[was.team_id], "to": to, "on": moved,
                "reason": reason}

    @use_case(WRITE)
    def captain(self, uow: UnitOfWork, club: str, season: str, team: str,
                label: str | None = None, *, who: Caller = OPERATOR) -> str:
        """A captain's token for the team (the plaintext, shown once): a scorekeeper's token
        of the club bound to the team, which confirms the team's fixtures (the secretary)."""
        token = "dr_" + secrets.token_urlsafe(32)
        self._captain(uow, club, season, team, label, token, who)
        return token

    @use_case(WRITE)
    def captain_signin(self, uow: UnitOfWork, club: str, season: str, team: str,
                       label: str | None = None, *, who: Caller = OPERATOR) -> dict[str, Any]:
        """A captain's token for the team with a one-time sign-in code (the secretary), as
        the desk's QR codes sign a phone in (:mod:`..signin`): the code's QR code opens the
        season's captain's desk, and the first phone to scan it within the code's lifetime is
        signed in as the captain. ``token`` and ``code`` are shown this once."""
        code = secrets.token_urlsafe(32)
        token = token_of(code)
        token_id = self._captain(uow, club, season, team, label, token, who)
        expires = self.clock() + CODE_LIFETIME
        insert_signin_code(uow.conn, token_id, digest(code), expires)
        return {"team": team, "token": token, "code": code, "expires_at": iso(expires),
                "opens": CAPTAIN, "season": season}

    def _captain(self, uow: UnitOfWork, club: str, season: str, team: str, label: Any,
                 token: str, who: Caller) -> int:
        """``token`` stored as the club's scorekeeper's, bound to the team as its captain's:
        its id. Its label is the team's name unless one is given (a name, in no language: the
        desk and the phone show it as it is in every one)."""
        require(who, club, Action.MANAGE)
        label = checks.optional_name(label, Phrase(N_("token label")))
        row = season_row(uow, club, season)
        bound = team_row(uow, row, team)
        token_id = store_token(uow, club, label or bound.name, token, who, self.clock)
        store.bind_captain(uow.conn, token_id, bound.id)
        return token_id

    @use_case(WRITE)
    def deduct(self, uow: UnitOfWork, club: str, season: str, team: str, points: int, *,
               reason: str, who: Caller = OPERATOR) -> dict[str, Any]:
        """A points deduction ruled by the league (a late result sheet), with its reason (the
        secretary)."""
        require(who, club, Action.MANAGE)
        reason = checks.name(reason, Phrase(N_("reason")))
        row = season_row(uow, club, season)
        taken = team_row(uow, row, team)
        deduction = Deduction(team, points, reason)
        store.insert_deduction(uow.conn, taken.id, deduction.points, deduction.reason.strip(),
                               self.clock())
        return {"team": team, "points": deduction.points, "reason": deduction.reason.strip()}


def store_token(uow: UnitOfWork, club: str, label: str, token: str, who: Caller,
                clock: Any) -> int:
    """The token stored (its sha256) as a scorekeeper's of the club: its id."""
    return insert_token(uow.conn, club_row(uow, club).id, "scorekeeper", label, digest(token),
                        clock(), who.token_id)


def _date(value: Any, clock: Any) -> str:
    if value is None:
        return clock().date().isoformat()
    return fields.day(value, "on").isoformat()


def _not_generated(uow: UnitOfWork, season: Any) -> None:
    if store.fixture_rows(uow.conn, season.id)[:1]:
        raise Invalid("season %(season)s has its fixtures already: its divisions and teams "
                      "are fixed", season=season.slug)
