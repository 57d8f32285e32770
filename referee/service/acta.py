"""Results anyone can verify: a match's chain head, where it may be published, its record
checked against its own chain, and its signed score sheet (``domino-acta/2``,
``referee.core.acta``), signed with its club's key (:mod:`.keys`) and kept in its club's
transparency log (:mod:`.transparency`).

**Who gets a head.** A digest of a record holding a hand the caller may not see would let him
find the hand by trying each candidate (a deal of 7 hidden tiles of 28 is about 1.2 million
tries a seat). So a head, or an acta carrying one, is given only for a *finished* match (every
hand recorded is shown then, see docs/visibility.md) and only when the caller's view is the
whole record (``MatchView.whole``: nothing withheld), which a finished match always gives but which
is checked all the same. A live match has no published head for anyone over HTTP; the operator
(the ``domino`` command on the database) sees everything and gets it always.

**What the acta is read from.** The chained record alone: the header as stored (link 0 of the
chain: club, table, event, date, players and rules as given) and the events, never the matches
table's columns (which no chain covers). The record is checked first (:func:`record_problems`):
every stored digest must follow from the one before, the events must run 1, 2, ... to the last
the match counts, and the header must name the match's club; a record that fails is not signed
(ChainBroken). Only the match's id, its tournament round and when its first and last events were
recorded come from elsewhere, as the acta's server fields.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from sqlalchemy import Connection, Row

from .. import store
from ..core import acta as sheet
from ..core import chain
from ..core.log import LogError, parse_header
from ..core.replay import replay
from ..core.said import said
from ..store.macs import row_key
from ..store.tournaments import tournament_of_match
from ..store.transparency import current_leaf
from . import checks
from .access import OPERATOR, Caller
from .errors import N_, ActaPending, ChainBroken, NotFinished, SigningKeyError
from .lookup import match_row
from .reading import Reading
from .rowcheck import require_record
from .uow import PRIMARY, READ, UnitOfWork, Units, use_case


def record_problems(row: Row, events: list[Row], *, counted: bool = True,
                    values: list[Any] | None = None) -> list[tuple[int | None, str]]:
    """Why the match's stored record (its row, and its event rows in seq order; ``values``,
    their JSON read already, if it was) fails its own chain: empty when it holds. ``counted``:
    the match's count of its events (a projection, what a rebuild puts right) must be the
    record's too."""
    problems: list[tuple[int | None, str]] = []
    try:
        header = store.load_json(row.header)
        parse_header(header)
    except (ValueError, LogError) as error:
        # a LogError's message is a sentence of the core (said in the reader's language)
        reason = error.message if isinstance(error, LogError) else str(error)
        return [(None, said("the header as stored is not a domino-log/1 header (%(reason)s)",
                            reason=reason))]
    if header.get("club") != row.club:
        problems.append((None, said("the header names club %(named)r, but the match belongs to "
                                    "club %(club)r", named=header.get("club"), club=row.club)))
    if values is None:
        values = [store.load_json(e.data) for e in events]
    problems += chain.breaks(header, ((e.seq, v, e.digest) for e, v in zip(events, values)))
    if counted and (row.last_seq != len(events) or (events and events[-1].seq != row.last_seq)):
        problems.append((None, said("the match counts %(last)s events, the record holds "
                                    "%(held)s", last=row.last_seq, held=len(events))))
    return problems


def acta_body(conn: Connection, row: Row) -> dict[str, Any]:
    """The acta of the match as its record stands, unsigned: what the chained record gives
    (``sheet.from_log``) and the server's fields. ChainBroken when the record fails its chain."""
    rows = store.event_rows(conn, row.id)
    # every row it is read from holds its MAC: else a database writer's record would be signed
    require_record(row_key(conn), row, rows)
    events = [store.load_json(e.data) for e in rows]
    if problems := record_problems(row, rows, values=events):
        raise ChainBroken(row.id, problems)
    return checked_body(conn, row, rows, events)


def checked_body(conn: Connection, row: Row, rows: list[Row], events: list[Any]) -> dict[str, Any]:
    """acta_body of a record already found to hold (``rows`` and their ``events``)."""
    header_value = store.load_json(row.header)
    header = parse_header(header_value)
    body = sheet.from_log(header_value, events, replay(header.rules, header.players, events))
    paired = tournament_of_match(conn, row.id)  # a tournament's table, if it is one
    return {**body, "match": row.id,
            "tournament": paired.slug if paired is not None else None,
            "round": paired.round if paired is not None else None,
            "started_at": store.iso(rows[0].recorded_at) if rows else None,
            "ended_at": store.iso(rows[-1].recorded_at) if rows else None}


class Actas:
    """Chain heads and signed score sheets, as a caller may have them. Reading an acta never
    signs one: what is due is signed once the append that finished the match has committed,
    by the operator's commands and by ``domino serve``'s background (:mod:`.jobs`)."""

    def __init__(self, reading: Reading, units: Units,
                 signing_key: Callable[[Connection, int, str], Any],
                 sign: Callable[[int], dict[str, Any]]) -> None:
        self.reading = reading
        self.units = units
        self.signing_key = signing_key  # the club's key that signs now (Keys.signing_key)
        self._sign = sign  # sign now if due, and the acta (Transparency.acta_of)

    @use_case(PRIMARY)
    def head(self, uow: UnitOfWork, match_id: int | str, *,
             who: Caller = OPERATOR) -> str | None:
        """The match's chain head (hex) if ``who`` may have it (see the module's docstring),
        else None."""
        return self.reading.view_in(uow, match_id, who).published_head()

    @use_case(READ)
    def acta(self, uow: UnitOfWork, match_id: int | str, *,
             who: Caller = OPERATOR) -> dict[str, Any]:
        """The signed ``domino-acta/2`` of a finished match as its record stands, for a reader
        of its club: the one its club's log holds (NotFinished while in play; ChainBroken for a
        record that fails its chain; ActaPending while it is not signed yet: when the club's
        key cannot sign, saying why, else until the signing that follows every finishing
        append, or the server's background, has signed it)."""
        view = self.reading.view_in(uow, match_id, who)
        match_id = view.record.id
        conn = uow.conn
        # A record changed behind the guards says so first, whatever it now adds up to.
        row = match_row(uow, match_id)
        rows = store.event_rows(conn, match_id)
        require_record(row_key(conn), row, rows)
        if problems := record_problems(row, rows):
            raise ChainBroken(match_id, problems)
        if not view.record.match.finished:
            raise NotFinished("match %(match)s is not finished: its acta comes when it is",
                              match=match_id)
        if view.record.match.abandoned is not None:  # no result: nothing to attest
            raise NotFinished("match %(match)s was abandoned: it has no result, and no acta",
                              match=match_id)
        if view.published_head() is None:  # never for a finished match; as the rule says
            raise NotFinished("match %(match)s holds hands you may not see yet",
                              match=match_id)
        signed = current_leaf(conn, match_id, row.last_seq)
        if signed is not None:
            return json.loads(signed.acta)
        try:
            self.signing_key(conn, row.club_id, row.club)
        except SigningKeyError as error:
            raise ActaPending(N_("the club's signing key is not available on the server; "
                                 "the operator is told (domino db audit) and signs it with "
                                 "domino key sign-due"), error.message) from None
        raise ActaPending(N_("the acta is being signed: ask again in a minute"),
                          "not signed yet: the server's background signs it within a minute, "
                          "domino key sign-due at once")

    def signed(self, match_id: int | str, *, who: Caller = OPERATOR) -> dict[str, Any]:
        """The operator's acta (``domino acta``): :meth:`acta`, the match's acta signed first
        if it is due (a write the command asks for; a read never signs)."""
        try:
            return self.acta(match_id, who=who)
        except ActaPending:
            number = checks.match_number(match_id)  # a match acta found: a number
        self._sign(number)  # ActaPending, saying why, when the key still cannot sign
        with self.units.open(PRIMARY) as uow:
            return self.acta.within(uow, number, who=who)
