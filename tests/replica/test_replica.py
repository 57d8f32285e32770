"""The service with a real PostgreSQL streaming replica as its read engine
(DOMINO_READ_DATABASE_URL): a hot standby of the tests' PostgreSQL, made with pg_basebackup
(tests/standby_helpers.py). The public pages and standings are read on the standby and show an
append once it has been replayed; the scorekeeper's screen and every recording read the
primary, so a scorekeeper sees his own append at once even while the standby is held back;
the standby going away sends the reads to the primary, never a 500.

Waits are on a condition with a generous deadline (the machine is shared): how soon the
standby shows an append is printed and kept as the test's ``seen_after_s`` property, never
asserted."""

from __future__ import annotations

import time
from typing import Any, Callable

import pytest
from api_helpers import Api
from db_helpers import lending
from sqlalchemy import create_engine
from standby_helpers import Standby, page_last_seq, replay_paused

from referee.store.replica import standing

pytestmark = pytest.mark.slow  # each session starts a standby: pg_basebackup and pg_ctl

DEADLINE_S = 60.0


def wait_until(check: Callable[[], Any], what: str) -> float:
    """Seconds until ``check()`` is true, waited for with a generous deadline."""
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < DEADLINE_S, f"{what}: not within {DEADLINE_S} s"
        time.sleep(0.02)
    return time.monotonic() - start


def engines_used(api: Api) -> Any:
    """Which engines lent a connection to this thread inside the block: "primary" and/or
    "standby" (not the service's own threads)."""
    return lending({"primary": api.service.engine, "standby": api.service.read_engine},
                   this_thread=True)


def screen_last_seq(api: Api, match_id: int) -> int:
    response = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("scorekeeper"))
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()["last_seq"]


def test_the_read_engine_is_the_standby(app: Api) -> None:
    with app.service.read_engine.connect() as conn:
        assert standing(conn) is not None  # in recovery: a hot standby
    with app.service.engine.connect() as conn:
        assert standing(conn) is None


def test_a_page_read_on_the_standby_shows_an_append(
        app: Api, record_property: Callable[[str, Any], None]) -> None:
    match_id = app.matches["casino"]
    wait_until(lambda: page_last_seq(app, match_id) == 1, "the seeded deal on the standby")
    last = app.record(match_id, app.events[1:4], start=1)
    appended = time.monotonic()
    with engines_used(app) as used:
        seen = wait_until(lambda: page_last_seq(app, match_id) == last,
                          "the append on the standby's page")
    assert used == {"standby"}  # the page read only the standby, and showed the append
    record_property("seen_after_s", round(time.monotonic() - appended, 4))
    print(f"the standby's page showed the append {seen:.3f} s after it was acknowledged")


def test_standings_read_on_the_standby_count_a_finished_match(app: Api) -> None:
    match_id = app.matches["casino"]
    app.record(match_id, app.events[1:], start=1)

    def counted() -> bool:
        rows = app.client.get("/api/v1/pages/clubs/casino").get_json()["standings"]
        return any(row["played"] for row in rows)

    with engines_used(app) as used:
        wait_until(counted, "the finished match in the standby's standings")
    assert used == {"standby"}


def test_the_scorekeeper_reads_the_primary(app: Api, standby: Standby, pg_url: str) -> None:
    """Held back, the standby's page shows the match as it was; the scorekeeper's answer and
    screen, read on the primary, show his append at once."""
    match_id = app.matches["casino"]
    wait_until(lambda: page_last_seq(app, match_id) == 1, "the seeded deal on the standby")
    standby_engine = create_engine(standby.url(pg_url))
    try:
        with replay_paused(standby_engine):
            with engines_used(app) as used:
                answer = app.append(match_id, app.events[1], 1)
                assert answer.status_code == 201
                assert answer.get_json()["seq"] == 2
                assert screen_last_seq(app, match_id) == 2
            assert used == {"primary"}
            assert page_last_seq(app, match_id) == 1  # the standby has not replayed it
        wait_until(lambda: page_last_seq(app, match_id) == 2, "the append once replayed")
    finally:
        standby_engine.dispose()


def test_the_standby_gone_the_pages_read_the_primary(app: Api, standby: Standby) -> None:
    match_id = app.matches["casino"]
    wait_until(lambda: page_last_seq(app, match_id) == 1, "the seeded deal on the standby")
    standby.stop()
    try:
        assert app.append(match_id, app.events[1], 1).status_code == 201
        with engines_used(app) as used:
            for path in (f"/clubs/casino/matches/{match_id}", "/clubs/casino",
                         "/api/v1/pages/clubs/casino", "/api/v1/clubs/casino/standings"):
                response = app.client.get(path, headers=app.auth("viewer"))
                assert response.status_code == 200, (path, response.get_data(as_text=True))
            assert page_last_seq(app, match_id) == 2  # the primary's: up to date
        assert "primary" in used
        assert app.service.units.replica_passed_over
    finally:
        standby.start_again()
    # Back, and the pause over, the pages read the standby again.
    app.service.units._replica_down_until = 0.0
    with engines_used(app) as used:
        wait_until(lambda: page_last_seq(app, match_id) == 2, "the append on the standby again")
    assert "standby" in used


NOTICE = {"en": "seconds behind what has been recorded", "es": "segundos por detrás de lo registrado",
          "it": "secondi rispetto a quanto registrato"}


def test_a_page_read_on_a_standby_behind_says_how_far(app: Api, standby: Standby,
                                                      pg_url: str) -> None:
    """Held back, the standby's pages say how far behind they are, in the reader's language
    (pg_last_xact_replay_timestamp, referee.service.freshness); caught up, they say nothing."""
    match_id = app.matches["casino"]
    page = f"/clubs/casino/matches/{match_id}"
    wait_until(lambda: page_last_seq(app, match_id) == 1, "the seeded deal on the standby")
    assert "data-behind" not in app.client.get(page).get_data(as_text=True)
    standby_engine = create_engine(standby.url(pg_url))
    try:
        with replay_paused(standby_engine):
            assert app.append(match_id, app.events[1], 1).status_code == 201
            # the append's WAL received, not replayed: behind, once by a second or more
            wait_until(lambda: (app.service.freshness.behind() or 0) >= 2, "two seconds behind")
            for language, words in NOTICE.items():
                for path in (page, "/clubs/casino", "/clubs/casino/matches"):
                    html = app.client.get(path, headers={"Accept-Language": language}).get_data(
                        as_text=True)
                    assert "data-behind=" in html and words in html, (language, path)
            assert page_last_seq(app, match_id) == 1
        wait_until(lambda: page_last_seq(app, match_id) == 2, "the append once replayed")
    finally:
        standby_engine.dispose()
    # caught up with all it received (the append and what followed it): a page says nothing
    wait_until(lambda: app.service.freshness.behind() is None, "the standby caught up")
    assert "data-behind" not in app.client.get(page).get_data(as_text=True)
