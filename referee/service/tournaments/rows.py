"""How a tournament is read, in the unit of work its use case was given: its row (NotFound for
none), its entrants, its rounds with their tables' matches and live status, and the shapes the
service answers with. A read-only unit of work reads each once (its memo); a writing one reads
afresh, since it changes them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence, TypeVar

from sqlalchemy import Row

from ...core.vocab import ABANDONED, FINISHED, side_name
from ...store import tournaments as store
from ...store.codec import iso
from .. import checks
from ..errors import NotFound
from ..lookup import club_row
from ..uow import UnitOfWork

if TYPE_CHECKING:
    from ..pairing import Entrant

T = TypeVar("T")

# A table is done when its match finished or was withdrawn (an abandon counts nowhere, and
# does not hold the round up).
DONE = (FINISHED, ABANDONED)


def _once(uow: UnitOfWork, key: Any, read: Callable[[], T]) -> T:
    """``read()``, once per read-only unit of work; every time in a writing one."""
    return read() if uow.writes else uow.remember(key, read)


def tournament_row(uow: UnitOfWork, club: str, slug: Any, *, for_update: bool = False) -> Row:
    """The club's tournament ``slug`` (NotFound for none); ``for_update``: its row locked until
    the unit of work ends (PostgreSQL), so that its writers queue."""
    club_id = club_row(uow, club).id
    if not isinstance(slug, str):
        row = None
    elif for_update:
        row = store.tournament_row(uow.conn, club_id, slug, for_update=True)
    else:
        row = _once(uow, ("tournament", club_id, slug),
                    lambda: store.tournament_row(uow.conn, club_id, slug))
    if row is None:
        raise NotFound("no tournament %(slug)r in this club", slug=slug)
    return row


def engine_id(number: int) -> str:
    """How the pairing engine knows an entrant: its number, zero-padded, so that the engine's
    ties by id go in order of entry."""
    return f"{number:04d}"


def entrants_of(uow: UnitOfWork, row: Row) -> list[dict[str, Any]]:
    """The tournament's entrants in order of entry: number, id (the engine's), name, players,
    player_ids, entered and withdrawn (rounds)."""
    return _once(uow, ("entrants", row.id), lambda: _entrants(uow, row))


def _entrants(uow: UnitOfWork, row: Row) -> list[dict[str, Any]]:
    out = []
    for e in store.entrant_rows(uow.conn, row.id):
        players = [e.player_name] + ([e.partner_name] if e.partner_id is not None else [])
        ids = [e.player_id] + ([e.partner_id] if e.partner_id is not None else [])
        out.append({"number": e.number, "id": engine_id(e.number), "name": side_name(players),
                    "players": players, "player_ids": ids, "entered": e.entered,
                    "withdrawn": e.withdrawn})
    return out


def rounds_of(uow: UnitOfWork, row: Row) -> list[dict[str, Any]]:
    """The rounds, each with its live status (paired, started: a match has an event,
    finished: every match is) and its tables joined with their matches."""
    return _once(uow, ("rounds", row.id), lambda: _rounds(uow, row))


def _rounds(uow: UnitOfWork, row: Row) -> list[dict[str, Any]]:
    from ..phrases import unpack

    entrants = {e["id"]: e for e in entrants_of(uow, row)}
    by_round: dict[int, list[Row]] = {}
    for m in store.round_matches(uow.conn, row.id):
        by_round.setdefault(m.round, []).append(m)
    out = []
    for r in store.round_rows(uow.conn, row.id):
        found = {m.table_number: m for m in by_round.get(r.number, [])}
        tables = [_table(t, found.get(t["table"]), entrants) for t in r.pairing["tables"]]
        made = [t for t in tables if t["match"] is not None]
        if not tables or (len(made) == len(tables) and all(t["status"] in DONE for t in made)):
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


def shown(uow: UnitOfWork, row: Row) -> dict[str, Any]:
    """The tournament as ``show`` answers it: settings, entrants, constraints, rounds."""
    rounds = rounds_of(uow, row)
    entrants = entrants_of(uow, row)
    return {**summary(row, rounds), "entrants": entrants,
            "constraints": constraint_list(store.constraint_rows(uow.conn, row.id), entrants),
            "paired_rounds": [{k: v for k, v in r.items() if k != "pairing"} for r in rounds]}


def summary(row: Row, rounds: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The tournament's settings and status, without its rounds (a listing's)."""
    done = len(rounds) >= row.rounds and rounds and rounds[-1]["status"] == "finished"
    return {"slug": row.slug, "name": row.name, "format": row.format, "rules": row.rules,
            "starts_on": row.starts_on, "ends_on": row.ends_on, "rounds": row.rounds,
            "bye": {"won": row.bye_won, "points": row.bye_points},
            "status": "finished" if done else ("playing" if rounds else "open"),
            "rounds_paired": len(rounds), "created_at": iso(row.created_at)}


def engine_entrants(entrants: Iterable[dict[str, Any]], number: int) -> list[Entrant]:
    """The engine's entrants for round ``number``: present when entered by then and not
    withdrawn from it or before (0: everyone, for names only)."""
    from ..pairing import Entrant

    return [Entrant(e["id"], e["name"], entered=e["entered"],
                    present=number == 0 or (e["entered"] <= number
                                            and (e["withdrawn"] is None or e["withdrawn"] > number)))
            for e in entrants]


def find_entrant(entrants: Sequence[dict[str, Any]], which: Any) -> dict[str, Any]:
    """The entrant ``which`` names: its number, or a player's name (by key)."""
    if type(which) is str and which.isascii() and which.isdigit():
        which = int(which)
    for e in entrants:
        if which == e["number"] or (isinstance(which, str) and checks.name_key(
                " ".join(which.split())) in {checks.name_key(p) for p in e["players"]}):
            return e
    raise NotFound("no entrant %(entrant)r in this tournament", entrant=which)


def first_unstarted(rounds: Sequence[dict[str, Any]]) -> int:
    """The first round no match of which has an event: where entering and withdrawing start."""
    started = [r["number"] for r in rounds if r["status"] != "paired"]
    return max(started, default=0) + 1


def seated(pairing: dict[str, Any]) -> set[str]:
    return {e for t in pairing["tables"] for side in t["sides"] for e in side}


def sitting_out(pairing: dict[str, Any]) -> set[str]:
    return {b["entrant"] for b in pairing["byes"]}


def round_of(rounds: Sequence[dict[str, Any]], number: Any) -> dict[str, Any]:
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


def seat_order(sides: Sequence[Sequence[str]], entrants: dict[str, dict[str, Any]]) -> list[str]:
    """The four seats of a table's match: partners sit opposite (seats 0 and 2 are side 0,
    seats 1 and 3 side 1, as the partnership presets seat them)."""
    one, other = (_side(s, entrants)["players"] for s in sides)
    return [one[0], other[0], one[1], other[1]]


def _table(table: dict[str, Any], match: Row | None,
           entrants: dict[str, dict[str, Any]]) -> dict[str, Any]:
    from ..phrases import unpack

    return {"table": table["table"], "match": match.match_id if match else None,
            "sides": [_side(s, entrants) for s in table["sides"]],
            "players": list(match.players) if match else seat_order(table["sides"], entrants),
            "status": match.status if match else None,
            "last_seq": match.last_seq if match else 0,
            "totals": list(match.totals) if match else None,
            "winner": match.winner if match else None,
            "reasons": list(map(unpack, table["reasons"]))}


def _describe(data: dict[str, Any], entrants: Iterable[dict[str, Any]]) -> str:
    """A stored pairing (Pairing.as_json) written out as the engine writes it."""
    from ..pairing import Pairing, describe

    return describe(Pairing.from_json(data), engine_entrants(entrants, 0))


def constraint_list(rows: Iterable[Row],
                    entrants: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The constraints as the service answers them, with the entrants' names."""
    names = {e["number"]: e["name"] for e in entrants}
    return [{"id": c.id, "kind": c.kind, "entrant": c.entrant, "name": names.get(c.entrant),
             "other": c.other, "other_name": names.get(c.other) if c.other is not None else None,
             "table": c.table_number, "round": c.round, "scope": c.scope, "note": c.note,
             "created_at": iso(c.created_at)} for c in rows]
