"""A club's players: one person, one player, whatever the spelling (``docs/service.md``).

Names are normalised (:func:`.checks.player_name`: NFC, white space trimmed and collapsed;
control characters and bidi controls refused) and matched by key (:func:`.checks.name_key`,
casefolded), so "ana", "Ana" and "Ana " are the player Ana. A name whose key is new but close to
a player's (:func:`close_names`) is refused with "did you mean ...?" (:class:`Unconfirmed`) unless
the caller confirms it is new (``confirm_new``): creating a player, or seating a name in a new
match (created or imported).

Admins rename players and merge two into one; each is a row of ``player_events`` written in the
transaction that made the change, and nothing else changes a player. A merge moves every seat of
the merged player to the other (match lists then count them as one; the merge hooks, run in the
same transaction, bring the projections kept by player along: the Service registers the
standings' ``ratings.after_merge``, which moves the standing rows and re-rates the club) and
keeps the merged row as an alias: its key finds the player it was merged into. Matches' records are never
edited: a match lists its players as they were recorded; player pages and standings show the
current name.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from typing import Any, Callable, Mapping

from sqlalchemy import Connection, Row

from .. import store
from ..core.said import Said, said, said_n
from ..core.vocab import REASON_LENGTH
from ..store.standings import player_rows
from . import checks
from .access import OPERATOR, Action, Caller, require
from .errors import N_, Duplicate, Invalid, NotFound, Phrase
from .lookup import club_row
from .phrases import joined
from .rowcheck import require_players as checked
from .rowcheck import require_rows
from .uow import READ, WRITE, UnitOfWork, Units, use_case

# The closeness rule (close_names): keys that differ only in accents, or one edit apart (an
# insertion, a deletion, a substitution, or two neighbours swapped) when both are at least
# MIN_EDIT_LENGTH long, or similar (difflib's ratio at least CLOSE_RATIO: about two edits in
# fifteen letters); never keys whose digits differ ("Mesa 1" and "Mesa 2" are two on purpose).
CLOSE_RATIO = 0.85
MIN_EDIT_LENGTH = 4
MAX_SUGGESTIONS = 3

# Called in a merge's unit of work, after the seats moved: (uow, club_id, source_id, into_id,
# ids of the matches whose seats moved). Projections kept by player (standings) rewrite theirs.
MergeHook = Callable[[UnitOfWork, int, int, int, list[int]], None]


def _either(names: list[str]) -> str:
    """"Ana", "Ana or Ano", "Ana, Ano or Anu": the close names a "did you mean" offers."""
    if len(names) == 1:
        return names[0]
    return said("%(names)s or %(last)s", names=", ".join(names[:-1]), last=names[-1])


class Unconfirmed(Invalid):
    """Names whose keys are new but close to players': ``suggestions`` maps each name (as
    typed) to the close players' names (HTTP 422)."""

    def __init__(self, club: str, suggestions: Mapping[str, list[str]],
                 line: int | None = None) -> None:
        typed = ", ".join(repr(t) for t in suggestions)
        if len(suggestions) == 1:
            super().__init__(N_("%(typed)s is not a player of %(club)s but close to one: did "
                                "you mean %(names)s? If %(typed)s is someone new, confirm that "
                                "the name is new"), line=line, typed=typed, club=club,
                             names=_either(next(iter(suggestions.values()))))
        else:
            parts = [said("%(names)s (for %(typed)r)", names=_either(close), typed=name)
                     for name, close in suggestions.items()]
            super().__init__(N_("%(typed)s are not players of %(club)s but close to some: did "
                                "you mean %(names)s? If they are new people, confirm that the "
                                "names are new"), line=line, typed=typed, club=club,
                             names=joined(parts, "; "))
        self.suggestions = dict(suggestions)


# --------------------------------------------------------------------------- closeness

def _folded(key: str) -> str:
    """The key without its accents: "josé" is "jose"."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", key) if not unicodedata.combining(ch))


def _digits(key: str) -> str:
    return "".join(ch for ch in key if ch.isdigit())


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` (different) are one insertion, deletion, substitution or swap of
    neighbours apart."""
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) > 1:
        return False
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) < len(b):
        return a[i:] == b[i + 1:]
    rest = i + 1
    if a[rest:] == b[rest:]:
        return True  # a substitution
    return (rest < len(a) and a[i] == b[rest] and a[rest] == b[i]
            and a[rest + 1:] == b[rest + 1:])  # a swap


def _close_folded(fa: str, fb: str) -> bool:
    if fa == fb:
        return True
    if min(len(fa), len(fb)) >= MIN_EDIT_LENGTH and _one_edit(fa, fb):
        return True
    total = len(fa) + len(fb)
    if 2 * min(len(fa), len(fb)) < CLOSE_RATIO * total:
        return False  # the ratio cannot reach it
    from difflib import SequenceMatcher  # only for a name close to another: not at start

    return SequenceMatcher(None, fa, fb, autojunk=False).ratio() >= CLOSE_RATIO


def close_names(conn: Connection, club_id: int, keys: Mapping[str, str]) -> dict[str, list[str]]:
    """For each new key (key -> the name as typed), the current names of the club's players
    whose keys (aliases' included) are close to it, most similar first; keys with none left out."""
    from difflib import SequenceMatcher  # not at start: a command that seats no name needs none

    rows = store.club_keys(conn, club_id)
    current = {r.id: r.name for r in rows}
    folded = [(r.name_key, _folded(r.name_key), r.merged_into or r.id) for r in rows]
    found: dict[str, list[str]] = {}
    for key, typed in keys.items():
        fk, digits = _folded(key), _digits(key)
        close: dict[int, float] = {}
        for other, fo, player_id in folded:
            if other != key and _digits(other) == digits and _close_folded(fk, fo):
                ratio = SequenceMatcher(None, fk, fo, autojunk=False).ratio()
                close[player_id] = max(ratio, close.get(player_id, 0.0))
        if close:
            best = sorted(close, key=lambda p: (-close[p], current.get(p, "")))
            found[typed] = [current.get(p, "?") for p in best[:MAX_SUGGESTIONS]]
    return found


# --------------------------------------------------------------------------- in a transaction

def seat(conn: Connection, club: str, club_id: int, names: Mapping[str, str],
         created_at: dt.datetime, *, confirm_new: bool, line: int | None = None) -> dict[str, int]:
    """The player ids of ``names`` (key -> normalised name), merges followed, registering the
    new keys: Unconfirmed when a new key is close to a player's and ``confirm_new`` is not set.
    The club's row is held first and the players' rows are read FOR SHARE (PostgreSQL): no
    merge moves them away meanwhile, and none waits for them holding what this waits for (the
    lock order: ``referee.store.players``)."""
    store.lock_seating(conn, club_id)
    found = store.players_by_key(conn, club_id, names, share=True)
    missing = {k: n for k, n in names.items() if k not in found}
    if missing:
        if not confirm_new:
            close = close_names(conn, club_id, missing)
            if close:
                raise Unconfirmed(club, close, line=line)
        found.update(store.register(conn, club_id, missing, created_at))
    resolved = {key: store.resolve(conn, row, share=True) for key, row in found.items()}
    # nobody is seated as a player whose row (or alias) was changed behind the service's back
    checked(conn, [*found.values(), *resolved.values()])
    return {key: row.id for key, row in resolved.items()}


def seating(players: Any, line: int | None = 1) -> dict[str, str]:
    """A new match's players, as typed, keyed in seat order (key -> normalised name); Invalid
    for a name that is not one, or for one player seated twice ("ana" and "Ana")."""
    keyed: dict[str, str] = {}
    for typed in players:
        name = checks.player_name(typed, line=line)
        key = checks.name_key(name)
        if key in keyed:
            raise Invalid("%(first)r and %(second)r are one player: a player is seated twice",
                          line=line, first=keyed[key], second=typed)
        keyed[key] = name
    return keyed


def seat_ids(conn: Connection, club: str, club_id: int, keyed: Mapping[str, str],
             created_at: dt.datetime, *, confirm_new: bool, line: int | None = 1) -> list[int]:
    """The player id of each seat of :func:`seating`'s answer (see :func:`seat`); Invalid when
    two names find one player (an alias and the player it was merged into)."""
    _flag(confirm_new, "confirm_new")
    ids = seat(conn, club, club_id, keyed, created_at, confirm_new=confirm_new, line=line)
    seen: dict[int, str] = {}
    for key, name in keyed.items():
        if ids[key] in seen:
            raise Invalid("%(first)r and %(second)r are one player (merged): a player is "
                          "seated twice", line=line, first=seen[ids[key]], second=name)
        seen[ids[key]] = name
    return [ids[key] for key in keyed]


def find(conn: Connection, club_id: int, name: Any, what: str = "player") -> Row | None:
    """The player a typed name stands for (by key, a merge followed), or None."""
    key = checks.name_key(checks.player_name(name, what))
    row = store.player_by_key(conn, club_id, key)
    found = store.resolve(conn, row)
    checked(conn, [r for r in (row, found) if r is not None])
    return found


# --------------------------------------------------------------------------- the use cases

class Players:
    def __init__(self, units: Units, clock: Callable[[], dt.datetime]) -> None:
        self.units = units
        self.clock = clock
        self.merge_hooks: list[MergeHook] = []

    @use_case(WRITE)
    def create(self, uow: UnitOfWork, club: str, name: str, *, confirm_new: bool = False,
               who: Caller = OPERATOR) -> dict[str, Any]:
        """Register a player (admin). Duplicate when the name's key is a player's (or an alias
        a merge left); Unconfirmed when it is close to one, unless ``confirm_new``."""
        require(who, club, Action.MANAGE)
        name = checks.player_name(name)
        key = checks.name_key(name)
        _flag(confirm_new, "confirm_new")
        conn = uow.conn
        club_id = club_row(uow, club).id
        existing = store.player_by_key(conn, club_id, key)
        if existing is not None:
            raise _taken(conn, existing, name)
        if not confirm_new:
            close = close_names(conn, club_id, {key: name})
            if close:
                raise Unconfirmed(club, close)
        try:
            player_id = store.insert_player(conn, club_id, name, key, self.clock())
        except store.AlreadyExists:
            raise Duplicate("a player %(name)r exists already in this club",
                            name=name) from None
        return player_summary(store.player_by_id(conn, club_id, player_id))

    @use_case(READ)
    def list(self, uow: UnitOfWork, club: str, limit: int = 50, offset: int = 0, *,
             who: Caller = OPERATOR) -> tuple[list[dict[str, Any]], int]:
        """The club's players by name, and how many it has (merged players are aliases now)."""
        require(who, club, Action.READ)
        limit, offset = checks.count(limit, "limit"), checks.count(offset, "offset")
        conn = uow.conn
        club_id = club_row(uow, club).id
        # every row of the club's, not the page's only: a merge forged behind the service's
        # back hides a player from the listing without his row being on the page
        checked(conn, player_rows(conn, club_id))
        rows, total = store.list_players(conn, club_id, limit, offset)
        return [player_summary(r) for r in rows], total

    @use_case(READ)
    def get(self, uow: UnitOfWork, club: str, player: int | str, *,
            who: Caller = OPERATOR) -> dict[str, Any]:
        """A player (by id, or by a name it answers to) with its history: id, name, created_at,
        merged_into (the id, for a player merged away), aliases, matches (how many it sits in)
        and history (:meth:`history`). A merged player's id shows that row, its seats moved."""
        require(who, club, Action.READ)
        conn = uow.conn
        club_id = club_row(uow, club).id
        return _detail(conn, _player(conn, club, club_id, player, follow=True))

    @use_case(READ)
    def find(self, uow: UnitOfWork, club: str, name: str, *,
             who: Caller = OPERATOR) -> dict[str, Any] | None:
        """The player a name stands for (by key, merges followed), or None."""
        require(who, club, Action.READ)
        conn = uow.conn
        row = find(conn, club_row(uow, club).id, name)
        return None if row is None else player_summary(row)

    @use_case(READ)
    def history(self, uow: UnitOfWork, club: str, player: int | str, *,
                who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The renames and merges of the player, and of the players merged into it (their
        history follows them), oldest first: id, kind (rename, merge), player (the id renamed or merged), old_name, new_name
        (for a merge, the name of the player it went into, then), into, moved (the matches whose
        seats moved), reason, recorded_at, recorded_by."""
        require(who, club, Action.READ)
        conn = uow.conn
        club_id = club_row(uow, club).id
        return _history(conn, _player(conn, club, club_id, player, follow=True))

    @use_case(WRITE)
    def rename(self, uow: UnitOfWork, club: str, player: int | str, new_name: str, reason: str, *,
               who: Caller = OPERATOR) -> dict[str, Any]:
        """Rename a player (admin), recording it: the player as :meth:`get` shows it. Duplicate
        when the new name's key is another player's (merge them instead). A name of the same
        key changes how it is written ("ana" to "Ana"); the old key is free afterwards. The
        matches keep the names they were recorded with. Renaming to the name it has changes
        and records nothing."""
        require(who, club, Action.MANAGE)
        name = checks.player_name(new_name, Phrase(N_("new name")))
        key = checks.name_key(name)
        reason = _reason(reason)
        conn = uow.conn
        club_id = club_row(uow, club).id
        row = _player(conn, club, club_id, player, lock=True)
        if row.name == name:
            return _detail(conn, row)
        holder = store.player_by_key(conn, club_id, key)
        if holder is not None and holder.id != row.id:
            raise _taken(conn, holder, name, merge=True)
        try:
            store.rename_player(conn, row.id, name, key)
        except store.AlreadyExists:
            raise Duplicate("a player %(name)r exists already in this club",
                            name=name) from None
        self._record(conn, who, club_id=club_id, player_id=row.id, kind="rename",
                     old_name=row.name, new_name=name, reason=reason)
        return _detail(conn, store.player_by_id(conn, club_id, row.id))

    @use_case(WRITE)
    def merge(self, uow: UnitOfWork, club: str, source: int | str, into: int | str, reason: str, *,
              who: Caller = OPERATOR) -> dict[str, Any]:
        """Merge ``source`` into ``into`` (admin), recording it: every seat of source moves to
        into, and source stays as an alias whose name finds into. The answer is ``into`` as
        :meth:`get` shows it. Invalid when they are one player already, when either was merged
        away, or when both sat in one match or entered one tournament (two people, then)."""
        require(who, club, Action.MANAGE)
        reason = _reason(reason)
        conn = uow.conn
        club_id = club_row(uow, club).id
        store.lock_merges(conn, club_id)  # the club's merges one at a time: no deadlock
        src = _player(conn, club, club_id, source)
        dst = _player(conn, club, club_id, into)
        if src.id == dst.id:
            raise Invalid("%(one)s and %(other)s are one player already", one=_label(src),
                          other=_label(dst))
        # Read both again under their row locks: either may have been merged meanwhile.
        locked = {pid: store.player_by_id(conn, club_id, pid, for_update=True)
                  for pid in sorted((src.id, dst.id))}
        src, dst = locked[src.id], locked[dst.id]
        for row in (src, dst):
            if row.merged_into is not None:
                raise _merged_away(conn, row)
        shared = store.shared_match_ids(conn, src.id, dst.id)
        if shared:
            raise Invalid("%(one)s and %(other)s sat in one match (%(matches)s): they are "
                          "two people, not one", one=_label(src), other=_label(dst),
                          matches=_ids(shared))
        entered = store.shared_tournaments(conn, src.id, dst.id)
        if entered:
            raise Invalid("%(one)s and %(other)s are both entered in %(tournaments)s: they "
                          "are two people, not one", one=_label(src), other=_label(dst),
                          tournaments=", ".join(entered))
        moved = store.merge_player(conn, src.id, dst.id)
        self._record(conn, who, club_id=club_id, player_id=src.id, kind="merge",
                     old_name=src.name, new_name=dst.name, into_id=dst.id, moved=moved,
                     reason=reason)
        for hook in self.merge_hooks:
            hook(uow, club_id, src.id, dst.id, moved)
        return _detail(conn, store.player_by_id(conn, club_id, dst.id))

    def _record(self, conn: Connection, who: Caller, **values: Any) -> None:
        store.insert_player_event(
            conn, recorded_at=self.clock(), token_id=who.token_id,
            recorded_by=who.recorded_by or ("operator" if who.is_operator else None), **values)


# --------------------------------------------------------------------------- helpers

def _player(conn: Connection, club: str, club_id: int, player: Any, *, lock: bool = False,
            follow: bool = False) -> Row:
    """The player ``player`` names: an id (a merged player's is refused unless ``follow``:
    read, it shows that row), or a name it answers to (merges followed). NotFound for none."""
    if isinstance(player, str):
        found = find(conn, club_id, player)
        if found is None:
            raise NotFound("no player %(player)r in %(club)s", player=checks.player_name(player), club=club)
        if not lock:
            return found
        row = store.player_by_id(conn, club_id, found.id, for_update=True)
        if row.merged_into is not None:  # merged while we looked
            raise _merged_away(conn, row)
        return row
    number = checks.match_number(player) if type(player) is int else None
    if number is None:
        raise Invalid("a player is named by its id (a whole number) or its name, not %(player)r",
                      player=player)
    row = store.player_by_id(conn, club_id, number, for_update=lock)
    if row is None:
        raise NotFound("no player %(player)s in %(club)s", player=number, club=club)
    checked(conn, [row])
    if row.merged_into is not None and not follow:
        raise _merged_away(conn, row)
    return row


def _merged_away(conn: Connection, row: Row) -> Invalid:
    into = store.resolve(conn, row)
    return Invalid("%(player)s was merged into %(into)s: its name finds that player, and the "
                   "history is that player's", player=_label(row), into=_label(into))


def _taken(conn: Connection, holder: Row, name: str, merge: bool = False) -> Duplicate:
    """The name's key is ``holder``'s; ``merge``: a rename, which a merge would do instead."""
    if holder.merged_into is not None:
        into = store.resolve(conn, holder)
        if merge:
            return Duplicate("%(name)r is the name of %(player)s, merged into %(into)s: it finds "
                             "that player; to make them one, merge them", name=name,
                             player=_label(holder), into=_label(into))
        return Duplicate("%(name)r is the name of %(player)s, merged into %(into)s: it finds "
                         "that player", name=name, player=_label(holder), into=_label(into))
    if merge:
        return Duplicate("a player %(name)r (id %(id)s) exists already in this club; to make "
                         "them one, merge them", name=holder.name, id=holder.id)
    return Duplicate("a player %(name)r (id %(id)s) exists already in this club",
                     name=holder.name, id=holder.id)


def _label(row: Row) -> Said:
    return said("%(name)s (id %(id)s)", name=row.name, id=row.id)


def _ids(ids: list[int]) -> Said:
    shown = ", ".join(str(i) for i in ids[:10]) + (", ..." if len(ids) > 10 else "")
    return said_n("match %(ids)s", "matches %(ids)s", len(ids), ids=shown)


def _reason(value: Any) -> str:
    """Why a player is renamed or merged: one line of text, for the audit."""
    if not isinstance(value, str) or not value.strip():
        raise Invalid("a reason must be given (non-empty text): the audit keeps it")
    if len(value) > REASON_LENGTH:
        raise Invalid("a reason is at most %(length)s characters", length=REASON_LENGTH)
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value):
        raise Invalid("a reason may not contain control characters")
    return value.strip()


def _flag(value: Any, what: str) -> None:
    if type(value) is not bool:
        raise Invalid("%(what)s must be true or false, not %(value)r", what=what, value=value)


def player_summary(row: Row) -> dict[str, Any]:
    return {"id": row.id, "name": row.name, "created_at": store.iso(row.created_at)}


def _detail(conn: Connection, row: Row) -> dict[str, Any]:
    return {
        **player_summary(row),
        "merged_into": row.merged_into,
        "aliases": [{"id": a.id, "name": a.name} for a in store.aliases_of(conn, row.id)],
        "matches": len(store.match_ids_of(conn, row.id)),
        "history": _history(conn, row),
    }


def _history(conn: Connection, row: Row) -> list[dict[str, Any]]:
    """The player's events, and those of the players merged into it (their history follows)."""
    aliases = store.aliases_of(conn, row.id)
    checked(conn, aliases)
    events = store.player_event_rows(conn, [row.id, *(a.id for a in aliases)])
    require_rows(conn, "player_events", events, N_("the club's renames and merges"))
    return [_event(e) for e in events]


def _event(row: Row) -> dict[str, Any]:
    return {
        "id": row.id, "kind": row.kind, "player": row.player_id, "old_name": row.old_name,
        "new_name": row.new_name, "into": row.into_id,
        "moved": list(row.moved) if row.moved is not None else None, "reason": row.reason,
        "recorded_at": store.iso(row.recorded_at), "recorded_by": row.recorded_by,
    }
