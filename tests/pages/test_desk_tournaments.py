"""The tournament desk's pages over HTTP (no browser): the sign-in page without a token, the
director's hooks for a referee or an admin, a scorekeeper's or viewer's token refused by the
server (403, no director action shown), the did-you-mean of pasted names, the pairing sheet
and the table cards with a QR code of each table's match on /score."""

from __future__ import annotations

import re
from typing import Any

import pytest
from api_helpers import UNREADABLE_JSON, Api

DESK = "/clubs/casino/desk/tournaments"
API = "/api/v1/clubs/casino/tournaments"
EIGHT = ["Ana", "Beto", "Carla", "Dani", "Eva", "Fede", "Gabi", "Hugo"]


def html(response: Any) -> str:
    return response.get_data(as_text=True)


def night(api: Api) -> list[dict[str, Any]]:
    """A rotating tournament of eight, round 1 paired: its tables."""
    api.service.tournaments.create("casino", "noche", "Noche", rules={"preset": "parejas"},
                                   format="rotating", rounds=3, entrants=EIGHT)
    return api.service.tournaments.pair("casino", "noche")["tables"]


def test_without_a_token_the_desk_answers_the_sign_in_page(api: Api) -> None:
    night(api)
    for path in (DESK, DESK + "/noche", DESK + "/noche/rounds/1/cards"):
        answer = api.client.get(path)
        assert answer.status_code == 401
        page = html(answer)
        assert 'name="token"' in page and 'data-action="sign-in"' in page
        assert "tournament-create" not in page and "Noche" not in page
    assert api.client.post(DESK + "/noche/names", json={"names": ["Ana"]}).status_code == 401


@pytest.mark.parametrize("role", ["viewer", "scorekeeper"])
def test_a_scorekeeper_or_viewer_is_refused_by_the_server(api: Api, role: str) -> None:
    tables = night(api)
    for path in (DESK, DESK + "/noche", DESK + "/noche/rounds/1/cards",
                 DESK + "/noche/rounds/1/pairings"):
        answer = api.client.get(path, headers=api.auth(role))
        assert answer.status_code == 403, path
        assert "data-action=" not in html(answer) and "/score/matches/" not in html(answer)
    assert api.client.post(DESK + "/noche/names", json={"names": ["Ana"]},
                           headers=api.auth(role)).status_code == 403
    for path, body in ((API, {"slug": "x", "name": "X", "format": "rotating",
                              "rules": "parejas", "rounds": 1}),
                       (API + "/noche/entrants", {"players": ["Zoe"]}),
                       (API + "/noche/entrants/1/withdraw", None), (API + "/noche/rounds", None),
                       (API + "/noche/rounds/1/repair", None), (API + "/noche/rounds/1/start", None)):
        answer = api.client.post(path, json=body, headers=api.auth(role))
        assert answer.status_code == 403, path
    assert api.service.tournaments.round("casino", "noche", 1)["tables"] == tables  # unchanged


@pytest.mark.parametrize("role", ["referee", "admin"])
def test_the_director_sees_the_desk_and_its_hooks(api: Api, role: str) -> None:
    listed = html(api.client.get(DESK, headers=api.auth(role)))
    for hook in ('data-form="tournament-new"', 'name="name"', 'name="slug"',
                 '<select id="t-format" name="format"', '<select id="t-rules" name="rules"',
                 'name="rounds"', 'name="time_limit"', 'data-action="tournament-create"'):
        assert hook in listed, hook
    assert '<option value="parejas"' in listed and '<option value="puerto-rico"' in listed
    assert '<option value="mano-a-mano"' not in listed  # not two partnerships
    tables = night(api)
    page = html(api.client.get(DESK + "/noche", headers=api.auth(role)))
    for hook in ('name="players"', 'data-action="enter"', 'data-action="withdraw"',
                 'data-action="re-pair"', 'data-action="start-tables"',
                 'data-print="pairings"', 'data-print="table-cards"', 'data-form="constraint"',
                 'href="/clubs/casino/tournaments/noche/scoreboard"'):
        assert hook in page, hook
    assert 'data-action="pair"' not in page  # round 1 is not finished
    for t in tables:
        assert f'data-table="{t["table"]}" data-match="{t["match"]}"' in page
        assert f'href="/score/matches/{t["match"]}"' in page
    assert f'href="{DESK}/noche"' in html(api.client.get(DESK, headers=api.auth(role)))


def test_the_names_pasted_are_checked_and_nothing_is_written(api: Api) -> None:
    night(api)
    api.service.players.create("casino", "Marisol")
    answer = api.client.post(DESK + "/noche/names", json={"names": ["Ana", "Marisoll", "Zoe"]},
                             headers=api.auth("referee"))
    assert answer.status_code == 200
    assert [(r["player"], r["close"], r["entrant"]) for r in answer.json] == [
        ("Ana", [], 1), (None, ["Marisol"], None), (None, [], None)]
    assert api.service.players.find("casino", "Zoe") is None
    for body in ({"names": "Ana"}, {"nombres": []}, {"names": [""]}):
        refused = api.client.post(DESK + "/noche/names", json=body, headers=api.auth("referee"))
        assert refused.status_code == 422
        assert refused.content_type.startswith("application/problem+json")


@pytest.mark.parametrize("body,kind", UNREADABLE_JSON)
def test_names_in_a_body_it_cannot_read_are_refused_saying_what_to_send(
        api: Api, body: bytes, kind: str) -> None:
    """Read as the API reads JSON (api.openapi.strict_json): nested past the recursion limit,
    it was a 500."""
    night(api)
    refused = api.client.post(DESK + "/noche/names", data=body, content_type=kind,
                              headers=api.auth("referee"))
    assert refused.status_code == 422 and refused.content_type.startswith("application/problem+json")
    assert 'send {"names": [a name, ...]}' in refused.json["detail"]


def test_the_cards_carry_each_tables_seats_and_the_qr_of_its_match(api: Api) -> None:
    tables = night(api)
    page = html(api.client.get(DESK + "/noche/rounds/1/cards", headers=api.auth("referee")))
    assert page.count('class="card-table"') == len(tables) == 2
    for t in tables:
        card = page.split(f'data-table="{t["table"]}"', 1)[1].split("</article>", 1)[0]
        assert f'data-match="{t["match"]}"' in card
        assert [re.sub(r"<[^>]+>", "", li).split(" ", 2)[-1] for li in
                re.findall(r"<li>(.*?)</li>", card)] == t["players"]
        assert "<svg" in card and f"http://localhost/score/matches/{t['match']}" in card
    sheet = html(api.client.get(DESK + "/noche/rounds/1/pairings", headers=api.auth("referee")))
    assert all(f'data-table="{t["table"]}"' in sheet for t in tables)
    assert api.client.get(DESK + "/noche/rounds/2/cards", headers=api.auth("referee")).status_code == 404
    assert api.client.get(DESK + "/nope", headers=api.auth("referee")).status_code == 404


@pytest.mark.parametrize("lang, side, team, seated", [("en", "Partnership", "Side", "partnership"),
                                                      ("es", "Pareja", "Equipo", "pareja"),
                                                      ("it", "Coppia", "Squadra", "coppia")])
def test_a_tables_sides_are_partnerships_in_every_language(api: Api, lang: str, side: str,
                                                           team: str, seated: str) -> None:
    """A tournament's tables are two partnerships (words.events.side_word decides the word,
    as on a match's page): the pairing sheet, the desk and the public page head their columns
    "Partnership 1" and "Partnership 2", and the seating reasons say the same word ("as
    partnership 1", "como pareja 1", "come coppia 1"); Spanish and Italian once said
    "Equipo"/"Squadra" (a team: a league's), English "side 1"."""
    night(api)
    headers = {**api.auth("referee"), "Accept-Language": lang}
    for url in (DESK + "/noche/rounds/1/pairings", DESK + "/noche", "/clubs/casino/tournaments/noche"):
        page = html(api.client.get(url, headers=headers))
        heads = re.findall(r'<th scope="col">([^<]*)</th>', page)
        assert f"{side} 1" in heads and f"{side} 2" in heads, (url, heads)
        assert not re.search(rf"\b{team} [12]\b", page), url
    public = html(api.client.get("/clubs/casino/tournaments/noche", headers=headers))
    seating = re.findall(r"<li>([^<]*\(\w+ 1 \w+ 3\)[^<]*)</li>", public)
    assert seating and all(f"{seated} 1" in s and team.lower() not in s for s in seating), seating
