"""What the club pages show (``docs/pages.md``): one call a page, whose answer is also that
page's JSON twin in the API, read in one unit of work (one consistent snapshot).

Everything here asks the other use cases' in-unit-of-work readers with the caller passed on,
so who may read what, and what of a round in play, stays theirs (:mod:`.access`,
:mod:`.view`). Someone without a token (``who=None``) reads a public club as its public
reader (``clubs.reader_in``), and a private club not at all (Unauthorized).

What is worked out here: a player's results match by match and head to head, from his
standing rows (his side's result and points as the standings count them: won when his side
won, lost when another did, else drawn), and the rounds of a match with their line of play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.rules import Rules
from ..core.vocab import side_names
from ..store import load_json
from ..store.pages import player_results
from ..store.standings import player_names
from . import checks
from .access import Caller
from .clubs import reader_in
from .disputes import ordered
from .errors import Forbidden, NotFound
from .standings import rated_club, read_rated
from .uow import UnitOfWork
from .view import MatchView

if TYPE_CHECKING:
    from . import Service

RECENT_MATCHES = 20  # on a club's home page


class Pages:
    def __init__(self, svc: "Service") -> None:
        self.svc = svc

    def home(self, club: str, *, date_from: Any = None, date_to: Any = None,
             event: str | None = None, who: Caller | None = None) -> dict[str, Any]:
        """A club's home: the club, the filters as read, its standings over them (each row with
        ``player_id``), its latest matches and the events they name."""
        filters = {"from": checks.date(date_from, "from"), "to": checks.date(date_to, "to"),
                   "event": event or None}

        def read(uow: UnitOfWork, stale_ok: bool) -> dict[str, Any]:
            reader, info = reader_in(uow, club, who)
            table = self.svc.standings.table_in(
                uow, club, date_from=filters["from"], date_to=filters["to"],
                event=filters["event"], who=reader, stale_ok=stale_ok, ids=True)
            recent, total = self.svc.reading.matches_in(uow, club, limit=RECENT_MATCHES,
                                                        who=reader, withdrawn=False)
            events = sorted({m["event"] for m in recent if isinstance(m.get("event"), str)})
            return {"club": info, "filters": filters, "standings": table,
                    "matches": [_listed(m) for m in recent], "matches_total": total,
                    "events": events}

        return read_rated(self.svc.engine, read)

    def player(self, club: str, player_id: int, *, who: Caller | None = None) -> dict[str, Any]:
        """A player's page: his finished matches (newest first) with his side's result and
        score, partners and opponents by their current names; his record head to head against
        each opponent; and his rating after each match (``Standings.rating_history``)."""

        def read(uow: UnitOfWork, stale_ok: bool) -> dict[str, Any]:
            reader, info = reader_in(uow, club, who)
            club_id = rated_club(uow, club, stale_ok)
            names = player_names(uow.conn, club_id)
            if type(player_id) is not int or player_id not in names:
                raise NotFound("no player %(player)r in this club", player=player_id)
            history = [_result(r, player_id, names)
                       for r in player_results(uow.conn, club_id, player_id)]
            return {"club": info, "player": {"id": player_id, "name": names[player_id]},
                    "record": _record(history), "history": history,
                    "head_to_head": _head_to_head(history, names),
                    "rating": self.svc.standings.rating_history_in(uow, club, player_id,
                                                                   who=reader, stale_ok=True)}

        return read_rated(self.svc.engine, read)

    def match(self, club: str, match_id: int, *, who: Caller | None = None) -> dict[str, Any]:
        """A match's page: its summary, side names, who sits where (seat, player, side), each
        round (the report's) with its line of play, the totals and winner, its disputes with
        their rulings, and while it is live what the table shows (whose turn, tiles in each
        hand, the boneyard), never a hand; once it is finished, its chain head."""
        with UnitOfWork.reading(self.svc.engine) as uow:
            reader, info = reader_in(uow, club, who)
            view = self._view(uow, club, match_id, reader)
            summary, report = view.summary(), view.report()
            lines = {r["round"]: r["line"] for r in view.lines()}
            disputes = view.disputes()
            head = view.published_head()
            # its acta's leaf in the club's transparency log, once signed
            leaf = self.svc.transparency.leaf_in(uow, view.record.id) if head else None
            screen = view.screen() if summary["status"] == "in_progress" else None
        players, sides = summary["players"], _sides(summary)
        rules = Rules(**summary["rules"])
        seats = [{"seat": seat, "player": name, "side": rules.side_of(seat)}
                 for seat, name in enumerate(players)]
        rounds = [{**r, "opener_name": _name(players, r["opener"]),
                   "winner_name": _name(sides, r["winner"]),
                   "blocked_by_name": _name(players, r["blocked_by"]),
                   "line": lines.get(r["round"], [])} for r in report["rounds"]]
        live = None
        if screen is not None:
            pos = screen.position
            live = {"round": pos.round, "phase": pos.phase, "turn": pos.turn,
                    "turn_name": screen.turn_name, "counts": list(pos.counts),
                    "boneyard": pos.boneyard, "ends": list(pos.ends) if pos.ends else None}
        return {"club": info, "match": summary, "sides": sides, "seats": seats, "rounds": rounds,
                "totals": report["totals"], "finished": report["finished"],
                "winner": report["winner"], "winner_name": _name(sides, report["winner"]),
                "disputes": ordered(disputes, "all"), "live": live,
                # a finished match's chain head (docs/verify.md); None while in play
                "chain_head": head, "acta_leaf": leaf}

    def sheet(self, club: str, match_id: int, seq: int, *,
              who: Caller | None = None) -> dict[str, Any]:
        """The dispute sheet of dispute ``seq`` of the club's match (``Disputes.sheet``)."""
        seq = checks.count(seq, "seq")
        with UnitOfWork.reading(self.svc.engine) as uow:
            reader, _ = reader_in(uow, club, who)
            return self.svc.disputes.sheet_of(self._view(uow, club, match_id, reader), seq)

    def _view(self, uow: UnitOfWork, club: str, match_id: int, who: Caller) -> MatchView:
        """The club's match ``match_id``: one of another club is not found at this address (the
        caller may read this club, so a refusal can only mean that)."""
        try:
            view = self.svc.reading.view_in(uow, match_id, who)
        except Forbidden:
            view = None
        if view is None or view.club != club:
            raise NotFound("no match %(match)s in this club", match=match_id)
        return view


def _sides(summary: dict[str, Any]) -> list[str]:
    return side_names(summary["rules"], summary["players"])


def _name(names: list[str], index: int | None) -> str | None:
    return names[index] if index is not None and 0 <= index < len(names) else None


def _listed(m: dict[str, Any]) -> dict[str, Any]:
    sides = _sides(m)
    return {"id": m["id"], "date": m["date"], "table": m["table"], "event": m["event"],
            "status": m["status"], "round": m["round"], "sides": sides,
            "totals": m["totals"], "winner": m["winner"], "winner_name": _name(sides, m["winner"]),
            "violations": m["violations"]}


def _result(row: dict[str, Any], player_id: int, names: dict[int, str]) -> dict[str, Any]:
    """The player's line for a finished match, from his side's standing row."""
    header = load_json(row["header"])
    side = row["side"]
    sides = side_names(row["rules"], row["players"])
    seats = row["seats"]
    result = "won" if row["won"] else "lost" if row["lost"] else "drawn"
    return {"match": row["match_id"], "date": header.get("date"),
            "event": header.get("event"), "table": header.get("table"),
            "side": side, "sides": sides,
            "partners": [{"id": pid, "name": names.get(pid)} for pid, s in seats
                         if s == side and pid != player_id],
            "opponents": [{"id": pid, "name": names.get(pid)} for pid, s in seats if s != side],
            "result": result, "points_for": row["points_for"],
            "points_against": row["points_against"]}


def _record(history: list[dict[str, Any]]) -> dict[str, int]:
    return {"played": len(history),
            **{r: sum(1 for h in history if h["result"] == r) for r in ("won", "lost", "drawn")},
            "points_for": sum(h["points_for"] for h in history),
            "points_against": sum(h["points_against"] for h in history)}


def _head_to_head(history: list[dict[str, Any]], names: dict[int, str]) -> list[dict[str, Any]]:
    """Per opponent, the matches played against him: most played first, then by name."""
    rows: dict[int, list[dict[str, Any]]] = {}
    for h in history:
        for opponent in h["opponents"]:
            rows.setdefault(opponent["id"], []).append(h)
    table = [{"opponent": {"id": pid, "name": names.get(pid)}, **_record(matches)}
             for pid, matches in rows.items()]
    return sorted(table, key=lambda r: (-r["played"], (r["opponent"]["name"] or "").casefold()))
