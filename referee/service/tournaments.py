"""Tournaments: events of a club played in rounds, paired by the pairing engine
(:mod:`.pairing`), their matches recorded as any other (docs/tournaments.md).

- The tournament director (a referee; admins too) creates a tournament (name, dates, the rules
  of its matches, a format: ``pairs``, ``rotating`` or ``round_robin``, the number of rounds,
  what a bye earns) and manages its entrants: players in ``rotating``, fixed partnerships
  otherwise; entering and withdrawing take effect from the first round that has not started.
- The director pairs the next round once the last one is finished, and may re-pair a round
  until any of its matches has an event. Pairing
  creates one match per table through :class:`.recording.Recording` (its header's ``event``
  is the tournament's name, ``table`` the table's number), linked to its round and table. A
  round with no table (everyone out, or kept apart) is finished as soon as it is paired.
- The director also sets constraints the pairing honours in every format: an entrant fixed at
  a table, two entrants kept apart, a requested bye (:meth:`Tournaments.add_constraint`).
- Viewers read it all; a public club's tournaments are read without a token, as its pages are.

The event standing (:mod:`.tournament_standings`) is computed from the matches' standing rows
and the byes, ranked by the club's tie-breakers with the club standings' own code.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from sqlalchemy import Connection, Engine, Row

from ..core.rules import RulesError, resolve_rules
from ..core.said import packed, said, said_n
from ..core.vocab import (
    ABANDONED,
    CONSTRAINT_KINDS,
    CONSTRAINT_SCOPES,
    FINISHED,
    TOURNAMENT_FORMATS,
    side_name,
)
from ..store import db
from ..store import tournaments as store
from ..store.codec import iso
from ..store.errors import AlreadyExists
from . import checks
from .access import OPERATOR, Action, Caller, desk_caller, require
from .errors import N_, Duplicate, Invalid, NotFinished, NotFound, Phrase
from .lookup import club_row
from .players import close_names, seat_ids, seating
from .players import find as find_player
from .tournament_standings import event_standing, standing_csv

# A table is done when its match finished or was withdrawn (an abandon counts nowhere, and
# does not hold the round up).
DONE = (FINISHED, ABANDONED)

if TYPE_CHECKING:
    from .clubs import Clubs
    from .pairing import Constraints, Entrant, PairingRules
    from .recording import Recording

MAX_ROUNDS = 100
MAX_BYE_POINTS = 10_000
MAX_TABLE = 1_000
# A tournament's matches are created under an idempotency key of this form, so that a pairing
# interrupted between its matches makes the missing ones, not a second set, when run again.
MATCH_KEY = "tournament {id} round {round} v{version} table {table}"
# The bye of an entrant who came after their round was paired (and before it started).


class RoundRefused(NotFinished):
    """A round that may not be paired or re-paired now: the last is not finished, or has
    started, or every round is paired already (HTTP 409)."""


class Tournaments:
    def __init__(self, engine: Engine, recording: Recording, clubs: Clubs,
                 clock: Callable[[], dt.datetime]) -> None:
        self.engine = engine
        self.recording = recording
        self.clubs = clubs
        self.clock = clock

    def reader(self, club: str, who: Caller | None) -> Caller:
        """``who``; for someone without a token (None), the club's public reader, as the club
        pages read it (Unauthorized when the club is not public)."""
        return who if who is not None else self.clubs.public_reader(club)

    def page(self, club: str, slug: str, *, who: Caller | None = None) -> dict[str, Any]:
        """What the tournament's page shows (and its JSON twin is): the club, the tournament
        as :meth:`show` gives it, and its event standing now."""
        who = self.reader(club, who)
        return {"club": self.clubs.get_club(club, who=who),
                "tournament": self.show(club, slug, who=who),
                "standings": self.standings(club, slug, who=who)}

    # ------------------------------------------------------------------ the director's desk

    def desk(self, club: str, *, who: Caller | None = OPERATOR) -> dict[str, Any]:
        """What the tournament desk lists (the director's: a referee or an admin, Forbidden
        below; no token, the sign-in: :func:`.access.desk_caller`): the club and its
        tournaments, newest first."""
        who = desk_caller(who)
        require(who, club, Action.RULE)
        return {"club": self.clubs.get_club(club, who=who), "tournaments": self.list(club, who=who)}

    def desk_tournament(self, club: str, slug: str, *,
                        who: Caller | None = OPERATOR) -> dict[str, Any]:
        """One tournament on the director's desk (a referee or an admin; no token, the
        sign-in): :meth:`page`'s answer, the director's constraints in it."""
        who = desk_caller(who)
        require(who, club, Action.RULE)
        return self.page(club, slug, who=who)

    def check_names(self, club: str, slug: str, names: Sequence[Any], *,
                    who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """What entering each typed name would do, before anything is written (the director's
        did-you-mean): ``typed``, ``player`` (the club's player it is, merges followed, or
        None for a new name), ``close`` (players' names close to a new one, most similar
        first: to be confirmed, never taken silently), ``entrant`` (the number of the
        entrant it already is, or None). Invalid for a name that is not one."""
        require(who, club, Action.RULE)
        if not isinstance(names, (list, tuple)) or len(names) > 1000:
            raise Invalid("names must be a list of at most 1000 names")
        with db.reading(self.engine) as conn:
            club_id = club_row(conn, club).id
            row = self._row(conn, club, slug, club_id=club_id)
            entered = {i: e["number"] for e in _entrants(conn, row) for i in e["player_ids"]}
            out = []
            for typed in names:
                name = checks.player_name(typed)
                found = find_player(conn, club_id, name)
                close = [] if found else close_names(
                    conn, club_id, {checks.name_key(name): name}).get(name, [])
                out.append({"typed": name, "player": found.name if found else None,
                            "close": close, "entrant": entered.get(found.id) if found else None})
            return out

    # ------------------------------------------------------------------ the event itself

    def create(self, club: str, slug: str, name: str, *, rules: Any, format: str, rounds: int,
               starts_on: Any = None, ends_on: Any = None, bye_won: bool = True,
               bye_points: int = 0, entrants: Sequence[Any] = (), confirm_new: bool = False,
               who: Caller = OPERATOR) -> dict[str, Any]:
        """A new tournament (the director: a referee, or an admin), with its first entrants if
        given (names in ``rotating``, two names each otherwise). Duplicate for a slug the club
        has already."""
        require(who, club, Action.RULE)
        values = {
            "slug": checks.slug(slug, Phrase(N_("tournament slug"))),
            "name": checks.name(name, Phrase(N_("tournament name"))),
            "format": checks.one_of(format, TOURNAMENT_FORMATS, "format"),
            "rules": _rules(rules), "rounds": _whole(rounds, "rounds", 1, MAX_ROUNDS),
            "starts_on": checks.date(starts_on, "starts_on"),
            "ends_on": checks.date(ends_on, "ends_on"),
            "bye_won": _flag(bye_won, "bye_won"),
            "bye_points": _whole(bye_points, "bye_points", 0, MAX_BYE_POINTS),
        }
        if values["starts_on"] and values["ends_on"] and values["ends_on"] < values["starts_on"]:
            raise Invalid("ends_on is before starts_on")
        if not isinstance(entrants, (list, tuple)):
            raise Invalid("entrants must be a list")
        now = self.clock()
        with db.writing(self.engine) as conn:
            club_id = club_row(conn, club).id
            try:
                store.insert_tournament(conn, club_id, values, now)
            except AlreadyExists:
                raise Duplicate("a tournament %(slug)r exists already",
                                slug=values["slug"]) from None
            row = store.tournament_row(conn, club_id, values["slug"])
            for entrant in entrants:
                self._enter(conn, club, club_id, row, entrant, 1, now, confirm_new)
            return self._show(conn, row)

    def list(self, club: str, *, who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The club's tournaments, newest first (without their rounds)."""
        require(who, club, Action.READ)
        with db.reading(self.engine) as conn:
            return self.list_in(conn, club)

    def list_in(self, conn: Connection, club: str) -> list[dict[str, Any]]:
        """:meth:`list` on a connection already open (a page's unit of work), the caller
        found to be a reader of the club already."""
        return [_tournament(row, self._rounds(conn, row))
                for row in store.list_tournaments(conn, club_row(conn, club).id)]

    def show(self, club: str, slug: str, *, who: Caller = OPERATOR) -> dict[str, Any]:
        """The tournament: its settings (``rounds`` the number it is to have), entrants (with
        the rounds they entered and withdrew from) and ``paired_rounds`` (each with its tables,
        matches and byes, and why)."""
        require(who, club, Action.READ)
        with db.reading(self.engine) as conn:
            return self._show(conn, self._row(conn, club, slug))

    # ------------------------------------------------------------------ entrants

    def enter(self, club: str, slug: str, players: Sequence[str] | str, *,
              confirm_new: bool = False, who: Caller = OPERATOR) -> dict[str, Any]:
        """Enter a player (``rotating``) or a partnership (two names) from the first round
        that has not started; new names are registered in the club (a name close to a
        player's is refused unless ``confirm_new``). A withdrawn entrant entered again plays
        on from that round. Returns the entrant, with ``repair``: the round already paired
        (not started) that they came too late for, where they have a bye until it is re-paired
        (None when there is none). The director's (referee) or an admin's."""
        require(who, club, Action.RULE)
        now = self.clock()
        with db.writing(self.engine) as conn:
            club_id = club_row(conn, club).id
            row = self._row(conn, club, slug, club_id=club_id, for_update=True)
            rounds = self._rounds(conn, row)
            first = _first_unstarted(rounds)
            number = self._enter(conn, club, club_id, row, players, first, now, confirm_new)
            entrant = next(e for e in _entrants(conn, row) if e["number"] == number)
            paired = [r for r in rounds if r["number"] == first]
            if paired and entrant["id"] not in _seated(paired[0]["pairing"]) | _sitting_out(
                    paired[0]["pairing"]):
                # paired before they came, not started: the documented bye until re-paired
                pairing = paired[0]["pairing"]
                pairing["byes"].append({"entrant": entrant["id"], "reasons": [packed(said(
                    "bye: entered after round %(round)s was paired and before it started; "
                    "re-pair the round to seat them", round=first))]})
                store.set_pairing(conn, row.id, first, pairing)
                return {**entrant, "repair": first}
            return {**entrant, "repair": None}

    def withdraw(self, club: str, slug: str, entrant: Any, *,
                 who: Caller = OPERATOR) -> dict[str, Any]:
        """Withdraw an entrant (its number, or a player's name) from the first round that has
        not started: it is paired no more, its results still count. A round paired but not
        started that seats it (or gives it a bye) must be re-paired (the answer's ``repair``
        names it). The director's (referee) or an admin's."""
        require(who, club, Action.RULE)
        with db.writing(self.engine) as conn:
            row = self._row(conn, club, slug, for_update=True)
            rounds = self._rounds(conn, row)
            found = _find_entrant(_entrants(conn, row), entrant)
            if found["withdrawn"] is not None:
                raise Invalid("%(entrant)s has withdrawn already, from round %(round)s",
                              entrant=found["name"], round=found["withdrawn"])
            first = _first_unstarted(rounds)
            store.set_withdrawn(conn, row.id, found["number"], first)
            seated = [r["number"] for r in rounds if r["number"] == first
                      and _engine_id(found["number"]) in _seated(r["pairing"])
                      | _sitting_out(r["pairing"])]
            changed = next(e for e in _entrants(conn, row) if e["number"] == found["number"])
            return {**changed, "repair": seated[0] if seated else None}

    # ------------------------------------------------------------------ the director's constraints

    def constraints(self, club: str, slug: str, *, who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The director's constraints, in the order they were made: ``id``, ``kind``
        (fixed_table, forbidden, bye), ``entrant`` and ``name``, ``other`` and ``other_name``
        (forbidden), ``table`` (fixed_table), ``round`` (bye), ``scope`` (forbidden: table, or
        in rotating partners), ``note``, ``created_at``."""
        require(who, club, Action.READ)
        with db.reading(self.engine) as conn:
            row = self._row(conn, club, slug)
            return _constraints(store.constraint_rows(conn, row.id), _entrants(conn, row))

    def add_constraint(self, club: str, slug: str, kind: Any, entrant: Any, *, other: Any = None,
                       table: Any = None, round: Any = None, scope: Any = "table",
                       note: Any = None, who: Caller = OPERATOR) -> dict[str, Any]:
        """A constraint of the director (referee) that every round paired from now on honours:

        - ``fixed_table``: ``entrant`` always sits at table ``table`` (an accessible table);
        - ``forbidden``: ``entrant`` and ``other`` never at one table (``scope`` "table"), or in
          ``rotating`` never partners ("partners");
        - ``bye``: ``entrant`` sits out round ``round`` (one not started), as they asked.

        Entrants are numbers or players' names. Duplicate (409) for an entrant fixed already,
        a table fixed for another, a pair forbidden already, a bye granted already. Returns the
        constraint, with ``repair``: the last round when it is paired and not started (re-pair
        it for the constraint to apply there), else None."""
        require(who, club, Action.RULE)
        kind = checks.one_of(kind, CONSTRAINT_KINDS, "kind")
        with db.writing(self.engine) as conn:
            row = self._row(conn, club, slug, for_update=True)
            entrants = _entrants(conn, row)
            rounds = self._rounds(conn, row)
            values = _constraint_values(row, kind, entrants, rounds, entrant, other, table,
                                        round, scope, note)
            _refuse_clash(values, store.constraint_rows(conn, row.id), entrants)
            made = store.insert_constraint(conn, row.id, values, self.clock())
            found = next(c for c in _constraints(store.constraint_rows(conn, row.id), entrants)
                         if c["id"] == made)
            return {**found, "repair": _to_re_pair(rounds, values.get("round"))}

    def lift_constraint(self, club: str, slug: str, constraint_id: Any, *,
                        who: Caller = OPERATOR) -> dict[str, Any]:
        """Lift a constraint (referee): the rounds paired from now on no longer honour it.
        Returns it as it was, with ``repair`` as :meth:`add_constraint` gives it."""
        require(who, club, Action.RULE)
        with db.writing(self.engine) as conn:
            row = self._row(conn, club, slug, for_update=True)
            found = [c for c in _constraints(store.constraint_rows(conn, row.id), _entrants(conn, row))
                     if c["id"] == constraint_id]
            if not found or not store.delete_constraint(conn, row.id, constraint_id):
                raise NotFound("no constraint %(constraint)r in this tournament",
                               constraint=constraint_id)
            return {**found[0], "repair": _to_re_pair(self._rounds(conn, row), found[0]["round"])}

    def _enter(self, conn: Connection, club: str, club_id: int, row: Row, names: Any,
               first: int, now: dt.datetime, confirm_new: bool) -> int:
        names = [names] if isinstance(names, str) else names
        size = 1 if row.format == "rotating" else 2
        if not isinstance(names, (list, tuple)) or len(names) != size:
            if size == 1:
                raise Invalid("a rotating entrant is one player")
            raise Invalid("a %(format)s entrant is a partnership: two players", format=row.format)
        ids = seat_ids(conn, club, club_id, seating(list(names), line=None), now,
                       confirm_new=confirm_new, line=None)
        entered = _entrants(conn, row)
        for e in entered:
            if set(ids) == set(e["player_ids"]) and e["withdrawn"] is not None:
                # back from this round; its entry round stays, and with it its place in a
                # round robin's schedule
                store.set_withdrawn(conn, row.id, e["number"], None)
                return e["number"]
            if set(ids) & set(e["player_ids"]):
                raise Duplicate("%(entrant)s is entered already (entrant %(number)s)",
                                entrant=e["name"], number=e["number"])
        return store.insert_entrant(conn, row.id, ids[0], ids[1] if size == 2 else None, first)

    # ------------------------------------------------------------------ rounds

    def pair(self, club: str, slug: str, *, who: Caller = OPERATOR) -> dict[str, Any]:
        """Pair the next round (referee), once the last is finished, and create its matches.
        RoundRefused (409) while the last round is not finished or when every round is paired;
        Invalid (422) for a field the engine cannot pair."""
        require(who, club, Action.RULE)
        with db.writing(self.engine) as conn:
            row = self._row(conn, club, slug, for_update=True)
            rounds = self._rounds(conn, row)
            if rounds and rounds[-1]["status"] != "finished":
                raise RoundRefused("round %(round)s is not finished: its matches must finish "
                                   "before the next round is paired", round=rounds[-1]["number"])
            if len(rounds) >= row.rounds:
                raise RoundRefused(said_n("the tournament has %(num)s round, and it is paired "
                                          "already", "all %(num)s rounds are paired already",
                                          row.rounds))
            if rounds:
                store.set_round_status(conn, row.id, rounds[-1]["number"], "finished")
            number = len(rounds) + 1
            version = self._save_pairing(conn, row, number, rounds)
            store.set_status(conn, row.id, "playing")
        return self._make_matches(club, row, number, version, who)

    def re_pair(self, club: str, slug: str, number: int, *,
                who: Caller = OPERATOR) -> dict[str, Any]:
        """Pair round ``number`` again (referee) with the field and constraints as they now
        are, before it starts: RoundRefused (409) once any of its matches has an event, for a
        round with no table (finished as soon as it was paired), or for a round before the
        last. Its old matches (no event in any) stay in the record, retired."""
        require(who, club, Action.RULE)
        with db.writing(self.engine) as conn:
            row = self._row(conn, club, slug, for_update=True)
            rounds = self._rounds(conn, row)
            found = _round(rounds, number)
            if found["number"] != rounds[-1]["number"]:
                raise RoundRefused("round %(round)s is not the last round: only the last is "
                                   "re-paired", round=number)
            if not found["tables"]:
                raise RoundRefused("round %(round)s has no table: it was complete as soon as it "
                                   "was paired (its byes scored), so it is not re-paired; pair "
                                   "round %(next)s", round=number, next=number + 1)
            if found["status"] != "paired":
                raise RoundRefused("round %(round)s has started: a round is re-paired only "
                                   "before any of its matches has an event", round=number)
            version = self._save_pairing(conn, row, number, rounds[:-1])
        return self._make_matches(club, row, number, version, who)

    def start_tables(self, club: str, slug: str, number: int, *,
                     who: Caller = OPERATOR) -> dict[str, Any]:
        """Start round ``number``'s tables (referee): every table of its pairing has its match,
        the missing ones created now (a pairing interrupted between its matches, say), none
        twice. Returns the round, each table with its match. RoundRefused (409) for a round
        before the last, or one re-paired meanwhile (its newer pairing makes its own)."""
        require(who, club, Action.RULE)
        with db.reading(self.engine) as conn:
            row = self._row(conn, club, slug)
            rounds = self._rounds(conn, row)
            found = _round(rounds, number)
        if found["number"] != rounds[-1]["number"]:
            raise RoundRefused("round %(round)s is not the last round: only the last round's "
                               "tables are started", round=number)
        return self._make_matches(club, row, number, found["version"], who)

    def _save_pairing(self, conn: Connection, row: Row, number: int,
                      before: Sequence[dict[str, Any]]) -> int:
        from .pairing import History, PlayedRound, pair_round  # networkx: loaded when pairing

        entrants = _entrants(conn, row)
        standing = event_standing(conn, row, entrants, before)
        history = History(tuple(PlayedRound.from_json(r["pairing"]) for r in before))
        pairing = pair_round(_pairing_rules(row), _engine_entrants(entrants, number),
                             standing.for_pairing(), history, number,
                             _engine_constraints(store.constraint_rows(conn, row.id)))
        return store.save_round(conn, row.id, number, pairing.as_json(), self.clock())

    def _make_matches(self, club: str, row: Row, number: int, version: int,
                      who: Caller) -> dict[str, Any]:
        """Create (or, when run again, find) a match per table of the round's pairing, each
        recorded as any other, and link it to its round and table."""
        with db.reading(self.engine) as conn:
            entrants = {e["id"]: e for e in _entrants(conn, row)}
            pairing = _round(self._rounds(conn, row), number)["pairing"]
            linked = {m.table_number for m in store.round_matches(conn, row.id, number)}
        # the pairing read is this version's unless the round was re-paired meanwhile; then
        # the first link below finds out and stops
        for table in pairing["tables"]:
            if table["table"] in linked:
                continue
            created = self.recording.create_match(
                club, row.rules, _seat_order(table["sides"], entrants), who=who,
                client_key=MATCH_KEY.format(id=row.id, round=number, version=version,
                                            table=table["table"]),
                event=row.name, table=str(table["table"]))  # a table as logs write it: text
            with db.writing(self.engine) as conn:
                if not store.link_match(conn, created["id"], row.id, number, table["table"],
                                        version):
                    break  # re-paired meanwhile: the newer pairing makes its own matches
        with db.reading(self.engine) as conn:
            return _round(self._rounds(conn, row), number)

    def round(self, club: str, slug: str, number: int, *,
              who: Caller = OPERATOR) -> dict[str, Any]:
        """Round ``number``: status, its tables (match, players, score, why) and byes."""
        require(who, club, Action.READ)
        with db.reading(self.engine) as conn:
            return _round(self._rounds(conn, self._row(conn, club, slug)), number)

    def round_tables(self, club: str, tournament: str, number: int, *,
                     who: Caller | None = None) -> list[dict[str, Any]]:
        """Each table of round ``number``, by table number: ``match`` (its id), ``table``,
        ``sides`` (each ``{"entrant", "name", "players"}``), ``players`` (names in seat
        order), ``status``, ``last_seq``, ``totals``, ``winner``. What a scoreboard lists;
        ``who`` None reads a public club as anyone may."""
        who = self.reader(club, who)
        return [{k: v for k, v in t.items() if k != "reasons"}
                for t in self.round(club, tournament, number, who=who)["tables"]]

    # ------------------------------------------------------------------ standings

    def standings(self, club: str, slug: str, *, after: int | None = None,
                  who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The event standing after round ``after`` (default: every round played), best
        first: rank, entrant, player (rotating) or partners, played, won, lost, byes,
        rounds_won, points_for, points_against, difference, win_rate, rating, rating_games,
        flagged, provisional, withdrawn. Only finished matches count; a bye counts as the
        tournament says (a match played, won or not, with its points for)."""
        require(who, club, Action.READ)
        with db.reading(self.engine) as conn:
            row = self._row(conn, club, slug)
            rounds = self._rounds(conn, row)
            if after is not None:
                after = _whole(after, "after", 0, MAX_ROUNDS)
                rounds = [r for r in rounds if r["number"] <= after]
            return event_standing(conn, row, _entrants(conn, row), rounds).rows

    def standings_csv(self, club: str, slug: str, *, after: int | None = None,
                      who: Caller = OPERATOR) -> str:
        """The event standing as CSV (:mod:`.csvfile`): partner_1 and partner_2 for pairs."""
        rows = self.standings(club, slug, after=after, who=who)
        with db.reading(self.engine) as conn:
            row = self._row(conn, club, slug)
        return standing_csv(rows, row.format)

    # ------------------------------------------------------------------ reading helpers

    def _row(self, conn: Connection, club: str, slug: Any, *, club_id: int | None = None,
             for_update: bool = False) -> Row:
        club_id = club_row(conn, club).id if club_id is None else club_id
        row = (store.tournament_row(conn, club_id, slug, for_update=for_update)
               if isinstance(slug, str) else None)
        if row is None:
            raise NotFound("no tournament %(slug)r in this club", slug=slug)
        return row

    def _rounds(self, conn: Connection, row: Row) -> list[dict[str, Any]]:
        from .pairing.phrases import unpack  # the pairing's package loads networkx: when read
        """The rounds, each with its live status (paired, started: a match has an event,
        finished: every match is) and its tables joined with their matches."""
        entrants = {e["id"]: e for e in _entrants(conn, row)}
        by_round: dict[int, list[Row]] = {}
        for m in store.round_matches(conn, row.id):
            by_round.setdefault(m.round, []).append(m)
        out = []
        for r in store.round_rows(conn, row.id):
            found = {m.table_number: m for m in by_round.get(r.number, [])}
            tables = [_table(t, found.get(t["table"]), entrants) for t in r.pairing["tables"]]
            made = [t for t in tables if t["match"] is not None]
            if not tables or (len(made) == len(tables)
                              and all(t["status"] in DONE for t in made)):
                status = "finished"  # a round of no table is complete at once
            elif any(t["last_seq"] for t in made):
                status = "started"
            else:
                status = "paired"
            out.append({
                "number": r.number, "status": status, "version": r.version,
                "paired_at": iso(r.paired_at), "tables": tables,
                "byes": [{"entrant": b["entrant"], "name": _name(entrants, b["entrant"]),
                          "reasons": list(map(unpack, b["reasons"]))}
                         for b in r.pairing["byes"]],
                "relaxed": list(map(unpack, r.pairing["relaxed"])),
                "text": _describe(r.pairing, entrants.values()),
                "pairing": r.pairing,
            })
        return out

    def _show(self, conn: Connection, row: Row) -> dict[str, Any]:
        rounds = self._rounds(conn, row)
        entrants = _entrants(conn, row)
        return {**_tournament(row, rounds), "entrants": entrants,
                "constraints": _constraints(store.constraint_rows(conn, row.id), entrants),
                "paired_rounds": [{k: v for k, v in r.items() if k != "pairing"} for r in rounds]}


# ---------------------------------------------------------------------- shaping


def _tournament(row: Row, rounds: Sequence[dict[str, Any]]) -> dict[str, Any]:
    done = len(rounds) >= row.rounds and rounds and rounds[-1]["status"] == "finished"
    return {"slug": row.slug, "name": row.name, "format": row.format, "rules": row.rules,
            "starts_on": row.starts_on, "ends_on": row.ends_on, "rounds": row.rounds,
            "bye": {"won": row.bye_won, "points": row.bye_points},
            "status": "finished" if done else ("playing" if rounds else "open"),
            "rounds_paired": len(rounds), "created_at": iso(row.created_at)}


def _engine_id(number: int) -> str:
    """How the pairing engine knows an entrant: its number, zero-padded, so that the engine's
    ties by id go in order of entry."""
    return f"{number:04d}"


def _entrants(conn: Connection, row: Row) -> list[dict[str, Any]]:
    out = []
    for e in store.entrant_rows(conn, row.id):
        players = [e.player_name] + ([e.partner_name] if e.partner_id is not None else [])
        ids = [e.player_id] + ([e.partner_id] if e.partner_id is not None else [])
        out.append({"number": e.number, "id": _engine_id(e.number), "name": side_name(players),
                    "players": players, "player_ids": ids, "entered": e.entered,
                    "withdrawn": e.withdrawn})
    return out


def _engine_entrants(entrants: Iterable[dict[str, Any]], number: int) -> list[Entrant]:
    """The engine's entrants for round ``number``: present when entered by then and not
    withdrawn from it or before (0: everyone, for names only)."""
    from .pairing import Entrant

    return [Entrant(e["id"], e["name"], entered=e["entered"],
                    present=number == 0 or (e["entered"] <= number
                                            and (e["withdrawn"] is None or e["withdrawn"] > number)))
            for e in entrants]


def _find_entrant(entrants: Sequence[dict[str, Any]], which: Any) -> dict[str, Any]:
    if type(which) is str and which.isascii() and which.isdigit():
        which = int(which)
    for e in entrants:
        if which == e["number"] or (isinstance(which, str) and checks.name_key(
                " ".join(which.split())) in {checks.name_key(p) for p in e["players"]}):
            return e
    raise NotFound("no entrant %(entrant)r in this tournament", entrant=which)


def _first_unstarted(rounds: Sequence[dict[str, Any]]) -> int:
    """The first round no match of which has an event: where entering and withdrawing start."""
    started = [r["number"] for r in rounds if r["status"] != "paired"]
    return max(started, default=0) + 1


def _seated(pairing: dict[str, Any]) -> set[str]:
    return {e for t in pairing["tables"] for side in t["sides"] for e in side}


def _sitting_out(pairing: dict[str, Any]) -> set[str]:
    return {b["entrant"] for b in pairing["byes"]}


def _round(rounds: Sequence[dict[str, Any]], number: Any) -> dict[str, Any]:
    for r in rounds:
        if r["number"] == number:
            return r
    raise NotFound("no round %(round)r in this tournament", round=number)


def _name(entrants: dict[str, dict[str, Any]], entrant: str) -> str:
    found = entrants.get(entrant)
    return found["name"] if found else entrant


def _side(side: Sequence[str], entrants: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A side of a table: one partnership, or (rotating) two players who partner this round."""
    found = [entrants[i] for i in side]
    players = [p for e in found for p in e["players"]]
    return {"entrant": side[0] if len(side) == 1 else list(side), "name": side_name(players),
            "players": players}


def _seat_order(sides: Sequence[Sequence[str]], entrants: dict[str, dict[str, Any]]) -> list[str]:
    """The four seats of a table's match: partners sit opposite (seats 0 and 2 are side 0,
    seats 1 and 3 side 1, as the partnership presets seat them)."""
    one, other = (_side(s, entrants)["players"] for s in sides)
    return [one[0], other[0], one[1], other[1]]


def _table(table: dict[str, Any], match: Row | None,
           entrants: dict[str, dict[str, Any]]) -> dict[str, Any]:
    from .pairing.phrases import unpack

    return {"table": table["table"], "match": match.match_id if match else None,
            "sides": [_side(s, entrants) for s in table["sides"]],
            "players": list(match.players) if match else _seat_order(table["sides"], entrants),
            "status": match.status if match else None,
            "last_seq": match.last_seq if match else 0,
            "totals": list(match.totals) if match else None,
            "winner": match.winner if match else None,
            "reasons": list(map(unpack, table["reasons"]))}


def _describe(data: dict[str, Any], entrants: Iterable[dict[str, Any]]) -> str:
    """A stored pairing (Pairing.as_json) written out as the engine writes it."""
    from .pairing import Pairing, describe

    return describe(Pairing.from_json(data), _engine_entrants(entrants, 0))


def _pairing_rules(row: Row) -> PairingRules:
    from .pairing import ByeAward, PairingRules

    return PairingRules(row.format, ByeAward(won=row.bye_won, points=row.bye_points), row.rounds)


def _engine_constraints(rows: Iterable[Row]) -> Constraints:
    """The director's constraints as the engine reads them (entrants by their engine ids)."""
    from .pairing import Constraints, FixedTable, Forbidden, RequestedBye

    rows = list(rows)
    return Constraints(
        tuple(FixedTable(_engine_id(c.entrant), c.table_number, c.note or "")
              for c in rows if c.kind == "fixed_table"),
        tuple(Forbidden(_engine_id(c.entrant), _engine_id(c.other), c.scope, c.note or "")
              for c in rows if c.kind == "forbidden"),
        tuple(RequestedBye(_engine_id(c.entrant), c.round, c.note or "")
              for c in rows if c.kind == "bye"))


def _constraints(rows: Iterable[Row], entrants: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The constraints as the service answers them, with the entrants' names."""
    names = {e["number"]: e["name"] for e in entrants}
    return [{"id": c.id, "kind": c.kind, "entrant": c.entrant, "name": names.get(c.entrant),
             "other": c.other, "other_name": names.get(c.other) if c.other is not None else None,
             "table": c.table_number, "round": c.round, "scope": c.scope, "note": c.note,
             "created_at": iso(c.created_at)} for c in rows]


# ---------------------------------------------------------------------- checks


def _to_re_pair(rounds: Sequence[dict[str, Any]], bye_round: int | None) -> int | None:
    """The last round, when it is paired, not started and has a table: a constraint changed
    now applies there once it is re-paired (a bye only in its own round)."""
    last = rounds[-1] if rounds else None
    if last is None or last["status"] != "paired" or not last["tables"]:
        return None
    return last["number"] if bye_round in (None, last["number"]) else None


def _constraint_values(row: Row, kind: str, entrants: Sequence[dict[str, Any]],
                       rounds: Sequence[dict[str, Any]], entrant: Any, other: Any, table: Any,
                       number: Any, scope: Any, note: Any) -> dict[str, Any]:
    """The row of a new constraint, every field checked (Invalid, NotFound)."""
    values: dict[str, Any] = {"kind": kind, "entrant": _find_entrant(entrants, entrant)["number"],
                              "note": None if note is None else checks.name(note, "note")}
    if kind == "fixed_table":
        values["table_number"] = _whole(table, "table", 1, MAX_TABLE)
    elif kind == "forbidden":
        if other is None:
            raise Invalid("a forbidden pairing names two entrants: give other")
        values["other"] = _find_entrant(entrants, other)["number"]
        if values["other"] == values["entrant"]:
            raise Invalid("a forbidden pairing names two different entrants")
        values["scope"] = checks.one_of(scope, CONSTRAINT_SCOPES, "scope")
        if values["scope"] == "partners" and row.format != "rotating":
            raise Invalid("a %(format)s entrant is a partnership: forbid two at one table "
                          "(scope table), not as partners", format=row.format)
    else:
        first = _first_unstarted(rounds)
        values["round"] = _whole(number, "round", 1, row.rounds)
        if values["round"] < first:
            raise Invalid("round %(round)s has started or been played: a bye is granted for "
                          "round %(first)s or later", round=values["round"], first=first)
    return values


def _refuse_clash(values: dict[str, Any], rows: Sequence[Row],
                  entrants: Sequence[dict[str, Any]]) -> None:
    """Duplicate when the new constraint repeats or contradicts one kept."""
    names = {e["number"]: e["name"] for e in entrants}
    who = names[values["entrant"]]
    for c in rows:
        if c.kind != values["kind"]:
            continue
        if c.kind == "fixed_table" and c.entrant == values["entrant"]:
            raise Duplicate("%(entrant)s is fixed at table %(table)s already: lift that first",
                            entrant=who, table=c.table_number)
        if c.kind == "fixed_table" and c.table_number == values["table_number"]:
            raise Duplicate("table %(table)s is fixed for %(entrant)s already",
                            table=c.table_number, entrant=names[c.entrant])
        if c.kind == "forbidden" and {c.entrant, c.other} == {values["entrant"], values["other"]}:
            raise Duplicate("%(entrant)s and %(other)s are kept apart already (constraint "
                            "%(constraint)s)", entrant=who, other=names[values["other"]],
                            constraint=c.id)
        if c.kind == "bye" and (c.entrant, c.round) == (values["entrant"], values["round"]):
            raise Duplicate("%(entrant)s has a bye in round %(round)s already", entrant=who,
                            round=c.round)


def _rules(rules: Any) -> Any:
    """The rules as given, once they resolve to four seats in two partnerships: every format
    here seats two sides of two."""
    try:
        resolved = resolve_rules(rules, 4)
    except RulesError as error:
        # the core's sentence (a Said), said in the caller's language at the edge
        raise Invalid("rules: %(why)s", why=error.args[0] if error.args else str(error)) from None
    if not resolved.partnerships:
        raise Invalid("rules: a tournament's tables are two partnerships: give rules with "
                      "partnerships (parejas, puerto-rico, or partnerships: true)")
    return rules


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise Invalid("%(what)s must be a whole number from %(low)s to %(high)s, not %(value)r",
                      what=what, low=low, high=high, value=value)
    return value


def _flag(value: Any, what: str) -> bool:
    if type(value) is not bool:
        raise Invalid("%(what)s must be true or false, not %(value)r", what=what, value=value)
    return value
