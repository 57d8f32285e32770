"""The club of the page tests: ``casino`` made public, with four finished parejas matches over
two months and two events, a finished mano-a-mano match with a renege ruled on, and the live
match of api_helpers with a few tiles played; ``other`` stays private (its live match only).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from api_helpers import Api, api_over, make_api, reused_api
from sqlalchemy import Engine
from template_helpers import seeded

from referee.core.log import make_log, write_log
from referee.core.simulate import random_match
from referee.service import Service

# (date, event, players in seat order, simulator seed)
FINISHED = [
    ("2026-03-07", "Spring cup", ["Ana", "Beto", "Carla", "Dani"], 1),
    ("2026-03-21", "Spring cup", ["Ana", "Elena", "Carla", "Fede"], 2),
    ("2026-04-04", "League", ["Beto", "Elena", "Dani", "Fede"], 3),
    ("2026-04-18", "League", ["Ana", "Dani", "Elena", "Beto"], 4),
]
APRIL = {"from": "2026-04-01", "to": "2026-04-30"}
# tests/service/test_service_disputes.py's renege: seat 1 passes at 3 holding the 6-4 it plays
# at 5; seat 0 goes out at 6 and wins. Ruled: it stands.
SMALL = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none", "target": 5}
RENEGE = [{"type": "deal"}, {"type": "play", "seat": 0, "tile": "6-6"},
          {"type": "pass", "seat": 1}, {"type": "play", "seat": 0, "tile": "6-5"},
          {"type": "play", "seat": 1, "tile": "6-4"}, {"type": "play", "seat": 0, "tile": "5-5"},
          {"type": "reveal", "seat": 1, "tiles": ["3-3", "2-1"]},
          {"type": "stands", "target": 3, "reason": "both sides agreed to play on"}]
LIVE_PLAYS = 4  # events played in the live match after its deal


@dataclass
class Site:
    api: Api
    finished: list[int] = field(default_factory=list)  # the parejas matches, in FINISHED order
    disputed: int = 0  # the mano-a-mano match
    live: int = 0  # casino's match in progress

    def players(self, club: str = "casino") -> dict[str, int]:
        found, _ = self.api.service.players.list(club, limit=100)
        return {p["name"]: p["id"] for p in found}


def build_site(database_url: str, *, reuse: bool = False) -> Site:
    """The club of the page tests on ``database_url``, with an app of its own, or with
    ``reuse`` the session's one for these settings (api_helpers.reused_api: for a test that
    neither changes its app nor keeps it past its own end). The database is built once a
    session and copied (template_helpers.seeded)."""
    api = (reused_api if reuse else make_api)(database_url, ACCESS_LOG="0")
    site = Site(api)
    site.finished, site.disputed, site.live = seeded(api.service.engine, "pages site", _fill)
    return site


def _fill(engine: Engine) -> tuple[list[int], int, int]:
    """The API tests' clubs (api_helpers), then the page tests' matches, the live one's plays
    appended over HTTP as a table would; the matches' ids."""
    service = Service(engine)
    api = api_over(service)
    service.clubs.set_public("casino", True)
    finished = []
    for date, event, players, seed in FINISHED:
        header, events = random_match("parejas", players, random.Random(seed))
        header = {**header, "date": date, "event": event}
        finished.append(service.recording.import_log("casino", write_log(make_log(header, events)))["id"])
    disputed = service.recording.create_match("casino", SMALL, ["Ana", "Beto"], date="2026-05-20")["id"]
    for event in RENEGE:
        service.recording.record_event(disputed, event, expected_seq=None)
    live = api.matches["casino"]
    api.record(live, api.events[1:1 + LIVE_PLAYS], start=1)
    for match_id in (*finished, disputed):
        assert service.reading.get_match(match_id)["status"] == "finished"
    service.notifier.close()
    return finished, disputed, live


def live_hidden_tiles(site: Site) -> set[str]:
    """The tiles of the live match's hands that the table has not seen: dealt, not played."""
    deal = site.api.events[0]
    played = {e["tile"] for e in site.api.events[1:1 + LIVE_PLAYS] if e["type"] == "play"}
    return {tile for hand in deal["hands"] for tile in hand} - played


class Tables(HTMLParser):
    """The tables of a page: caption, header texts, and rows of cell texts; every tile
    (data-tile) and every link; the <link rel=alternate> twin."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict[str, Any]] = []
        self.tiles: list[str] = []
        self.links: list[str] = []
        self.alternate: str | None = None
        self.lang: str | None = None
        self._cell: list[str] | None = None
        self._row: list[str] | None = None
        self._in_caption = False
        self._in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang")
        elif tag == "link" and a.get("rel") == "alternate":
            self.alternate = a.get("href")
        elif tag == "a" and a.get("href"):
            self.links.append(a["href"] or "")
        elif tag == "table":
            self.tables.append({"caption": "", "head": [], "rows": [], "id": a.get("id"),
                                "scopes": []})
        elif tag == "caption":
            self._in_caption = True
        elif tag == "thead":
            self._in_head = True
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []
            if tag == "th" and self.tables:
                self.tables[-1]["scopes"].append(a.get("scope"))
        if a.get("data-tile"):
            self.tiles.append(a["data-tile"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "caption":
            self._in_caption = False
        elif tag == "thead":
            self._in_head = False
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(re.sub(r"\s+", " ", "".join(self._cell)).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None and self.tables:
            table = self.tables[-1]
            (table["head"] if self._in_head else table["rows"]).append(self._row)
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._in_caption and self.tables:
            self.tables[-1]["caption"] += data
        if self._cell is not None:
            self._cell.append(data)

    def table(self, table_id: str) -> dict[str, Any]:
        return next(t for t in self.tables if t["id"] == table_id)


def parse(html: str) -> Tables:
    parser = Tables()
    parser.feed(html)
    return parser
