"""A ruling on an early finished match, on SQLite and PostgreSQL: the standings change in the
ruling's transaction, the ratings after it are marked stale (a row a player) and brought up to
date by a worker in steps, in finishing order, to exactly what rating every match again in that
order gives; a match finishing meanwhile waits for the pass, and readers wait for it too."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from db_helpers import statements, writes_in
from sqlalchemy import select
from test_service_standings import _duel, _line, beat, expected_ratings, renege_match

from referee.service import Service, ratings
from referee.store import db
from referee.store.schema import clubs, current_ratings, player_ratings
from referee.store.standings import rated_through

NAMES = ["Beto", "Carla", "Dani", "Eva"]
# On the renege match (seq 8): Beto wins it 50-9 instead of losing it 0-9.
PENALTY_FLIP = {"type": "penalty", "side": 1, "points": 50, "target": 3, "reason": "renege"}


def _club_id(service: Service, club: str) -> int:
    with db.reading(service.engine) as conn:
        return conn.execute(select(clubs.c.id).where(clubs.c.slug == club)).scalar_one()


def _stale_place(service: Service, club_id: int) -> int | None:
    with db.reading(service.engine) as conn:
        return ratings.stale_place(*rated_through(conn, club_id))


def _stored(service: Service, club_id: int) -> tuple[list[Any], list[Any]]:
    with db.reading(service.engine) as conn:
        history = conn.execute(select(player_ratings).where(player_ratings.c.club_id == club_id)
                               .order_by(player_ratings.c.finish_seq,
                                         player_ratings.c.player_id)).all()
        now = conn.execute(select(current_ratings).where(current_ratings.c.club_id == club_id)
                           .order_by(current_ratings.c.player_id)).all()
    return [tuple(r) for r in history], [tuple(r) for r in now]


def _season(service: Service, club: str) -> tuple[int, list[tuple[str, str]]]:
    """Ana loses an early match to Carla, wins the renege match (seq 2: the one to be ruled)
    against Beto, then a dozen matches among the others and her: returns the renege match and
    the results in finishing order, as (winner, loser)."""
    order = [("Carla", "Ana")]
    beat(service, club, "Carla", "Ana")
    match_id = renege_match(service, club)  # Ana beats Beto 9-0, with an open dispute
    order.append(("Ana", "Beto"))
    rng = random.Random(3)
    for _ in range(12):
        winner, loser = rng.sample(NAMES + ["Ana"], 2)
        beat(service, club, winner, loser)
        order.append((winner, loser))
    return match_id, order


def _assert_rated(service: Service, club: str, order: list[tuple[str, str]]) -> None:
    expected = expected_ratings([_duel(winner, loser) for winner, loser in order])
    for name, (mu, sigma, games) in expected.items():
        line = _line(service, club, name)
        assert (line["rating"], line["rating_games"]) == (ratings.rating_points(mu, sigma), games), name
        history = service.standings.rating_history(club, name)
        assert [h["games"] for h in history] == list(range(1, games + 1))
        assert history[-1]["mu"] == pytest.approx(mu) and history[-1]["sigma"] == pytest.approx(sigma)


def test_a_ruling_on_an_early_match_is_re_rated_by_the_worker_in_steps(
        service: Service, club: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings, "INLINE_MATCHES", 3)
    monkeypatch.setattr(ratings, "CHUNK_MATCHES", 4)
    asked: list[int] = []  # the worker held back, to look at the marked state
    monkeypatch.setattr(ratings, "request_catch_up", lambda engine, club_id: asked.append(club_id))
    monkeypatch.setattr(ratings, "READ_WAIT_S", 0.0)  # and readers not waiting for it
    match_id, order = _season(service, club)
    club_id = _club_id(service, club)
    assert _stale_place(service, club_id) is None and asked == []
    service.recording.record_event(match_id, PENALTY_FLIP, expected_seq=7)
    # The standings changed with the ruling; the ratings are stale from its place (2) on.
    assert asked == [club_id] and _stale_place(service, club_id) == 2
    ana, beto = (_line(service, club, n) for n in ("Ana", "Beto"))
    assert (ana["won"], ana["lost"], beto["won"], beto["lost"]) == (
        sum(w == "Ana" for w, _ in order) - 1, sum(loser == "Ana" for _, loser in order) + 1,
        sum(w == "Beto" for w, _ in order) + 1, sum(loser == "Beto" for _, loser in order) - 1)
    order[1] = ("Beto", "Ana")
    # A match finishing meanwhile is left to the pass: still stale from 2.
    beat(service, club, "Dani", "Eva")
    order.append(("Dani", "Eva"))
    assert _stale_place(service, club_id) == 2
    # The pass: 14 matches from place 2, four a transaction, to what rating them all gives.
    assert ratings.catch_up(service.engine, club_id) == 14
    assert _stale_place(service, club_id) is None
    _assert_rated(service, club, order)
    stored = _stored(service, club_id)
    ratings.rerate_all(service.engine)  # everything from the first, in one go: the same
    assert _stored(service, club_id) == stored


def test_a_ruling_meanwhile_takes_the_pass_back(service: Service, club: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings, "INLINE_MATCHES", 3)
    monkeypatch.setattr(ratings, "CHUNK_MATCHES", 4)
    monkeypatch.setattr(ratings, "request_catch_up", lambda engine, club_id: None)
    beat(service, club, "Carla", "Ana")
    first = renege_match(service, club)  # place 2
    for _ in range(5):
        beat(service, club, "Dani", "Eva")
    second = renege_match(service, club)  # place 8
    for _ in range(5):
        beat(service, club, "Eva", "Carla")
    club_id = _club_id(service, club)
    service.recording.record_event(second, PENALTY_FLIP, expected_seq=7)
    assert _stale_place(service, club_id) == 8
    with db.writing(service.engine) as conn:  # one step of the pass: places 8 to 11
        ratings.rate_from(conn, club_id, 8, ratings.CHUNK_MATCHES)
    assert _stale_place(service, club_id) == 12
    service.recording.record_event(first, PENALTY_FLIP, expected_seq=7)
    assert _stale_place(service, club_id) == 2  # back to the earlier ruling's place
    ratings.catch_up(service.engine, club_id)
    order = ([("Carla", "Ana"), ("Beto", "Ana")] + [("Dani", "Eva")] * 5 + [("Beto", "Ana")]
             + [("Eva", "Carla")] * 5)
    _assert_rated(service, club, order)


def test_readers_wait_for_the_worker(service: Service, club: str,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings, "INLINE_MATCHES", 3)
    monkeypatch.setattr(ratings, "CHUNK_MATCHES", 4)
    match_id, order = _season(service, club)
    club_id = _club_id(service, club)
    service.recording.record_event(match_id, PENALTY_FLIP, expected_seq=7)
    order[1] = ("Beto", "Ana")
    _assert_rated(service, club, order)  # the first read waited for the worker's pass
    assert _stale_place(service, club_id) is None
    # The penalty voided: Ana's win is back; then a void of the last play un-finishes the
    # match: stale again each time, and re-rated as if it had never finished.
    service.recording.record_event(match_id, {"type": "void", "target": 8, "reason": "no"},
                                   expected_seq=8)
    order[1] = ("Ana", "Beto")
    _assert_rated(service, club, order)
    service.recording.record_event(match_id, {"type": "void", "target": 6, "reason": "typo"},
                                   expected_seq=9)
    assert service.reading.get_match(match_id)["status"] == "in_progress"
    _assert_rated(service, club, [order[0], *order[2:]])


def test_a_ruling_whose_worker_stopped_is_caught_up_by_the_job(
        service: Service, club: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The process that ruled stopped before its worker ran: the ratings stay marked. A reader
    # waits for them (here a moment) and writes nothing, re-rating nothing: reads never write.
    # The job (domino db catch-up, and domino serve's background) brings them up to date.
    monkeypatch.setattr(ratings, "INLINE_MATCHES", 3)
    match_id, order = _season(service, club)
    held = monkeypatch.context()
    with held as patch:
        patch.setattr(ratings, "request_catch_up", lambda engine, club_id: None)
        service.recording.record_event(match_id, PENALTY_FLIP, expected_seq=7)
    club_id = _club_id(service, club)
    assert _stale_place(service, club_id) == 2
    monkeypatch.setattr(ratings, "READ_WAIT_S", 0.2)
    with statements(service.engine) as seen:
        stale = {row["player"]: row["rating"] for row in service.standings.table(club)}
        service.standings.rating_history(club, "Ana")
    assert seen and writes_in(seen) == []
    assert _stale_place(service, club_id) == 2
    done = service.jobs.run_due()
    assert done.rated == len(order) - 1 and done.signed == []  # from place 2 on
    assert _stale_place(service, club_id) is None
    order[1] = ("Beto", "Ana")
    _assert_rated(service, club, order)
    assert {row["player"]: row["rating"] for row in service.standings.table(club)} != stale


def test_the_servers_background_catches_up(service: Service, club: str,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """``domino serve`` runs the jobs at start and every minute (``jobs.Background``, started
    and stopped by the ASGI app's lifespan): stale ratings no worker caught up are, at once."""
    from referee.service.jobs import Background

    monkeypatch.setattr(ratings, "INLINE_MATCHES", 3)
    match_id, order = _season(service, club)
    with monkeypatch.context() as patch:
        patch.setattr(ratings, "request_catch_up", lambda engine, club_id: None)
        service.recording.record_event(match_id, PENALTY_FLIP, expected_seq=7)
    club_id = _club_id(service, club)
    assert _stale_place(service, club_id) == 2
    background = Background(service.jobs, every=3600).start()
    try:
        deadline = time.monotonic() + 60
        while _stale_place(service, club_id) is not None and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        background.stop()
    order[1] = ("Beto", "Ana")
    _assert_rated(service, club, order)
