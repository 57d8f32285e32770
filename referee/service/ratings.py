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
(an append, an import, a rebuild) does it in its own unit of work (:func:`record_standing`; a
rebuild :func:`write_standing`, then the ratings once): a match that finishes is rated then,
and a ruling that changes a finished match's result (or un-finishes it) re-rates the club from
that match's place in the finishing order on (:func:`rerate`). When fewer than
:data:`INLINE_MATCHES` matches follow it, that happens before the append commits. A ruling on an
older match only marks the club's ratings stale from its place
(:func:`referee.store.standings.mark_stale`, a row a player) and, once it has committed, asks a
worker thread (:func:`request_catch_up`) to bring them up to date in transactions of
:data:`CHUNK_MATCHES` matches, in finishing order. Readers of standings and ratings wait for it
(:class:`RatingsStale`, :func:`wait_rated`), so none ever reads a rating the ruling made stale;
a reader never re-rates anything itself. Should the process that ruled stop before its worker
finished, the explicit job does it: :func:`catch_up_all` (``domino db catch-up``, and every
minute in ``domino serve``'s background, :mod:`.jobs`). The standing rows themselves (played,
won, points) always change in the ruling's transaction.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from functools import cache
from itertools import groupby
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine

from ..store.matches import seat_rows
from ..store.standings import (
    Change,
    MatchStanding,
    club_ids_with_rows,
    lock_club,
    mark_stale,
    nth_place,
    place_before,
    rated_from,
    rated_through,
    rating_inputs,
    ratings_before,
    replace_ratings,
    repoint_player,
    write_match,
)
from .errors import N_
from .rowcheck import require_rows
from .uow import PRIMARY, READ, WRITE, Kind, NotReady, UnitOfWork, Units

if TYPE_CHECKING:  # a type here: the standings' reading replays no match
    from ..core.match import Match

MU = 25.0
SIGMA = 25.0 / 3
BETA = 25.0 / 6
KAPPA = 0.0001
TAU = 25.0 / 300
Z = 3.0  # rating = mu - Z * sigma
PROVISIONAL_SIGMA = 7.0
# A ruling re-rates at once when fewer matches than this follow it (some 0.1 s on SQLite);
# else a worker does, CHUNK_MATCHES a transaction, so that no transaction holds the club's
# lock (or SQLite's write lock) for long.
INLINE_MATCHES = 1000
CHUNK_MATCHES = 2000
# How long a reader waits for the ratings to be brought up to date before it reads them as
# they stand (a worker that cannot finish: the database went away, say).
READ_WAIT_S = 120.0

log = logging.getLogger("domino.ratings")



@cache
def model() -> Any:
    """The rating model, built when a match is first rated: openskill's import and set-up cost
    every command that only reads (a listing, say) some 10-15 ms of start-up otherwise."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, kappa=KAPPA, tau=TAU, limit_sigma=False,
                        balance=False)


PARAMETERS = {"model": "openskill PlackettLuce (Weng-Lin)", "mu": MU, "sigma": SIGMA,
              "beta": BETA, "kappa": KAPPA, "tau": TAU, "rating": "mu - 3 * sigma",
              "provisional_sigma": PROVISIONAL_SIGMA}


def ordinal(mu: float, sigma: float) -> float:
    return mu - Z * sigma


# The rating, the one number every page, the API, the CSV and the CLI show: the ordinal on a
# scale clubs know, a newcomer at 1000 and each unit of mu - 3 sigma worth 40 points
# (docs/standings.md, "The rating").
POINTS_BASE, POINTS_SCALE = 1000, 40


def points(ordinal_value: float) -> int:
    """An ordinal (mu - 3 sigma) as the rating people read: 1000 + 40 x ordinal, rounded."""
    return round(POINTS_BASE + POINTS_SCALE * ordinal_value)


def rating_points(mu: float, sigma: float) -> int:
    """The rating of a player of ``mu`` and ``sigma``."""
    return points(ordinal(mu, sigma))


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def write_standing(conn: Connection, match_id: int, match: Match, violations: int,
                   finished_at: dt.datetime, *, was_finished: bool | None = None,
                   seats_checked: bool = True) -> Change | None:
    """Bring the match's standing rows up to ``match`` (finished or not), leaving the ratings
    (a rebuild rates every club once, after every match); None when nothing changed. A finished
    match's seats are checked first: no standing row follows from seats reassigned behind the
    service's back (docs/verify.md); not by the upgrade's fill (``seats_checked`` False), which
    runs before the seal can MAC the rows written before the MACs."""
    if match.finished and seats_checked:
        require_rows(conn, "match_players", seat_rows(conn, match_id),
                     N_("match %(match)s's seats"), match=match_id)
    return write_match(conn, match_id, MatchStanding.of(match, violations), finished_at,
                       was_finished=was_finished)


def record_standing(uow: UnitOfWork, match_id: int, match: Match, violations: int,
                    finished_at: dt.datetime, *, was_finished: bool | None = None) -> None:
    """Bring the match's standing rows up to ``match`` (finished or not), and the club's
    ratings with them (:func:`rerate`), in the writing unit of work ``uow``."""
    change = write_standing(uow.conn, match_id, match, violations, finished_at,
                            was_finished=was_finished)
    if change is not None and change.rerate_from is not None:
        rerate(uow, change.club_id, change.rerate_from)


def rerate(uow: UnitOfWork, club_id: int, from_seq: int) -> None:
    """The club's ratings from place ``from_seq`` on are no longer right (a match there
    finished, changed its result or un-finished), in the writing unit of work ``uow``: re-rated
    now when few matches follow (a match that has just finished: that one), else marked stale
    from there, and the worker asked for once ``uow`` has committed; when they are stale
    already from an earlier place, the worker's pass covers this one too."""
    conn = uow.conn
    lock_club(conn, club_id)
    last, rated = rated_through(conn, club_id)
    # Stale before this place already (the current rows are rated through less than the
    # place before it): the pending pass starts earlier and goes on to the end.
    before = place_before(conn, club_id, from_seq)
    if before is None or (rated is not None and rated >= before):
        if last is None or last - from_seq < INLINE_MATCHES:
            rate_from(conn, club_id, from_seq)  # from here to the end: whatever was stale too
            return
        mark_stale(conn, club_id, from_seq)
    engine = uow.engine
    uow.after_commit(lambda: request_catch_up(engine, club_id))


def stale_place(last: int | None, rated: int | None) -> int | None:
    """From :func:`rated_through`: the first place whose ratings are stale, None if none."""
    if last is None or (rated is not None and rated >= last):
        return None
    return (rated or 0) + 1


def rate_from(conn: Connection, club_id: int, from_seq: int, matches: int | None = None) -> int:
    """Compute the club's ratings again from place ``from_seq`` of its finishing order on
    (1: all of them), from the ratings as they stood before it; with ``matches``, only that
    many matches (a worker's step); returns the matches rated. The usual case, a match that
    has just finished last, rates that one match."""
    lock_club(conn, club_id)
    to_seq = nth_place(conn, club_id, from_seq, matches) if matches is not None else None
    inputs = rating_inputs(conn, club_id, from_seq, to_seq)
    affected = rated_from(conn, club_id, from_seq, to_seq) | {row.player_id for row in inputs}
    before = ratings_before(conn, club_id, affected, from_seq)
    state = {pid: (mu, sigma, games) for pid, (mu, sigma, games, _) in before.items()}
    last_seq = {pid: seq for pid, (_, _, _, seq) in before.items()}
    history, rated = rate(inputs, state, last_seq)
    now: dict[int, tuple[float, float, int, int] | None] = {
        pid: (*state[pid], last_seq[pid]) if pid in state else None for pid in affected}
    replace_ratings(conn, club_id, from_seq, history, now, to_seq)
    return rated


def rate(inputs: list[Any], state: dict[int, tuple[float, float, int]],
         last_seq: dict[int, int]) -> tuple[list[dict[str, Any]], int]:
    """Rate ``inputs`` (standing rows: match_id, finish_seq, player_id, side, place, in
    finishing order) from ``state`` (player -> mu, sigma, games; ``last_seq``: his last place),
    both brought up to date in place; returns the rating history rows and the matches rated.
    No I/O: :func:`rate_from` writes what it gives, the audit compares it."""
    history: list[dict[str, Any]] = []
    rated = 0
    rating_model = model()
    for (match_id, seq), seats in groupby(inputs, key=lambda r: (r.match_id, r.finish_seq)):
        sides: dict[int, list[Any]] = {}
        for seat in seats:
            sides.setdefault(seat.side, []).append(seat)
        order = sorted(sides)
        teams = [[rating_model.create_rating(list(state.get(s.player_id, (MU, SIGMA, 0))[:2]))
                  for s in sides[side]] for side in order]
        places = [sides[side][0].place for side in order]
        if len(teams) < 2:  # nothing to rate against
            continue
        new = rating_model.rate(teams, ranks=places)
        rated += 1
        for side, team in zip(order, new):
            for seat, rating in zip(sides[side], team):
                games = state.get(seat.player_id, (MU, SIGMA, 0))[2] + 1
                state[seat.player_id] = (rating.mu, rating.sigma, games)
                last_seq[seat.player_id] = seq
                history.append({"player_id": seat.player_id, "match_id": match_id,
                                "finish_seq": seq, "mu": rating.mu, "sigma": rating.sigma,
                                "games": games})
    return history, rated


def catch_up(engine: Engine, club_id: int) -> int:
    """Bring the club's stale ratings up to date (:func:`rerate` marked them), in finishing
    order from the first stale place, :data:`CHUNK_MATCHES` matches a transaction; each step
    reads where the ratings stand again, so a ruling on an earlier match meanwhile takes the
    pass back to it. Returns the matches rated."""
    rated = 0
    previous = None
    units = Units(engine)
    while True:
        with units.open(WRITE) as uow:
            lock_club(uow.conn, club_id)  # first: what a ruling marked meanwhile is committed
            place = stale_place(*rated_through(uow.conn, club_id))
            if place is None:
                return rated
            if place == previous:  # no progress: nothing here can be rated (never so far)
                log.error("ratings of club %s stuck at place %s", club_id, place)
                return rated
            rated += rate_from(uow.conn, club_id, place, CHUNK_MATCHES)
            previous = place


def catch_up_all(engine: Engine) -> int:
    """The explicit job: every club's stale ratings brought up to date (:func:`catch_up`),
    whoever marked them and whether or not its worker ran; the matches rated."""
    with Units(engine).open(PRIMARY) as uow:
        stale = [club_id for club_id in club_ids_with_rows(uow.conn)
                 if is_stale(uow.conn, club_id)]
    return sum(catch_up(engine, club_id) for club_id in stale)


_workers = threading.Lock()
_wanted: set[tuple[Engine, int]] = set()
_running: set[tuple[Engine, int]] = set()


def request_catch_up(engine: Engine, club_id: int) -> None:
    """Have a worker thread of this process bring the club's ratings up to date (one a club:
    asked again while it runs, it makes one more pass): asked once the ruling that made them
    stale has committed (:func:`rerate`). Not a daemon: a command that ruled exits once the
    ratings are right."""
    key = (engine, club_id)
    with _workers:
        _wanted.add(key)
        if key in _running:
            return
        _running.add(key)
    threading.Thread(target=_work, args=key, name=f"domino-ratings-{club_id}").start()


def _work(engine: Engine, club_id: int) -> None:
    key = (engine, club_id)
    while True:
        with _workers:
            if key not in _wanted:
                _running.discard(key)
                return
            _wanted.discard(key)
        try:
            catch_up(engine, club_id)
        except Exception:  # a reader that finds them stale asks again
            log.exception("bringing the ratings of club %s up to date failed", club_id)


def wait_rated(units: Units, club_id: int, timeout: float | None = None,
               kind: Kind = READ) -> bool:
    """Wait until the club's ratings are up to date, as a reader of ``kind`` sees them (on a
    replica, once the primary's worker's pass has reached it); False if they are not after
    ``timeout`` seconds (:data:`READ_WAIT_S`). Each look is two index seeks in a read-only
    unit of work of its own: a reader writes nothing, and asks no worker (the ruling's
    process does, and the explicit job for a process that stopped)."""
    deadline = time.monotonic() + (READ_WAIT_S if timeout is None else timeout)
    while True:
        with units.open(kind) as uow:
            if not is_stale(uow.conn, club_id):
                return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


class RatingsStale(NotReady):
    """The club's ratings are being brought up to date (a ruling on an old match): a reader's
    entry waits for the worker, outside its unit of work, then reads again (:class:`NotReady`)."""

    def __init__(self, club_id: int) -> None:
        super().__init__(club_id)
        self.club_id = club_id

    def wait(self, units: Units, kind: Kind) -> None:
        wait_rated(units, self.club_id, kind=kind if kind in (READ, PRIMARY) else PRIMARY)


def is_stale(conn: Connection, club_id: int) -> bool:
    return stale_place(*rated_through(conn, club_id)) is not None


def after_merge(uow: UnitOfWork, club_id: int, source: int, into: int,
                match_ids: list[int]) -> None:
    """A players merge hook (``svc.players.merge_hooks``), in the merge's unit of work: the
    standing rows of the moved seats name ``into``, and the club is re-rated from the first of
    them in the finishing order (the two players' matches are one player's now)."""
    lock_club(uow.conn, club_id)
    first = repoint_player(uow.conn, club_id, source, into)
    if first is not None:
        rerate(uow, club_id, first)


def rerate_all(engine: Engine) -> int:
    """Every club's ratings computed again from its first finished match (a rebuild), a
    transaction a club; returns the matches rated."""
    units = Units(engine)
    with units.open(PRIMARY) as uow:
        club_ids = club_ids_with_rows(uow.conn)
    rated = 0
    for club_id in club_ids:
        with units.open(WRITE) as uow:
            rated += rate_from(uow.conn, club_id, 1)
    return rated
