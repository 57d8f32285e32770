"""Cups (migration 0023, docs/leagues.md "Cups"): a club's knockouts, of a season or of the club
alone, with their pot, recorded seed and seeds; and each match of a tie (``league_cup_matches``),
with the entrants on its two sides. What a tie came to is read from its matches' projections
(:func:`cup_games`), so a ruling on a match changes the tie and the bracket at once."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Connection, Row, insert, select
from sqlalchemy.exc import IntegrityError

from .errors import AlreadyExists
from .macs import mac_new, update_macd
from .schema import league_cup_awards, league_cup_matches, league_cups, matches


def insert_cup(conn: Connection, club_id: int, values: dict[str, Any],
               created_at: dt.datetime) -> int:
    """A new cup of the club; AlreadyExists for a slug the club has already."""
    try:
        with conn.begin_nested():
            result = conn.execute(insert(league_cups).values(
                club_id=club_id, created_at=created_at, **values))
    except IntegrityError:
        raise AlreadyExists(f"a cup {values['slug']!r} exists already") from None
    made = result.inserted_primary_key[0]
    mac_new(conn, "league_cups", league_cups.c.id == made)  # it covers the id given
    return made


def cup_row(conn: Connection, club_id: int, slug: str, *, for_update: bool = False
            ) -> Row | None:
    query = select(league_cups).where(league_cups.c.club_id == club_id,
                                      league_cups.c.slug == slug)
    if for_update and conn.dialect.name == "postgresql":
        query = query.with_for_update()  # a draw and a tie's match queue (SQLite's do)
    return conn.execute(query).first()


def cup_rows(conn: Connection, club_id: int, season_id: int | None = None) -> list[Row]:
    """The club's cups (or one season's), newest first."""
    query = select(league_cups).where(league_cups.c.club_id == club_id)
    if season_id is not None:
        query = query.where(league_cups.c.season_id == season_id)
    return conn.execute(query.order_by(league_cups.c.id.desc())).all()


def set_draw(conn: Connection, cup_id: int, seed: int | None, seeded: int,
             entrants: list[str], drawn_at: dt.datetime) -> None:
    """The cup's draw recorded: its pot in the order drawn from (a ranking may have put some
    first), the seed (kept as text: it may be past a signed BIGINT) and the number seeded."""
    update_macd(conn, "league_cups", league_cups.c.id == cup_id, {
        "seed": None if seed is None else str(seed), "seeded": seeded, "entrants": entrants,
        "drawn_at": drawn_at})


def insert_cup_match(conn: Connection, cup_id: int, tie: str, game: int, match_id: int,
                     home: str, away: str) -> None:
    """A match tagged as game ``game`` of the tie, ``home`` and ``away`` the entrants on its
    sides 0 and 1; AlreadyExists when the match is a cup's already or the game has its match."""
    try:
        with conn.begin_nested():
            conn.execute(insert(league_cup_matches).values(
                match_id=match_id, cup_id=cup_id, tie=tie, game=game, home=home, away=away))
    except IntegrityError:
        raise AlreadyExists("that game of the tie has its match already") from None
    mac_new(conn, "league_cup_matches", league_cup_matches.c.match_id == match_id)


def cup_match_of(conn: Connection, match_id: int) -> Row | None:
    """The cup, tie and game a match is, if it is one."""
    return conn.execute(select(league_cup_matches)
                        .where(league_cup_matches.c.match_id == match_id)).first()


def cup_match_rows(conn: Connection, cup_id: int) -> list[Row]:
    """The cup's rows of league_cup_matches, whole (their MACs checked by the service)."""
    return conn.execute(select(league_cup_matches).where(league_cup_matches.c.cup_id == cup_id)
                        .order_by(league_cup_matches.c.match_id)).all()


def cup_games(conn: Connection, cup_id: int) -> list[Row]:
    """Every match of the cup's ties with its status and winner (a side, or None): (tie, game,
    match_id, home, away, status, winner), by tie and game."""
    cm = league_cup_matches
    return conn.execute(
        select(cm.c.tie, cm.c.game, cm.c.match_id, cm.c.home, cm.c.away, matches.c.status,
               matches.c.winner)
        .join(matches, matches.c.id == cm.c.match_id)
        .where(cm.c.cup_id == cup_id)
        .order_by(cm.c.tie, cm.c.game)).all()


def insert_cup_award(conn: Connection, cup_id: int, values: dict[str, Any]) -> int:
    """A tie decided without a match (tie, kind, home, away, conceded_by, reason, recorded_at,
    recorded_by, token_id), its MAC made at once (it covers the id given)."""
    made = conn.execute(insert(league_cup_awards).values(cup_id=cup_id, **values)
                        ).inserted_primary_key[0]
    mac_new(conn, "league_cup_awards", league_cup_awards.c.id == made)
    return made


def cup_awards(conn: Connection, cup_id: int) -> list[Row]:
    """The cup's ties decided without a match, whole (their MACs checked by the service), in
    the order they were recorded."""
    return conn.execute(select(league_cup_awards).where(league_cup_awards.c.cup_id == cup_id)
                        .order_by(league_cup_awards.c.id)).all()
