"""The scorekeeper's page over HTTP (api/score.py): its shells and /score/me, the screen's fields
for a recording screen (unseen, unseen_plays, leads, undo), and a scorekeeper's undo as an
append. The page itself runs in a browser: tests/pages/test_score_browser.py."""

from __future__ import annotations

import json
import re

from api_helpers import Api, assert_problem, score_me

from api.score import SEATINGS, seating
from referee.core.rules import PRESETS
from words.events import EVENTS, REASONS


def test_the_pages_are_shells_with_the_app_policy(api: Api) -> None:
    for path, marker, script in (("/score", 'data-score-page="start"', "start.js"),
                                 ("/score/matches/1", 'data-match="1"', "match.js")):
        page = api.client.get(path)
        assert page.status_code == 200 and page.mimetype == "text/html"
        html = page.get_data(as_text=True)
        assert marker in html and 'role="status"' in html
        # the page's one script is a module of the app's own; its words' translations are data
        assert re.findall(r"<script[^>]*>", html) == [
            '<script type="application/json" id="messages">',
            f'<script type="module" src="/static/score/{script}">']
        # English embeds no translation; the format is words.scripts', as every page's
        assert _embedded(html)["lang"] == "en" and _embedded(html)["messages"] == {}
        assert "script-src 'self'" in page.headers["Content-Security-Policy"]
        assert api.tokens["casino", "scorekeeper"] not in html
    assert api.client.get("/score/matches/x").status_code == 404


def test_me_says_whose_token_it_is(api: Api) -> None:
    me = api.client.get("/score/me", headers=api.auth("scorekeeper"))
    assert me.status_code == 200 and me.headers["Cache-Control"] == "private, no-store"
    assert me.json == {"club": "casino", "role": "scorekeeper", "label": "casino scorekeeper",
                       "captain": None,  # a league team's captain's: its season and team
                       "said": "Signed in to Casino as casino scorekeeper (scorekeeper)."}
    # the footer's line in the page's language: the club by its name, the role in words
    spoken = api.client.get("/score/me", headers=api.auth("referee", **{"Accept-Language": "es"}))
    assert spoken.json["said"] == "Sesión iniciada en Casino como casino referee (árbitro)."
    # the token a club is made with: its label is the service's code, said in the language
    # (the phone's footer read "como first admin (secretario)"); the JSON keeps the code
    first = api.service.clubs.create_club("ceiba", "Peña La Ceiba", admin_token=True)["admin_token"]
    said = {"en": "Signed in to Peña La Ceiba as first admin (secretary).",
            "es": "Sesión iniciada en Peña La Ceiba como primer secretario (secretario).",
            "it": "Accesso a Peña La Ceiba come primo segretario (segretario)."}
    for lang, line in said.items():
        answer = score_me(api, first, lang)
        assert (answer["label"], answer["said"]) == ("first admin", line), lang
    assert_problem(api.client.get("/score/me"), 401, "unauthorized")
    assert_problem(api.client.get("/score/me", headers={"Authorization": "Bearer dr_x"}), 401)


def test_the_screen_offers_what_a_closed_table_may_do_and_the_undo(api: Api) -> None:
    created = api.client.post("/api/v1/clubs/casino/matches", headers=api.auth("scorekeeper"),
                              json={"rules": "parejas", "players": ["Ana", "Beto", "Carla", "Dani"]})
    match_id = created.json["id"]
    assert api.append(match_id, {"type": "deal"}, 0).status_code == 201
    screen = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("scorekeeper")).json
    assert screen["turn"] is None and screen["unseen_plays"] == []
    assert screen["leads"] == [{"seat": s, "tile": "6-6"} for s in range(4)]
    assert len(screen["unseen"]) == 28 and screen["undo"] == 1
    viewer = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("viewer")).json
    assert viewer["undo"] is None and viewer["leads"] == screen["leads"]

    assert api.append(match_id, {"type": "play", "seat": 2, "tile": "6-6"}, 1).status_code == 201
    screen = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("scorekeeper")).json
    assert screen["turn"] == 3 and screen["legal"]["plays"] is None
    assert screen["unseen_plays"] == [{"tile": f"6-{b}", "end": 6} for b in range(6)]
    assert screen["undo"] == 2

    # Undo: the scorekeeper's void of its own last entry; not another token's, nor a viewer's.
    undo = {"type": "void", "target": 2, "reason": "undone by the scorekeeper"}
    assert_problem(api.append(match_id, undo, 2, role="viewer"), 403, "forbidden")
    assert_problem(api.append(match_id, {**undo, "target": 1}, 2), 403, "forbidden")
    preview = api.client.post(f"/api/v1/matches/{match_id}/events?dry_run=true", json=undo,
                              headers=api.auth("scorekeeper"))
    assert preview.status_code == 200 and preview.json["stored"] is False
    assert api.append(match_id, undo, 1).status_code == 412  # stale: judged on the record now
    done = api.append(match_id, undo, 2, **{"Idempotency-Key": "undo-1"})
    assert done.status_code == 201 and done.json["position"]["line"] == []
    again = api.append(match_id, undo, 2, **{"Idempotency-Key": "undo-1"})
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    screen = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("scorekeeper")).json
    assert screen["undo"] == 1 and screen["seq"] == 3


def test_an_append_answers_the_screen_after_it(api: Api) -> None:
    """The 201 body's ``screen`` is what GET /matches/{id} answers the same token at that seq:
    a tap needs no second request. A retry answered after later events gets the table as it
    stood right after its own event."""
    created = api.client.post("/api/v1/clubs/casino/matches", headers=api.auth("scorekeeper"),
                              json={"rules": "mano-a-mano", "players": ["Ana", "Beto"]})
    match_id = created.json["id"]

    def screen(role: str = "scorekeeper") -> dict:
        return api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth(role)).json

    hands = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
             ["6-4", "5-4", "4-3", "3-2", "2-1", "1-0", "0-0"]]
    dealt = api.append(match_id, {"type": "deal", "hands": hands}, 0,
                       **{"Idempotency-Key": "deal-1"})
    assert dealt.status_code == 201 and dealt.json["screen"] == screen()
    assert dealt.json["screen"]["hands"][0] == sorted(hands[0])  # the recorder's own deal
    assert dealt.json["screen"]["undo"] == 1 and dealt.json["screen"]["seq"] == 1
    played = api.append(match_id, {"type": "play", "seat": 0, "tile": "6-6"}, 1, role="referee")
    assert played.status_code == 201 and played.json["screen"] == screen("referee")
    assert played.json["screen"]["line"] == ["6-6"] and played.json["screen"]["turn"] == 1
    disputed = api.append(match_id, {"type": "pass", "seat": 1, "disputed": True}, 2)
    assert disputed.json["screen"] == screen() and len(disputed.json["screen"]["disputes"]) == 1

    again = api.append(match_id, {"type": "deal", "hands": hands}, 0,
                       **{"Idempotency-Key": "deal-1"})
    assert again.headers["Idempotent-Replayed"] == "true"
    then = again.json["screen"]
    assert then["seq"] == 1 and then["line"] == [] and then["turn"] == 0
    table = ("seq", "phase", "line", "turn", "hands", "counts", "legal", "totals", "unseen",
             "unseen_plays", "leads")  # the summary's fields (updated_at...) are the match's now
    assert {k: then[k] for k in table} == {k: dealt.json["screen"][k] for k in table}


def test_the_append_answer_documents_its_screen(api: Api) -> None:
    spec = api.client.get("/api/openapi.json").json
    appended = spec["components"]["schemas"]["Appended"]
    assert "screen" in appended["required"]
    assert appended["properties"]["screen"]["allOf"][0]["$ref"].endswith("/Match") or \
        appended["properties"]["screen"].get("$ref", "").endswith("/Match")


def _embedded(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="messages">(.*?)</script>', html, re.S)
    assert found
    return json.loads(found.group(1))


def test_the_pages_embed_their_scripts_words_in_the_readers_language(api: Api) -> None:
    """In Spanish the page's own words are translated, and the scripts' msgids ("Who has the
    6-6?", plurals with every form) come as words.scripts makes them, with the server's table
    of an event's sentences (words.events) and their translations."""
    html = api.client.get("/score/matches/1", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert '<html lang="es">' in html and "Cargando la mesa…" in html
    words = _embedded(html)
    assert words["lang"] == "es" and words["plural"] == {"one": 0, "many": 1, "other": 2}
    assert words["messages"]["Who has the %(tile)s?"] == "¿Quién tiene el %(tile)s?"
    assert words["messages"]["%(who)s revealed %(num)s pip"] == [
        "%(who)s mostró %(num)s punto", "%(who)s mostró %(num)s puntos",
        "%(who)s mostró %(num)s puntos"]
    assert words["messages"]["undone by the scorekeeper"] == "deshecho por el anotador"
    assert words["events"] == [sentence.as_dict() for sentence in EVENTS]
    assert words["reasons"] == list(REASONS)
    start = api.client.get("/score", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "Giocatore 1" in start and "Seat 0" not in start and "Obiettivo (punti)" in start


def test_the_screen_tells_each_round_and_the_clock(api: Api) -> None:
    created = api.client.post("/api/v1/clubs/casino/matches", headers=api.auth("scorekeeper"),
                              json={"rules": {"preset": "mano-a-mano", "time_limit": 25},
                                    "players": ["Ana", "Beto"], "event": "Noche de club",
                                    "date": "2026-12-01", "table": "3"})
    assert created.status_code == 201
    match_id = created.json["id"]
    assert (created.json["event"], created.json["date"], created.json["table"]) == \
        ("Noche de club", "2026-12-01", "3")
    screen = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("scorekeeper")).json
    assert (screen["rounds"], screen["started_at"], screen["time_called"]) == ([], None, None)
    hands = [["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"],
             ["6-5", "6-4", "6-3", "6-2", "6-1", "6-0", "5-4"]]
    assert api.append(match_id, {"type": "deal", "hands": hands}, 0).status_code == 201
    time = api.append(match_id, {"type": "time"}, 1)  # a scorekeeper calls time
    assert time.status_code == 201
    screen = time.json["screen"]
    assert screen["time_called"] == 2 and screen["started_at"] is not None
    assert screen["rules"]["time_limit"] == 25
    assert screen["rounds"] == [{"round": 1, "opener": 0, "outcome": "in_progress", "winner": None,
                                 "winner_name": None, "points": 0, "pips": None,
                                 "blocked_by": None, "blocked_by_name": None, "scores": [0, 0]}]
    assert screen["said"] == {"phase": "Round 1: in progress", "rounds": [None],
                              "undo": "time called", "disputes": [], "undealt": "Boneyard"}
    played = api.append(match_id, {"type": "play", "seat": 0, "tile": "6-6"}, 2,
                        **{"Accept-Language": "it"})
    assert played.json["screen"]["said"]["undo"] == "Ana ha giocato 6-6"
    again = api.client.get(f"/api/v1/matches/{match_id}",
                           headers=api.auth("scorekeeper", **{"Accept-Language": "es"}))
    assert again.json["said"]["phase"] == "Ronda 1: en juego"  # mid-line: no capital
    assert "Accept-Language" in again.headers["Vary"]
    assert_problem(api.append(match_id, {"type": "time"}, 3), 422, "illegal-event")  # once
    spec = api.client.get("/api/openapi.json").json["components"]["schemas"]
    for name in ("rounds", "started_at", "time_called", "said"):
        assert name in spec["Match"]["properties"]
    assert set(spec["RoundResult"]["required"]) >= {"outcome", "winner_name", "points"}
    assert "suggestions" in spec["Problem"]["properties"]


def test_a_close_name_is_answered_with_the_players_it_may_be(api: Api) -> None:
    sk = api.auth("scorekeeper")
    matches = "/api/v1/clubs/casino/matches"
    assert api.client.post(matches, headers=sk, json={"rules": "mano-a-mano",
                                                      "players": ["José", "María"]}).status_code == 201
    before = api.client.get(matches, headers=sk).json
    refused = api.client.post(matches, headers=sk,
                              json={"rules": "mano-a-mano", "players": ["Jose", "Maria"]})
    body = assert_problem(refused, 422, "invalid")
    assert body["suggestions"] == {"Jose": ["José"], "Maria": ["María"]}
    assert api.client.get(matches, headers=sk).json == before  # nothing written


def test_the_start_forms_help_on_seats_is_the_presets_own(api: Api) -> None:
    """Each preset names the help on who sits where that fits it: partners only where four play
    in partnerships (not for mano-a-mano's two, nor veracruz's two to four each alone); the first
    preset's is the one shown as the page comes (start.js shows the chosen one's after)."""
    html = api.client.get("/score", headers={"Accept-Language": "es"}).get_data(as_text=True)
    chosen = dict(re.findall(r'<option value="([a-z-]+)"[^>]* data-seating="([a-z-]+)"', html))
    assert chosen == {name: seating(name) for name in PRESETS}
    assert (chosen["mano-a-mano"], chosen["parejas"], chosen["veracruz"],
            chosen["fives-and-threes"]) == ("two", "pairs", "alone", "pairs-at-four")
    helps = dict(re.findall(r'<p data-seating="([a-z-]+)"( hidden)?>', html))
    assert helps.keys() == set(SEATINGS.values())
    first = next(iter(PRESETS))
    assert [key for key, hidden in helps.items() if not hidden] == [seating(first)]
    said = dict(re.findall(r'<p data-seating="([a-z-]+)"[^>]*>([^<]*)</p>', html))
    assert "compañeros" not in said["two"] and "compañeros" not in said["alone"]
    assert "jugador 2." in said["two"] and "1 y 3 contra 2 y 4" in said["pairs-at-four"]
