"""Player ratings: Weng-Lin (OpenSkill) Plackett-Luce over every finished match of a club, in
the order the matches finished (docs/standings.md has the model and why).

- Each side of a match is a team of its players (one, or two partners); the side that won is
  first, every other side second; a match with no winner is a tie of all its sides. A
  partnership match moves both partners, each by his own uncertainty.
- The model is openskill's ``PlackettLuce`` with its published defaults: ``mu`` 25,
  ``sigma`` 25/3, ``beta`` 25/6, ``kappa`` 0.0001, ``tau`` 25/300 (the uncertainty added before
  each match, so that a rating can still move after many), no sigma limit, no balance.
- A player's ``rating`` is the ordinal ``mu - 3 * sigma`` (a conservative estimate: 0 for a
  newcomer, and it grows with play as sigma falls); ``rating_games`` is how many finished
  matches his rating is made of. He is ``provisional`` while sigma is above
  :data:`PROVISIONAL_SIGMA` (7.0: some 6 matches head to head, some 11 in partnerships).

Ratings are kept, not recomputed on reading: ``player_ratings`` holds each player's rating
after each of his matches, ``current_ratings`` the last. Whatever writes a match's standing rows
(an append, an import, a rebuild) calls :func:`record_standing` in its own transaction: a
match that finishes is rated then, and a ruling that changes a finished match's result (or
un-finishes it) re-rates the club from that match's place in the finishing order on, before
the append commits. Reading standings or ratings afterwards sees both at once.
"""

from __future__ import annotations

import datetime as dt
from itertools import groupby
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, Engine

from ..core.match import Match
from ..store import db
from ..store.standings import (
    Change, MatchStanding, club_ids_with_rows, lock_club, rated_from, rating_inputs,
    ratings_before, replace_ratings, repoint_player, write_match,
)

MU = 25.0
SIGMA = 25.0 / 3
BETA = 25.0 / 6
KAPPA = 0.0001
TAU = 25.0 / 300
Z = 3.0  # rating = mu - Z * sigma
PROVISIONAL_SIGMA = 7.0

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, kappa=KAPPA, tau=TAU, limit_sigma=False,
                     balance=False)

PARAMETERS = {"model": "openskill PlackettLuce (Weng-Lin)", "mu": MU, "sigma": SIGMA,
              "beta": BETA, "kappa": KAPPA, "tau": TAU, "rating": "mu - 3 * sigma",
              "provisional_sigma": PROVISIONAL_SIGMA}


def ordinal(mu: float, sigma: float) -> float:
    return mu - Z * sigma


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def record_standing(conn: Connection, match_id: int, match: Match, violations: int,
                    finished_at: dt.datetime, *, was_finished: bool | None = None,
                    rate: bool = True) -> Change | None:
    """Bring the match's standing rows up to ``match`` (finished or not) and, with ``rate``,
    the club's ratings with them; in the caller's transaction. None when nothing changed."""
    change = write_match(conn, match_id, MatchStanding.of(match, violations), finished_at,
                         was_finished=was_finished)
    if rate and change is not None and change.rerate_from is not None:
        rate_from(conn, change.club_id, change.rerate_from)
    return change


def rate_from(conn: Connection, club_id: int, from_seq: int) -> int:
    """Compute the club's ratings again from place ``from_seq`` of its finishing order on
    (1: all of them), from the ratings as they stood before it; returns the matches rated.
    The usual case, a match that has just finished last, rates that one match."""
    lock_club(conn, club_id)
    inputs = rating_inputs(conn, club_id, from_seq)
    affected = rated_from(conn, club_id, from_seq) | {row.player_id for row in inputs}
    before = ratings_before(conn, club_id, affected, from_seq)
    state = {pid: (mu, sigma, games) for pid, (mu, sigma, games, _) in before.items()}
    last_seq = {pid: seq for pid, (_, _, _, seq) in before.items()}
    history: list[dict[str, Any]] = []
    rated = 0
    for (match_id, seq), seats in groupby(inputs, key=lambda r: (r.match_id, r.finish_seq)):
        sides: dict[int, list[Any]] = {}
        for seat in seats:
            sides.setdefault(seat.side, []).append(seat)
        order = sorted(sides)
        teams = [[MODEL.create_rating(list(state.get(s.player_id, (MU, SIGMA, 0))[:2]))
                  for s in sides[side]] for side in order]
        places = [sides[side][0].place for side in order]
        if len(teams) < 2:  # nothing to rate against
            continue
        new = MODEL.rate(teams, ranks=places)
        rated += 1
        for side, team in zip(order, new):
            for seat, rating in zip(sides[side], team):
                games = state.get(seat.player_id, (MU, SIGMA, 0))[2] + 1
                state[seat.player_id] = (rating.mu, rating.sigma, games)
                last_seq[seat.player_id] = seq
                history.append({"player_id": seat.player_id, "match_id": match_id,
                                "finish_seq": seq, "mu": rating.mu, "sigma": rating.sigma,
                                "games": games})
    now: dict[int, tuple[float, float, int, int] | None] = {
        pid: (*state[pid], last_seq[pid]) if pid in state else None for pid in affected}
    replace_ratings(conn, club_id, from_seq, history, now)
    return rated


def after_merge(conn: Connection, club_id: int, source: int, into: int,
                match_ids: list[int]) -> None:
    """A players merge hook (``svc.players.merge_hooks``), in the merge's transaction: the
    standing rows of the moved seats name ``into``, and the club is re-rated from the first of
    them in the finishing order (the two players' matches are one player's now)."""
    lock_club(conn, club_id)
    first = repoint_player(conn, club_id, source, into)
    if first is not None:
        rate_from(conn, club_id, first)


def rerate_all(engine: Engine) -> int:
    """Every club's ratings computed again from its first finished match (a rebuild), a
    transaction a club; returns the matches rated."""
    with db.reading(engine) as conn:
        club_ids = club_ids_with_rows(conn)
    rated = 0
    for club_id in club_ids:
        with db.writing(engine) as conn:
            rated += rate_from(conn, club_id, 1)
    return rated
