"""One rating on one scale (docs/standings.md, "The rating"): for a player, the standings page,
the player's page (its figure, its chart's points and its table), the standings' JSON and CSV,
the rating history and ``domino standings`` all show the same number, 1000 for a newcomer."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from click.testing import CliRunner
from pages_site import build_site

from cli.main import main
from words import formats

WHO = "Ana"


def number_in(html: str, pattern: str) -> str:
    found = re.search(pattern, html, re.S)
    assert found, pattern
    return found.group(1)


def test_the_player_page_the_standings_and_the_cli_show_one_number(tmp_path: Any,
                                                                   monkeypatch: Any) -> None:
    url = f"sqlite:///{tmp_path / 'domino.db'}"
    site = build_site(url, reuse=True)
    client, svc = site.api.client, site.api.service
    try:
        row = next(r for r in svc.standings.table("casino") if r.get("player") == WHO)
        rating = row["rating"]
        assert type(rating) is int and rating == row["rating_points"]
        assert rating != 1000  # Ana played: her rating moved

        viewer = site.api.auth("viewer")
        as_json = client.get("/api/v1/clubs/casino/standings", headers=viewer).json
        assert next(r for r in as_json if r["player"] == WHO)["rating"] == rating
        table = csv.DictReader(io.StringIO(client.get("/api/v1/clubs/casino/standings?format=csv",
                                                     headers=viewer)
                                          .get_data(as_text=True)))
        assert int(next(r for r in table if r["player"] == WHO)["rating"]) == rating

        shown = formats.number(rating, "en")
        page = client.get("/clubs/casino").get_data(as_text=True)
        cell = number_in(page, r'<th scope="row"[^>]*>\s*<a [^>]*>' + WHO + r'</a>.*?data-col="rating" '
                               r'data-value="(\d+)">([\d,]+)')
        assert int(cell) == rating and shown in page

        player = site.players()[WHO]
        page = client.get(f"/clubs/casino/players/{player}").get_data(as_text=True)
        figure = number_in(page, r"<dt>Rating</dt><dd>([\d,]+)")
        assert figure == shown
        history = svc.standings.rating_history("casino", WHO)
        assert history[-1]["rating"] == rating
        assert f"<td class=\"num\">{shown}" in page  # the table's last point

        monkeypatch.setenv("DOMINO_DATABASE_URL", url)
        monkeypatch.setenv("COLUMNS", "200")
        out = CliRunner().invoke(main, ["--lang", "en", "standings", "--club", "casino"]).output
        line = next(line for line in out.splitlines() if f" {WHO} " in line)
        assert re.search(rf"\b{re.escape(shown)}\??\s", line + " "), line
    finally:
        svc.close()
