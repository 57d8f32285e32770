"""The club desk's home (``/clubs/{club}/desk``, docs/desk.md): what the caller's role may do
there, and the data of each section it may see. The desk page lays this out and its script
calls the REST API for each action; which section a role gets is decided here, and every
action is decided again by its own use case.

- the secretary (``admin``): the club's settings, its players, its tokens (a league team
  captain's said as one);
- the referee (``referee``, and an admin above it): the matches (a match with no deal may be
  withdrawn; a live match with a time limit shows its clock, and time may be called from it),
  the disputes desk and the tournaments (their own pages).
A viewer or a scorekeeper of the club gets the page with no section; a caller without a token
is asked to sign in, one of another club is refused.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Sequence

from ..core.rules import PRESETS
from ..core.vocab import (
    ABANDONED,
    DEFAULT_TIE_BREAKERS,
    FINISHED,
    IN_PROGRESS,
    LANGUAGES,
    MAX_DEFAULT_TARGET,
    TIE_BREAKERS,
)
from ..store import leagues as league_store
from .access import Action, Caller, action_for_event, desk_caller, may, require
from .clubs import time_zones
from .uow import PRIMARY, UnitOfWork, use_case

# How many players, tokens and matches the desk lists (the newest matches; the API pages on).
DESK_LIMIT = 500
MATCH_GROUPS = (IN_PROGRESS, FINISHED, ABANDONED)
# The event the desk's Time button records (docs/rules.md, "Time").
TIME_EVENT = {"type": "time"}


class Desk:
    def __init__(self, service: Any) -> None:
        self.service = service
        self.units = service.units

    @use_case(PRIMARY)
    def home(self, uow: UnitOfWork, club: str, *, who: Caller | None) -> dict[str, Any]:
        """The desk for ``who``: ``club``, ``role``, ``sections`` (which it gets: settings,
        players, tokens, matches, disputes, tournaments) and each section's data, in one
        snapshot of the primary (the desk acts on what it shows, and reloads after acting)."""
        who = desk_caller(who)
        require(who, club, Action.READ)
        svc = self.service
        data: dict[str, Any] = {"club": svc.clubs.get_club.within(uow, club, who=who),
                                "role": who.role, "label": who.label}
        manage, rule = may(who, club, Action.MANAGE), may(who, club, Action.RULE)
        data["sections"] = {"settings": manage, "players": manage, "tokens": manage,
                            "matches": rule, "disputes": rule, "tournaments": rule}
        if manage:
            breakers = svc.standings.tie_breakers.within(uow, club, who=who)
            data["settings"] = {"tie_breakers": breakers,
                                "all_tie_breakers": list(TIE_BREAKERS),
                                "default_tie_breakers": list(DEFAULT_TIE_BREAKERS),
                                "time_zones": sorted(time_zones()),
                                "languages": list(LANGUAGES),
                                # the presets a new match may start from, with their own targets
                                "presets": [{"name": name, "target": rules["target"]}
                                            for name, rules in PRESETS.items()],
                                "max_target": MAX_DEFAULT_TARGET}
            data["players"] = svc.players.list.within(uow, club, limit=DESK_LIMIT, who=who)[0]
            tokens = svc.tokens.list_tokens.within(uow, club, limit=DESK_LIMIT, who=who)[0]
            tokens = [t for t in tokens if t["revoked_at"] is None]
            # A league team's captain's token is a scorekeeper's bound to its team: the list
            # says whose captain it is (``captain``: season, season_name, team, name), as the
            # captain's phone does, not "scorekeeper".
            captains = league_store.captains(uow.conn, [t["id"] for t in tokens
                                                        if t["role"] == "scorekeeper"])
            data["tokens"] = [{**t, "captain": captains[t["id"]]._asdict()
                               if t["id"] in captains else None} for t in tokens]
        if rule:
            matches = svc.reading.list_matches.within(uow, club, limit=DESK_LIMIT, who=who)[0]
            at_table = live_at_table(matches)
            for m in matches:
                # A match not dealt yet may be withdrawn (abandon); one with a deal is ruled on.
                m["may_abandon"] = m["status"] == IN_PROGRESS and not m["round"]
                m["clock"] = self.clock(uow, m, who)
                m["same_table"] = [other for other in at_table.get(table_key(m["table"]), ())
                                   if other != m["id"]] if m["status"] == IN_PROGRESS else []
            data["matches"] = {status: [m for m in matches if m["status"] == status]
                               for status in MATCH_GROUPS}
        return data

    def clock(self, uow: UnitOfWork, match: dict[str, Any],
              who: Caller) -> dict[str, Any] | None:
        """A live match's clock, when its rules have a time limit (None otherwise): ``limit``
        (minutes), ``started_at`` (its first event's, where the clock counts from; None before
        any), ``time_called`` (the seq of its ``time`` event, or None) and ``may_call``
        (whether ``who`` may record that event now: the access recording it asks, and time not
        called yet; recording decides again). The start and the call are the match screen's,
        the very ones a phone's clock shows (:meth:`.view.MatchView.screen`)."""
        limit = match["rules"].get("time_limit")
        if match["status"] != IN_PROGRESS or not limit:
            return None
        screen = self.service.reading.screen.within(uow, match["id"], who=who)
        may_record = may(who, screen.summary["club"], action_for_event(TIME_EVENT))
        return {"limit": limit, "started_at": screen.started_at,
                "time_called": screen.time_called,
                "may_call": may_record and screen.time_called is None}


def table_key(label: Any) -> str | None:
    """A table's label as the desk compares two: NFC, case and runs of spaces ignored ("Mesa  2"
    is "mesa 2"); None for no table."""
    if not isinstance(label, str) or not label.strip():
        return None
    return " ".join(unicodedata.normalize("NFC", label).split()).casefold()


def live_at_table(matches: Sequence[dict[str, Any]]) -> dict[str, list[int]]:
    """The ids of the matches in play at each table (by :func:`table_key`): two at one table
    are a table's mistake (a match left open, a label typed twice) that the desk says."""
    found: dict[str, list[int]] = {}
    for m in matches:
        key = table_key(m.get("table"))
        if m["status"] == IN_PROGRESS and key is not None:
            found.setdefault(key, []).append(m["id"])
    return found
