"""Over HTTP (issue 31): a disputed event applied as played, its repeat refused (422, code
``repeat``), and a scorekeeper's undo refused once the match is over (403)."""

from __future__ import annotations

from api_helpers import Api, assert_problem


def test_a_disputed_pass_goes_on_and_its_repeat_is_refused(api: Api) -> None:
    match_id, events = api.matches["casino"], api.events
    # the first play after the lead: that seat holds a tile that fits, and passes instead
    at = next(i for i, e in enumerate(events) if i > 1 and e["type"] == "play")
    last = api.record(match_id, events[1:at], start=1)
    seat = events[at]["seat"]
    disputed = {"type": "pass", "seat": seat, "disputed": True}
    # (the deal was typed by another token: a referee sees the hand that makes it a renege)
    r = api.append(match_id, disputed, last, role="referee")
    assert r.status_code == 201 and r.json["violation"]["code"] == "renege"
    assert r.json["screen"]["turn"] == (seat + 1) % 4  # the next seat's moves are offered
    assert [d["seq"] for d in r.json["screen"]["disputes"]] == [last + 1]
    again = assert_problem(api.append(match_id, disputed, last + 1, role="referee"), 422,
                           "illegal-event")
    assert again["violation"]["code"] == "repeat" and again["violation"]["seq"] == last + 2
    shown = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("referee")).json
    assert shown["last_seq"] == last + 1 and shown["violations"] == 1


def test_a_scorekeepers_undo_is_refused_once_the_match_is_over(api: Api) -> None:
    match_id, events = api.matches["casino"], api.events
    last = api.record(match_id, events[1:], start=1)
    shown = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("scorekeeper")).json
    assert shown["finished"] and shown["undo"] is None
    undo = {"type": "void", "target": last, "reason": "undone by the scorekeeper"}
    body = assert_problem(api.append(match_id, undo, last), 403, "forbidden")
    assert "only a referee" in body["detail"]
    acta = api.client.get(f"/api/v1/matches/{match_id}/acta", headers=api.auth("viewer"))
    assert acta.status_code == 200  # the match stays over, its acta given
