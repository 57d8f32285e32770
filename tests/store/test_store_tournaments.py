"""referee.store.tournaments on SQLite and PostgreSQL: a slug once a club, rounds saved and
re-paired (versions, the old matches retired), and a match made for an outdated pairing linked
retired, so a round never holds two pairings' matches."""

from __future__ import annotations

import pytest

from referee.service import Service
from referee.store import club_row, db
from referee.store import tournaments as store
from referee.store.codec import utcnow
from referee.store.errors import AlreadyExists

SETTINGS = {"slug": "copa", "name": "Copa", "rules": "parejas", "format": "pairs", "rounds": 2,
            "bye_won": True, "bye_points": 0}
PAIRING = {"format": "pairs", "round": 1, "tables": [], "byes": [], "relaxed": []}


def test_rounds_versions_and_retired_matches(service: Service, club: str) -> None:
    ids = [service.recording.create_match(club, "parejas", ["Ana", "Beto", "Carla", "Dani"])["id"]
           for _ in range(3)]
    now = utcnow()
    with db.writing(service.engine) as conn:
        cid = club_row(conn, club).id
        tid = store.insert_tournament(conn, cid, SETTINGS, now)
        with pytest.raises(AlreadyExists):
            store.insert_tournament(conn, cid, SETTINGS, now)
        assert store.save_round(conn, tid, 1, PAIRING, now) == 1
        assert store.link_match(conn, ids[0], tid, 1, 1, 1) is True
        assert store.save_round(conn, tid, 1, PAIRING, now) == 2  # re-paired: ids[0] retired
        assert store.link_match(conn, ids[1], tid, 1, 1, 1) is False  # made for version 1
        assert store.link_match(conn, ids[2], tid, 1, 1, 2) is True
    with db.reading(service.engine) as conn:
        assert [m.match_id for m in store.round_matches(conn, tid, 1)] == [ids[2]]
        assert [r.version for r in store.round_rows(conn, tid)] == [2]
        assert store.tournament_of_match(conn, ids[2]).round == 1
        assert store.tournament_of_match(conn, ids[0]) is None
