"""The scorekeeper's page over HTTP (api/score.py): its shells and /score/me, the screen's fields
for a recording screen (unseen, unseen_plays, leads, undo), and a scorekeeper's undo as an
append. The page itself runs in a browser: tests/pages/test_score_browser.py."""

from __future__ import annotations

import re

from api_helpers import PROBLEM, Api, api, assert_problem  # noqa: F401


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
        assert '<script type="application/json" id="messages">{}</script>' in html
        assert "script-src 'self'" in page.headers["Content-Security-Policy"]
        assert api.tokens["casino", "scorekeeper"] not in html
    assert api.client.get("/score/matches/x").status_code == 404


def test_me_says_whose_token_it_is(api: Api) -> None:
    me = api.client.get("/score/me", headers=api.auth("scorekeeper"))
    assert me.status_code == 200 and me.headers["Cache-Control"] == "private, no-store"
    assert me.json == {"club": "casino", "role": "scorekeeper", "label": "casino scorekeeper"}
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
