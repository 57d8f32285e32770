"""A match's record as the service holds it: the stored events with who recorded each, the rules
core's :class:`Match` replayed to the last of them, and the match's projection.

It is what the repository caches and hands to one use case at a time (``MatchRepository``), so
that a use case needs no second read of the database for anything it answers: the screen, the
events, the undo a scorekeeper may make, what a caller may see. Events never change, so a record
at (match, last seq) is right in every process whatever the others write.

Besides the whole record's Match, a record may keep the record *as the table saw it* (every
open deal and drawn tile of the round in play closed), pushed on with each event like the whole
one: most callers who may not see hands see exactly that, and it would otherwise take a replay.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from sqlalchemy import Row

from .. import store
from ..core.events import Violation, as_table_saw_it
from ..core.log import parse_header
from .checks import rewrites_the_record

# The rules core's replay (and its Match, disputes and sight with it) is imported where a record
# is replayed, not with this module: a command that reads no record (a listing, the standings)
# does not pay for it at start (tests/cli/test_cli_startup.py).
if TYPE_CHECKING:
    from ..core.match import Match
    from ..core.replay import Replay
    from ..core.rules import Rules
    from .screen import SaidRounds


class Mark:
    """Who recorded an event, and when: what the record keeps beside the event itself."""

    __slots__ = ("token_id", "recorded_by", "recorded_at")

    def __init__(self, token_id: int | None, recorded_by: str | None,
                 recorded_at: dt.datetime) -> None:
        self.token_id = token_id
        self.recorded_by = recorded_by
        self.recorded_at = recorded_at


class TableView:
    """The record as the table saw it, replayed, and pushed on event by event after that."""

    def __init__(self, result: Replay) -> None:
        self.match = result.match
        self.violations = list(result.violations)
        self.struck, self.amended = result.struck, result.amended

    def violation_at(self, seq: int) -> Violation | None:
        """The violation of event ``seq`` in this view, if it has one."""
        return next((v for v in reversed(self.violations) if v.seq == seq), None)

    def replayed(self, events: Sequence[Any]) -> Replay:
        from ..core.replay import Replay

        # ``events`` as given, not copied (see MatchRecord.replayed).
        return Replay(self.match, tuple(self.violations), self.struck, self.amended, events)


@dataclass
class MatchRecord:
    """One match: its header and projection (the matches row), its events and marks, the whole
    record's Match and the violations of the events it refused, and the chain's head."""

    id: int
    club: str
    club_id: int
    rules: Rules
    players: tuple[str, ...]
    header: dict[str, Any]
    header_text: str
    created_at: dt.datetime
    updated_at: dt.datetime
    events: list[Any]
    marks: list[Mark]
    match: Match
    refused: list[Violation]
    head: str  # the chain link of the last event (of the header, before any)
    # What the record's voids strike and its amends replace (the Match was replayed so).
    struck: frozenset[int] = frozenset()
    amended: dict[int, Any] = field(default_factory=dict)
    # The token that created the match (None: the CLI, the operator, or before migration
    # 0014): besides the club's referees, the one that may withdraw it (access.may_abandon).
    created_by: int | None = None
    _table: TableView | None = field(default=None, repr=False)
    # The record's secrets: from which seq on (the match's secret_since when found), and the
    # seq and table's form of each event from there that holds a tile the table has not seen.
    _secrets: tuple[int | None, list[tuple[int, Any]]] = field(default=(None, []), repr=False)
    # The screens' entries of the rounds that are over, by the Match they were said of (the
    # whole record's, the table's): see :meth:`said_rounds`.
    _said: dict[int, SaidRounds] = field(default_factory=dict, repr=False)
    # The open disputes counted, and of what: see :attr:`violations`.
    _counted: tuple[Any, tuple[int, int], int] | None = field(default=None, repr=False)
    # The record as each token that typed some of the round in play's hidden tiles sees it,
    # by token: see :meth:`typist_view`.
    _typists: dict[int, TableView] = field(default_factory=dict, repr=False)

    @classmethod
    def load(cls, row: Row, event_rows: Sequence[Row]) -> "MatchRecord":
        """A record from the match's row and all its event rows (oldest first)."""
        events = [store.load_json(r.data) for r in event_rows]
        marks = [Mark(r.token_id, r.recorded_by, r.recorded_at) for r in event_rows]
        # The rules and players from the header, which the row's MAC covers, not from the
        # row's columns of them (projections, which no MAC covers: docs/verify.md).
        header_value = store.load_json(row.header)
        header = parse_header(header_value)
        from ..core.replay import replay

        result = replay(header.rules, header.players, events)
        head = store.stored_head(row.header, event_rows)
        return cls(row.id, row.club, row.club_id, header.rules, header.players,
                   header_value, row.header, row.created_at, row.updated_at,
                   events, marks, result.match, list(result.violations), head,
                   result.struck, result.amended, row.created_by)

    @classmethod
    def new(cls, *, match_id: int, club: str, club_id: int, rules: Rules,
            players: Sequence[str], header_text: str, created_at: dt.datetime, events: list[Any],
            marks: list[Mark], result: Replay, head: str,
            created_by: int | None = None) -> "MatchRecord":
        """The record of a match created now with ``events`` (judged: ``result``)."""
        return cls(match_id, club, club_id, rules, tuple(players), store.load_json(header_text),
                   header_text, created_at, created_at, events, marks, result.match,
                   list(result.violations), head, result.struck, result.amended,
                   created_by)

    # ------------------------------------------------------------------------ reading

    @property
    def last_seq(self) -> int:
        return len(self.events)

    @property
    def refused_seqs(self) -> set[int]:
        return {v.seq for v in self.refused}

    @property
    def violations(self) -> int:
        """Open disputes: refused events and proven fouls no ruling settled. Counted once a
        record as it stands (an append asks for its projection and its screen's summary): the
        count follows from the Match and the refusals, which change only when an event is
        pushed (the record longer) or the record replayed (another Match)."""
        counted = self._counted
        if (counted is not None and counted[0] is self.match
                and counted[1] == (self.last_seq, len(self.refused))):
            return counted[2]
        from ..core.disputes import open_count

        found = open_count(self.match, self.refused_seqs)
        self._counted = (self.match, (self.last_seq, len(self.refused)), found)
        return found

    @property
    def status(self) -> str:
        return self.match.status

    def replayed(self) -> Replay:
        """The whole record as the rules core's replay of it (no replay: the record keeps it).

        It holds the record's own Match and events list, not copies: both move on with the next
        push, so it is read within the use case that asked for it (as a view is), never kept.
        A copy of the events cost every append's screen a time growing with the match (some
        4.6 us at seq 1,000: docs/performance.md, 7 December 13:14)."""
        from ..core.replay import Replay

        return Replay(self.match, tuple(self.refused), self.struck, self.amended, self.events)

    def projection(self, now: dt.datetime) -> store.Projection:
        return store.Projection.of(self.match, self.violations, now)

    # ------------------------------------------------------------------------ the table's view

    def secrets(self) -> list[tuple[int, Any]]:
        """Each event of the round in play (from ``match.secret_since()``) that holds tiles the
        table has not seen, as (seq, the event as the table saw it); kept as events are pushed."""
        since = self.match.secret_since()
        if since is None:
            return []
        found_since, found = self._secrets
        if found_since != since:
            events = self.events
            found = [(seq, shown) for seq in range(since, self.last_seq + 1)
                     if (shown := as_table_saw_it(events[seq - 1])) is not events[seq - 1]]
            self._secrets = (since, found)
        return found

    def table_view(self) -> TableView | None:
        """The record as the table saw it (None: the table saw it all). Replayed the first time
        it is asked for at this seq, then pushed on with the record."""
        since = self.match.secret_since()
        if since is None:
            self._table = None
            return None
        if self._table is None or self._table.match.seq != self.last_seq:
            from ..core.replay import replay
            from ..core.sight import as_seen

            shown = as_seen(self.events, since)
            if shown is self.events:
                return None
            self._table = TableView(replay(self.rules, self.players, shown))
        return self._table

    def typist_view(self, token: int) -> TableView:
        """The record as ``token`` sees it while the round in play hides tiles: the hidden
        tiles that other tokens typed taken out, its own kept. A scorekeeper's record, by which
        its appends are judged and its screen answered (``MatchView``), and what
        ``view.refused_by_a_typist`` asks of another typist's. Replayed the first time it is
        asked for at this seq, then pushed on with the record while that round hides them, as
        the table's view is: a replay of the whole record on every append cost a time growing
        with the match (docs/performance.md, 8 December)."""
        view = self._typists.get(token)
        if view is None or view.match.seq != self.last_seq:
            from ..core.replay import replay

            events, marks = list(self.events), self.marks
            for seq, shown in self.secrets():
                if marks[seq - 1].token_id != token:
                    events[seq - 1] = shown
            view = self._typists[token] = TableView(replay(self.rules, self.players, events))
        return view

    def said_rounds(self, match: Match) -> SaidRounds:
        """Where a screen of ``match`` (this record's, or its table view's) keeps the entries of
        the rounds it said (``screen.round_results``), from one append's screen to the next.
        By the match's identity (the entries themselves are taken again only for the very round
        objects they were said of)."""
        kept = self._said.get(id(match))
        if kept is None:
            if len(self._said) >= 2:  # the whole record's and the table's; a replay's is new
                self._said.clear()
            from .screen import SaidRounds  # with the screen, as the core's Match is

            kept = self._said[id(match)] = SaidRounds()
        return kept

    # ------------------------------------------------------------------------ appending

    def push(self, event: Any, mark: Mark) -> Violation | None:
        """Judge ``event`` against the whole record and add it (refused or not: a stored event
        that the whole record refuses is a dispute). Returns the whole record's violation."""
        table = self._table
        secret_before = self.match.secret_since()
        self.events.append(event)
        self.marks.append(mark)
        if rewrites_the_record(event):
            return self.replace_last(event)
        violation = self.match.push(event)
        if violation is not None:
            self.refused.append(violation)
        if self._secrets[0] is not None and self._secrets[0] == self.match.secret_since():
            if (shown := as_table_saw_it(event)) is not event:
                self._secrets[1].append((self.last_seq, shown))
        # Keep the table's view in step while the round it hides goes on; once it is over (or a
        # new secret begins) the table has seen it all, or will be replayed when asked.
        # (asked only where a view is kept: the operator's appends keep none)
        in_step = (secret_before is not None and (table is not None or bool(self._typists))
                   and self.match.secret_since() == secret_before)
        if table is not None and in_step:
            if (seen := table.match.push(as_table_saw_it(event))) is not None:
                table.violations.append(seen)
        else:
            self._table = None
        if self._typists:
            if in_step:  # each typist sees its own hidden tiles, not the others'
                shown = as_table_saw_it(event)
                for token, view in self._typists.items():
                    if (seen := view.match.push(event if token == mark.token_id
                                                else shown)) is not None:
                        view.violations.append(seen)
            else:
                self._typists.clear()
        return violation

    def replace_last(self, event: Any) -> Violation | None:
        """The last event pushed, replaced by ``event`` (the same event, marked as it is to be
        stored): the record replayed with it. Returns the whole record's violation of it."""
        self.events[-1] = event
        from ..core.replay import replay

        result = replay(self.rules, self.players, self.events)
        self.match, self.refused = result.match, list(result.violations)
        self.struck, self.amended = result.struck, result.amended
        self._table = None
        self._typists.clear()
        self._secrets = (None, [])
        return result.violation_at(self.last_seq)

    def stored(self, seq: int, head: str, now: dt.datetime) -> None:
        """The append of event ``seq`` committed: its chain head and time."""
        self.head = head
        self.updated_at = now
