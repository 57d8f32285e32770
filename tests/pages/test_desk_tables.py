"""The club desk's live matches say two matches in play at one table (issue 31: two live
matches at "mesa 2" without a word): each row names the other, in the page's language, over
HTTP with a referee's token; and a table the club named is read as written ("Mesa 2", not
"mesa Mesa 2")."""

from __future__ import annotations

import re

import pytest
from api_helpers import Api

SAID = {"en": "Match {id} is in play at this table too.",
        "es": "La partida {id} también está en juego en esta mesa.",
        "it": "Anche la partita {id} è in corso a questo tavolo."}


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_two_live_matches_at_one_table_are_said_in_their_rows(api: Api, lang: str) -> None:
    svc = api.service
    first = svc.recording.create_match("casino", "mano-a-mano", ["Ana", "Beto"], table="mesa 2")["id"]
    second = svc.recording.create_match("casino", "mano-a-mano", ["Carla", "Dani"], table="Mesa 2")["id"]
    alone = svc.recording.create_match("casino", "mano-a-mano", ["Ana", "Dani"], table="mesa 3")["id"]
    answer = api.client.get("/clubs/casino/desk", headers={
        "Authorization": f"Bearer {api.tokens['casino', 'referee']}", "Accept-Language": lang,
        "Accept": "text/html"})
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)

    def row(match_id: int) -> str:
        found = re.search(rf'<tr data-match-id="{match_id}".*?</tr>', html, re.S)
        assert found, match_id
        return found.group(0)

    assert SAID[lang].format(id=second) in row(first)
    assert SAID[lang].format(id=first) in row(second)
    assert "data-same-table" not in row(alone)
    # a table the club named is read as written: "Mesa 2", never "mesa Mesa 2"
    word = {"en": "table", "es": "mesa", "it": "tavolo"}[lang]
    assert " · Mesa 2" in row(second) and f"{word} Mesa 2" not in html and f"{word} mesa 2" not in html
