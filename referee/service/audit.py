"""``domino db audit``: everything a database writer could have changed, checked again against
what was stored and signed (docs/verify.md).

- the guards: the append-only triggers of events, player_events, acta_leaves and tree_heads
  are there, enabled, and still refuse;
- each match: its record against its own chain (every digest follows from the one before, the
  events run 1 to the last, the header names its club: ``acta.record_problems``), its row's
  projection and columns against a replay of the record (its head against its last event),
  and its record against every acta signed for it (each signed chain head is still the
  record's link there; the latest acta still says what the record says); a finished match with
  no acta for its record as it stands is listed as unsigned;
- each club's log: every leaf is the canonical bytes of a signed acta with that index and the
  club's name, hashed as stored, signed by a key of the club within its validity; every head's
  root is the root of that many leaves, signed likewise; the last head covers every leaf;
- each club's signing key file: there, private (0600), the key its id names;
- every row a result depends on against its MAC under the server's row key
  (:mod:`.rowcheck`): each that fails, or carries none (not sealed), is named by table and key;
- the standings and ratings (standing_rows, standing_months, player_ratings, current_ratings:
  no MACs) against what the code that writes them computes from the records, in memory
  (:mod:`.standingcheck`): each row that differs is named by table, key and column, with
  the value stored and the one derived; so are the league legs' results
  (league_leg_results, :mod:`.legresults`) against the legs' games, seats and concessions.
  Only when every record and row checked out: a recomputation from forged rows would name
  only what follows from the forgery.

What the audit cannot see: what a holder of the row key (and the database) rewrote, rows and
MACs alike, with no acta signed for it yet, or with its leaves and heads rewritten as well
(the triggers lifted) to a tree that holds together. Only a head kept elsewhere (by a member, a
federation: ``domino verify --since``) shows that the tree it signed was rewritten.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection

from .. import store
from ..core import acta as sheet
from ..core import merkle
from ..core.disputes import open_count
from ..core.log import parse_header
from ..core.replay import replay
from ..core.said import said
from ..seal import documents
from ..seal.canonical import canonical
from ..store.integrity import unguarded
from ..store.macs import TABLES, all_rows, row_key
from ..store.schema import clubs
from ..store.transparency import head_rows, leaf_rows, match_leaves
from . import legresults
from .acta import checked_body, record_problems
from .errors import N_
from .keys import Keys
from .rowcheck import event_failures, match_failures, row_failures
from .standingcheck import differences
from .uow import PRIMARY, UnitOfWork, Units, use_case

# The problems' sentences, said in the reader's language where they are shown (words.say)
TEXT = {
    "column": N_("the matches row says %(name)s %(stored)r, the record gives %(actual)r"),
    "removed": N_("the acta signed as leaf %(leaf)s covers event %(seq)s, but the record holds "
                  "only %(held)s events: events were removed after it was signed"),
    "rewritten": N_("the record up to event %(seq)s is not the one signed as leaf %(leaf)s (its "
                    "chain head was %(signed)s..., it is now %(now)s...): events were changed "
                    "after signing"),
    "stale": N_("the acta signed as leaf %(leaf)s says %(field)s %(signed)r, the record now gives "
                "%(now)r"),
    "unsigned": N_("finished, but no acta is signed for the record as it stands (event %(seq)s): "
                   "recorded past the server, or the club's key could not sign then; look at it, "
                   "then domino key sign-due"),
    "leaf_gap": N_("leaf %(index)s is missing: the log jumps to %(found)s"),
    "leaf_hash": N_("leaf %(index)s's stored hash is not the hash of its acta"),
    "leaf_text": N_("leaf %(index)s is not the RFC 8785 text of an acta"),
    "leaf_index": N_("leaf %(index)s's acta says it is leaf %(says)r of club %(club)r"),
    "leaf_match": N_("leaf %(index)s is stored as match %(stored)s's acta at event %(seq)s, but "
                     "the acta is of match %(match)r at event %(events)r"),
    "leaf_sheet": N_("leaf %(index)s is stored as fixture %(stored)s's result sheet %(seq)s, but "
                     "the sheet is of fixture %(fixture)r, number %(number)r"),
    "head_text": N_("head %(number)s (of %(size)s leaves) is not a signed domino-tree-head/1 of "
                    "the club"),
    "head_size": N_("head %(number)s says %(size)s leaves, the log holds %(leaves)s"),
    "head_root": N_("head %(number)s's root (of %(size)s leaves) is not the root of the leaves "
                    "stored"),
    "head_shrank": N_("head %(number)s says %(size)s leaves, after a head of %(before)s: the tree "
                      "shrank"),
    "last_head": N_("the last head covers %(size)s leaves, the log holds %(leaves)s: leaves were "
                    "added without a signed head, or the last heads were removed"),
    "frontier": N_("the last head's stored subtree roots are not those of its leaves"),
    "derived": N_("%(key)s: %(column)s is %(stored)r, the records give %(derived)r (domino db "
                  "rebuild writes it again)"),
    "extra_row": N_("%(key)s: there, but the records give no such row (domino db rebuild "
                    "removes it)"),
    "missing_row": N_("%(key)s: missing, the records give one (domino db rebuild writes it)"),
}


@dataclass(frozen=True)
class Problem:
    what: str
    match: int | None = None
    seq: int | None = None
    club: str | None = None
    table: str | None = None  # the table of a row that fails its MAC (.rowcheck)

    def line(self) -> str:
        where = []
        if self.table is not None:
            where.append(said("%(table)s row", table=self.table))
        if self.club is not None:
            where.append(said("club %(club)s", club=self.club))
        if self.match is not None:
            where.append(said("match %(match)s", match=self.match))
        if self.seq is not None:
            where.append(said("event %(seq)s", seq=self.seq))
        if not where:
            return said("database: %(problem)s", problem=self.what)
        template = ", ".join("%%(w%d)s" % n for n in range(len(where)))
        return said("%(where)s: %(problem)s", problem=self.what,
                    where=said(template, **{"w%d" % n: w for n, w in enumerate(where)}))

    def as_dict(self) -> dict[str, Any]:
        return {"table": self.table, "club": self.club, "match": self.match, "seq": self.seq,
                "problem": self.what}


@dataclass
class Findings:
    """What the audit found, and how much it looked at."""

    problems: list[Problem] = field(default_factory=list)
    matches: int = 0
    events: int = 0
    leaves: int = 0
    heads: int = 0
    unsigned: int = 0
    records_sound: bool = True  # every record and match row checked out (the standings' check)

    def as_dict(self) -> dict[str, Any]:
        return {"ok": not self.problems, "matches": self.matches, "events": self.events,
                "leaves": self.leaves, "heads": self.heads, "unsigned": self.unsigned,
                "problems": [p.as_dict() for p in self.problems]}


class Audit:
    def __init__(self, units: Units, keys: Keys) -> None:
        self.units = units
        self.keys = keys

    @use_case(PRIMARY)
    def run(self, uow: UnitOfWork) -> Findings:
        """Every guard, chain, projection, signed acta, tree and key file checked again, in one
        snapshot of the primary (what it holds is what is checked, not a replica's copy)."""
        found = Findings()
        conn = uow.conn
        found.problems += [Problem(what) for what in unguarded(conn)]
        found.problems += [Problem(what, club=club)
                           for club, what in self.keys.file_problems(conn)]
        key = row_key(conn)
        for table in TABLES:  # clubs, players, seats, renames and merges: each row's MAC
            failures = row_failures(key, table, all_rows(conn, table))
            found.records_sound = found.records_sound and not failures
            found.problems += [Problem(what, table=name) for name, _, what in failures]
        ids = store.match_ids(conn)
        for match_id in ids:
            self._match(conn, match_id, found)
        if found.records_sound:
            self._standings(conn, ids, found)
        for club_id, slug in conn.execute(clubs.select().with_only_columns(
                clubs.c.id, clubs.c.slug).order_by(clubs.c.slug)):
            self._tree(conn, club_id, slug, found)
        return found

    # ------------------------------------------------------------------------ matches

    def _match(self, conn: Connection, match_id: int, found: Findings) -> None:
        row = store.match_row(conn, match_id)
        rows = store.event_rows(conn, match_id)
        found.matches += 1
        found.events += len(rows)
        say = found.problems.append
        # every row that fails its MAC, named (all the match's event rows, those past its
        # count included: an event slipped in after the last one is named too)
        key = row_key(conn)
        forged = match_failures(key, row) + event_failures(key, row, rows)
        for table, seq, what in forged:
            say(Problem(what, match_id, seq, table=table))
        values = [store.load_json(e.data) for e in rows]
        broken = record_problems(row, rows, values=values)
        if forged or broken:
            found.records_sound = False
        for seq, what in broken:
            say(Problem(what, match_id, seq))
        if not broken:
            self._projection(row, values, store.stored_head(row.header, rows), found)
        digests = {e.seq: e.digest for e in rows}
        leaves = match_leaves(conn, match_id)
        for leaf in leaves:
            self._leaf_against_record(leaf, digests, found)
        if row.status == "finished" and not any(leaf.seq == row.last_seq for leaf in leaves):
            found.unsigned += 1
            say(Problem(said(TEXT["unsigned"], seq=row.last_seq), match_id, row.last_seq))
        elif leaves and not broken and leaves[-1].seq == row.last_seq:
            self._latest_leaf(conn, row, leaves[-1], checked_body(conn, row, rows, values), found)

    def _projection(self, row: Any, events: list[Any], head: str, found: Findings) -> None:
        header = parse_header(store.load_json(row.header))
        result = replay(header.rules, header.players, events)
        match = result.match
        actual = {"status": match.status,
                  "totals": list(match.totals), "winner": match.winner,
                  "violations": open_count(match, {v.seq for v in result.violations}),
                  "players": list(header.players), "rules": header.rules.as_dict(),
                  "head": head}
        for name, value in actual.items():
            if getattr(row, name) != value:
                found.problems.append(Problem(said(TEXT["column"], 
                    name=name, stored=getattr(row, name), actual=value), row.id))

    def _standings(self, conn: Connection, match_ids: list[int], found: Findings) -> None:
        for table, key, column, stored, derived in (differences(conn, match_ids)
                                                    + legresults.differences(conn)):
            if column != "row":
                what = said(TEXT["derived"], key=key, column=column, stored=stored,
                            derived=derived)
            else:
                what = said(TEXT["extra_row" if stored else "missing_row"], key=key)
            found.problems.append(Problem(what, table=table))

    def _leaf_against_record(self, leaf: Any, digests: dict[int, str], found: Findings) -> None:
        try:
            signed = json.loads(leaf.acta)["chain"]["head"]
        except (ValueError, KeyError, TypeError):
            return  # the tree's check says what is wrong with the leaf itself
        if leaf.seq not in digests:
            found.problems.append(Problem(said(TEXT["removed"], 
                leaf=leaf.leaf_index, seq=leaf.seq, held=len(digests)), leaf.match_id, leaf.seq))
        elif digests[leaf.seq] != signed:
            found.problems.append(Problem(said(TEXT["rewritten"], 
                seq=leaf.seq, leaf=leaf.leaf_index, signed=str(signed)[:16],
                now=digests[leaf.seq][:16]), leaf.match_id, leaf.seq))

    def _latest_leaf(self, conn: Connection, row: Any, leaf: Any, body: dict[str, Any],
                     found: Findings) -> None:
        try:
            signed = json.loads(leaf.acta)
        except ValueError:
            return
        for name, value in body.items():
            if name not in sheet.SIGNATURE_FIELDS and signed.get(name) != value:
                found.problems.append(Problem(said(TEXT["stale"], 
                    leaf=leaf.leaf_index, field=name, signed=signed.get(name), now=value),
                    row.id, leaf.seq))

    # --------------------------------------------------------------------------- trees

    def _tree(self, conn: Connection, club_id: int, club: str, found: Findings) -> None:
        keys = self.keys.published(conn, club_id)
        say = found.problems.append
        roots = [merkle.EMPTY_ROOT]  # roots[n]: the root of the first n leaves as stored
        frontier = merkle.Frontier()
        for expected, leaf in enumerate(leaf_rows(conn, club_id)):
            found.leaves += 1
            if leaf.leaf_index != expected:
                say(Problem(said(TEXT["leaf_gap"], index=expected, found=leaf.leaf_index),
                            club=club))
                break
            self._leaf(leaf, club, keys, found)
            frontier.append(bytes.fromhex(leaf.leaf_hash))
            roots.append(frontier.root())
        heads = head_rows(conn, club_id)
        before = 0
        for number, row in enumerate(heads, start=1):
            found.heads += 1
            try:
                head = json.loads(row.head)
                size, root = documents.head_root(head)
                if head.get("format") != documents.TREE_HEAD_FORMAT or head.get("club") != club:
                    raise ValueError
            except (ValueError, TypeError):
                say(Problem(said(TEXT["head_text"], number=number, size=row.size), club=club))
                continue
            if size != row.size or size >= len(roots):
                say(Problem(said(TEXT["head_size"], number=number, size=size,
                                                     leaves=len(roots) - 1), club=club))
                continue
            if size < before:
                say(Problem(said(TEXT["head_shrank"], number=number, size=size, before=before),
                            club=club))
            before = max(before, size)
            if root != roots[size]:
                say(Problem(said(TEXT["head_root"], number=number, size=size), club=club))
            say_all(found, documents.signature_problems(head, keys, f"head {number}"), club)
        if heads:
            last = heads[-1]
            if last.size != len(roots) - 1:
                say(Problem(said(TEXT["last_head"], size=last.size, leaves=len(roots) - 1),
                            club=club))
            elif [h.hex() for h in frontier.hashes()] != list(last.frontier):
                say(Problem(said(TEXT["frontier"]), club=club))

    def _leaf(self, leaf: Any, club: str, keys: list[Any], found: Findings) -> None:
        say = found.problems.append
        index = leaf.leaf_index
        text = leaf.acta.encode("utf-8")
        if merkle.leaf_hash(text).hex() != leaf.leaf_hash:
            say(Problem(said(TEXT["leaf_hash"], index=index), leaf.match_id, leaf.seq, club))
        try:
            acta = json.loads(text)
            if not isinstance(acta, dict) or canonical(acta) != text:
                raise ValueError
        except ValueError:
            say(Problem(said(TEXT["leaf_text"], index=index), leaf.match_id, leaf.seq, club))
            return
        if acta.get("leaf_index") != index or acta.get("club") != club:
            say(Problem(said(TEXT["leaf_index"], index=index, says=acta.get("leaf_index"),
                                                  club=acta.get("club")),
                        leaf.match_id, leaf.seq, club))
        if leaf.fixture_id is not None:  # a league fixture's result sheet (migration 0021)
            if (acta.get("format") != documents.SHEET_FORMAT or acta.get("fixture") != leaf.fixture_id
                    or acta.get("number") != leaf.seq):
                say(Problem(said(TEXT["leaf_sheet"], index=index, stored=leaf.fixture_id,
                                 seq=leaf.seq, fixture=acta.get("fixture"),
                                 number=acta.get("number")), club=club))
        elif acta.get("match") != leaf.match_id or acta.get("events") != leaf.seq:
            say(Problem(said(TEXT["leaf_match"], index=index, stored=leaf.match_id,
                                                  seq=leaf.seq, match=acta.get("match"),
                                                  events=acta.get("events")),
                        leaf.match_id, leaf.seq, club))
        for what in documents.signature_problems(acta, keys, f"the acta of leaf {index}"):
            say(Problem(what, leaf.match_id, leaf.seq, club))


def say_all(found: Findings, problems: list[str], club: str) -> None:
    found.problems += [Problem(what, club=club) for what in problems]
