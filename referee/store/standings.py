"""Standings and ratings as projections (docs/standings.md).

A finished match adds a row per seat to ``standing_rows``: who sat there and with whom, the
match's day and event, won or lost, rounds won, points for and against, whether a dispute is
open, and its place in the club's finishing order. The rows are written in the same
transaction as the append (or import, or rebuild) that changes what the match adds, and only
then: :func:`write_match` compares them with what is stored and leaves equal rows alone. A
club's standings are then one aggregation over its rows (:func:`aggregate`), never a replay.

Ratings are kept beside them (``player_ratings``: each player's rating after each of his
matches; ``current_ratings``: his last one). The arithmetic is the service's
(referee.service.ratings, which holds the rating library); this module reads and writes the
rows it needs.
"""

from __future__ import annotations

import calendar
import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from sqlalchemy import (
    Connection,
    Row,
    and_,
    bindparam,
    delete,
    func,
    insert,
    literal,
    select,
    text,
    tuple_,
    union_all,
    update,
)

from ..core.vocab import DEFAULT_TIE_BREAKERS, STANDING_GROUPS, TIE_BREAKERS
from .codec import dump_json, load_json
from .dialects import postgresql, sqlite
from .schema import (
    current_ratings,
    match_players,
    matches,
    player_ratings,
    players,
    standing_months,
    standing_rows,
)

if TYPE_CHECKING:  # the rules core's match is a type here: importing it costs every command's start
    from ..core.match import Match

# The tie-breakers a club may set (TIE_BREAKERS: their order and meaning), and the groups.
GROUPS = STANDING_GROUPS

_ROW_VALUES = ("club_id", "player_id", "partner_id", "side", "played_on", "event", "won",
               "lost", "rounds_won", "points_for", "points_against", "flagged", "place")


@dataclass(frozen=True)
class SideResult:
    won: int
    lost: int
    rounds_won: int
    points_for: int
    points_against: int
    place: int  # for the rating: 0 for the winner (every side 0 when there is none), else 1


@dataclass(frozen=True)
class MatchStanding:
    """What a finished match adds to the standings, side by side."""

    sides: tuple[SideResult, ...]
    flagged: bool

    @classmethod
    def of(cls, match: Match, violations: int) -> "MatchStanding | None":
        """None for a match that is not finished, or was abandoned: it adds nothing."""
        if not match.finished or match.abandoned is not None:
            return None
        totals = list(match.totals)
        winner = match.winner
        rounds = [0] * len(totals)
        for result in match.results():
            if result.winner is not None:
                rounds[result.winner] += 1
        everyone = sum(totals)
        return cls(tuple(
            SideResult(won=int(winner == side), lost=int(winner is not None and winner != side),
                       rounds_won=rounds[side], points_for=total,
                       points_against=everyone - total,
                       place=0 if winner is None or winner == side else 1)
            for side, total in enumerate(totals)), violations > 0)


@dataclass(frozen=True)
class Change:
    """What :func:`write_match` changed: the club, and the place in its finishing order from
    which ratings must be computed again (None: the ratings stand, e.g. only a flag moved)."""

    club_id: int
    rerate_from: int | None


# ------------------------------------------------------------------ writing


def lock_club(conn: Connection, club_id: int) -> None:
    """Serialise the club's standings writers (PostgreSQL: a transaction advisory lock; SQLite
    writers queue already), so that two matches finishing at once get distinct places in the
    finishing order and rate against each other's results, never over them."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": 0x5354_0000_0000 + club_id})


_MATCH_SEATS = (select(matches.c.club_id, matches.c.played_on, matches.c.header,
                       match_players.c.seat, match_players.c.player_id, match_players.c.side)
                .join(match_players, match_players.c.match_id == matches.c.id)
                .order_by(match_players.c.seat))


def match_seats(conn: Connection, match_id: int) -> list[Any]:
    """The match's seats with its club, day and header: what its standing rows are made of."""
    return list(conn.execute(_MATCH_SEATS.where(matches.c.id == match_id)).all())


def write_match(conn: Connection, match_id: int, standing: MatchStanding | None,
                finished_at: dt.datetime, *, was_finished: bool | None = None) -> Change | None:
    """Make the match's standing rows say ``standing`` (None: not finished, no rows); None
    when they said it already, else what changed. ``was_finished=False`` (the caller knows
    there were no rows) saves the read of the old ones."""
    old = [] if was_finished is False else conn.execute(
        select(standing_rows).where(standing_rows.c.match_id == match_id)
        .order_by(standing_rows.c.seat)).all()
    if standing is None and not old:
        return None
    seats = match_seats(conn, match_id)
    club_id = seats[0].club_id
    new = standing_of(match_id, seats, standing) if standing is not None else []
    if [_comparable(r) for r in old] == [_comparable(r) for r in new]:
        return None
    lock_club(conn, club_id)
    _add_months(conn, club_id, [*((r._mapping, -1) for r in old), *((r, 1) for r in new)])
    if old:
        seq, at = old[0].finish_seq, old[0].finished_at  # its place stands while it is finished
        conn.execute(delete(standing_rows).where(standing_rows.c.match_id == match_id))
    else:
        seq = conn.execute(select(func.coalesce(func.max(standing_rows.c.finish_seq), 0) + 1)
                           .where(standing_rows.c.club_id == club_id)).scalar_one()
        at = finished_at
    if new:
        conn.execute(insert(standing_rows),
                     [{**row, "finish_seq": seq, "finished_at": at} for row in new])
    places = lambda rows: [(r["side"], r["place"]) if isinstance(r, dict)  # noqa: E731
                           else (r.side, r.place) for r in rows]
    rerate = bool(old) != bool(new) or places(old) != places(new)
    return Change(club_id, seq if rerate else None)


# What a standing adds up, match by match and month by month (the monthly sums' columns, the
# service's rows before their derived columns): written once, read by the service too.
SUMS = ("played", "won", "lost", "rounds_won", "points_for", "points_against", "flagged")


def _add_months(conn: Connection, club_id: int, rows: Iterable[tuple[Any, int]]) -> None:
    """Add each row (times its sign: -1 takes an old row out) to its player's month."""
    _upsert_months(conn, club_id, month_deltas(rows))


def month_deltas(rows: Iterable[tuple[Any, int]]) -> dict[tuple[int, int, str, str], list[int]]:
    """Each row (a mapping, times its sign) summed into (player, partner or 0, month, event):
    what the monthly sums change by (the audit's recomputation: every row, sign 1)."""
    deltas: dict[tuple[int, int, str, str], list[int]] = {}
    for row, sign in rows:
        keys = [(row["player_id"], 0)]
        if row["partner_id"] is not None and row["partner_id"] > row["player_id"]:
            keys.append((row["player_id"], row["partner_id"]))  # the partnership's
        for pid, partner in keys:
            key = (pid, partner, row["played_on"][:7], row["event"] or "")
            sums = deltas.setdefault(key, [0] * len(SUMS))
            for i, value in enumerate((1, row["won"], row["lost"], row["rounds_won"],
                                       row["points_for"], row["points_against"],
                                       row["flagged"])):
                sums[i] += sign * value
    return deltas


def _upsert_months(conn: Connection, club_id: int,
                   deltas: dict[tuple[int, int, str, str], list[int]]) -> None:
    """Add ``deltas`` ((player, partner or 0, month, event) -> sums) to the months."""
    changed = [{"club_id": club_id, "player_id": pid, "partner_id": partner, "month": month,
                "event": event, **dict(zip(SUMS, sums))}
               for (pid, partner, month, event), sums in deltas.items() if any(sums)]
    if changed:
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        statement = dialect.insert(standing_months)
        conn.execute(statement.on_conflict_do_update(
            index_elements=["club_id", "player_id", "partner_id", "month", "event"],
            set_={c: standing_months.c[c] + statement.excluded[c] for c in SUMS}), changed)


def rebuild_months(conn: Connection, club_id: int) -> None:
    """The club's monthly sums computed again from its rows (after a bulk load)."""
    r = standing_rows
    conn.execute(delete(standing_months).where(standing_months.c.club_id == club_id))
    month = func.substr(r.c.played_on, 1, 7)
    event = func.coalesce(r.c.event, "")
    sums = (func.count(), func.sum(r.c.won), func.sum(r.c.lost), func.sum(r.c.rounds_won),
            func.sum(r.c.points_for), func.sum(r.c.points_against), func.sum(r.c.flagged))
    columns = ["club_id", "player_id", "partner_id", "month", "event", *SUMS]
    conn.execute(insert(standing_months).from_select(columns, select(
        r.c.club_id, r.c.player_id, literal(0), month, event, *sums)
        .where(r.c.club_id == club_id).group_by(r.c.club_id, r.c.player_id, month, event)))
    conn.execute(insert(standing_months).from_select(columns, select(
        r.c.club_id, r.c.player_id, r.c.partner_id, month, event, *sums)
        .where(r.c.club_id == club_id, r.c.partner_id > r.c.player_id)
        .group_by(r.c.club_id, r.c.player_id, r.c.partner_id, month, event)))


def standing_of(match_id: int, seats: Sequence[Any],
                standing: MatchStanding) -> list[dict[str, Any]]:
    """The match's standing rows (but their place in the finishing order), from its seats
    (:func:`match_seats`)."""
    header = load_json(seats[0].header)
    event = header.get("event") if isinstance(header, dict) else None
    by_side: dict[int, list[int]] = {}
    for seat in seats:
        by_side.setdefault(seat.side, []).append(seat.player_id)
    rows = []
    for seat in seats:
        side = standing.sides[seat.side]
        mates = [p for p in by_side[seat.side] if p != seat.player_id]
        rows.append({
            "match_id": match_id, "seat": seat.seat, "club_id": seat.club_id,
            "player_id": seat.player_id, "partner_id": mates[0] if len(mates) == 1 else None,
            "side": seat.side, "played_on": seat.played_on,
            "event": event_key(event), "won": side.won, "lost": side.lost,
            "rounds_won": side.rounds_won, "points_for": side.points_for,
            "points_against": side.points_against, "flagged": int(standing.flagged),
            "place": side.place})
    return rows


def _comparable(row: Any) -> tuple:
    get = row.get if isinstance(row, dict) else row._mapping.get
    return (get("seat"), *(get(c) for c in _ROW_VALUES))


EVENT_KEY_LENGTH = 200


def event_key(event: Any) -> str | None:
    """How an event is kept in standing_rows and standing_months: its JSON text (a header's
    event may be any JSON value, and JSON escapes what a PostgreSQL TEXT column refuses), or,
    past EVENT_KEY_LENGTH characters, ``#`` and the text's SHA-256 (an index entry has a size
    limit; no JSON text starts with ``#``). ``?event=X`` compares the key of the string X."""
    if event is None:
        return None
    text = dump_json(event)
    if len(text) > EVENT_KEY_LENGTH:
        return "#" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return text


def rows_of(conn: Connection, match_id: int) -> list[Any]:
    return conn.execute(select(standing_rows).where(standing_rows.c.match_id == match_id)
                        .order_by(standing_rows.c.seat)).all()


# ------------------------------------------------------------------ reading


def _filters(club_id: int, date_from: str | None, date_to: str | None,
             event: str | None, table: Any = standing_rows) -> list[Any]:
    conditions = [table.c.club_id == club_id]
    if date_from is not None:
        conditions.append(table.c.played_on >= date_from)
    if date_to is not None:
        conditions.append(table.c.played_on <= date_to)
    if event is not None:
        conditions.append(table.c.event == event_key(event))
    return conditions


def aggregate(conn: Connection, club_id: int, *, group: str = "players",
              date_from: str | None = None, date_to: str | None = None,
              event: str | None = None) -> list[dict[str, Any]]:
    """The club's standings before ranking, in one statement: per player (``key`` a player id)
    or per partnership (``key`` the two ids, lower first): played, won, lost, rounds_won,
    points_for, points_against, flagged (matches with an open dispute). The period's whole
    months are read from standing_months, its partial first and last months from
    standing_rows (docs/standings.md)."""
    pairs = group == "partnerships"
    rows = conn.execute(_sums_query(club_id, pairs, date_from, date_to, event)).all()
    if pairs:
        return [{"key": (row.player_id, row.partner_id), **_counts(row)} for row in rows]
    return [{"key": row.player_id, **_counts(row)} for row in rows]


def _sums_query(club_id: int, pairs: bool, date_from: str | None, date_to: str | None,
                event: str | None) -> Any:
    first, last = _whole_months(date_from, date_to)
    m, r = standing_months, standing_rows
    months = [m.c.club_id == club_id, m.c.partner_id > 0 if pairs else m.c.partner_id == 0]
    if event is not None:
        months.append(m.c.event == event_key(event))
    if first is not None:
        months.append(m.c.month >= first)
    if last is not None:
        months.append(m.c.month <= last)
    parts = []
    if first is None or last is None or first <= last:
        parts.append(select(m.c.player_id, m.c.partner_id, *(m.c[c] for c in SUMS))
                     .where(*months))
        ranges = []  # the partial months, each a range of days the by-day index finds
        if date_from is not None and date_from < first + "-01":
            ranges.append((date_from, first + "-00"))
        if date_to is not None and last + "-31" < date_to:
            ranges.append((last + "-32", date_to))
    else:
        ranges = [(date_from, date_to)]  # no whole month: the rows of the period
    for low, high in ranges:
        # Rows as they are (no GROUP BY here: it would steer SQLite to the player index).
        partner = r.c.partner_id if pairs else literal(0).label("partner_id")
        where = _filters(club_id, low, high, event)
        if pairs:  # each side of two holds a row per partner: the lower id's stands for it
            where.append(r.c.partner_id > r.c.player_id)
        parts.append(select(r.c.player_id, partner, literal(1).label("played"),
                            *(r.c[c] for c in SUMS[1:])).where(*where))
    both = union_all(*parts).subquery() if len(parts) > 1 else parts[0].subquery()
    keys = (both.c.player_id, both.c.partner_id) if pairs else (both.c.player_id,)
    return (select(*keys, *(func.sum(both.c[c]).label(c) for c in SUMS))
            .group_by(*keys))


def _whole_months(date_from: str | None, date_to: str | None) -> tuple[str | None, str | None]:
    """The first and last months (YYYY-MM) wholly inside the period (None: open)."""
    first = last = None
    if date_from is not None:
        day = dt.date.fromisoformat(date_from)
        first = f"{day.year:04d}-{day.month:02d}"
        if day.day != 1:
            first = _next_month(day)
    if date_to is not None:
        day = dt.date.fromisoformat(date_to)
        last = f"{day.year:04d}-{day.month:02d}"
        # not the month's last day (asked without a day after it: 9999-12-31 has none)
        if day.day != calendar.monthrange(day.year, day.month)[1]:
            last = _previous_month(day)
    return first, last


def _next_month(day: dt.date) -> str:
    """The month after ``day``'s, as text the months are compared in: after December 9999,
    "9999-13", after every month a date is in ("10000-01" sorts before "2026-04")."""
    if day.month == 12:
        return f"{day.year + 1:04d}-01" if day.year < dt.MAXYEAR else f"{day.year:04d}-13"
    return f"{day.year:04d}-{day.month + 1:02d}"


def _previous_month(day: dt.date) -> str:
    return f"{day.year - 1:04d}-12" if day.month == 1 else f"{day.year:04d}-{day.month - 1:02d}"


def _counts(row: Any) -> dict[str, int]:
    m = row._mapping
    return {k: int(m[k] or 0) for k in SUMS}


def head_to_head(conn: Connection, club_id: int, keys: Iterable[Any], *, group: str = "players",
                 date_from: str | None = None, date_to: str | None = None,
                 event: str | None = None) -> list[tuple[Any, int, Any]]:
    """(winner, match id, loser) for each match, within the same filters, that one of ``keys``
    (player ids, or partnerships' two ids) won with another of them on a losing side."""
    keys = list(dict.fromkeys(keys))
    a = standing_rows.alias("a")
    b = standing_rows.alias("b")
    where = [*_filters(club_id, date_from, date_to, event, a), a.c.won == 1, b.c.won == 0]
    if group == "players":
        where += [a.c.player_id.in_(keys), b.c.player_id.in_(keys)]
        columns = (a.c.player_id, a.c.match_id, b.c.player_id)
    else:
        where += [a.c.partner_id > a.c.player_id, b.c.partner_id > b.c.player_id,
                  tuple_(a.c.player_id, a.c.partner_id).in_(keys),
                  tuple_(b.c.player_id, b.c.partner_id).in_(keys)]
        columns = (a.c.player_id, a.c.partner_id, a.c.match_id, b.c.player_id, b.c.partner_id)
    query = (select(*columns).distinct()
             .select_from(a.join(b, and_(b.c.match_id == a.c.match_id, b.c.side != a.c.side)))
             .where(*where))
    rows = conn.execute(query).all()
    if group == "players":
        return [(row[0], row[1], row[2]) for row in rows]
    return [((row[0], row[1]), row[2], (row[3], row[4])) for row in rows]


def player_rows(conn: Connection, club_id: int) -> list[Row]:
    """The club's players, aliases too (every column: the service checks each row's MAC). A
    table names each by id and lists all but the aliases (those merged into another)."""
    return conn.execute(select(players).where(players.c.club_id == club_id)
                        .order_by(players.c.id)).all()


def current(conn: Connection, club_id: int) -> dict[int, tuple[float, float, int]]:
    """Each rated player's (mu, sigma, games) now."""
    rows = conn.execute(select(current_ratings.c.player_id, current_ratings.c.mu,
                               current_ratings.c.sigma, current_ratings.c.games)
                        .where(current_ratings.c.club_id == club_id))
    return {row.player_id: (row.mu, row.sigma, row.games) for row in rows}


def history(conn: Connection, player_id: int) -> list[Any]:
    """A player's rating after each of his rated matches, in finishing order, with the match's
    day and when it finished."""
    query = (select(player_ratings.c.match_id, player_ratings.c.finish_seq,
                    player_ratings.c.mu, player_ratings.c.sigma, player_ratings.c.games,
                    standing_rows.c.played_on, standing_rows.c.finished_at)
             .join(standing_rows, and_(standing_rows.c.match_id == player_ratings.c.match_id,
                                       standing_rows.c.player_id == player_ratings.c.player_id))
             .where(player_ratings.c.player_id == player_id)
             .order_by(player_ratings.c.finish_seq))
    return conn.execute(query).all()


# ------------------------------------------------------------------ ratings


def rating_inputs(conn: Connection, club_id: int, from_seq: int,
                  to_seq: int | None = None) -> list[Any]:
    """The club's standing rows from place ``from_seq`` of its finishing order on (to
    ``to_seq``, included, when given), in that order: (match_id, finish_seq, player_id, side,
    place), what the ratings are computed from."""
    r = standing_rows
    where = [r.c.club_id == club_id, r.c.finish_seq >= from_seq]
    if to_seq is not None:
        where.append(r.c.finish_seq <= to_seq)
    return conn.execute(select(r.c.match_id, r.c.finish_seq, r.c.player_id, r.c.side, r.c.place)
                        .where(*where).order_by(r.c.finish_seq, r.c.seat)).all()


def nth_place(conn: Connection, club_id: int, from_seq: int, n: int) -> int | None:
    """The place of the ``n``-th finished match from place ``from_seq`` on (1: the first);
    None when fewer follow."""
    r = standing_rows
    return conn.execute(select(r.c.finish_seq).distinct()
                        .where(r.c.club_id == club_id, r.c.finish_seq >= from_seq)
                        .order_by(r.c.finish_seq).offset(n - 1).limit(1)).scalar()


def rated_from(conn: Connection, club_id: int, from_seq: int,
               to_seq: int | None = None) -> set[int]:
    """The players whose rating history has a row from place ``from_seq`` on (to ``to_seq``)."""
    where = [player_ratings.c.club_id == club_id, player_ratings.c.finish_seq >= from_seq]
    if to_seq is not None:
        where.append(player_ratings.c.finish_seq <= to_seq)
    return set(conn.execute(select(player_ratings.c.player_id).distinct().where(*where))
               .scalars())


def rated_through(conn: Connection, club_id: int) -> tuple[int | None, int | None]:
    """(the last place of the club's finishing order, the last place its current ratings are
    rated through): two index seeks. Equal when the ratings are up to date (every finished
    match is rated, and the last one's players' current rows name it)."""
    last = select(func.max(standing_rows.c.finish_seq)).where(
        standing_rows.c.club_id == club_id).scalar_subquery()
    rated = select(func.max(current_ratings.c.finish_seq)).where(
        current_ratings.c.club_id == club_id).scalar_subquery()
    return tuple(conn.execute(select(last, rated)).one())  # type: ignore[return-value]


def place_before(conn: Connection, club_id: int, seq: int) -> int | None:
    """The last place of the club's finishing order before ``seq`` (None: none)."""
    return conn.execute(select(func.max(standing_rows.c.finish_seq)).where(
        standing_rows.c.club_id == club_id, standing_rows.c.finish_seq < seq)).scalar()


def mark_stale(conn: Connection, club_id: int, from_seq: int) -> None:
    """Say that the club's ratings are exact only before place ``from_seq``: the current rows
    rated through it or later keep their (old) mu and sigma but name ``from_seq - 1``, so that
    :func:`rated_through` reads ``from_seq - 1`` while later matches exist. A handful of rows
    (a row a player), whatever the club's history."""
    conn.execute(update(current_ratings)
                 .where(current_ratings.c.club_id == club_id,
                        current_ratings.c.finish_seq >= from_seq)
                 .values(finish_seq=from_seq - 1))


def ratings_before(conn: Connection, club_id: int, player_ids: Iterable[int],
                   from_seq: int) -> dict[int, tuple[float, float, int, int]]:
    """Each of ``player_ids``' (mu, sigma, games, finish_seq) as it stood before place
    ``from_seq`` (players rated only later are left out: they start afresh)."""
    ids = list(player_ids)
    if not ids or from_seq <= 1:
        return {}
    found = {}
    for pid in ids:  # each his own index seek (player_id, finish_seq): no scan of the club's
        row = conn.execute(_LAST_BEFORE, {"pid": pid, "seq": from_seq}).first()
        if row is not None:
            found[pid] = (row.mu, row.sigma, row.games, row.finish_seq)
    return found


_LAST_BEFORE = (select(player_ratings.c.mu, player_ratings.c.sigma, player_ratings.c.games,
                       player_ratings.c.finish_seq)
                .where(player_ratings.c.player_id == bindparam("pid"),
                       player_ratings.c.finish_seq < bindparam("seq"))
                .order_by(player_ratings.c.finish_seq.desc()).limit(1))


def replace_ratings(conn: Connection, club_id: int, from_seq: int,
                    history_rows: Sequence[dict[str, Any]],
                    now: dict[int, tuple[float, float, int, int] | None],
                    to_seq: int | None = None) -> None:
    """The club's rating history from place ``from_seq`` on (to ``to_seq``, included, when
    given) becomes ``history_rows`` (player_id, match_id, finish_seq, mu, sigma, games);
    ``now`` gives each changed player's current (mu, sigma, games, finish_seq), None for a
    player left with no rated match."""
    where = [player_ratings.c.club_id == club_id, player_ratings.c.finish_seq >= from_seq]
    if to_seq is not None:
        where.append(player_ratings.c.finish_seq <= to_seq)
    conn.execute(delete(player_ratings).where(*where))
    if history_rows:
        conn.execute(insert(player_ratings), [{**row, "club_id": club_id} for row in history_rows])
    ids = list(now)
    for start in range(0, len(ids), 500):
        conn.execute(delete(current_ratings).where(
            current_ratings.c.player_id.in_(ids[start:start + 500])))
    fresh = [{"player_id": pid, "club_id": club_id, "mu": v[0], "sigma": v[1], "games": v[2],
              "finish_seq": v[3]} for pid, v in now.items() if v is not None]
    if fresh:
        conn.execute(insert(current_ratings), fresh)


def clear_club(conn: Connection, club_id: int) -> None:
    """Forget the club's ratings (a recompute from its first place writes them again)."""
    conn.execute(delete(player_ratings).where(player_ratings.c.club_id == club_id))
    conn.execute(delete(current_ratings).where(current_ratings.c.club_id == club_id))


def club_ids_with_rows(conn: Connection) -> list[int]:
    return sorted(set(conn.execute(select(standing_rows.c.club_id).distinct()).scalars())
                  | set(conn.execute(select(current_ratings.c.club_id).distinct()).scalars()))


def clubs_missing_rows(conn: Connection) -> list[int]:
    """The clubs with a finished match that has no standing rows: their projection was never
    filled (a database upgraded past migration 0004, which created it empty). A match writes
    its rows in the transaction that finishes it, so nothing else leaves one without."""
    missing = ~select(standing_rows.c.match_id).where(
        standing_rows.c.match_id == matches.c.id).exists()
    return sorted(conn.execute(select(matches.c.club_id).distinct().where(
        matches.c.status == "finished", missing)).scalars())


def finishing_order(conn: Connection, club_id: int) -> list[tuple[int, dt.datetime]]:
    """The club's finished matches as (id, when it finished), in the order they finished: the
    time its rows keep, else (rows never written) the time of its last event."""
    kept = dict(conn.execute(select(standing_rows.c.match_id, func.min(standing_rows.c.finished_at))
                             .where(standing_rows.c.club_id == club_id)
                             .group_by(standing_rows.c.match_id)).all())
    found = [(match_id, kept.get(match_id, updated)) for match_id, updated in conn.execute(
        select(matches.c.id, matches.c.updated_at)
        .where(matches.c.club_id == club_id, matches.c.status == "finished"))]
    return sorted(found, key=lambda pair: (pair[1], pair[0]))


def clear_standings(conn: Connection, club_id: int) -> None:
    """Forget the club's standing rows, monthly sums and ratings (to fill them again)."""
    conn.execute(delete(standing_rows).where(standing_rows.c.club_id == club_id))
    conn.execute(delete(standing_months).where(standing_months.c.club_id == club_id))
    clear_club(conn, club_id)


__all__ = [
    "TIE_BREAKERS", "DEFAULT_TIE_BREAKERS", "GROUPS", "MatchStanding", "SideResult", "Change",
    "lock_club", "write_match", "rows_of", "event_key",
    "aggregate", "head_to_head", "player_rows", "current", "history",
    "rating_inputs", "rated_from", "ratings_before", "replace_ratings",
    "nth_place", "rated_through", "place_before", "mark_stale",
    "clear_club", "club_ids_with_rows", "clubs_missing_rows", "finishing_order",
    "clear_standings", "repoint_player", "rebuild_months",
]


def repoint_player(conn: Connection, club_id: int, source: int, into: int) -> int | None:
    """A merge moved ``source``'s seats to ``into``: the standing rows follow, and ``source``'s
    ratings go. Returns the first place in the finishing order that moved (None: none did)."""
    r = standing_rows
    first = conn.execute(select(func.min(r.c.finish_seq)).where(
        r.c.club_id == club_id, (r.c.player_id == source) | (r.c.partner_id == source))).scalar()
    conn.execute(update(r).where(r.c.club_id == club_id, r.c.player_id == source)
                 .values(player_id=into))
    conn.execute(update(r).where(r.c.club_id == club_id, r.c.partner_id == source)
                 .values(partner_id=into))
    m = standing_months
    mine = (m.c.player_id == source) | (m.c.partner_id == source)
    moved = conn.execute(select(m).where(m.c.club_id == club_id, mine)).all()
    conn.execute(delete(m).where(m.c.club_id == club_id, mine))
    deltas: dict[tuple[int, int, str, str], list[int]] = {}
    for row in moved:
        a = into if row.player_id == source else row.player_id
        b = into if row.partner_id == source else row.partner_id
        key = (a, 0) if b == 0 else (min(a, b), max(a, b))
        sums = deltas.setdefault((*key, row.month, row.event), [0] * len(SUMS))
        for i, c in enumerate(SUMS):
            sums[i] += row._mapping[c]
    _upsert_months(conn, club_id, deltas)
    conn.execute(delete(player_ratings).where(player_ratings.c.player_id == source))
    conn.execute(delete(current_ratings).where(current_ratings.c.player_id == source))
    return first
