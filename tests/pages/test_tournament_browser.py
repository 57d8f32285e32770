"""The tournament page in a real browser (Debian's chromium under playwright, as
test_pages_browser.py drives it): a public club's Swiss pairs event after one round played
and a second paired shows the event standing the API gives, row for row, and every round's
tables with their matches; it fits a 360-pixel phone. Screenshots at 360x800 and 1280x900 go
to tests/pages/artifacts/ (tournament-*.png). Skipped, saying why, without playwright or
chromium."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import make_api, served
from test_pages_browser import cells, pytestmark, screenshots  # noqa: F401 (pytestmark marks the browser tests)
from tournament_helpers import RULES, play_round

PAIRS = [["Ana", "Beto"], ["Carla", "Dani"], ["Eva", "Fede"], ["Gabi", "Hugo"], ["Ines", "Juan"]]
PATH = "/clubs/casino/tournaments/copa"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('tournament') / 'domino.db'}",
                   ACCESS_LOG="0")
    svc = api.service
    svc.clubs.set_public("casino", True)
    svc.tournaments.create("casino", "copa", "Copa de otoño", rules=RULES, format="pairs",
                           rounds=3, entrants=PAIRS, bye_points=15, starts_on="2026-11-28")
    svc.tournaments.pair("casino", "copa")
    play_round(svc, "casino", "copa", 1, seed=41)
    svc.tournaments.pair("casino", "copa")
    with served(api.app) as base:
        yield api, base
    svc.close()


def shown(row: dict[str, Any]) -> list[str]:
    difference = f"{row['difference']:+d}" if row["difference"] else "0"
    name = " & ".join(row["partners"])
    return [str(row["rank"]), name, *(str(row[k]) for k in (
        "played", "won", "lost", "byes", "points_for", "points_against")), difference]


def test_the_page_shows_the_standings_the_api_gives(server: tuple[Any, str], page: Any) -> None:
    api, base = server
    response = page.goto(base + PATH)  # a public club: no token
    assert response.status == 200
    assert page.title() == "Copa de otoño · Casino · domino-referee"
    standing = page.request.get(f"{base}/api/v1/clubs/casino/tournaments/copa/standings")
    assert standing.status == 200
    rows = standing.json()
    assert rows and cells(page, "#event-standings tbody tr") == [shown(r) for r in rows]
    assert any(r["byes"] == 1 and r["points_for"] >= 15 for r in rows)

    rounds = page.request.get(f"{base}/api/v1/clubs/casino/tournaments/copa").json()["paired_rounds"]
    for r in rounds:
        section = page.locator(f"section[data-round='{r['number']}']")
        assert section.locator("tbody tr[data-table]").count() == len(r["tables"])
        for t in r["tables"]:
            row = section.locator(f"tr[data-table='{t['table']}']")
            assert row.locator("td").nth(1).text_content() == t["sides"][0]["name"]
            assert row.locator(f"a[href='/clubs/casino/matches/{t['match']}']").count() == 1
    assert page.locator("section[data-round='2'] h2").text_content().strip().endswith("Paired")
    page.locator("section[data-round='1'] summary").click()
    assert page.locator("section[data-round='1'] .explanation").is_visible()
    assert "the leaders' table" in page.locator("section[data-round='1'] .explanation").text_content()
    screenshots(page, "tournament")

    page.set_viewport_size({"width": 360, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
