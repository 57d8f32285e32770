"""Who sees what, over HTTP: the scorekeeper that typed an open deal sees those hands and the
legal plays; a viewer and a second scorekeeper see the table's view on the screen, the events,
the log and a refusal."""

from __future__ import annotations

import json
import re

from api_helpers import Api

HANDS = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
         ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"]]
SECRET = set(HANDS[0][1:] + HANDS[1])


def secrets_in(text: str) -> set[str]:
    return {t for t in re.findall(r"\d-\d", text) if t in SECRET}


def test_the_recording_token_sees_its_deal_and_the_others_do_not(api: Api) -> None:
    svc = api.service
    second = svc.tokens.create_token("casino", "scorekeeper", label="second phone")
    other = {"Authorization": f"Bearer {second}"}
    created = api.client.post("/api/v1/clubs/casino/matches", headers=api.auth("scorekeeper"),
                              json={"rules": "mano-a-mano", "players": ["Ana", "Beto"]}).json
    match_id = created["id"]
    assert api.append(match_id, {"type": "deal", "hands": HANDS}, 0).status_code == 201
    answer = api.append(match_id, {"type": "play", "seat": 0, "tile": "6-6"}, 1)
    assert answer.status_code == 201
    assert answer.json["position"]["hands"][1] == sorted(HANDS[1])  # the recorder's own deal

    mine = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("scorekeeper")).json
    assert {p["tile"] for p in mine["legal"]["plays"]} == {"6-4", "6-3"}
    assert not mine["hands_hidden"]
    for headers in (api.auth("viewer"), other):
        screen = api.client.get(f"/api/v1/matches/{match_id}", headers=headers)
        assert screen.json["hands_hidden"] and screen.json["hands"] == [None, None]
        # The pickers of tiles not seen name every tile (that fits) and is not on the line,
        # whatever the hidden hands hold; nothing else names a tile the table has not seen.
        shown = screen.json
        assert shown.pop("unseen_plays") == [{"tile": f"6-{b}", "end": 6} for b in range(6)]
        assert len(shown.pop("unseen")) == 27  # all but the 6-6 on the line
        assert not secrets_in(json.dumps(shown))
        for path in ("events", "log", "report"):
            body = api.client.get(f"/api/v1/matches/{match_id}/{path}", headers=headers)
            assert body.status_code == 200 and not secrets_in(body.get_data(as_text=True)), path

    refused = api.client.post(f"/api/v1/matches/{match_id}/events", json={"type": "pass", "seat": 1},
                              headers={**other, "If-Match": '"2"'})
    assert refused.status_code == 422 and not secrets_in(refused.get_data(as_text=True))
    told = api.client.post(f"/api/v1/matches/{match_id}/events", json={"type": "pass", "seat": 1},
                           headers=api.auth("scorekeeper", **{"If-Match": '"2"'}))
    assert told.status_code == 422 and secrets_in(json.dumps(told.json))  # its own deal
