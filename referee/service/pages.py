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
from ..core.vocab import MATCH_STATUSES, side_names
from ..store import load_json
from ..store.pages import club_events, club_players, matches_listed, player_results, public_clubs
from . import checks
from .access import Caller, require_record
from .clubs import reader_in
from .disputes import ordered
from .errors import Forbidden, Invalid, NotFound
from .lookup import club_row
from .players import find as find_player
from .standings import player_names, rated_club
from .transparency import leaf_in
from .uow import READ, UnitOfWork, use_case
from .view import MatchView

if TYPE_CHECKING:
    from . import Service

RECENT_MATCHES = 20  # on a club's home page
MATCHES_PER_PAGE = 50  # on a club's matches page


class Pages:
    """Every page reads the read engine (a replica, when one is configured): nobody acts on a
    page at once, and a page shown a moment late is still right for when it was read."""

    def __init__(self, svc: "Service") -> None:
        self.svc = svc
        self.units = svc.units

    @use_case(READ)
    def home(self, uow: UnitOfWork, club: str, *, date_from: Any = None, date_to: Any = None,
             event: str | None = None, who: Caller | None = None) -> dict[str, Any]:
        """A club's home: the club, the filters as read, its standings over them (each row with
        ``player_id``), its latest matches and the events they name."""
        filters = {"from": checks.date(date_from, "from"), "to": checks.date(date_to, "to"),
                   "event": event or None}
        reader, info = reader_in(uow, club, who)
        table = self.svc.standings.table.within(
            uow, club, date_from=filters["from"], date_to=filters["to"],
            event=filters["event"], who=reader, ids=True)
        recent, total = self.svc.reading.list_matches.within(
            uow, club, limit=RECENT_MATCHES, who=reader, withdrawn=False)
        events = sorted({m["event"] for m in recent if isinstance(m.get("event"), str)})
        return {"club": info, "filters": filters, "standings": table,
                "matches": [_listed(m) for m in recent], "matches_total": total,
                "events": events}

    @use_case(READ)
    def clubs(self, uow: UnitOfWork) -> dict[str, Any]:
        """The site's home: the public clubs (slug, name), by slug. A private club is never
        named here: its people reach it by its address and a token from its secretary."""
        return {"clubs": [{"slug": r.slug, "name": r.name, "language": r.language}
                          for r in public_clubs(uow.conn)]}

    @use_case(READ)
    def players(self, uow: UnitOfWork, club: str, *, who: Caller | None = None) -> dict[str, Any]:
        """A club's players page: each player (id, name) with the matches he sits in, by name
        as the database orders it (the page orders them by its language's collation)."""
        _, info = reader_in(uow, club, who)
        club_id = club_row(uow, club).id
        return {"club": info, "players": [{"id": r.id, "name": r.name, "matches": r.matches}
                                          for r in club_players(uow.conn, club_id)]}

    @use_case(READ)
    def matches(self, uow: UnitOfWork, club: str, *, event: Any = None, date_from: Any = None,
                date_to: Any = None, player: Any = None, status: Any = None, page: Any = 1,
                who: Caller | None = None) -> dict[str, Any]:
        """A club's matches page: its matches newest first, MATCHES_PER_PAGE a page, filtered
        by event (the log header's, exactly), the day played (from, to), a player (a name he
        answers to) and status; each filter checked, a wrong one refused naming its field
        (an unknown player too: an empty list would read as "he never played"). With the
        filters as read, the total that matched, and the club's events and players to pick
        from."""
        filters = {"event": _text(event, "event"), "from": checks.date(date_from, "from"),
                   "to": checks.date(date_to, "to"), "player": _text(player, "player"),
                   "status": (checks.one_of(status, MATCH_STATUSES, "status")
                              if status is not None else None)}
        if filters["from"] and filters["to"] and filters["from"] > filters["to"]:
            raise Invalid("from (%(start)s) is after to (%(end)s)", start=filters["from"],
                          end=filters["to"])
        page = checks.page_number(page)
        reader, info = reader_in(uow, club, who)
        club_id = club_row(uow, club).id
        player_id = None
        if filters["player"] is not None:
            found = find_player(uow.conn, club_id, filters["player"])
            if found is None:
                raise Invalid("player: nobody called %(name)r plays in this club",
                              name=filters["player"])
            player_id = found.id
        rows, total = matches_listed(
            uow.conn, club_id, event=filters["event"], status=filters["status"],
            player_id=player_id, date_from=filters["from"], date_to=filters["to"],
            limit=MATCHES_PER_PAGE, offset=(page - 1) * MATCHES_PER_PAGE)
        listed = [_listed(self.svc.reading.listed(uow, row, reader)) for row in rows]
        players = club_players(uow.conn, club_id)
        return {"club": info, "filters": filters, "page": page,
                "per_page": MATCHES_PER_PAGE, "matches": listed, "total": total,
                "events": club_events(uow.conn, club_id), "players": [r.name for r in players]}

    @use_case(READ)
    def tournaments(self, uow: UnitOfWork, club: str, *,
                    who: Caller | None = None) -> dict[str, Any]:
        """A club's tournaments page: each tournament as the tournaments' listing gives it
        (slug, name, format, dates, status, rounds paired of rounds), newest first."""
        reader, info = reader_in(uow, club, who)
        return {"club": info,
                "tournaments": self.svc.tournaments.list.within(uow, club, who=reader)}

    @use_case(READ)
    def player(self, uow: UnitOfWork, club: str, player_id: int, *,
               who: Caller | None = None) -> dict[str, Any]:
        """A player's page: his finished matches (newest first) with his side's result and
        score, partners and opponents by their current names; his record head to head against
        each opponent; and his rating after each match (``Standings.rating_history``)."""
        reader, info = reader_in(uow, club, who)
        club_id = rated_club(uow, club)
        names = player_names(uow, club_id)
        if type(player_id) is not int or player_id not in names:
            raise NotFound("no player %(player)r in this club", player=player_id)
        history = [_result(r, player_id, names)
                   for r in player_results(uow.conn, club_id, player_id)]
        return {"club": info, "player": {"id": player_id, "name": names[player_id]},
                "record": _record(history), "history": history,
                "head_to_head": _head_to_head(history, names),
                "rating": self.svc.standings.rating_history.within(uow, club, player_id,
                                                                   who=reader)}

    @use_case(READ)
    def match(self, uow: UnitOfWork, club: str, match_id: int, *,
              who: Caller | None = None) -> dict[str, Any]:
        """A match's page: its summary, side names, who sits where (seat, player, side), each
        round (the report's) with its line of play, the totals and winner, its disputes with
        their rulings, and while it is live what the table shows (whose turn, tiles in each
        hand, the boneyard), never a hand; once it is finished, its ``record``: the chain head,
        the acta's leaf, and whether its log and acta are given without a token."""
        reader, info = reader_in(uow, club, who)
        view = self._view(uow, club, match_id, reader)
        summary, report = view.summary(), view.report()
        lines = {r["round"]: r for r in view.lines()}
        disputes = view.disputes()
        head = view.published_head()
        # its acta's leaf in the club's transparency log, once signed
        leaf = leaf_in(uow, view.record.id) if head else None
        screen = view.screen() if summary["status"] == "in_progress" else None
        players, sides = summary["players"], _sides(summary)
        rules = Rules(**summary["rules"])
        seats = [{"seat": seat, "player": name, "side": rules.side_of(seat)}
                 for seat, name in enumerate(players)]
        rounds = [_round(r, lines.get(r["round"], {}), players, sides, rules)
              for r in report["rounds"]]
        live = None
        if screen is not None:
            pos = screen.position
            live = {"round": pos.round, "phase": pos.phase, "turn": pos.turn,
                    "turn_name": screen.turn_name, "counts": list(pos.counts),
                    "boneyard": pos.boneyard, "shows_undealt": screen.shows_undealt, "ends": list(pos.ends) if pos.ends else None,
                    # the points family: every open end by side (the spinner's arms too) and
                    # their count, what the table sees after each play
                    "open_ends": [{"side": side, "pip": pip} for side, pip, _ in pos.open_ends],
                    "count": pos.count}
        return {"club": info, "match": summary, "sides": sides, "seats": seats, "rounds": rounds,
                "totals": report["totals"], "finished": report["finished"],
                "winner": report["winner"], "winner_name": _name(sides, report["winner"]),
                "disputes": ordered(disputes, "all"), "live": live,
                # a finished match's chain head and acta leaf (docs/verify.md), and how a
                # member checks it: downloads without a token on a public club
                # (access.require_record decides who may take them)
                "record": None if head is None else {
                    "head": head, "acta_leaf": leaf, "public": bool(info["public"])}}

    @use_case(READ)
    def log(self, uow: UnitOfWork, club: str, match_id: int, *,
            who: Caller | None = None) -> str:
        """The club's match as a ``domino-log/1`` (``MatchView.log``), for its page's download:
        without a token, of a public club's finished match only (:func:`.access.require_record`)."""
        reader, _ = reader_in(uow, club, who)
        view = self._view(uow, club, match_id, reader)
        require_record(reader, club, view.record.match.finished)
        return view.log()

    def acta(self, club: str, match_id: int, *, who: Caller | None = None) -> dict[str, Any]:
        """The signed ``domino-acta/2`` of the club's finished match (``Actas.acta``: NotFinished
        while in play), for its page's download; without a token, of a public club only
        (:func:`.access.require_record`)."""
        return self.acta_page(club, match_id, who=who)["acta"]

    @use_case(READ)
    def acta_page(self, uow: UnitOfWork, club: str, match_id: int, *,
                  who: Caller | None = None) -> dict[str, Any]:
        """The printable acta: the club, the signed acta (:meth:`acta`) and its sides' names."""
        reader, info = reader_in(uow, club, who)
        view = self._view(uow, club, match_id, reader)
        require_record(reader, club, view.record.match.finished)
        acta = self.svc.actas.acta.within(uow, match_id, who=reader)
        names = [p["name"] for p in sorted(acta["players"], key=lambda p: p["seat"])]
        return {"club": info, "acta": acta, "sides": side_names(acta["rules"], names)}

    @use_case(READ)
    def sheet(self, uow: UnitOfWork, club: str, match_id: int, seq: int, *,
              who: Caller | None = None) -> dict[str, Any]:
        """The dispute sheet of dispute ``seq`` of the club's match (``Disputes.sheet``)."""
        seq = checks.count(seq, "seq")
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


def _text(value: Any, what: str) -> str | None:
    """A filter's text: None for none (or blank), else at most 1,000 characters of text
    without control characters."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str) or len(value) > 1000 or any(ord(c) < 32 for c in value):
        raise Invalid("%(what)s must be text of at most 1000 characters, without control "
                      "characters", what=what)
    return value.strip()


def _sides(summary: dict[str, Any]) -> list[str]:
    return side_names(summary["rules"], summary["players"])


def _name(names: list[str], index: int | None) -> str | None:
    return names[index] if index is not None and 0 <= index < len(names) else None


def _round(r: dict[str, Any], line: dict[str, Any], players: list[str],
           sides: list[str], rules: Rules) -> dict[str, Any]:
    """A report's round for the page: its names, its line of play (with the points family's
    spinner and arms), the rulings that count in it (``view.round_lines``, each with its
    side's name), ``side_points``, what it gave each side, its penalties included (the rounds'
    side_points add up to the totals), and ``scored``: the report's scoring plays, each with
    its player's and side's names and the tile it placed."""
    rulings = [{**ruling, "side_name": _name(sides, ruling.get("side"))}
               for ruling in line.get("rulings", [])]
    # what the round scored for each side (the report's scores: its end points, and in the
    # points family every play's too, after busts), then its penalties
    points = list(r.get("scores") or [0] * len(sides))
    if len(points) != len(sides):
        points = [0] * len(sides)
    for ruling in rulings:
        if ruling["type"] == "penalty" and ruling["side_name"] is not None:
            points[ruling["side"]] += ruling["points"]
    plays = line.get("plays", {})
    scored = [{**entry, "name": _name(players, entry["seat"]), "tile": plays.get(entry["seq"]),
               "side": rules.side_of(entry["seat"]),
               "bust": bool(entry.get("bust"))}
              for entry in r.get("scored") or ()]
    if scored:
        scored = [{**entry, "side_name": _name(sides, entry["side"])} for entry in scored]
    return {**r, "opener_name": _name(players, r["opener"]),
            "winner_name": _name(sides, r["winner"]),
            "blocked_by_name": _name(players, r["blocked_by"]),
            "line": line.get("line", []), "spinner": line.get("spinner"),
            "arms": line.get("arms"), "rulings": rulings, "side_points": points,
            "scored": scored}





def _listed(m: dict[str, Any]) -> dict[str, Any]:
    sides = _sides(m)
    return {"id": m["id"], "date": m["date"], "table": m["table"], "event": m["event"],
            "status": m["status"], "round": m["round"], "sides": sides,
            "totals": m["totals"], "winner": m["winner"], "winner_name": _name(sides, m["winner"]),
            "violations": m["violations"],
            # a side of two players: its sentences agree with two (words.events.won_by)
            "partnerships": bool(m["rules"].get("partnerships"))}


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
