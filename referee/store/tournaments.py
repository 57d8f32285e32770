"""Tournaments, their entrants, rounds and matches (migration 0007), and the director's
constraints (0008; docs/tournaments.md).

A tournament's matches are ordinary matches (``matches``, recorded as any other); what is kept
here is which round and table each was made for. What a round's results add to the event
standing is read from the matches' standing rows (:func:`results`), so a ruling that changes a
match changes the event standing at once, as it changes the club's.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Connection, Row, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from .errors import AlreadyExists
from .schema import (
    matches,
    players,
    standing_rows,
    tournament_constraints,
    tournament_entrants,
    tournament_matches,
    tournament_rounds,
    tournaments,
)


def insert_tournament(conn: Connection, club_id: int, values: dict[str, Any],
                      created_at: dt.datetime) -> int:
    """A new tournament (status ``open``); AlreadyExists for a slug the club has already."""
    # A savepoint: the caller's transaction may have registered players already.
    try:
        with conn.begin_nested():
            result = conn.execute(insert(tournaments).values(
                club_id=club_id, status="open", created_at=created_at, **values))
    except IntegrityError:
        raise AlreadyExists(f"a tournament {values['slug']!r} exists already") from None
    return result.inserted_primary_key[0]


def tournament_row(conn: Connection, club_id: int, slug: str, *, for_update: bool = False) -> Row | None:
    query = select(tournaments).where(tournaments.c.club_id == club_id, tournaments.c.slug == slug)
    if for_update and conn.dialect.name == "postgresql":
        query = query.with_for_update()  # pairings of one tournament queue (SQLite's writers do)
    return conn.execute(query).first()


def list_tournaments(conn: Connection, club_id: int) -> list[Row]:
    """The club's tournaments, newest first."""
    return conn.execute(select(tournaments).where(tournaments.c.club_id == club_id)
                        .order_by(tournaments.c.id.desc())).all()


def set_status(conn: Connection, tournament_id: int, status: str) -> None:
    conn.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                 .values(status=status))


# ------------------------------------------------------------------ entrants


def entrant_rows(conn: Connection, tournament_id: int) -> list[Row]:
    """Every entrant, withdrawn ones too, in order of entry, with the players' names."""
    p, q = players.alias("p"), players.alias("q")
    e = tournament_entrants
    query = (select(e, p.c.name.label("player_name"), q.c.name.label("partner_name"))
             .join(p, p.c.id == e.c.player_id).outerjoin(q, q.c.id == e.c.partner_id)
             .where(e.c.tournament_id == tournament_id).order_by(e.c.number))
    return conn.execute(query).all()


def insert_entrant(conn: Connection, tournament_id: int, player_id: int, partner_id: int | None,
                   entered: int) -> int:
    """A new entrant, numbered after the last; returns its number."""
    number = conn.execute(select(func.coalesce(func.max(tournament_entrants.c.number), 0) + 1)
                          .where(tournament_entrants.c.tournament_id == tournament_id)).scalar_one()
    conn.execute(insert(tournament_entrants).values(
        tournament_id=tournament_id, number=number, player_id=player_id, partner_id=partner_id,
        entered=entered))
    return number


def set_withdrawn(conn: Connection, tournament_id: int, number: int, from_round: int | None) -> None:
    conn.execute(update(tournament_entrants)
                 .where(tournament_entrants.c.tournament_id == tournament_id,
                        tournament_entrants.c.number == number)
                 .values(withdrawn=from_round))


# ------------------------------------------------------------------ rounds and their matches


def round_rows(conn: Connection, tournament_id: int) -> list[Row]:
    return conn.execute(select(tournament_rounds)
                        .where(tournament_rounds.c.tournament_id == tournament_id)
                        .order_by(tournament_rounds.c.number)).all()


def save_round(conn: Connection, tournament_id: int, number: int, pairing: dict[str, Any],
               paired_at: dt.datetime) -> int:
    """Keep round ``number``'s pairing: a new round (version 1), or a re-pairing of it (the
    next version, its matches so far retired). Returns the version."""
    r = tournament_rounds
    version = conn.execute(select(r.c.version).where(r.c.tournament_id == tournament_id,
                                                     r.c.number == number)).scalar()
    if version is None:
        conn.execute(insert(r).values(tournament_id=tournament_id, number=number,
                                      status="paired", pairing=pairing, version=1,
                                      paired_at=paired_at))
        return 1
    conn.execute(update(r).where(r.c.tournament_id == tournament_id, r.c.number == number)
                 .values(status="paired", pairing=pairing, version=version + 1,
                         paired_at=paired_at))
    conn.execute(update(tournament_matches)
                 .where(tournament_matches.c.tournament_id == tournament_id,
                        tournament_matches.c.round == number)
                 .values(retired=True))
    return version + 1


def set_pairing(conn: Connection, tournament_id: int, number: int, pairing: dict[str, Any]) -> None:
    """Change round ``number``'s kept pairing in place (a late entry's bye added), its version
    and matches unchanged."""
    conn.execute(update(tournament_rounds)
                 .where(tournament_rounds.c.tournament_id == tournament_id,
                        tournament_rounds.c.number == number)
                 .values(pairing=pairing))


def set_round_status(conn: Connection, tournament_id: int, number: int, status: str) -> None:
    conn.execute(update(tournament_rounds)
                 .where(tournament_rounds.c.tournament_id == tournament_id,
                        tournament_rounds.c.number == number)
                 .values(status=status))


def link_match(conn: Connection, match_id: int, tournament_id: int, number: int, table: int,
               version: int) -> bool:
    """Link a match made for ``version`` of the round's pairing; retired at once (False) when
    the round was re-paired meanwhile, so a round never holds two pairings' matches."""
    r = tournament_rounds
    current = conn.execute(select(r.c.version).where(r.c.tournament_id == tournament_id,
                                                     r.c.number == number)).scalar()
    conn.execute(insert(tournament_matches).values(
        match_id=match_id, tournament_id=tournament_id, round=number, table_number=table,
        version=version, retired=current != version))
    return current == version


def round_matches(conn: Connection, tournament_id: int, number: int | None = None) -> list[Row]:
    """The tournament's current (not retired) matches, of round ``number`` or of every round,
    by round and table: match_id, round, table_number, version, and the match's status,
    last_seq, totals, winner and players."""
    t = tournament_matches
    query = (select(t.c.match_id, t.c.round, t.c.table_number, t.c.version, matches.c.status,
                    matches.c.last_seq, matches.c.totals, matches.c.winner, matches.c.players)
             .join(matches, matches.c.id == t.c.match_id)
             .where(t.c.tournament_id == tournament_id, t.c.retired.is_(False))
             .order_by(t.c.round, t.c.table_number))
    if number is not None:
        query = query.where(t.c.round == number)
    return conn.execute(query).all()


def results(conn: Connection, tournament_id: int) -> list[Row]:
    """What each finished current match of the tournament adds to the standings, a row per
    seat (its standing row): match_id, round, player_id, partner_id, side, won, lost,
    rounds_won, points_for, points_against, flagged."""
    t, s = tournament_matches, standing_rows
    query = (select(s.c.match_id, t.c.round, s.c.player_id, s.c.partner_id, s.c.side, s.c.won,
                    s.c.lost, s.c.rounds_won, s.c.points_for, s.c.points_against, s.c.flagged)
             .join(t, t.c.match_id == s.c.match_id)
             .where(t.c.tournament_id == tournament_id, t.c.retired.is_(False))
             .order_by(t.c.round, s.c.match_id, s.c.seat))
    return conn.execute(query).all()


def tournament_of_match(conn: Connection, match_id: int) -> Row | None:
    """The tournament slug and name, round and table a (current) match was made for, if any."""
    t = tournament_matches
    return conn.execute(select(tournaments.c.slug, tournaments.c.name, t.c.round, t.c.table_number)
                        .join(tournaments, tournaments.c.id == t.c.tournament_id)
                        .where(t.c.match_id == match_id, t.c.retired.is_(False))).first()


# ------------------------------------------------------------------ the director's constraints


def constraint_rows(conn: Connection, tournament_id: int) -> list[Row]:
    """The tournament's constraints, in the order they were made."""
    c = tournament_constraints
    return conn.execute(select(c).where(c.c.tournament_id == tournament_id).order_by(c.c.id)).all()


def insert_constraint(conn: Connection, tournament_id: int, values: dict[str, Any],
                      created_at: dt.datetime) -> int:
    result = conn.execute(insert(tournament_constraints).values(
        tournament_id=tournament_id, created_at=created_at, **values))
    return result.inserted_primary_key[0]


def delete_constraint(conn: Connection, tournament_id: int, constraint_id: int) -> bool:
    """Lift a constraint; False when the tournament has none of that id."""
    c = tournament_constraints
    return conn.execute(delete(c).where(c.c.tournament_id == tournament_id,
                                        c.c.id == constraint_id)).rowcount == 1
