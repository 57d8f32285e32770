"""The points family's layout on the scorekeeper's screen over HTTP (api/screens.py,
referee/service/screen.py): the open ends with the spinner's arms, their tiles and the count in
GET /matches/{id} and an append's screen, and, recording closed (the phone's way, plays being
public), the tiles not seen offered on every place they fit, the arms included."""

from __future__ import annotations

import random
from pathlib import Path

from api_helpers import Api

from referee.core.log import read_log
from referee.core.simulate import random_match

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


def test_the_tiles_for_each_open_end_name_the_end_only_where_needed(api: Api) -> None:
    log = read_log(EXAMPLE.read_text())
    created = api.client.post("/api/v1/clubs/casino/matches", headers=api.auth("scorekeeper"),
                              json={"rules": "all-fives", "players": list(log.header.players)})
    match_id = created.json["id"]
    api.record(match_id, [_closed(e) for e in log.events[:11]], 0)
    screen = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("scorekeeper")).json
    places = {(p["side"], p["tile"]): (p["end"], p["count"]) for p in screen["places"]}
    # left 2, right 1, up and down 5 (no tile yet): a 5-3 on an arm counts 2 + 1 + 3
    assert places[("up", "5-3")] == (None, 6) and places[("down", "5-3")] == ("down", 6)
    # a 5-2 on the left or on an arm makes different layouts: the end is named either way
    assert places[("left", "5-2")] == ("left", 5 + 1) and places[("up", "5-2")] == ("up", 2 + 1 + 2)
    assert places[("right", "6-1")] == (None, 2 + 6)
    assert {side for side, _ in places} == {"left", "right", "up", "down"}
    # only tiles not seen are offered (the line's are not), each on an end it fits
    assert not any(tile in screen["line"] for _, tile in places)
    assert all(str(e["pip"]) in tile.split("-") for e in screen["open_ends"]
               for side, tile in places if side == e["side"])
    # a viewer's screen offers the same (the table sees the line, nothing of the hands)
    viewer = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("viewer")).json
    assert viewer["places"] == screen["places"]
    # the line family offers none
    other = api.client.post("/api/v1/clubs/casino/matches", headers=api.auth("scorekeeper"),
                            json={"rules": "mano-a-mano", "players": ["Ana", "Beto"]}).json["id"]
    api.record(other, [{"type": "deal"}, {"type": "play", "seat": 0, "tile": "6-6"}], 0)
    assert api.client.get(f"/api/v1/matches/{other}", headers=api.auth("scorekeeper")).json[
        "places"] == []


def test_scoring_plays_and_busts_are_said_in_the_readers_language(api: Api) -> None:
    players = ["Ana", "Beto", "Carla", "Dani"]
    events = random_match("fives-and-threes", players, random.Random(0))[1]
    created = api.client.post("/api/v1/clubs/casino/matches", headers=api.auth("scorekeeper"),
                              json={"rules": "fives-and-threes", "players": players})
    match_id = created.json["id"]
    api.record(match_id, [_closed(e) for e in events[:88]], 0)  # event 88: Beto's bust

    def said(lang: str) -> dict:
        return api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth(
            "scorekeeper", **{"Accept-Language": lang})).json

    screen = said("en")
    last = screen["rounds"][-1]["scored"][-1]
    assert last == {"seq": 88, "seat": 1, "count": 10, "points": 2, "bust": True, "total": 62}
    assert screen["totals"][1] == 60
    assert screen["said"]["scored"][-1][-1] == "bust: 62 is past 61"
    assert said("es")["said"]["scored"][-1][-1] == "se pasa: 62 supera 61"
    assert said("it")["said"]["scored"][-1][-1] == "sforato: 62 supera 61"
    # every scoring play: its count and points, each side's total after it adding up
    first = screen["rounds"][0]
    assert screen["said"]["scored"][0] == [
        f"{p['count']} — {p['points']} point" + ("s" if p["points"] != 1 else "")
        for p in first["scored"]]
    totals = [0, 0]
    for r in screen["rounds"]:
        for p in r["scored"]:
            if not p.get("bust"):
                totals[p["seat"] % 2] += p["points"]
                assert p["total"] == totals[p["seat"] % 2]
        totals = [a + b - sum(p["points"] for p in r["scored"] if p["seat"] % 2 == i
                              and not p.get("bust"))
                  for i, (a, b) in enumerate(zip(totals, r["scores"]))]
    assert totals == screen["totals"]
