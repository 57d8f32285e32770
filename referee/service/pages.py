"""What the club pages show (``docs/pages.md``): one call a page, whose answer is also that
page's JSON twin in the API.

Everything here is asked of the other use cases with the caller passed on, so who may read what,
and what of a round in play, stays theirs (:mod:`.access`, :mod:`.views`). Someone without a
token (``who=None``) reads a public club as its public reader (``Clubs.public_reader``), and a
private club not at all (Unauthorized).

What is worked out here, from what those use cases answer: a standings row's player id (for the
link to his page), a player's results match by match and head to head (his side by the match's
rules; won when his side won, lost when another did, else drawn; points for his side's total,
against the other sides' totals summed, as the standings count them), and the rounds of a match
with their line of play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.rules import Rules
from ..store import db
from ..store.pages import seats_of
from . import checks
from .access import Caller
from .errors import Forbidden, NotFound
from ..core.vocab import side_names

if TYPE_CHECKING:
    from . import Service

RECENT_MATCHES = 20  # on a club's home page
PAGE = 500  # rows a listing call, when a page needs them all


class Pages:
    def __init__(self, svc: "Service") -> None:
        self.svc = svc

    def reader(self, club: str, who: Caller | None) -> Caller:
        """``who``; for someone without a token, the club's public reader (Unauthorized when
        the club is not public)."""
        return who if who is not None else self.svc.clubs.public_reader(club)

    # ------------------------------------------------------------------------ the pages

    def home(self, club: str, *, date_from: Any = None, date_to: Any = None,
             event: str | None = None, who: Caller | None = None) -> dict[str, Any]:
        """A club's home: the club, the filters as read, its standings over them (each row with
        ``player_id``), its latest matches and the events they name."""
        who = self.reader(club, who)
        info = self.svc.clubs.get_club(club, who=who)
        filters = {"from": checks.date(date_from, "from"), "to": checks.date(date_to, "to"),
                   "event": event or None}
        table = self.svc.standings.table(club, date_from=filters["from"], date_to=filters["to"],
                                         event=filters["event"], who=who)
        ids = {name: pid for pid, name in self._names(club, who).items()}
        recent, total = self.svc.reading.list_matches(club, limit=RECENT_MATCHES, who=who)
        events = sorted({m["event"] for m in recent if isinstance(m.get("event"), str)})
        return {"club": info, "filters": filters,
                "standings": [{**row, "player_id": ids.get(row.get("player"))} for row in table],
                "matches": [_listed(m) for m in recent], "matches_total": total,
                "events": events}

    def player(self, club: str, player_id: int, *, who: Caller | None = None) -> dict[str, Any]:
        """A player's page: his finished matches (newest first) with his side's result and
        score, partners and opponents by their current names; his record head to head against
        each opponent; and his rating after each match (``Standings.rating_history``)."""
        who = self.reader(club, who)
        info = self.svc.clubs.get_club(club, who=who)
        names = self._names(club, who)
        if type(player_id) is not int or player_id not in names:
            raise NotFound(f"no player {player_id!r} in this club")
        finished = self._matches(club, names[player_id], who)
        with db.reading(self.svc.engine) as conn:
            seating = seats_of(conn, [m["id"] for m in finished])
        history = []
        for m in finished:
            line = _result(m, seating.get(m["id"], []), player_id, names)
            if line is not None:
                history.append(line)
        return {"club": info, "player": {"id": player_id, "name": names[player_id]},
                "record": _record(history), "history": history,
                "head_to_head": _head_to_head(history, names),
                "rating": self.svc.standings.rating_history(club, player_id, who=who)}

    def match(self, club: str, match_id: int, *, who: Caller | None = None) -> dict[str, Any]:
        """A match's page: its summary, side names, who sits where (seat, player, side), each round (the report's) with its line of
        play, the totals and winner, its disputes with their rulings, and while it is live what
        the table shows (whose turn, tiles in each hand, the boneyard), never a hand; once it is
        finished, its chain head."""
        who = self.reader(club, who)
        info = self.svc.clubs.get_club(club, who=who)
        summary = self._summary(club, match_id, who)
        report = self.svc.reading.report(match_id, who=who)
        lines = {r["round"]: r["line"] for r in self.svc.reading.lines(match_id, who=who)}
        players, sides = summary["players"], _sides(summary)
        rules = Rules(**summary["rules"])
        seats = [{"seat": seat, "player": name, "side": rules.side_of(seat)}
                 for seat, name in enumerate(players)]
        rounds = [{**r, "opener_name": _name(players, r["opener"]),
                   "winner_name": _name(sides, r["winner"]),
                   "blocked_by_name": _name(players, r["blocked_by"]),
                   "line": lines.get(r["round"], [])} for r in report["rounds"]]
        live = None
        if summary["status"] == "in_progress":
            screen = self.svc.reading.screen(match_id, who=who)
            pos = screen.position
            live = {"round": pos.round, "phase": pos.phase, "turn": pos.turn,
                    "turn_name": screen.turn_name, "counts": list(pos.counts),
                    "boneyard": pos.boneyard, "ends": list(pos.ends) if pos.ends else None}
        return {"club": info, "match": summary, "sides": sides, "seats": seats, "rounds": rounds,
                "totals": report["totals"], "finished": report["finished"],
                "winner": report["winner"], "winner_name": _name(sides, report["winner"]),
                "disputes": self.svc.disputes.for_match(match_id, who=who), "live": live,
                # a finished match's chain head (docs/verify.md); None while in play
                "chain_head": self.svc.actas.head(match_id, who=who)}

    def sheet(self, club: str, match_id: int, seq: int, *,
              who: Caller | None = None) -> dict[str, Any]:
        """The dispute sheet of dispute ``seq`` of the club's match (``Disputes.sheet``)."""
        who = self.reader(club, who)
        self.svc.clubs.get_club(club, who=who)
        self._summary(club, match_id, who)
        return self.svc.disputes.sheet(match_id, seq, who=who)

    # ------------------------------------------------------------------------ helpers

    def _summary(self, club: str, match_id: int, who: Caller) -> dict[str, Any]:
        """The club's match ``match_id``: one of another club is not found at this address (the
        caller may read this club, so a refusal can only mean that)."""
        try:
            summary = self.svc.reading.get_match(match_id, who=who)
        except Forbidden:
            summary = None
        if summary is None or summary["club"] != club:
            raise NotFound(f"no match {match_id} in this club")
        return summary

    def _names(self, club: str, who: Caller) -> dict[int, str]:
        """Every player of the club: id -> name (as the club calls him now)."""
        names: dict[int, str] = {}
        while True:
            found, total = self.svc.players.list(club, limit=PAGE, offset=len(names),
                                                       who=who)
            names.update((p["id"], p["name"]) for p in found)
            if not found or len(names) >= total:
                return names

    def _matches(self, club: str, player: str, who: Caller) -> list[dict[str, Any]]:
        """The player's finished matches, newest first."""
        found: list[dict[str, Any]] = []
        while True:
            batch, total = self.svc.reading.list_matches(club, status="finished", player=player,
                                                         limit=PAGE, offset=len(found), who=who)
            found += batch
            if not batch or len(found) >= total:
                return found


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


def _result(m: dict[str, Any], seats: list[int], player_id: int,
            names: dict[int, str]) -> dict[str, Any] | None:
    """The player's line for a finished match: None if he sits in none of its seats."""
    rules = Rules(**m["rules"])
    mine = [seat for seat, pid in enumerate(seats) if pid == player_id]
    if not mine:
        return None
    side = rules.side_of(mine[0])
    partners = [pid for seat, pid in enumerate(seats)
                if rules.side_of(seat) == side and pid != player_id]
    opponents = [pid for seat, pid in enumerate(seats) if rules.side_of(seat) != side]
    winner, totals = m["winner"], m["totals"]
    result = "won" if winner == side else "lost" if winner is not None else "drawn"
    return {"match": m["id"], "date": m["date"], "event": m["event"], "table": m["table"],
            "side": side, "sides": _sides(m),
            "partners": [{"id": pid, "name": names.get(pid)} for pid in partners],
            "opponents": [{"id": pid, "name": names.get(pid)} for pid in opponents],
            "result": result, "points_for": totals[side],
            "points_against": sum(totals) - totals[side]}


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
