"""A match as one caller may see it (see "Who sees what" in ``docs/visibility.md``).

While a round is in play the record may hold tiles the table has not seen: hands dealt open
and tiles drawn in sight. A caller who may not see hands (``access.sees_hands``) gets the record
with those taken out, except in the events its own token recorded, and everything it is shown is
worked out from that record: the table, the legal moves and the draw and pass flags, the events
and the log. Violations in that part of the record are told without naming a tile.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from sqlalchemy import Connection, Row

from .. import store
from ..core.events import Violation, as_table_saw_it
from ..core.match import Match
from ..core.position import Position, position
from ..core.replay import Replay, replay
from ..core.rules import Rules
from ..core.sight import told_unseen
from .access import Caller, sees_hands
from .repository import Loaded, MatchRepository


@dataclass(frozen=True)
class Sight:
    """What a caller may not see of a match now: from ``secret_since`` on, the events in
    ``withheld`` as the caller sees them (seq -> event). Empty: the caller sees the record."""

    secret_since: int | None = None
    withheld: dict[int, Any] = field(default_factory=dict)

    @property
    def whole(self) -> bool:
        return not self.withheld

    def events(self, events: Sequence[Any]) -> list[Any]:
        return [self.withheld.get(seq, e) for seq, e in enumerate(events, start=1)]

    def told(self, violation: Violation, players: Sequence[str]) -> Violation:
        if self.whole or violation.seq < self.secret_since:
            return violation
        return told_unseen(violation, players)


WHOLE = Sight()


def sight(conn: Connection, row: Row, who: Caller, entry: Loaded) -> Sight:
    """What ``who`` may not see of the match as it stands (``entry``)."""
    since = entry.match.secret_since()
    if since is None or sees_hands(who, row.club):
        return WHOLE
    withheld = {}
    for r in store.secret_rows(conn, row.id, since):
        if who.token_id is not None and r.token_id == who.token_id:
            continue  # its own entry: the scorekeeper who typed it sees it
        event = store.load_json(r.data)
        shown = as_table_saw_it(event)
        if shown is not event:
            withheld[r.seq] = shown
    return Sight(since, withheld)


def seen_replay(matches: MatchRepository, conn: Connection, row: Row, view: Sight,
                entry: Loaded, upto: int | None = None, extra: Sequence[Any] = ()) -> Replay:
    """The record as ``view`` shows it, replayed up to ``upto`` (then ``extra``). It refuses
    what the whole record refused, though it may not see why."""
    events = view.events(matches.events(conn, row, upto))
    return replay(Rules(**row.rules), row.players, [*events, *extra],
                  skip=frozenset(entry.refused))


def seen_match(matches: MatchRepository, conn: Connection, row: Row, view: Sight,
               entry: Loaded, at: int | None = None) -> Match:
    """The match after event ``at`` (None: now) replayed from the record as ``view`` shows
    it (the cached one when that is the whole record now: look, do not push)."""
    if at is None or at == entry.match.seq:
        if view.whole:
            return entry.match
        return seen_replay(matches, conn, row, view, entry).match
    if view.whole:
        return matches.replay(conn, row, at).match
    return seen_replay(matches, conn, row, view, entry, upto=at).match


def seen_position(matches: MatchRepository, conn: Connection, row: Row, view: Sight,
                  entry: Loaded, at: int | None = None) -> Position:
    return position(seen_match(matches, conn, row, view, entry, at))


def seen_report(report: dict[str, Any], view: Sight, players: Sequence[str]) -> dict[str, Any]:
    """A domino-report/1 with the violations told as ``view`` allows."""
    if view.whole:
        return report
    def told(v: dict[str, Any]) -> dict[str, Any]:
        as_violation = Violation(v["seq"], v["code"], v["seat"], v["message"], v["certainty"],
                                 v.get("found_at"), tuple(v.get("evidence", ())))
        told_as = view.told(as_violation, players).as_dict()
        return {k: told_as.get(k, []) for k in v}  # the same fields (evidence may go empty)

    return {**report, "violations": [told(v) for v in report["violations"]],
            "suspicions": [told(v) for v in report["suspicions"]]}
