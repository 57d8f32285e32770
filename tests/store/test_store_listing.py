"""A club's match listing (referee.store.matches.list_matches), newest first, page by page:
without a status filter the newest of each status are merged, and the pages must still be the
club's matches in id order, whatever mix of statuses, filters, limits and offsets."""

from __future__ import annotations

import random

from sqlalchemy import select

from referee.core.log import make_log, write_log
from referee.core.simulate import random_match
from referee.service import Service
from referee.store import db
from referee.store.matches import list_matches
from referee.store.schema import clubs, players


def test_pages_are_the_newest_in_id_order_across_statuses(service: Service, club: str) -> None:
    service.clubs.create_club("other", "Other club")  # its matches interleave and never show
    rng = random.Random(4)
    finished: set[int] = set()
    with_ana: set[int] = set()
    for n in range(23):
        names = ["Ana", "Beto"] if n % 3 else ["Carla", "Dani"]
        if rng.random() < 0.5:
            header, events = random_match("mano-a-mano", names, rng)
            match_id = service.recording.import_log(club, write_log(make_log(header, events)))["id"]
            finished.add(match_id)
        else:
            match_id = service.recording.create_match(club, "mano-a-mano", names)["id"]
        if "Ana" in names:
            with_ana.add(match_id)
        service.recording.create_match("other", "mano-a-mano", ["Eva", "Fede"])
    with db.reading(service.engine) as conn:
        club_id = conn.execute(select(clubs.c.id).where(clubs.c.slug == club)).scalar_one()
        ana = conn.execute(select(players.c.id).where(players.c.club_id == club_id,
                                                      players.c.name == "Ana")).scalar_one()
        everything = sorted(list_matches(conn, club_id, limit=100)[0], key=lambda r: -r.id)
        ids = [row.id for row in everything]
        assert 0 < len(finished) < len(ids) == 23
        cases = [({}, ids), ({"status": "finished"}, [i for i in ids if i in finished]),
                 ({"status": "in_progress"}, [i for i in ids if i not in finished]),
                 ({"player_id": ana}, [i for i in ids if i in with_ana])]
        for filters, expected in cases:
            for limit in (1, 3, 7, 50):
                for offset in (0, 1, 5, 12, 30):
                    rows, total = list_matches(conn, club_id, limit=limit, offset=offset,
                                               **filters)
                    assert total == len(expected)
                    assert [r.id for r in rows] == expected[offset:offset + limit], (
                        filters, limit, offset)
                    assert all(r.club == club for r in rows)
