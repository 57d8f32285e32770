"""referee.store.cups on SQLite and PostgreSQL: a cup's slug once a club, its draw recorded with a
seed past a signed BIGINT kept whole, a tie's game once and a match in one tie only (the
database refuses a second), and a tie's games read with their matches' status and winner."""

from __future__ import annotations

import pytest
from league_helpers import win_game

from referee.service import Service
from referee.store import club_row, db
from referee.store import cups as store
from referee.store.codec import utcnow
from referee.store.errors import AlreadyExists

CUP = {"slug": "ko", "name": "Knockout", "season_id": None, "format": "single_elimination",
       "best_of": 1, "entrant_kind": "players", "rules": {}, "entrants": ["1", "2"]}


def test_a_cup_its_draw_and_its_ties_games(service: Service, club: str) -> None:
    made = service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"])["id"]
    other = service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"])["id"]
    win_game(service, made, 1)
    with db.writing(service.engine) as conn:
        cid = club_row(conn, club).id
        cup = store.insert_cup(conn, cid, CUP, utcnow())
        with pytest.raises(AlreadyExists):
            store.insert_cup(conn, cid, CUP, utcnow())
        store.set_draw(conn, cup, 2**64 - 1, 1, ["2", "1"], utcnow())
        store.insert_cup_match(conn, cup, "W1-1", 1, made, "1", "2")
        with pytest.raises(AlreadyExists):  # the game has its match
            store.insert_cup_match(conn, cup, "W1-1", 1, other, "1", "2")
        with pytest.raises(AlreadyExists):  # the match is a game already
            store.insert_cup_match(conn, cup, "W1-1", 2, made, "1", "2")
    with db.reading(service.engine) as conn:
        row = store.cup_row(conn, club_row(conn, club).id, "ko")
        assert (row.seed, row.seeded, row.entrants) == (str(2**64 - 1), 1, ["2", "1"])
        assert int(row.seed) == 2**64 - 1
        assert [tuple(g) for g in store.cup_games(conn, cup)] == [
            ("W1-1", 1, made, "1", "2", "finished", 1)]
        assert store.cup_match_of(conn, made).tie == "W1-1"
        assert store.cup_match_of(conn, other) is None
        assert [r.slug for r in store.cup_rows(conn, row.club_id)] == ["ko"]
