"""A fixture's legs recorded: each game of a leg is a match of the club, recorded as any other
(on the phone, the desk, or imported), tagged with its fixture, leg and game. A leg is started
here with the players each team names (:meth:`SeasonLegs.record_leg`), or an existing match is
tagged as one (:meth:`SeasonLegs.attach_leg`). Either way the players must be of the fixture's two
teams' squads, home on side 0, each within the format's legs a player may play; a leg recorded
under the wrong fixture is refused, and nothing is changed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Row

from ...store import leagues as store
from ...store import match_row
from ...store.schema import match_players
from .. import checks
from ..access import OPERATOR, Action, Caller, require
from ..errors import Forbidden, Invalid, NotFound
from ..leagues import check_sheet, decide
from ..leagues.format import PLAYERS
from ..lookup import club_row
from ..uow import WRITE, UnitOfWork, use_case
from . import fields, outcomes
from .base import Base, captain_of, fixture_row, season_row, teams
from .fixtures import note

# A leg's game as the match is known by (its Idempotency-Key): a retry finds it.
GAME_KEY = "league-{fixture}-{leg}-{game}"


class SeasonLegs(Base):
    @use_case(WRITE)
    def record_leg(self, uow: UnitOfWork, club: str, season: str, fixture: int, leg: int, *,
                   home: Sequence[str], away: Sequence[str],
                   who: Caller = OPERATOR) -> dict[str, Any]:
        """The next game of leg ``leg`` started as a new match of the club: ``home`` and
        ``away`` are each team's players (names of its squad; one for a singles leg, two for
        pairs), seated home on side 0. The match (its id in ``match``) is recorded as any
        other."""
        require(who, club, Action.RECORD)
        row = season_row(uow, club, season)
        found = fixture_row(uow, row, fixture, for_update=True)
        _may_record(uow, who, found)
        kind = _leg_kind(row, leg)
        squads = _squads(uow, row, found)
        named = {side: _named(names, squads[side], side) for side, names in
                 (("home", home), ("away", away))}
        game = _next_game(uow, row, found, leg, named["home"], named["away"])
        seats = _seat_order(kind, [squads["home"][p] for p in named["home"]],
                            [squads["away"][p] for p in named["away"]])
        created = self.recording.create_in(
            uow, club, row.leg_rules[kind], seats, who=who,
            client_key=GAME_KEY.format(fixture=found.id, leg=leg, game=game),
            event=row.name, date=found.played_on, match=f"{found.id}/{leg}/{game}")
        return self._tag(uow, found, leg, game, created["id"], who)

    @use_case(WRITE)
    def attach_leg(self, uow: UnitOfWork, club: str, season: str, fixture: int, leg: int,
                   match: int, *, who: Caller = OPERATOR) -> dict[str, Any]:
        """A match of the club already recorded (on the phone, or imported) tagged as the next
        game of leg ``leg``: its side 0 must be the home team's players, its side 1 the away
        team's, of the leg's kind. Invalid for a match of other players (the wrong fixture),
        or one that is a game of a leg already."""
        require(who, club, Action.RECORD)
        row = season_row(uow, club, season)
        found = fixture_row(uow, row, fixture, for_update=True)
        _may_record(uow, who, found)
        kind = _leg_kind(row, leg)
        number = checks.match_number(match)
        played = match_row(uow.conn, number) if number is not None else None
        if played is None or played.club_id != club_row(uow, club).id:
            raise NotFound("no match %(match)r", match=match)
        if store.leg_match_of(uow.conn, played.id) is not None:
            raise Invalid("match %(match)s is a game of a leg already", match=played.id)
        sides: dict[int, list[int]] = {0: [], 1: []}
        for seat in uow.conn.execute(match_players.select().where(
                match_players.c.match_id == played.id).order_by(match_players.c.seat)):
            sides.setdefault(seat.side, []).append(seat.player_id)
        if len(sides) != 2 or any(len(s) != PLAYERS[kind] for s in sides.values()):
            raise Invalid("leg %(leg)s is a %(kind)s leg, and match %(match)s is not one: its "
                          "sides are not of %(count)s player each", leg=leg, kind=kind,
                          match=played.id, count=PLAYERS[kind])
        squads = _squads(uow, row, found)
        # one sentence a team: "home"/"away" inside one would stay English in es/it
        if any(player not in squads["home"] for player in sides[0]):
            raise Invalid("match %(match)s is not a leg of fixture %(fixture)s: a player it "
                          "seats for the home team is not in that team's squad",
                          match=played.id, fixture=found.id)
        if any(player not in squads["away"] for player in sides[1]):
            raise Invalid("match %(match)s is not a leg of fixture %(fixture)s: a player it "
                          "seats for the away team is not in that team's squad",
                          match=played.id, fixture=found.id)
        game = _next_game(uow, row, found, leg, tuple(sides[0]), tuple(sides[1]))
        return self._tag(uow, found, leg, game, played.id, who)

    def _tag(self, uow: UnitOfWork, found: Row, leg: int, game: int, match_id: int,
             who: Caller) -> dict[str, Any]:
        store.insert_leg_matches(uow.conn, [{"match_id": match_id, "fixture_id": found.id,
                                             "leg": leg, "game": game}])
        store.changed(uow.conn, found.id)
        store.project_legs(uow.conn, [found.id])
        note(uow, found, "leg", {"leg": leg, "game": game, "match": match_id}, who,
             self.clock)
        return {"fixture": found.id, "leg": leg, "game": game, "match": match_id}


def _may_record(uow: UnitOfWork, who: Caller, fixture: Row) -> None:
    """A captain records its own team's fixtures only."""
    team = captain_of(uow, who)
    if team is not None and team not in (fixture.home_id, fixture.away_id):
        raise Forbidden("a captain records the legs of their own team's fixtures")
    if fixture.walkover_by is not None:
        raise Invalid("fixture %(fixture)s was a walkover: it has no legs to record",
                      fixture=fixture.id)


def _leg_kind(season: Row, leg: Any) -> str:
    legs = fields.format_of(season).legs
    if type(leg) is not int or not 1 <= leg <= len(legs):
        raise Invalid("a fixture of this season has legs 1 to %(legs)s, not %(leg)r",
                      legs=len(legs), leg=leg)
    return legs[leg - 1].kind


def _squads(uow: UnitOfWork, season: Row, fixture: Row) -> dict[str, dict[int, str]]:
    """Each team's squad now, by side: player id -> name."""
    rows = store.squad_rows(uow.conn, season.id)
    return {side: {r.player_id: r.name for r in rows if r.team_id == team}
            for side, team in (("home", fixture.home_id), ("away", fixture.away_id))}


def _named(names: Any, squad: dict[int, str], side: str) -> tuple[int, ...]:
    """The ids of the players ``names`` stands for, each of ``squad`` (found by name key)."""
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise Invalid("%(side)s: a list of player names", side=side)
    by_key = {checks.name_key(name): player for player, name in squad.items()}
    chosen = []
    for typed in names:
        player = by_key.get(checks.name_key(checks.player_name(typed)))
        if player is None:  # one sentence a team, said in es/it whole
            if side == "home":
                raise Invalid("%(player)s is not in the home team's squad: a leg is played by "
                              "the fixture's two teams", player=typed)
            raise Invalid("%(player)s is not in the away team's squad: a leg is played by the "
                          "fixture's two teams", player=typed)
        chosen.append(player)
    return tuple(chosen)


def _seat_order(kind: str, home: list[str], away: list[str]) -> list[str]:
    """Side 0 the home team's: seats 0 and 2 of a pairs leg are one partnership."""
    if kind == "singles":
        return [home[0], away[0]]
    return [home[0], away[0], home[1], away[1]]


def _next_game(uow: UnitOfWork, season: Row, fixture: Row, leg: int, home: tuple[int, ...],
               away: tuple[int, ...]) -> int:
    """The game number a new game of ``leg`` with these players would be; Invalid for a leg
    conceded, decided, with a game still in play, or played by other players, or players past
    the format's limits or named on both sides."""
    format = fields.format_of(season)
    shape = format.legs[leg - 1]
    if len(home) != PLAYERS[shape.kind] or len(away) != PLAYERS[shape.kind]:
        raise Invalid("leg %(leg)s is a %(kind)s leg: %(count)s player a team",
                      leg=leg, kind=shape.kind, count=PLAYERS[shape.kind])
    if set(home) & set(away) or len(set(home)) != len(home) or len(set(away)) != len(away):
        raise Invalid("leg %(leg)s names a player twice", leg=leg)
    slugs = {t.id: t.slug for t in teams(uow, season)}
    played = outcomes.read(uow.conn, format, [fixture], slugs)
    result = played.results[fixture.id]
    mine = result.legs[leg - 1]
    if mine.conceded_by:
        raise Invalid("leg %(leg)s is conceded: it is not played", leg=leg)
    games = played.games.get(fixture.id, {}).get(leg, [])
    if any(g.status == "in_progress" for g in games):
        raise Invalid("leg %(leg)s has a game in play: finish it first", leg=leg)
    if decide(mine.games, shape.best_of).status != "in_play":
        raise Invalid("leg %(leg)s is decided already", leg=leg)
    names = (tuple(str(p) for p in home), tuple(str(p) for p in away))
    if games and (mine.home, mine.away) != names:
        raise Invalid("leg %(leg)s is played by the players of its first game", leg=leg)
    for side, index in (("home", 0), ("away", 1)):
        sheet = [list(getattr(g, side)) for g in result.legs]
        sheet[leg - 1] = list(names[index])
        check_sheet(format, sheet)
    return len(games) + 1
