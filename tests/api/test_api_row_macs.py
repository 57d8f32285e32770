"""A match with a row changed behind the service (docs/verify.md, "Who can forge what") is
answered 409 ``record-forged``, saying so, on every read of it (its page and the club's
scoreboard too): never a 500, never the forged record. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import json

from api_helpers import Api, assert_problem
from sqlalchemy import text

from referee.core import chain


def test_a_forged_row_is_answered_409_on_every_read(api: Api) -> None:
    m = api.matches["casino"]
    api.record(m, api.events[1:6], start=1)
    with api.service.engine.connect() as conn:
        seq, link = conn.execute(text("SELECT seq, digest FROM events WHERE match_id = :m "
                                      "ORDER BY seq DESC"), {"m": m}).first()
    forged = {"type": "note", "text": "forged"}
    digest = chain.extend(link, [forged])[0]
    with api.service.engine.begin() as conn:
        conn.execute(text("INSERT INTO events (match_id, seq, type, data, recorded_at, digest, "
                          "mac) VALUES (:m, :s, 'note', :d, CURRENT_TIMESTAMP, :g, :x)"),
                     {"m": m, "s": seq + 1, "d": json.dumps(forged), "g": digest, "x": "0" * 64})
        conn.execute(text("UPDATE matches SET last_seq = :s, head = :g WHERE id = :m"),
                     {"s": seq + 1, "g": digest, "m": m})
    api.service.matches.forget_all()
    for path in ("", "/events", "/report", "/log", "/disputes"):
        response = api.client.get(f"/api/v1/matches/{m}{path}", headers=api.auth("referee"))
        problem = assert_problem(response, 409, "record-forged")
        assert "domino db audit" in problem["detail"], problem
    response = api.append(m, api.events[6], seq + 1)
    assert_problem(response, 409, "record-forged")
    api.service.clubs.set_public("casino", True)  # the pages and the scoreboard: 409 too
    page = api.client.get(f"/clubs/casino/matches/{m}")
    assert page.status_code == 409 and "domino db audit" in page.get_data(as_text=True)
    assert_problem(api.client.get("/api/v1/clubs/casino/scoreboard"), 409, "record-forged")
