"""The disputes desk's pages through the test client (api/desk_disputes.py): who gets the desk
(a referee; the sign-in page without a token, a 403 page for a viewer or scorekeeper), each open
dispute with its hooks and its evidence in words, a ruling previewed (nothing stored), refused
for a scorekeeper, told when stale; and the dispute sheet in en, es and it."""

from __future__ import annotations

import re
from typing import Any, Iterator
from urllib.parse import quote

import pytest
from api_helpers import UNREADABLE_JSON, Api, reused_api
from desk_disputes_site import DISPUTED, passed_holding_a_five

DESK = "/clubs/casino/desk/disputes"


@pytest.fixture
def api(tmp_path: Any) -> Iterator[Api]:
    made = reused_api(f"sqlite:///{tmp_path / 'domino.db'}", ACCESS_LOG="0")
    yield made
    made.service.close()


def preview(api: Api, match_id: int, role: str = "referee", **body: Any):  # type: ignore[no-untyped-def]
    return api.client.post(f"{DESK}/{match_id}/{DISPUTED}/preview",
                           json={"ruling": "standard", "reason": "renege", "seen": 7, **body},
                           headers=api.auth(role))


def text(html: str) -> str:
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


def test_without_a_token_the_desk_asks_to_sign_in(api: Api) -> None:
    passed_holding_a_five(api)
    page = api.client.get(DESK)
    assert page.status_code == 401
    html = page.get_data(as_text=True)
    assert 'name="token"' in html and 'data-action="sign-in"' in html
    assert "Lucía" not in html


@pytest.mark.parametrize("role", ["viewer", "scorekeeper"])
def test_a_viewer_or_scorekeeper_gets_a_403_page(api: Api, role: str) -> None:
    passed_holding_a_five(api)
    page = api.client.get(DESK, headers=api.auth(role))
    assert page.status_code == 403 and page.mimetype == "text/html"
    assert "may not do this" in page.get_data(as_text=True)
    assert "data-dispute" not in page.get_data(as_text=True)
    other = api.client.get(DESK, headers=api.auth("referee", club="other"))
    assert other.status_code == 403


def test_the_referee_sees_each_open_dispute_in_words(api: Api) -> None:
    match_id = passed_holding_a_five(api)
    page = api.client.get(DESK, headers=api.auth("referee"))
    assert page.status_code == 200
    assert page.headers["Cache-Control"] == "private, no-store"
    html = page.get_data(as_text=True)
    block = html[html.index(f'data-dispute="{match_id}:{DISPUTED}"'):]
    for hook in ('select id="d-%d-3-ruling" name="ruling"' % match_id, 'name="points"',
                 'name="reason"', 'data-action="preview"', "data-preview",
                 'data-action="rule"', 'data-print="sheet"'):
        assert hook in block, hook
    said = text(block)
    assert "3: Lucía Gómez passed" in said
    assert "Round 1, after event 2. Open ends: 5 and 5." in said
    assert "At fault Lucía Gómez (seat 2)" in said
    assert "Proven: the record proves this foul (event 5 completed the proof)." in said
    assert "5 Lucía Gómez played 5-2" in said  # a fact's event, in words
    assert "Standard penalty" in said
    assert "10 points to Marco Rossi: the rules' standard penalty." in said
    assert f"/clubs/casino/matches/{match_id}/disputes/3" in block
    assert "{&#34;type&#34;" not in block and '{"type"' not in block  # never raw JSON


def test_a_ruling_previewed_stores_nothing(api: Api) -> None:
    match_id = passed_holding_a_five(api)
    answer = preview(api, match_id)
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    body = answer.get_json()
    assert body["events"] == [{"type": "penalty", "side": 0, "points": 10, "target": 3,
                               "reason": "renege"}]
    assert body["refused"] is False and body["expected_seq"] == 7
    said = text(body["html"])
    assert "It would record event 8: penalty: 10 points to Marco Rossi for event 3 (renege)" in said
    assert "Marco Rossi 11 21" in said and "Lucía Gómez 0 0" in said
    assert "Winner: Marco Rossi (unchanged)" in said
    assert "Violations that would vanish: event 3: renege" in said
    annul = preview(api, match_id, ruling="annul").get_json()
    assert annul["refused"] is True and "would be refused" in text(annul["html"])
    assert api.service.reading.get_match(match_id)["last_seq"] == 7


@pytest.mark.parametrize("body,kind", UNREADABLE_JSON)
def test_a_preview_refuses_a_body_it_cannot_read(api: Api, body: bytes, kind: str) -> None:
    """Read as the API reads JSON (api.openapi.strict_json): nested past the recursion limit,
    it was a 500; NaN or a key twice were read as flask reads them."""
    match_id = passed_holding_a_five(api)
    refused = api.client.post(f"{DESK}/{match_id}/{DISPUTED}/preview", data=body,
                              content_type=kind, headers=api.auth("referee"))
    assert refused.status_code == 400
    assert refused.get_json() == {"message": "Send the ruling as a JSON object.", "stale": False}


def test_the_desks_twin_is_named_in_latin_1_whatever_the_club_typed(api: Api) -> None:
    """A header carries Latin-1 only: an RTL mark in the address, put into the Link header as
    it was, failed the answer (a 500 and a traceback, under uvicorn and waitress alike)."""
    for club in ("\u202ecasino", "caf\u00e9", "\u4e2d"):
        answer = api.client.get(f"/clubs/{club}/desk/disputes")
        assert answer.status_code == 401
        assert answer.headers["Link"] == (f'</api/v1/clubs/{quote(club)}/disputes>; '
                                          'rel="alternate"; type="application/json"')


def test_a_preview_refuses_what_the_service_refuses(api: Api) -> None:
    match_id = passed_holding_a_five(api)
    assert preview(api, match_id, role="scorekeeper").status_code == 403
    assert preview(api, match_id, role="viewer").status_code == 403
    assert api.client.post(f"{DESK}/{match_id}/3/preview", json={}).status_code == 401
    bad = preview(api, match_id, ruling="penalty", points=0)
    assert bad.status_code == 422 and "whole number above 0" in bad.get_json()["message"]
    assert preview(api, match_id, reason="").status_code == 422
    assert preview(api, match_id, ruling="pardon").status_code == 422
    assert api.client.post(f"{DESK}/{match_id}/3/preview", data="x",
                           headers=api.auth("referee")).status_code == 400
    assert preview(api, match_id, seen=6).get_json()["stale"] is True
    spanish = api.client.post(f"{DESK}/{match_id}/3/preview", json={"ruling": "penalty",
                              "reason": "r", "seen": 7}, headers=api.auth(
                                  "referee", **{"Accept-Language": "es"}))
    assert "número entero" in spanish.get_json()["message"]


def test_rulings_are_refused_server_side_for_a_scorekeeper(api: Api) -> None:
    match_id = passed_holding_a_five(api)
    ruling = {"type": "stands", "target": 3, "reason": "agreed"}
    assert api.append(match_id, ruling, 7, role="scorekeeper").status_code == 403
    assert api.append(match_id, ruling, 7, role="viewer").status_code == 403
    assert api.service.reading.get_match(match_id)["last_seq"] == 7


def test_a_stale_desk_is_told_another_desk_ruled_first(api: Api) -> None:
    match_id = passed_holding_a_five(api)
    assert preview(api, match_id).status_code == 200
    first = api.append(match_id, {"type": "stands", "target": 3, "reason": "first"}, 7,
                       role="referee", **{"Idempotency-Key": "desk-a"})
    assert first.status_code == 201
    again = api.append(match_id, {"type": "stands", "target": 3, "reason": "first"}, 7,
                       role="referee", **{"Idempotency-Key": "desk-a"})
    assert again.status_code == 201 and again.headers.get("Idempotent-Replayed") == "true"
    late = preview(api, match_id)
    assert late.status_code == 412 and "Another desk ruled first" in late.get_json()["message"]
    assert api.service.reading.get_match(match_id)["last_seq"] == 8
    page = api.client.get(DESK, headers=api.auth("referee")).get_data(as_text=True)
    assert "data-dispute=" not in page and f'data-ruled="{match_id}:3"' in page


SHEET_WORDS = {
    # the players listed as the language lists names (they were joined with ", ")
    "en": ["Players: Marco Rossi (seat 1) and Lucía Gómez (seat 2).", "Dispute sheet", "Club Casino", "3: Lucía Gómez passed", "Lucía Gómez (seat 2)",
           "5 Lucía Gómez played 5-2",
           "8: penalty: 10 points to Marco Rossi for event 3 (renege)", "Signatures", "Referee"],
    "es": ["Jugadores: Marco Rossi (asiento 1) y Lucía Gómez (asiento 2).", "Hoja de disputa", "Club Casino", "3: Lucía Gómez pasó", "Lucía Gómez (asiento 2)",
           "Lucía Gómez pasó con los extremos en 5 y 5",  # a fact, in Spanish
           "Firmas", "Árbitro", "penalización: 10 puntos para Marco Rossi"],
    "it": ["Giocatori: Marco Rossi (posto 1) e Lucía Gómez (posto 2).", "Verbale di contestazione", "Club Casino", "3: Lucía Gómez ha passato",
           "Lucía Gómez (posto 2)", "Firme", "Arbitro"],
}


@pytest.mark.parametrize("lang", sorted(SHEET_WORDS))
def test_the_dispute_sheet_in_words(api: Api, lang: str) -> None:
    match_id = passed_holding_a_five(api)
    api.service.disputes.apply_standard_penalty(match_id, 3, expected_seq=7, reason="renege")
    sheet = api.client.get(f"/clubs/casino/matches/{match_id}/disputes/3",
                           headers=api.auth("viewer", **{"Accept-Language": lang}))
    assert sheet.status_code == 200
    html = sheet.get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    said = text(html)
    for words in SHEET_WORDS[lang]:
        assert words in said, (words, said)
    assert "casino," not in said  # the club's name, not its slug
    assert "{&#34;" not in html and '{"type"' not in html  # no raw JSON
    assert "@media print" in html


def test_the_desk_words_what_the_record_only_suggests(api: Api) -> None:
    from desk_disputes_site import PASSED_HOLDING_A_FIVE, PLAYERS, RULES

    svc = api.service
    match_id = svc.recording.create_match("casino", {**RULES, "target": 50}, PLAYERS)["id"]
    for event in [*PASSED_HOLDING_A_FIVE[:5], {"type": "pass", "seat": 0}]:
        svc.recording.record_event(match_id, event, expected_seq=None)
    html = api.client.get(DESK, headers=api.auth("referee")).get_data(as_text=True)
    said = text(html[html.index(f'data-dispute="{match_id}:3"'):])
    assert "also suggests, without proving it (possible): 6: Marco Rossi passed · renege" in said


# A side is a player in singles and a partnership in pairs (words.events.side_word, the match
# page's decision): es/it said "Equipo" / "Squadra" (a team) for one against one, and the
# sheet's "Sides:" line, shown in pairs only, named no partnership.
SIDE_COLUMN = {"en": ("Player", "Partnership", "Partnerships:"),
               "es": ("Jugador", "Pareja", "Parejas:"),
               "it": ("Giocatore", "Coppia", "Coppie:")}
# the desk's rulings for one dispute of each: a penalty's points go to the sides opposing the
# seat at fault, a forfeit is the side at fault's, the sheet is printed for all: each said once,
# by the sides' names, in singles and pairs alike (the seat at fault is Lucía Gómez, seat 1;
# Beto, seat 1 of the pairs match, plays with Dani)
DESK_WORDS = {"en": ("10 points to {other}: the rules' standard penalty.",
                     "The points you give go to {other}.",
                     "The match is lost by {fault}, at fault.",
                     "(printable, for {all})"),
              "es": ("10 puntos para {other}: la penalización del reglamento.",
                     "Los puntos que dé van para {other}.",
                     "Partida perdida por {fault}, por su falta.",
                     "(para imprimir, para {all})"),
              "it": ("10 punti a {other}: la penalità del regolamento.",
                     "I punti che assegna vanno a {other}.",
                     "La partita è persa da {fault}, in fallo.",
                     "(da stampare, per {all})")}
AND = {"en": "and", "es": "y", "it": "e"}
PAIRS_HANDS = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
               ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"],
               ["6-2", "6-1", "6-0", "5-2", "5-1", "5-0", "4-2"],
               ["4-1", "4-0", "3-2", "3-1", "3-0", "2-0", "0-0"]]


def first_column(html: str) -> str:
    """The first column's heading of the page's last table: the score's, on the sheet and the
    preview."""
    found = re.search(r'<th scope="col"[^>]*>([^<]*)</th>', html[html.rindex("<table"):])
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize("lang", sorted(SIDE_COLUMN))
def test_the_sheet_and_the_preview_say_player_or_partnership(api: Api, lang: str) -> None:
    player, partnership, partnerships = SIDE_COLUMN[lang]
    single = passed_holding_a_five(api)
    headers = api.auth("referee", **{"Accept-Language": lang})
    shown = api.client.post(f"{DESK}/{single}/{DISPUTED}/preview", headers=headers,
                            json={"ruling": "standard", "reason": "renege", "seen": 7})
    assert first_column(shown.get_json()["html"]) == player
    sheet = api.client.get(f"/clubs/casino/matches/{single}/disputes/3", headers=headers)
    html = sheet.get_data(as_text=True)
    assert first_column(html) == player
    assert partnerships not in text(html)  # no partnerships' line in singles
    svc = api.service
    pairs = svc.recording.create_match("casino", {"preset": "parejas", "foul_points": 10},
                                       ["Ana", "Beto", "Carla", "Dani"])["id"]
    for event in [{"type": "deal", "hands": PAIRS_HANDS}, {"type": "play", "seat": 0, "tile": "6-6"},
                  {"type": "pass", "seat": 1, "disputed": True}]:
        svc.recording.record_event(pairs, event, expected_seq=None)
    html = api.client.get(f"/clubs/casino/matches/{pairs}/disputes/3", headers=headers).get_data(as_text=True)
    # the two partnerships listed as the language lists two names (CLDR: and / y / e)
    assert f"{partnerships} Ana &amp; Carla {AND[lang]} Beto &amp; Dani." in text(html)  # as escaped
    assert first_column(html) == partnership
    desk = api.client.get(DESK, headers=headers).get_data(as_text=True)
    names = {single: ("Marco Rossi", "Lucía Gómez"), pairs: ("Ana & Carla", "Beto & Dani")}
    for match_id, (other, fault) in names.items():
        block = desk[desk.index(f'data-dispute="{match_id}:3"'):]
        end = block.find("data-dispute=", 20)  # the next dispute's, if any
        block = text(block if end < 0 else block[:end]).replace("&amp;", "&")
        for words in DESK_WORDS[lang]:
            # both sides listed as the language lists two names (CLDR: and / y / e)
            both = f"{other} {AND[lang]} {fault}"
            words = words.format(other=other, fault=fault, all=both)
            assert words in block, (words, match_id)
        for team in ("equipo", "squadra", "partnership", "other player"):
            assert team not in block.lower(), (team, match_id)
