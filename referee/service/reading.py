"""Reading a match: its summary, the club's list, its events, the table at any event, the
report and the log. What a caller is shown of a round in play is decided in ``access``: one who
may not see hands gets the record as the table saw it (``as_table``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Engine, Row

from .. import store
from ..core.log import make_log, write_log
from ..core.match import Match
from ..core.position import Position, position
from ..core.replay import corrections, struck_events
from ..core.report import build_report
from ..core.rules import Rules
from ..store import db
from ..core.vocab import MATCH_STATUSES as STATUSES
from . import checks
from .access import OPERATOR, Action, Caller, require, sees_hands
from .errors import Invalid
from .lookup import club_row
from .players import find as find_player
from .repository import MatchRepository
from .screen import Screen, leads, unseen, unseen_plays
from .undo import undo_target
from .views import Sight, seen_match, seen_position, seen_report, sight

HEADER_FIELDS = ("match", "table", "date", "event")


class Reading:
    def __init__(self, matches: MatchRepository) -> None:
        self.matches = matches
        self.engine: Engine = matches.engine

    def readable_row(self, conn: Any, match_id: Any, who: Caller) -> Row:
        """The match's row, once ``who`` is found to be a reader of its club."""
        row = self.matches.row(conn, match_id)
        require(who, row.club, Action.READ)
        return row

    def get_match(self, match_id: int | str, *, who: Caller = OPERATOR) -> dict[str, Any]:
        with db.reading(self.engine) as conn:
            return summary(self.readable_row(conn, match_id, who))

    def list_matches(self, club: str, status: str | None = None, player: str | None = None,
                     date_from: str | dt.date | None = None, date_to: str | dt.date | None = None,
                     limit: int = 50, offset: int = 0, *,
                     who: Caller = OPERATOR) -> tuple[list[dict[str, Any]], int]:
        """The club's matches, newest first, and how many match the filters in all."""
        require(who, club, Action.READ)
        if status is not None:
            checks.one_of(status, STATUSES, "status")
        date_from, date_to = checks.date(date_from, "date_from"), checks.date(date_to, "date_to")
        limit, offset = checks.count(limit, "limit"), checks.count(offset, "offset")
        with db.reading(self.engine) as conn:
            club_id = club_row(conn, club).id
            player_id = None
            if player is not None:
                player_row = find_player(conn, club_id, player)  # by key, merges followed
                if player_row is None:
                    return [], 0  # nobody of that name has played here
                player_id = player_row.id
            rows, total = store.list_matches(conn, club_id, status=status, player_id=player_id,
                                             date_from=date_from, date_to=date_to,
                                             limit=limit, offset=offset)
            return [summary(r) for r in rows], total

    def list_events(self, match_id: int | str, after: int = 0, limit: int | None = None, *,
                    who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The events after ``after``, as ``who`` may see them (an event with tiles withheld
        says ``"redacted": true``)."""
        after = checks.count(after, "after")
        if limit is not None:
            limit = checks.count(limit, "limit")
        with db.reading(self.engine) as conn:
            row = self.readable_row(conn, match_id, who)
            rows = store.event_rows(conn, row.id, after=after, limit=limit)
            with self.matches.current(conn, row) as entry:
                view = sight(conn, row, who, entry)
        referee = sees_hands(who, row.club)  # who recorded what is the club's referees' to see
        records = []
        for r in rows:
            record = {"seq": r.seq, "event": store.load_json(r.data),
                      "recorded_at": store.iso(r.recorded_at), "recorded_by": r.recorded_by}
            if referee:
                record["token_id"] = r.token_id
            if r.seq in view.withheld:
                record.update(event=view.withheld[r.seq], redacted=True)
            records.append(record)
        return records

    def state(self, match_id: int | str, at: int | None = None, *,
              who: Caller = OPERATOR) -> Position:
        """The table after event ``at`` (the record as it stood then), or now, as ``who`` may
        see it."""
        with db.reading(self.engine) as conn:
            row = self.readable_row(conn, match_id, who)
            at = self._at(row, at)
            with self.matches.current(conn, row) as entry:
                view = sight(conn, row, who, entry)
                return seen_position(self.matches, conn, row, view, entry, at)

    def screen(self, match_id: int | str, at: int | None = None, *,
               who: Caller = OPERATOR) -> Screen:
        """The match as a scorekeeper's screen shows it to ``who``: now, or as the table stood
        after event ``at`` (with the disputes open then)."""
        with db.reading(self.engine) as conn:
            row = self.readable_row(conn, match_id, who)
            at = self._at(row, at)
            with self.matches.current(conn, row) as entry:
                view = sight(conn, row, who, entry)
                match = seen_match(self.matches, conn, row, view, entry, at)
                pos = position(match)
                choices = {"unseen": unseen(match), "unseen_plays": unseen_plays(match),
                           "leads": leads(match)}
            # The summary counts open disputes; only when there are some is a replay worth it.
            disputes = []
            if row.violations:
                report = build_report(self.matches.replay(conn, row, at))
                disputes = seen_report(report, view, row.players)["violations"]
            undo = undo_target(conn, row, who) if at is None else None
        return Screen(summary(row), pos, not view.whole, tuple(disputes), undo=undo, **choices)

    @staticmethod
    def _at(row: Row, at: int | None) -> int | None:
        if at is not None:
            at = checks.count(at, "at")
            if at > row.last_seq:
                raise Invalid(f"at is {at} but the match has {row.last_seq} events")
        return at

    def report(self, match_id: int | str, *, who: Caller = OPERATOR) -> dict[str, Any]:
        """The domino-report/1 (violations told as ``who`` may hear them)."""
        with db.reading(self.engine) as conn:
            row = self.readable_row(conn, match_id, who)
            with self.matches.current(conn, row) as entry:
                view = sight(conn, row, who, entry)
            return self._report(conn, row, view)

    def _report(self, conn: Any, row: Row, view: Sight) -> dict[str, Any]:
        return seen_report(build_report(self.matches.replay(conn, row)), view, row.players)

    def struck(self, match_id: int | str, *, who: Caller = OPERATOR) -> frozenset[int]:
        """The sequence numbers the match's voids strike from the record now."""
        with db.reading(self.engine) as conn:
            row = self.readable_row(conn, match_id, who)
            events = self.matches.events(conn, row)
        return frozenset(struck_events(Rules(**row.rules), events))

    def export_log(self, match_id: int | str, *, who: Caller = OPERATOR) -> str:
        """The match as a domino-log/1: its header as stored and the same events back, as
        ``who`` may see them."""
        with db.reading(self.engine) as conn:
            row = self.readable_row(conn, match_id, who)
            with self.matches.current(conn, row) as entry:
                view = sight(conn, row, who, entry)
            events = view.events(self.matches.events(conn, row))
        return write_log(make_log(store.load_json(row.header), events))

    def lines(self, match_id: int | str, *, who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """Each round's line of play, as it lay when the round ended (the round in play's:
        as it lies now): ``[{"round", "line"}]``, tiles left to right, each written left pip
        first, worked out from the record as ``who`` may see it (a played tile lies face up:
        the table saw every one)."""
        with db.reading(self.engine) as conn:
            row = self.readable_row(conn, match_id, who)
            with self.matches.current(conn, row) as entry:
                view = sight(conn, row, who, entry)
                refused = frozenset(entry.refused)
            events = view.events(self.matches.events(conn, row))
        return round_lines(Rules(**row.rules), row.players, events, refused)


def round_lines(rules: Rules, players: Any, events: Any,
                refused: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
    """The record replayed as :func:`referee.core.replay.replay` does (its voids striking,
    its amends replacing, ``refused`` passed over), the line taken as each round ends (when
    the next deal is accepted, and at the end of the record)."""
    struck, amended = corrections(rules, events)
    passed = set(struck) | refused
    match = Match(rules, players)
    lines: list[tuple[str, ...]] = []
    for seq, event in enumerate(events, start=1):
        if seq in passed:
            match.skip()
            continue
        event = amended.get(seq, event)
        if type(event) is dict and event.get("type") == "deal" and match.rounds:
            dealt, line = len(match.rounds), position(match).line
            match.push(event)
            if len(match.rounds) > dealt:
                lines.append(line)
        else:
            match.push(event)
    if match.rounds:
        lines.append(position(match).line)
    return [{"round": r.number, "line": list(line)} for r, line in zip(match.rounds, lines)]


def summary(row: Row) -> dict[str, Any]:
    """A match's summary, from its row: no replay."""
    header = store.load_json(row.header)
    return {
        # Rules(...).as_dict() puts the parameters back in their order (JSONB sorts keys).
        "id": row.id, "club": row.club, "rules": Rules(**row.rules).as_dict(),
        "players": list(row.players),
        "status": row.status, "round": row.round, "totals": list(row.totals),
        "winner": row.winner, "last_seq": row.last_seq, "violations": row.violations,
        **{name: header.get(name) for name in HEADER_FIELDS},
        "created_at": store.iso(row.created_at), "updated_at": store.iso(row.updated_at),
    }
