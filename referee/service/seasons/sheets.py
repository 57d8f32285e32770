"""A fixture's result confirmed by both captains, and its signed result sheet.

The sheet (``domino-league-sheet/1``) says the fixture (club, season, division, round, date,
the teams), each leg (its kind, best-of, status, the winner, each team's players, each game's
match with its record's digest, the chain head its acta signs, and winner; who conceded it),
the legs won, the walkover if it was one, and both confirmations (the fixture's version each
captain confirmed); ``number`` counts the fixture's sheets. It is signed by the club's key
and is a leaf of the club's transparency log (``leaf_index``), as an acta is. A ruling on a
leg's match changes what the sheet would say: the sheet is signed again
(:meth:`SeasonSheets.resign`, run once the ruling has committed), with the next number, once
every leg is decided again (a ruling that reopens a game leaves the last sheet until it
ends)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlalchemy import Row, select

from ...seal import documents
from ...store import leagues as store
from ...store.schema import clubs, league_seasons, matches
from ..access import OPERATOR, Action, Caller, require
from ..clubs import reader
from ..errors import Invalid, NoSigningKey, NotFound, SigningKeyError
from ..lookup import club_row
from ..transparency import append_leaf
from ..uow import PRIMARY, WRITE, UnitOfWork, use_case
from . import fields, outcomes
from .base import Base, divisions, fixture_row, require_captain, season_row, teams
from .fixtures import note

FORMAT = documents.SHEET_FORMAT


def sheet_body(uow: UnitOfWork, club: str, season: Row, fixture: Row) -> dict[str, Any]:
    """What the fixture's sheet says now (unsigned, unnumbered)."""
    format = fields.format_of(season)
    listed = {t.id: t for t in teams(uow, season)}
    slugs = {i: t.slug for i, t in listed.items()}
    played = outcomes.read(uow.conn, format, [fixture], slugs)
    outcome = played.outcomes[fixture.id]
    games = played.games.get(fixture.id, {})
    ids = {m for legs in games.values() for g in legs for m in (g.match_id,)}
    heads = dict(uow.conn.execute(select(matches.c.id, matches.c.head)
                                  .where(matches.c.id.in_(ids))).all()) if ids else {}
    people = {int(p) for leg in outcome.legs for side in ("home", "away")
              for p in leg.players(side)}
    names = store.player_names(uow.conn, people)
    division = next(d for d in divisions(uow, season) if d.id == fixture.division_id)
    legs = [{"leg": leg.number, "kind": leg.kind, "best_of": leg.best_of,
             "status": leg.status, "winner": leg.winner,
             "home": [names[int(p)] for p in leg.home],
             "away": [names[int(p)] for p in leg.away],
             "conceded_by": list(leg.conceded_by),
             "games": [{"game": g.game, "match": g.match_id, "digest": heads[g.match_id],
                        "status": g.status,
                        "winner": None if g.winner is None else outcomes.SIDE[g.winner]}
                       for g in games.get(leg.number, [])]}
            for leg in outcome.legs]
    return {"format": FORMAT, "club": club, "season": season.slug,
            "division": division.slug, "fixture": fixture.id, "round": fixture.round,
            "date": fixture.played_on,
            "home": {"team": slugs[fixture.home_id], "name": listed[fixture.home_id].name},
            "away": {"team": slugs[fixture.away_id], "name": listed[fixture.away_id].name},
            "walkover_by": fixture.walkover_by, "legs": legs,
            "legs_won": {"home": outcome.home_legs, "away": outcome.away_legs},
            "result": outcome.winner or "drawn",
            "confirmed": {"home": fixture.home_confirmed, "away": fixture.away_confirmed}}


class SeasonSheets(Base):
    @use_case(WRITE)
    def confirm(self, uow: UnitOfWork, club: str, season: str, fixture: int, *,
                side: str | None = None, who: Caller = OPERATOR) -> dict[str, Any]:
        """The fixture's result as it stands confirmed by the captain of ``who``'s team (the
        operator names the side). Forbidden for a captain of neither team (or naming the other
        side); Invalid while a leg is in play. Once both have confirmed the same version, the
        result sheet is signed (when the club's key can sign; else it is signed later, by
        :meth:`resign`)."""
        require(who, club, Action.RECORD)
        row = season_row(uow, club, season)
        found = fixture_row(uow, row, fixture, for_update=True)
        side = require_captain(uow, who, found, side)
        slugs = {t.id: t.slug for t in teams(uow, row)}
        played = outcomes.read(uow.conn, fields.format_of(row), [found], slugs)
        if not played.outcomes[found.id].complete:
            raise Invalid("fixture %(fixture)s has legs still to play: its result is confirmed "
                          "once every leg is decided, conceded or void", fixture=found.id)
        store.update_fixture(uow.conn, found.id, **{f"{side}_confirmed": found.version})
        note(uow, found, "confirmed", {"side": side, "version": found.version}, who,
             self.clock)
        now = fixture_row(uow, row, fixture)
        signed = None
        if now.home_confirmed == now.away_confirmed == now.version:
            signed = self._sign(uow, club, row, now)
        return {"fixture": found.id, "side": side, "version": found.version,
                "confirmed": {"home": now.home_confirmed, "away": now.away_confirmed},
                "sheet": signed}

    @use_case(PRIMARY)
    def sheet(self, uow: UnitOfWork, club: str, season: str, fixture: int, *,
              who: Caller | None = OPERATOR) -> dict[str, Any]:
        """The fixture's signed sheet, the newest; NotFound while none is signed. ``who``
        None: anyone, for a public club."""
        who = reader(uow, club, who)
        require(who, club, Action.READ)
        row = season_row(uow, club, season)
        found = fixture_row(uow, row, fixture)
        signed = store.sheet_rows(uow.conn, found.id)
        if not signed:
            raise NotFound("fixture %(fixture)s has no signed result sheet yet: both captains "
                           "confirm it first", fixture=found.id)
        return json.loads(signed[-1].sheet)

    def resign(self, match_id: int) -> dict[str, Any] | None:
        """After a change to a leg's match has committed (a ruling): its fixture's sheet signed
        again if it has one (or if both captains confirmed and none could be signed yet) and
        what it says has changed. The new sheet, or None."""
        with self.units.open(PRIMARY) as uow:  # most matches are no leg: one read says so
            tag = store.leg_match_of(uow.conn, match_id)
        if tag is None:
            return None
        with self.units.open(WRITE) as uow:
            fixture = store.fixture_row(uow.conn, tag.fixture_id, for_update=True)
            season = uow.conn.execute(select(league_seasons).where(
                league_seasons.c.id == fixture.season_id)).one()
            club = uow.conn.execute(select(clubs.c.slug).where(
                clubs.c.id == season.club_id)).scalar_one()
            signed = store.sheet_rows(uow.conn, fixture.id)
            confirmed = fixture.home_confirmed == fixture.away_confirmed == fixture.version
            if not signed and not confirmed:
                return None
            return self._sign(uow, club, season, fixture)

    def _sign(self, uow: UnitOfWork, club: str, season: Row, fixture: Row
              ) -> dict[str, Any] | None:
        """The sheet signed as the next of the fixture's, unless the last says the same; None
        when the club's key cannot sign (the confirmation stands)."""
        body = sheet_body(uow, club, season, fixture)
        if any(leg["status"] == "in_play" for leg in body["legs"]):
            return None  # a ruling reopened a leg: signed again once it is decided
        signed = store.sheet_rows(uow.conn, fixture.id)
        if signed:
            last = json.loads(signed[-1].sheet)
            if {k: last.get(k) for k in body} == body:
                return last
        club_id = club_row(uow, club).id
        try:
            key = self.signing_key(uow.conn, club_id, club)
        except (NoSigningKey, SigningKeyError):
            return None
        now = self.clock()
        number = len(signed) + 1
        document = append_leaf(uow.conn, club_id, club, key, now, lambda index: (
            documents.sign_sheet({**body, "number": number, "leaf_index": index}, key,
                                 documents.iso(now))), seq=number, fixture_id=fixture.id)
        text = documents.leaf(document).decode("utf-8")
        store.insert_sheet(uow.conn, fixture.id, number, text,
                           hashlib.sha256(text.encode()).hexdigest(), now)
        return document
