"""referee.store.leagues on SQLite and PostgreSQL: a player in one squad at a time a season (the
database refuses a second, a transfer ends the first), fixtures in one statement with a version
that a change moves on and unconfirms, legs conceded and written over, and a leg's games read
from their matches (status, winner, who sat on which side)."""

from __future__ import annotations

import pytest

from referee.service import Service
from referee.store import club_row, db, ensure_players
from referee.store import leagues as store
from referee.store.codec import utcnow
from referee.store.errors import AlreadyExists

SEASON = {"slug": "2027", "name": "Liga 2027", "format": {"legs": []}, "leg_rules": {},
          "points": {}, "tie_breakers": [], "promotion": 0, "relegation": 0, "min_legs": 1,
          "max_squad": None, "first_day": "2027-01-07", "weeks_off": [], "last_day": None}


def _season(conn, club: str) -> tuple[int, int, list[int]]:
    cid = club_row(conn, club).id
    sid = store.insert_season(conn, cid, SEASON, utcnow())
    did = store.insert_division(conn, sid, "one", "Division One", 0)
    teams = [store.insert_team(conn, sid, did, {"slug": slug, "name": slug.title(),
                                                "venue": None, "min_players": 4})
             for slug in ("crown", "anchor")]
    return sid, did, teams


def test_a_player_in_one_squad_at_a_time(service: Service, club: str) -> None:
    with db.writing(service.engine) as conn:
        sid, _, (crown, anchor) = _season(conn, club)
        with pytest.raises(AlreadyExists):
            store.insert_season(conn, club_row(conn, club).id, SEASON, utcnow())
        ana = ensure_players(conn, club_row(conn, club).id, {"ana": "Ana"}, utcnow())["ana"]
        store.join_squad(conn, sid, crown, ana, "2027-01-01")
        with pytest.raises(AlreadyExists):
            store.join_squad(conn, sid, anchor, ana, "2027-01-01")
        assert store.leave_squad(conn, sid, ana, "2027-02-01") == 1
        store.join_squad(conn, sid, anchor, ana, "2027-02-01", "moved house")
    with db.reading(service.engine) as conn:
        now = store.squad_rows(conn, sid)
        assert [(r.team_id, r.name, r.reason) for r in now] == [(anchor, "Ana", "moved house")]
        every = store.squad_rows(conn, sid, current=False)
        assert [(r.team_id, r.left_on) for r in every] == [(crown, "2027-02-01"),
                                                            (anchor, None)]


def test_fixtures_legs_and_their_games(service: Service, club: str) -> None:
    names = ["Ana", "Beto"]
    match = service.recording.create_match(club, "mano-a-mano", names)["id"]
    with db.writing(service.engine) as conn:
        sid, did, (crown, anchor) = _season(conn, club)
        store.insert_fixtures(conn, [
            {"season_id": sid, "division_id": did, "round": r, "home_id": h, "away_id": a,
             "played_on": day, "scheduled_on": day}
            for r, h, a, day in ((1, crown, anchor, "2027-01-07"),
                                 (2, anchor, crown, "2027-01-14"))])
        first, second = (f.id for f in store.fixture_rows(conn, sid))
        store.update_fixture(conn, first, home_confirmed=1, away_confirmed=1)
        store.changed(conn, first)
        store.set_leg(conn, first, 2, "home", "no player")
        store.set_leg(conn, first, 2, "both", "nobody")
        store.insert_leg_matches(conn, [{"match_id": match, "fixture_id": first, "leg": 1,
                                         "game": 1}])
        with pytest.raises(AlreadyExists):
            store.insert_leg_matches(conn, [{"match_id": match, "fixture_id": second,
                                             "leg": 1, "game": 1}])
        store.add_history(conn, first, "postponed", {"was": "2027-01-07"}, utcnow())
    with db.reading(service.engine) as conn:
        row = store.fixture_row(conn, first)
        assert (row.version, row.home_confirmed, row.away_confirmed) == (2, None, None)
        assert [(r.leg, r.conceded_by) for r in store.leg_rows(conn, [first])] == [(2, "both")]
        assert [(g.leg, g.game, g.match_id, g.status) for g in store.leg_games(conn, [first])] \
            == [(1, 1, match, "in_progress")]
        assert [(s.side, s.seat) for s in store.leg_seats(conn, [first])] == [(0, 0), (1, 1)]
        assert store.leg_match_of(conn, match).fixture_id == first
        assert [h.kind for h in store.history_rows(conn, first)] == ["postponed"]
        assert [f.round for f in store.fixture_rows(conn, sid, team_id=anchor)] == [1, 2]
