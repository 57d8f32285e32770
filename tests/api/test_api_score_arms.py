"""The points family's layout on the scorekeeper's screen over HTTP (api/screens.py,
referee/service/screen.py): the open ends with the spinner's arms, their tiles and the count in
GET /matches/{id} and an append's screen, and, recording closed (the phone's way, plays being
public), the tiles not seen offered on every place they fit, the arms included."""

from __future__ import annotations

from pathlib import Path

from api_helpers import Api

from referee.core.log import read_log

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "all-fives.jsonl"


def _closed(event: dict) -> dict:
    """The example's event as a phone records it closed: no hands, no tile drawn."""
    if event["type"] == "deal":
        return {"type": "deal"}
    if event["type"] == "draw":
        return {"type": "draw", "seat": event["seat"]}
    return dict(event)


def test_a_closed_all_fives_screen_draws_the_arms_and_offers_them(api: Api) -> None:
    log = read_log(EXAMPLE.read_text())
    created = api.client.post("/api/v1/clubs/casino/matches", headers=api.auth("scorekeeper"),
                              json={"rules": "all-fives", "players": list(log.header.players)})
    match_id = created.json["id"]
    events = [_closed(e) for e in log.events[:10]]
    api.record(match_id, events, 0)
    # Event 11 covers the spinner's second side: its arms open.
    opened = api.append(match_id, _closed(log.events[10]), 10)
    assert opened.status_code == 201, opened.json
    screen = opened.json["screen"]
    assert screen == api.client.get(f"/api/v1/matches/{match_id}",
                                    headers=api.auth("scorekeeper")).json
    assert screen["spinner"] == "5-5" and screen["arms"] == {"up": [], "down": []}
    assert [(e["side"], e["pip"], e["kind"]) for e in screen["open_ends"]] == [
        ("left", 2, "plain"), ("right", 1, "plain"), ("up", 5, "empty_arm"),
        ("down", 5, "empty_arm")]
    assert screen["count"] == 3 and screen["ends"] == [2, 1]
    assert opened.json["position"]["open_ends"] == screen["open_ends"]
    # Closed: the hand on turn is not shown, so the picker offers every tile not seen on each
    # place it fits; a 5 goes on an arm (up and down alike: one play, named by its pip).
    assert screen["hands_hidden"] is True and screen["legal"]["plays"] is None
    offered = {(p["tile"], p["end"]) for p in screen["unseen_plays"]}
    assert ("5-3", 5) in offered and ("3-2", 2) in offered and ("6-1", 1) in offered
    assert ("5-2", 5) in offered and ("5-2", 2) in offered  # two places, two layouts
    assert all(p["end"] in (1, 2, 5, "left", "right", "up", "down") for p in screen["unseen_plays"])
    # A tile on the down arm: it shows on the arm, outward from the spinner.
    last = api.record(match_id, [_closed(e) for e in log.events[11:23]], 11)
    shown = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("viewer")).json
    assert last == 23 and shown["arms"] == {"up": [], "down": ["5-6"]}
    assert shown["open_ends"][3] == {"side": "down", "pip": 6, "kind": "plain"}
    assert shown["count"] == 12
