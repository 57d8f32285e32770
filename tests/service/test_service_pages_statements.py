"""What a page reads, statement by statement, on SQLite and PostgreSQL: each page is one unit of
work that reads each row once (its memo): the club's row once however many use cases ask for
it (the club page read it five times: the club, the ratings' staleness, the tie-breakers, the
unranked setting, the matches), the club's players once, a match's row and events once, no
statement run twice with the same parameters."""

from __future__ import annotations

import re
import threading
from collections import Counter
from typing import Any, Callable

import pytest
from db_helpers import record_all, sample_match, statements
from sqlalchemy import event as sqlalchemy_event

from referee.service import Service
from referee.service.pages import Pages

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


@pytest.fixture
def season(service: Service, club: str) -> dict[str, Any]:
    """A public club with a tournament of one round played, a match in play and a ruling."""
    service.clubs.set_public(club, True)
    service.keys.init(club)
    service.tournaments.create(club, "copa", "Copa", rules="parejas", format="pairs", rounds=2,
                               entrants=[["Ana", "Beto"], ["Carla", "Dani"]], confirm_new=True)
    (table,) = service.tournaments.pair(club, "copa")["tables"]
    _, events = sample_match("parejas", seed=4)
    record_all(service, table["match"], events)
    live = service.recording.create_match(club, "parejas", PLAYERS)["id"]
    record_all(service, live, sample_match("parejas", seed=5)[1][:4])
    return {"finished": table["match"], "live": live,
            "ana": service.players.find(club, "Ana")["id"]}


def _tables(seen: list[Any]) -> Counter[str]:
    """How many statements read each table (the first it names after FROM)."""
    return Counter(m.group(1) for s in seen if (m := re.search(r"\bFROM (\w+)", s.text)))


def _repeated(seen: list[Any]) -> list[str]:
    """The statements run twice or more with the same parameters."""
    counted = Counter((s.text, repr(s.parameters)) for s in seen)
    return [text for (text, _), n in counted.items() if n > 1 and text.upper() != "BEGIN"]


def test_each_page_reads_each_row_once(service: Service, club: str,
                                       season: dict[str, Any]) -> None:
    pages = Pages(service)
    finished, live = season["finished"], season["live"]
    views: dict[str, Callable[[], Any]] = {
        "home": lambda: pages.home(club), "player": lambda: pages.player(club, season["ana"]),
        "match": lambda: pages.match(club, finished), "live": lambda: pages.match(club, live),
        "matches": lambda: pages.matches(club, player="Ana"),
        "players": lambda: pages.players(club), "tournaments": lambda: pages.tournaments(club),
        "tournament": lambda: service.tournaments.page(club, "copa"),
        "acta": lambda: pages.acta_page(club, finished), "log": lambda: pages.log(club, finished)}
    for name, view in views.items():
        with statements(service.engine) as seen:
            view()
        tables = _tables(seen)
        assert tables["clubs"] == 1, (name, seen)
        assert tables["tournaments"] <= 1, (name, seen)
        assert _repeated(seen) == [], name


def test_the_club_page_in_statements(service: Service, club: str,
                                     season: dict[str, Any]) -> None:
    """The club page: one transaction of 8 statements and its BEGIN (SQLite; 14 before the
    memo): the club, the ratings' staleness, the players, the ratings, the standing rows summed
    and head to head, the matches counted and listed; a live match is summarised from its
    record, cached. Transactions are counted by the engine's "begin" event: SQLite's BEGIN is
    the dialect's own step (store.db), not a statement SQLAlchemy executes."""
    begun: list[object] = []
    here = threading.get_ident()  # not the service's own threads (the notifier's, on PostgreSQL)

    def count(conn: object) -> None:
        if threading.get_ident() == here:
            begun.append(conn)

    sqlalchemy_event.listen(service.engine, "begin", count)
    try:
        with statements(service.engine) as seen:
            Pages(service).home(club)
    finally:
        sqlalchemy_event.remove(service.engine, "begin", count)
    texts = [s.text for s in seen]
    assert len(begun) == 1, texts
    if service.engine.dialect.name == "sqlite":
        assert len(texts) <= 8, texts
    assert _tables(seen)["clubs"] == 1 and _tables(seen)["players"] == 1
