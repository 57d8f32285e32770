"""Cups kept in the store (``svc.leagues``; docs/leagues.md "Cups"): a knockout of a season's
teams, or of the club's pairs or players (a season's, or the club's own without a league); its
draw made from a recorded seed, the first of the pot seeded by their order (the ranking the
secretary lists them in); its ties played as matches of any rules, each tagged with the cup and
the tie, best of ``best_of`` (a drawn match decides nothing and is played again).

A team cup's tie is a **fixture** of the season's format (its legs, team sheets, captains'
confirmation and signed result sheet), made once its two teams are known (:meth:`fixture_tie`)
and played through the league's own fixture use cases; the team that wins more legs wins the
tie, and a level fixture is settled by a deciding match, best of the cup's ``best_of``, played
as a pairs or players cup's tie is. Pairs and players cups' ties are matches.

A tie's winner is read from its matches (a team cup's: its fixture's legs) at every read, as a
leg's is: a ruling on a match changes the tie and the bracket at once. When a ruling changes who won a tie after a later
tie was played, that later tie's matches are no longer between its entrants: they stay listed
but count for nothing (``stale``), and the tie is to play again.

Entrants are known to the store by ids (a team's, a player's, a pair's two players' joined by
"+"), and to people by a **key**: a team's slug, a player's name, a pair's two names joined by
" & ". Every answer names entrants by key."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Row

from ...core.vocab import CUP_ENTRANTS, CUP_FORMATS, SIDES, TIE_AWARDS
from ...store import cups as store
from ...store import leagues as league_store
from ...store import match_row
from ...store.errors import AlreadyExists
from ...store.players import ensure_players
from ...store.schema import match_players
from .. import checks
from ..access import OPERATOR, Action, Caller, desk_caller, require
from ..clubs import reader, reader_in
from ..errors import N_, Duplicate, Invalid, NotFound, Phrase
from ..leagues import Bracket, Draw, LeagueError, Outcome, bracket, called, draw_cup
from ..leagues.draw import SEEDS
from ..lookup import club_row
from ..players import seating
from ..rowcheck import require_rows
from ..uow import PRIMARY, READ, WRITE, UnitOfWork, use_case
from . import fields, outcomes
from .base import Base, season_row, teams
from .fixtures import reason_of

MAX_ENTRANTS = 128  # a bracket of 128 places: 255 ties in double elimination
MAX_BEST_OF = 9
SEATS = {"players": 1, "pairs": 2}  # a side's players, by entrant kind (a team's: 1 or 2)
GAME_KEY = "cup-{cup}-{tie}-{game}"  # a tie's match as it is known by (a retry finds it)


@dataclass(frozen=True)
class Entrant:
    """An entrant: its id in the store, its key and name for people, its players (a team's:
    none; its squad is the season's)."""

    id: str
    key: str
    name: str
    players: tuple[int, ...]


@dataclass(frozen=True)
class State:
    """A cup as it stands: its entrants (by id), its draw and bracket (None before the draw),
    each tie's matches and awards (a tie conceded or given as a walkover), and what counts no
    longer: matches by id, awards by :func:`_award_key`, fixtures by :func:`_fixture_key`; a
    team cup's ties' fixtures with what they came to."""

    entrants: dict[str, Entrant]
    draw: Draw | None
    bracket: Bracket | None
    games: dict[str, list[Row]]
    stale: frozenset[int | str]
    awards: dict[str, list[Row]]
    fixtures: dict[str, tuple[Row, Outcome]] = field(default_factory=dict)
    legs: dict[int, dict[int, list[Row]]] = field(default_factory=dict)  # fixture -> leg -> games


class SeasonCups(Base):
    @use_case(WRITE)
    def create_cup(self, uow: UnitOfWork, club: str, slug: str, name: str, *,
                   entrants: Sequence[Any], kind: str = "teams", season: str | None = None,
                   format: str = "single_elimination", best_of: int = 1, rules: Any = None,
                   who: Caller = OPERATOR) -> dict[str, Any]:
        """A new cup (the secretary: an admin): ``entrants`` are the pot in its recorded order,
        the best first when some are to be seeded: team slugs of ``season`` (kind ``teams``),
        player names (``players``; a new name is registered) or pairs of names (``pairs``).
        ``rules`` are its matches' rules as a season's ``leg_rules`` (the season's by
        default). Every setting is checked before anything is written."""
        require(who, club, Action.MANAGE)
        values: dict[str, Any] = {
            "slug": checks.slug(slug, Phrase(N_("cup slug"))),
            "name": checks.name(name, Phrase(N_("cup name"))),
            "format": _one_of(format, CUP_FORMATS, "format"),
            "entrant_kind": _one_of(kind, CUP_ENTRANTS, "kind"),
            "best_of": fields.whole(best_of, "best_of", 1, MAX_BEST_OF),
        }
        if values["best_of"] % 2 == 0:
            raise Invalid("a tie is the best of an odd number of matches, not %(value)s",
                          value=best_of)
        found = None if season is None else season_row(uow, club, season)
        if found is None and kind == "teams":
            raise Invalid("a cup of teams is a season's: say which season")
        values["season_id"] = None if found is None else found.id
        values["rules"] = fields.leg_rules(rules if rules is not None or found is None
                                           else found.leg_rules)
        club_id = club_row(uow, club).id
        pot = self._pot(uow, club_id, found, kind, entrants)
        values["entrants"] = [e.id for e in pot]
        try:
            store.insert_cup(uow.conn, club_id, values, self.clock())
        except AlreadyExists:
            raise Duplicate("a cup %(slug)r exists already", slug=values["slug"]) from None
        return {"slug": values["slug"], "name": values["name"],
                "season": None if found is None else found.slug, "kind": kind,
                "format": format, "best_of": best_of, "entrants": [e.key for e in pot]}

    def _pot(self, uow: UnitOfWork, club_id: int, season: Row | None, kind: str,
             entrants: Any) -> list[Entrant]:
        if isinstance(entrants, str) or not isinstance(entrants, Sequence):
            raise Invalid("entrants: a list of the cup's entrants")
        if not 2 <= len(entrants) <= MAX_ENTRANTS:
            raise Invalid("a cup has from 2 to %(most)s entrants, not %(count)s",
                          most=MAX_ENTRANTS, count=len(entrants))
        if kind == "teams":
            assert season is not None
            by_slug = {t.slug: t for t in teams(uow, season)}
            pot = []
            for typed in entrants:
                team = by_slug.get(typed) if isinstance(typed, str) else None
                if team is None:
                    raise Invalid("season %(season)s has no team %(team)r", season=season.slug,
                                  team=typed)
                pot.append(Entrant(str(team.id), team.slug, team.name, ()))
            if len({e.id for e in pot}) != len(pot):
                raise Invalid("a team is named twice among the entrants")
            return pot
        size = SEATS[kind]
        if kind == "pairs":
            for pair in entrants:
                if isinstance(pair, str) or not isinstance(pair, Sequence) or len(pair) != 2:
                    raise Invalid("a pair is two player names, not %(value)r", value=pair)
            typed = [name for pair in entrants for name in pair]
        else:
            typed = list(entrants)
        keyed = seating(typed, line=None)  # a player named twice is refused
        ids = ensure_players(uow.conn, club_id, keyed, self.clock())
        listed = [(ids[key], name) for key, name in keyed.items()]
        if len({player for player, _ in listed}) != len(listed):
            raise Invalid("two of the names are one player (merged): a player is named twice")
        pot = []
        for start in range(0, len(listed), size):
            group = listed[start:start + size]
            names = " & ".join(name for _, name in group)
            pot.append(Entrant("+".join(str(p) for p, _ in group), names, names,
                               tuple(p for p, _ in group)))
        return pot

    @use_case(WRITE)
    def draw(self, uow: UnitOfWork, club: str, cup: str, *, seed: int | None = None,
             seeded: int = 0, ranking: Any = None, who: Caller = OPERATOR) -> dict[str, Any]:
        """The cup's draw (the secretary), recorded: the first ``seeded`` of the pot seeded,
        the rest shuffled from ``seed`` (a new one chosen when none is given). ``ranking``
        puts entrants first, best first, and the pot is recorded in that order: a list of
        entrants' keys (then seeded defaults to as many), or ``"table"`` (a team cup: the
        season's divisions, top one first, each team by its place in its table). It may be
        made again while no tie has a match; once one has, only the same draw is answered
        again, and another is refused."""
        require(who, club, Action.MANAGE)
        row = _cup(uow, club, cup, for_update=True)
        named = _entrants(uow, row)
        pot = list(row.entrants)
        if ranking is not None:
            first = self._ranked(uow, club, row, named, ranking, who)
            pot = first + [e for e in pot if e not in first]
            if seeded == 0 and ranking != "table":
                seeded = len(first)
        if seed is None and type(seeded) is int and len(pot) - seeded > 1:
            seed = secrets.randbelow(SEEDS)
        made = draw_cup(pot, seed, seeded, row.format)
        games = store.cup_games(uow.conn, row.id)
        given = store.cup_awards(uow.conn, row.id)  # a tie conceded fixes the draw too
        tied = league_store.cup_fixture_rows(uow.conn, row.id)  # and a tie's fixture
        if games or given or tied:
            played = (sorted(games, key=lambda g: g.match_id)[0].tie if games
                      else given[0].tie if given else tied[0].cup_tie)
            if ((row.seed, row.seeded, list(row.entrants))
                    != (None if seed is None else str(seed), seeded, pot)):
                raise Invalid("the draw cannot be made again: %(tie)s has been played",
                              tie=called(played, row.format))
        else:
            store.set_draw(uow.conn, row.id, made.seed, made.seeded, pot, self.clock())
        return {"cup": row.slug, "seed": made.seed, "seeded": made.seeded,
                "order": [named[e].key for e in made.order]}

    def _ranked(self, uow: UnitOfWork, club: str, row: Row, named: dict[str, Entrant],
                ranking: Any, who: Caller) -> list[str]:
        """The ids ``ranking`` puts first, best first."""
        if ranking == "table":
            if row.entrant_kind != "teams":
                raise Invalid("only a cup of a season's teams is ranked by its tables")
            season = next(s for s in league_store.season_rows(uow.conn, row.club_id)
                          if s.id == row.season_id)
            by_slug = {e.key: e.id for e in named.values()}
            order = []
            for division in league_store.division_rows(uow.conn, season.id):
                table = self.table.within(uow, club, season.slug, division.slug, who=who)
                order += [by_slug[r["team"]] for r in table["rows"] if r["team"] in by_slug]
            return order
        if isinstance(ranking, str) or not isinstance(ranking, Sequence):
            raise Invalid("ranking: the entrants best first, or \"table\"")
        by_key = {e.key: e.id for e in named.values()}
        order = []
        for key in ranking:
            found = by_key.get(key) if isinstance(key, str) else None
            if found is None or found in order:
                raise Invalid("ranking: %(entrant)r is not an entrant of the cup, or is named "
                              "twice", entrant=key)
            order.append(found)
        return order

    @use_case(WRITE)
    def play_tie(self, uow: UnitOfWork, club: str, cup: str, tie: str, *,
                 home: Sequence[str] = (), away: Sequence[str] = (),
                 who: Caller = OPERATOR) -> dict[str, Any]:
        """The tie's next match started as a new match of the club, its home entrant on side 0
        (a team's players named from its squad, ``home`` and ``away``: one each, or two; a
        pair's or a player's are the entrants'). Invalid for a tie not ready to play (its
        entrants not decided yet, a bye, decided already) or with a match still in play."""
        require(who, club, Action.RECORD)
        row = _cup(uow, club, cup, for_update=True)
        state = _state(uow, row)
        found = _ready(state, row, tie)
        _decider_only(state, row, found)
        _none_in_play(state, found, row)
        entrants = state.entrants
        one, other = entrants[_id_of(state, found.home)], entrants[_id_of(state, found.away)]
        if row.entrant_kind == "teams":
            squads = _squads(uow, row)
            sides = [_team_side(squads, one, home, "home"), _team_side(squads, other, away,
                                                                         "away")]
            if len(sides[0]) != len(sides[1]):
                raise Invalid("both teams field as many players: one each, or two each")
        else:
            if home or away:
                raise Invalid("a cup of %(kind)s is played by its entrants: name no players",
                              kind=row.entrant_kind)
            sides = [list(one.players), list(other.players)]
        names = league_store.player_names(uow.conn, sides[0] + sides[1])
        kind = "singles" if len(sides[0]) == 1 else "pairs"
        seats = ([names[sides[0][0]], names[sides[1][0]]] if kind == "singles" else
                 [names[sides[0][0]], names[sides[1][0]], names[sides[0][1]],
                  names[sides[1][1]]])
        game = len(state.games.get(found.id, [])) + 1
        created = self.recording.create_in(
            uow, club, row.rules[kind], seats, who=who,
            client_key=GAME_KEY.format(cup=row.id, tie=found.id, game=game), event=row.name,
            date=self.clock().date().isoformat(), match=f"{found.id}/{game}")
        store.insert_cup_match(uow.conn, row.id, found.id, game, created["id"], one.id, other.id)
        return {"cup": row.slug, "tie": found.id, "game": game, "match": created["id"]}

    @use_case(WRITE)
    def record_tie(self, uow: UnitOfWork, club: str, cup: str, tie: str, *,
                   matches: Sequence[Any], winner: str | None = None,
                   who: Caller = OPERATOR) -> dict[str, Any]:
        """The tie's result from matches of the club recorded already (on the phone, or
        imported), tagged as its next matches in order: each between the tie's two entrants
        (a team's side: players of its squad), either entrant on either side. With ``winner``
        (an entrant's key) the matches must decide the tie for that entrant. Invalid, and
        nothing tagged, for a tie not ready to play, a match of other players or tagged
        already, or a wrong winner."""
        require(who, club, Action.RECORD)
        row = _cup(uow, club, cup, for_update=True)
        state = _state(uow, row)
        found = _ready(state, row, tie)
        _decider_only(state, row, found)
        if isinstance(matches, (str, bytes)) or not isinstance(matches, Sequence) or not matches:
            raise Invalid("matches: a list of one match id or more")
        if winner is not None and winner not in (found.home, found.away):
            raise Invalid("%(tie)s is between %(home)s and %(away)s, not %(winner)r",
                          tie=called(found.id, row.format), home=found.home, away=found.away,
                          winner=winner)
        entrants = [state.entrants[_id_of(state, found.home)],
                    state.entrants[_id_of(state, found.away)]]
        squads = _squads(uow, row) if row.entrant_kind == "teams" else {}
        club_id = club_row(uow, club).id
        game = len(state.games.get(found.id, []))
        for match in matches:
            number = checks.match_number(match)
            played = match_row(uow.conn, number) if number is not None else None
            if played is None or played.club_id != club_id:
                raise NotFound("no match %(match)r", match=match)
            if (store.cup_match_of(uow.conn, played.id) is not None
                    or league_store.leg_match_of(uow.conn, played.id) is not None):
                raise Invalid("match %(match)s is a game of a tie or a leg already",
                              match=played.id)
            sides = _sides(uow, played.id)
            home_id, away_id = _which(sides, entrants, squads, played.id, found.id, row.format)
            game += 1
            store.insert_cup_match(uow.conn, row.id, found.id, game, played.id, home_id,
                                   away_id)
        after = _state(uow, row).bracket
        assert after is not None
        done = after.tie(found.id)
        if winner is not None and done.winner != winner:
            # marked apart: the catalogs' extractor misses an N_() inside Invalid()'s arguments
            undecided = Phrase(N_("not decided"))
            raise Invalid("%(tie)s is not won by %(winner)s by its matches (%(result)s)",
                          tie=called(found.id, row.format), winner=winner,
                          result=done.winner or undecided)
        return {"cup": row.slug, "tie": found.id, "status": done.status,
                "winner": done.winner}

    @use_case(WRITE)
    def fixture_tie(self, uow: UnitOfWork, club: str, cup: str, tie: str, *, on: Any,
                    who: Caller = OPERATOR) -> dict[str, Any]:
        """A team cup's tie made a fixture of its season (the secretary), once its two teams
        are known: its home team the draw's home entrant, on ``on`` (a date inside the
        season), numbered as the season's fixtures are. Its legs are then named, played,
        conceded or walked over, confirmed and signed as a league fixture's
        (``record_leg``, ``concede``, ``walkover``, ``confirm``), and it counts in no table or
        average. Invalid for a cup of pairs or players (their ties are matches), a tie not
        ready (as :meth:`play_tie` says), one with a fixture already or a match."""
        require(who, club, Action.MANAGE)
        row = _cup(uow, club, cup, for_update=True)
        if row.entrant_kind != "teams":
            raise Invalid("a cup of %(kind)s plays its ties as matches, not fixtures",
                          kind=row.entrant_kind)
        season = _season_of(uow, row)
        day = fields.calendar_of(season).check(fields.day(on, "on"))
        state = _state(uow, row)
        found = _ready(state, row, tie)
        old = state.fixtures.get(found.id)
        if old is not None and _fixture_key(old[0]) not in state.stale:
            raise Invalid("%(tie)s has its fixture already: number %(fixture)s",
                          tie=called(found.id, row.format), fixture=old[0].id)
        if old is not None:
            # a ruling on an earlier tie changed who plays this one: its fixture, between the
            # teams it had then, counts for nothing; it stays the season's, no longer the tie's
            league_store.update_fixture(uow.conn, old[0].id, cup_tie=None)
        if _counting(state, found):
            raise Invalid("%(tie)s has matches played already: it is played as matches",
                          tie=called(found.id, row.format))
        home = int(_id_of(state, found.home))
        away = int(_id_of(state, found.away))
        division = next(t.division_id for t in teams(uow, season) if t.id == home)
        try:
            number = league_store.insert_cup_fixture(uow.conn, {
                "season_id": season.id, "division_id": division, "round": found.round,
                "home_id": home, "away_id": away, "played_on": day.isoformat(),
                "scheduled_on": day.isoformat(), "cup_id": row.id, "cup_tie": found.id})
        except AlreadyExists:
            raise Duplicate("%(tie)s has its fixture already",
                            tie=called(found.id, row.format)) from None
        return {"cup": row.slug, "tie": found.id, "season": season.slug, "fixture": number,
                "home": found.home, "away": found.away, "date": day.isoformat()}

    @use_case(WRITE)
    def concede_tie(self, uow: UnitOfWork, club: str, cup: str, tie: str, by: str, *,
                    reason: str, who: Caller = OPERATOR) -> dict[str, Any]:
        """The tie conceded by its ``by`` entrant (home or away: it withdrew, or cannot play),
        without a match or after some (the secretary): the other goes through, the bracket
        moves at once, the reason is kept. Invalid for a tie decided already, not known yet
        (who plays it), a bye, or with a match in play."""
        return self._award(uow, club, cup, tie, "conceded", by, reason, who)

    @use_case(WRITE)
    def walkover_tie(self, uow: UnitOfWork, club: str, cup: str, tie: str, by: str, *,
                     reason: str, who: Caller = OPERATOR) -> dict[str, Any]:
        """The tie given as a walkover (the secretary): ``by`` (home or away) did not turn up,
        the other goes through, the bracket moves at once, the reason is kept. Invalid, as a
        concession is, and for a tie with a match already (it was played: no walkover)."""
        return self._award(uow, club, cup, tie, "walkover", by, reason, who)

    def _award(self, uow: UnitOfWork, club: str, cup: str, tie: str, kind: str, by: Any,
               reason: Any, who: Caller) -> dict[str, Any]:
        require(who, club, Action.MANAGE)
        assert kind in TIE_AWARDS
        side = checks.one_of(by, SIDES, "by")
        why = reason_of(reason)
        row = _cup(uow, club, cup, for_update=True)
        state = _state(uow, row)
        found = _ready(state, row, tie)
        games = _none_in_play(state, found, row)
        if kind == "walkover" and games:
            raise Invalid("%(tie)s has matches played: it is no walkover (it may be "
                          "conceded)", tie=called(found.id, row.format))
        home, away = _id_of(state, found.home), _id_of(state, found.away)
        store.insert_cup_award(uow.conn, row.id, {
            "tie": found.id, "kind": kind, "home": home, "away": away, "conceded_by": side,
            "reason": why, "recorded_at": self.clock(), "recorded_by": who.recorded_by,
            "token_id": who.token_id})
        winner = found.away if side == "home" else found.home
        return {"cup": row.slug, "tie": found.id, "kind": kind, "by": side,
                "entrant": found.home if side == "home" else found.away, "winner": winner,
                "reason": why}

    # ------------------------------------------------------------------ reads

    @use_case(READ)
    def cups(self, uow: UnitOfWork, club: str, *, season: str | None = None,
             who: Caller | None = OPERATOR) -> list[dict[str, Any]]:
        """The club's cups (or a season's), newest first: slug, name, season, kind, format,
        entrants' count, whether drawn, the champion once decided."""
        require(reader(uow, club, who), club, Action.READ)
        club_id = club_row(uow, club).id
        found = None if season is None else season_row(uow, club, season)
        listed = []
        for row in store.cup_rows(uow.conn, club_id, None if found is None else found.id):
            require_rows(uow.conn, "league_cups", [row], N_("cup %(cup)s"), cup=row.slug)
            state = _state(uow, row)
            listed.append({**_summary(uow, row), **_champion(state)})
        return listed

    @use_case(READ)
    def cup(self, uow: UnitOfWork, club: str, cup: str, *,
            who: Caller | None = OPERATOR) -> dict[str, Any]:
        """The cup whole: its settings, entrants (key, name, draw number), its draw (seed,
        seeds) and every tie of its bracket (id, part, round, number, status, home, away,
        winner, loser, the matches each side won, its matches: each with the entrants on its
        sides, its winner and whether it ``counts``; its awards: a concession or walkover, the
        side ``by`` and its ``entrant``, the winner, the reason, when, whether it ``counts``),
        its champion."""
        require(reader(uow, club, who), club, Action.READ)
        row = _cup(uow, club, cup)
        return _whole(uow, row, _state(uow, row))

    @use_case(READ)
    def cups_page(self, uow: UnitOfWork, club: str, *,
                  who: Caller | None = None) -> dict[str, Any]:
        """A club's cups page (and its JSON twin): the club as its pages give it, its cups."""
        who, info = reader_in(uow, club, who)
        return {"club": info, "cups": self.cups.within(uow, club, who=who)}

    @use_case(READ)
    def cup_page(self, uow: UnitOfWork, club: str, cup: str, *,
                 who: Caller | None = None) -> dict[str, Any]:
        """A cup's page (and its JSON twin): the club as its pages give it, and the cup whole."""
        who, info = reader_in(uow, club, who)
        row = _cup(uow, club, cup)
        return {"club": info, "cup": _whole(uow, row, _state(uow, row))}


    @use_case(PRIMARY)
    def desk_cups(self, uow: UnitOfWork, club: str, *,
                  who: Caller | None = None) -> dict[str, Any]:
        """The cups desk (the secretary's: an admin, Forbidden below; no token, the sign-in):
        the club, its cups, and its seasons (a new cup may be one's)."""
        who = desk_caller(who)
        require(who, club, Action.MANAGE)
        seasons = [{"slug": r.slug, "name": r.name}
                   for r in league_store.season_rows(uow.conn, club_row(uow, club).id)]
        return {**self.cups_page.within(uow, club, who=who), "seasons": seasons}

    @use_case(PRIMARY)
    def desk_cup(self, uow: UnitOfWork, club: str, cup: str, *,
                 who: Caller | None = None) -> dict[str, Any]:
        """A cup on the secretary's desk: the cup whole, to draw (again, while no tie has a
        match), its bracket and ties (their results come from their matches), and the date
        each tie's fixture is to be made on unless the secretary says another
        (``fixture_on``, by tie: its round's, as :func:`_round_dates` reads it)."""
        who = desk_caller(who)
        require(who, club, Action.MANAGE)
        row = _cup(uow, club, cup)
        state = _state(uow, row)
        played = (any(state.games.values()) or any(state.awards.values())
                  or bool(state.fixtures))
        return {**self.cup_page.within(uow, club, cup, who=who), "drawable": not played,
                "playable": _playable(state, row), "fixture_on": _fixture_on(state)}


# ---------------------------------------------------------------------- helpers


def _one_of(value: Any, known: tuple[str, ...], what: str) -> str:
    if value not in known:
        raise Invalid("%(what)s is one of %(known)s, not %(value)r", what=what,
                      known=", ".join(known), value=value)
    return value


def _cup(uow: UnitOfWork, club: str, cup: Any, *, for_update: bool = False) -> Row:
    club_id = club_row(uow, club).id
    row = store.cup_row(uow.conn, club_id, cup, for_update=for_update) if isinstance(
        cup, str) else None
    if row is None:
        raise NotFound("%(club)s has no cup %(cup)r", club=club, cup=cup)
    require_rows(uow.conn, "league_cups", [row], N_("cup %(cup)s"), cup=row.slug)
    return row


def _entrants(uow: UnitOfWork, row: Row) -> dict[str, Entrant]:
    """The cup's entrants by id, with their keys and names as they are now."""
    if row.entrant_kind == "teams":
        by_id = {str(t.id): t for t in league_store.team_rows(uow.conn, row.season_id)}
        return {e: Entrant(e, by_id[e].slug, by_id[e].name, ()) for e in row.entrants}
    players = {e: tuple(int(p) for p in e.split("+")) for e in row.entrants}
    names = league_store.player_names(uow.conn, [p for ids in players.values() for p in ids])
    made = {}
    for e, ids in players.items():
        label = " & ".join(names[p] for p in ids)
        made[e] = Entrant(e, label, label, ids)
    return made


def _state(uow: UnitOfWork, row: Row) -> State:
    """The cup as it stands, its ties' winners read from their matches."""
    require_rows(uow.conn, "league_cup_matches", store.cup_match_rows(uow.conn, row.id),
                 N_("cup %(cup)s"), cup=row.slug)
    given = store.cup_awards(uow.conn, row.id)
    require_rows(uow.conn, "league_cup_awards", given, N_("cup %(cup)s"), cup=row.slug)
    entrants = _entrants(uow, row)
    games: dict[str, list[Row]] = {}
    for game in store.cup_games(uow.conn, row.id):
        games.setdefault(game.tie, []).append(game)
    awards: dict[str, list[Row]] = {}
    for award in given:
        awards.setdefault(award.tie, []).append(award)
    fixtures, legs = _fixtures(uow, row)
    if row.drawn_at is None:
        return State(entrants, None, None, games, frozenset(), awards, fixtures, legs)
    made = draw_cup([entrants[e].key for e in row.entrants],
                    None if row.seed is None else int(row.seed), row.seeded, row.format)
    key = {e: entrants[e].key for e in entrants}
    played: dict[str, Played] = {}
    for tie, (fixture, came) in fixtures.items():  # first: a deciding match is after it
        played[tie] = [(_fixture_key(fixture), key[str(fixture.home_id)],
                        key[str(fixture.away_id)], _fixture_won(came, key))]
    for tie, listed in games.items():
        played.setdefault(tie, []).extend(
            (g.match_id, key[g.home], key[g.away], _won(g, key)) for g in listed)
    for tie, listed in awards.items():  # after the tie's matches: an award decides it
        played.setdefault(tie, []).extend(
            (_award_key(a), key[a.home], key[a.away],
             key[a.away] if a.conceded_by == "home" else key[a.home]) for a in listed)
    cup, stale = _resolved(made, played, row.best_of // 2 + 1)
    return State(entrants, made, cup, games, stale, awards, fixtures, legs)


def _season_of(uow: UnitOfWork, row: Row) -> Row:
    return next(s for s in league_store.season_rows(uow.conn, row.club_id)
                if s.id == row.season_id)


def _fixtures(uow: UnitOfWork, row: Row
              ) -> tuple[dict[str, tuple[Row, Outcome]], dict[int, dict[int, list[Row]]]]:
    """A team cup's ties' fixtures (by tie) with what each came to, read from its legs'
    games themselves (a cup's are not in the legs' results the tables read), and those games
    (fixture -> leg -> its games' rows: the ties' list shows their matches)."""
    if row.entrant_kind != "teams":
        return {}, {}
    found = league_store.cup_fixture_rows(uow.conn, row.id)
    if not found:
        return {}, {}
    season = _season_of(uow, row)
    slugs = {t.id: str(t.id) for t in teams(uow, season)}
    played = outcomes.read(uow.conn, fields.format_of(season), found, slugs)
    return ({f.cup_tie: (f, played.outcomes[f.id]) for f in found if f.cup_tie is not None},
            played.games)


def _fixture_key(fixture: Row) -> str:
    """A tie's fixture as its played list and the stale set know it."""
    return f"fixture-{fixture.id}"


LEVEL = "="  # a complete fixture whose teams won as many legs: a deciding match settles it


def _fixture_won(came: Outcome, key: dict[str, str]) -> str | None:
    """The entrant (its key) a fixture gives its tie: the team that won more legs once it is
    complete (a walkover too); LEVEL when complete and level; None before."""
    if not came.complete:
        return None
    if came.home_legs == came.away_legs:
        return LEVEL
    return key[came.home if came.home_legs > came.away_legs else came.away]


def _decider_only(state: State, row: Row, tie: Any) -> None:
    """A team cup's tie takes a match only as its deciding match: once its fixture is
    complete and level. Invalid before its fixture is made, or while its legs decide it."""
    if row.entrant_kind != "teams":
        return
    made = state.fixtures.get(tie.id)
    if made is None or _fixture_key(made[0]) in state.stale:
        raise Invalid("%(tie)s is played as a fixture of the season's format: make its "
                      "fixture first", tie=called(tie.id, row.format))
    came = made[1]
    if not came.complete or came.home_legs != came.away_legs:
        raise Invalid("%(tie)s is decided by its fixture's legs (number %(fixture)s): a "
                      "deciding match is played only when they end level",
                      tie=called(tie.id, row.format), fixture=made[0].id)


# A tie's matches and awards: id (a match's, or an award's :func:`_award_key`), side 0 (home
# for an award), side 1, winner.
Played = list[tuple[int | str, str, str, str | None]]


def _award_key(award: Row) -> str:
    """An award as a tie's played list and the stale set know it (a match is its id)."""
    return f"award-{award.id}"


def _won(game: Row, key: dict[str, str]) -> str | None:
    if game.status == "finished" and game.winner in (0, 1):
        return key[game.home if game.winner == 0 else game.away]
    return None


def _winner(games: Played, need: int) -> str | None:
    """Who has won ``need`` of the matches first (a drawn match decides nothing); an award
    (the last, if a ruling left more than one counting) decides the tie whatever the matches
    say: it was given while they decided nothing. A team cup's tie with a fixture is the
    fixture's winner; only a complete and level fixture leaves it to the matches (the
    deciding match)."""
    awarded = [by for ref, _, _, by in games if isinstance(ref, str) and ref.startswith("a")]
    if awarded:
        return awarded[-1]
    legs = [by for ref, _, _, by in games if isinstance(ref, str) and ref.startswith("f")]
    if legs and legs[-1] != LEVEL:
        return legs[-1]  # the fixture's winner, or None while it is played
    wins: dict[str, int] = {}
    for ref, _, _, by in games:
        if by is not None and not isinstance(ref, str):
            wins[by] = wins.get(by, 0) + 1
            if wins[by] >= need:
                return by
    return None


def _resolved(made: Draw, played: dict[str, Played], need: int
              ) -> tuple[Bracket, frozenset[int | str]]:
    """The bracket with the ties' winners, and the matches (ids) that count no longer: those
    not between their tie's entrants as the bracket has them now (a ruling changed a tie
    before). Tried whole first; generation by generation (:func:`_generations`) only when that
    does not hold."""
    won = {tie: w for tie, games in played.items() if (w := _winner(games, need)) is not None}
    try:
        cup = bracket(made, won)
        if all(frozenset((h, a)) == frozenset((t.home, t.away))
               for t in cup.ties for _, h, a, _ in played.get(t.id, ())):
            return cup, frozenset()
    except LeagueError:
        pass
    results: dict[str, str] = {}
    stale: set[int | str] = set()
    for generation in _generations(bracket(made, {}).ties):
        now = bracket(made, results)  # what each tie of this generation is between
        for tie_id in generation:
            if tie_id not in played:
                continue
            tie = now.tie(tie_id)
            between = frozenset((tie.home, tie.away))
            counted = [g for g in played[tie_id]
                       if tie.status == "ready" and frozenset(g[1:3]) == between]
            stale |= {g[0] for g in played[tie_id] if g not in counted}
            winner = _winner(counted, need)
            if winner is not None:
                results[tie_id] = winner
    return bracket(made, results), frozenset(stale)


def _generations(ties: Sequence[Any]) -> list[list[str]]:
    """The bracket's ties by generation: round 1's first, then each tie one after the latest of
    the ties it is filled from (the grand final's second match after the first). The ties of a
    generation depend on none of each other, so one bracket worked out before a generation
    tells what each of its ties is between."""
    depth: dict[str, int] = {}
    for tie in ties:
        before = [depth[s.ref] for s in tie.sources if s.kind != "entrant"]
        if tie.id == "F2":
            before.append(depth["F1"])
        depth[tie.id] = 1 + max(before) if before else 0
    grouped: list[list[str]] = [[] for _ in range(max(depth.values()) + 1)]
    for tie in ties:
        grouped[depth[tie.id]].append(tie.id)
    return grouped


def _id_of(state: State, key: str | None) -> str:
    for entrant in state.entrants.values():
        if entrant.key == key:
            return entrant.id
    raise NotFound("no entrant %(entrant)r", entrant=key)


def _playable(state: State, row: Row) -> list[str]:
    """The ties whose next match may be started now: each that play_tie's own checks let
    through (ready, a team cup's only as its level fixture's decider, none in play)."""
    if state.bracket is None:
        return []
    found = []
    for tie in state.bracket.ties:
        try:
            _decider_only(state, row, _ready(state, row, tie.id))
            _none_in_play(state, tie, row)
        except Invalid:
            continue
        found.append(tie.id)
    return found


def _ready(state: State, row: Row, tie: Any) -> Any:
    """The tie ``tie`` of the bracket, ready to play: NotFound for no such tie, Invalid for a
    cup not drawn or a tie not ready (entrants not decided, a bye, empty, decided already)."""
    if state.bracket is None:
        raise Invalid("cup %(cup)s is not drawn yet: draw it first", cup=row.slug)
    found = next((t for t in state.bracket.ties if t.id == tie), None)
    if found is None:
        raise NotFound("cup %(cup)s has no tie %(tie)r", cup=row.slug, tie=tie)
    if found.status == "played":
        raise Invalid("%(tie)s is decided already: %(winner)s won it",
                      tie=called(found.id, row.format), winner=found.winner)
    if found.status == "waiting":
        raise Invalid("%(tie)s cannot have a result yet: who plays it is not decided",
                      tie=called(found.id, row.format))
    if found.status != "ready":
        raise Invalid("%(tie)s is not played: it is a bye, empty or not needed",
                      tie=called(found.id, row.format))
    return found


def _counting(state: State, tie: Any) -> list[Row]:
    return [g for g in state.games.get(tie.id, []) if g.match_id not in state.stale]


def _none_in_play(state: State, tie: Any, row: Row) -> list[Row]:
    """The tie's matches that count; Invalid while one of them is in play."""
    games = _counting(state, tie)
    if any(g.status == "in_progress" for g in games):
        raise Invalid("%(tie)s has a match in play: finish it first",
                      tie=called(tie.id, row.format))
    return games


def _squads(uow: UnitOfWork, row: Row) -> dict[int, dict[int, str]]:
    """Each team's squad now: team id -> player id -> name."""
    squads: dict[int, dict[int, str]] = {}
    for r in league_store.squad_rows(uow.conn, row.season_id):
        squads.setdefault(r.team_id, {})[r.player_id] = r.name
    return squads


def _team_side(squads: dict[int, dict[int, str]], team: Entrant, names: Any,
               side: str) -> list[int]:
    if isinstance(names, str) or not isinstance(names, Sequence) or len(names) not in (1, 2):
        raise Invalid("%(side)s: one player's name, or two", side=side)
    squad = squads.get(int(team.id), {})
    by_key = {checks.name_key(name): player for player, name in squad.items()}
    chosen = []
    for typed in names:
        player = by_key.get(checks.name_key(checks.player_name(typed)))
        if player is None or player in chosen:
            raise Invalid("%(player)s is not in %(team)s's squad (or is named twice)",
                          player=typed, team=team.key)
        chosen.append(player)
    return chosen


def _sides(uow: UnitOfWork, match_id: int) -> dict[int, list[int]]:
    sides: dict[int, list[int]] = {}
    for seat in uow.conn.execute(match_players.select().where(
            match_players.c.match_id == match_id).order_by(match_players.c.seat)):
        sides.setdefault(seat.side, []).append(seat.player_id)
    return sides


def _which(sides: dict[int, list[int]], entrants: list[Entrant],
           squads: dict[int, dict[int, str]], match_id: int, tie: str,
           format: str) -> tuple[str, str]:
    """The entrants on the match's sides 0 and 1 (the tie's two, in either order); Invalid for
    a match of other players."""
    def plays(entrant: Entrant, ids: list[int]) -> bool:
        if entrant.players:
            return sorted(ids) == sorted(entrant.players)
        squad = squads.get(int(entrant.id), {})
        return 1 <= len(ids) <= 2 and all(p in squad for p in ids)
    if len(sides) == 2 and len(sides[0]) == len(sides.get(1, [])):
        one, other = entrants
        if plays(one, sides[0]) and plays(other, sides[1]):
            return one.id, other.id
        if plays(other, sides[0]) and plays(one, sides[1]):
            return other.id, one.id
    raise Invalid("match %(match)s is not a match of %(tie)s: its sides are not its two "
                  "entrants' players", match=match_id, tie=called(tie, format))


def _fixture_line(state: State, tie: str, key: dict[str, str]) -> dict[str, Any] | None:
    """A team cup's tie's fixture as its cup shows it: number, date, teams, legs won, whether
    complete and ``level`` (a deciding match to play), whether it ``counts`` (it is between
    the tie's entrants as the bracket has them now), and its legs' ``matches`` (leg, game,
    match, status), in the legs' order."""
    if tie not in state.fixtures:
        return None
    fixture, came = state.fixtures[tie]
    return {"id": fixture.id, "date": fixture.played_on, "home": key[str(fixture.home_id)],
            "away": key[str(fixture.away_id)],
            "legs_won": {"home": came.home_legs, "away": came.away_legs},
            "complete": came.complete, "level": _fixture_won(came, key) == LEVEL,
            "walkover_by": fixture.walkover_by,
            "counts": _fixture_key(fixture) not in state.stale,
            "matches": [{"leg": leg, "game": g.game, "match": g.match_id, "status": g.status}
                        for leg, games in sorted(state.legs.get(fixture.id, {}).items())
                        for g in games]}


def _round_of(tie: str) -> str:
    """The round a tie is of, as a key: ``W2`` for ``W2-1``, ``L1`` for ``L1-2``; the grand
    final's two matches are each a round of their own (``F1``, ``F2``)."""
    return tie.split("-", 1)[0]


def _round_dates(state: State) -> dict[str, str]:
    """Each round's date as its ties' fixtures say it: the day the latest fixture made for a
    tie of the round was made for (its first date: a postponement moves one fixture, not the
    round). A cup keeps no round dates of its own (docs/leagues.md says why): the first
    fixture of a round gives the rest theirs."""
    made: dict[str, Row] = {}
    for tie, (fixture, _came) in state.fixtures.items():
        if _fixture_key(fixture) in state.stale:
            continue  # between teams the tie no longer has: its day was theirs
        kept = made.get(_round_of(tie))
        if kept is None or fixture.id > kept.id:
            made[_round_of(tie)] = fixture
    return {key: fixture.scheduled_on for key, fixture in sorted(made.items())}


def _fixture_on(state: State) -> dict[str, str]:
    """The date each tie of the bracket whose round has one (:func:`_round_dates`) is to be
    made a fixture on, by tie."""
    if state.bracket is None:
        return {}
    dates = _round_dates(state)
    return {tie.id: dates[_round_of(tie.id)] for tie in state.bracket.ties
            if _round_of(tie.id) in dates}


def _champion(state: State) -> dict[str, Any]:
    """The champion once decided, by key, and by name as people know it (a team's name)."""
    key = None if state.bracket is None else state.bracket.champion
    name = next((e.name for e in state.entrants.values() if e.key == key), None)
    return {"champion": key, "champion_name": name}


def _summary(uow: UnitOfWork, row: Row) -> dict[str, Any]:
    season = None
    if row.season_id is not None:
        season = next(s.slug for s in league_store.season_rows(uow.conn, row.club_id)
                      if s.id == row.season_id)
    return {"slug": row.slug, "name": row.name, "season": season, "kind": row.entrant_kind,
            "format": row.format, "best_of": row.best_of, "entrants": len(row.entrants),
            "drawn": row.drawn_at is not None}


def _whole(uow: UnitOfWork, row: Row, state: State) -> dict[str, Any]:
    made = state.draw
    number = {} if made is None else {key: n for n, key in enumerate(made.order, start=1)}
    entrants = [{"key": e.key, "name": e.name, "number": number.get(e.key)}
                for e in (state.entrants[i] for i in row.entrants)]
    ties = []
    if state.bracket is not None:
        key = {e.id: e.key for e in state.entrants.values()}
        for tie in state.bracket.ties:
            won = {"home": 0, "away": 0}
            matches = []
            for g in state.games.get(tie.id, []):
                by = _won(g, key)
                counts = g.match_id not in state.stale
                if counts and by is not None:
                    won["home" if by == tie.home else "away"] += 1
                matches.append({"game": g.game, "match": g.match_id, "status": g.status,
                                "home": key[g.home], "away": key[g.away], "winner": by,
                                "counts": counts})
            awards = [{"kind": a.kind, "by": a.conceded_by,
                       "entrant": key[a.home if a.conceded_by == "home" else a.away],
                       "winner": key[a.away if a.conceded_by == "home" else a.home],
                       "reason": a.reason, "recorded_at": a.recorded_at.isoformat(),
                       "counts": _award_key(a) not in state.stale}
                      for a in state.awards.get(tie.id, [])]
            ties.append({"id": tie.id, "bracket": tie.bracket, "round": tie.round,
                         "number": tie.number, "status": tie.status, "home": tie.home,
                         "away": tie.away, "winner": tie.winner, "loser": tie.loser,
                         "won": won, "matches": matches, "awards": awards,
                         "fixture": _fixture_line(state, tie.id, key)})
    return {**_summary(uow, row), "rules": row.rules, "entrants": entrants,
            "seed": None if row.seed is None else int(row.seed), "seeded": row.seeded,
            "drawn_at": None if row.drawn_at is None else row.drawn_at.isoformat(),
            "ties": ties, **_champion(state)}
