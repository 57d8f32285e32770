"""Migration 0024 on SQLite and PostgreSQL: the league legs' results made for a database whose
legs were played before it (the upgrade fills them from the legs' games, seats and
concessions), and dropped going down."""

from __future__ import annotations

from league_helpers import fixture_id, play, set_up
from sqlalchemy import inspect, select

from migrations import runner
from referee.service import Service
from referee.store import db
from referee.store.leagues import derived_leg_results
from referee.store.schema import league_leg_results


def test_the_upgrade_fills_the_legs_results(service: Service, club: str) -> None:
    set_up(service, club)
    f = fixture_id(service, club, "oak", "elm")
    play(service, club, f, [(["Mara"], ["Olga"], 0), (["Nico"], ["Pepe"], 1)])
    service.leagues.concede(club, "2027", f, 3, "away", reason="no pair")
    with db.reading(service.engine) as conn:
        kept = [dict(r._mapping) for r in conn.execute(
            select(league_leg_results).order_by(league_leg_results.c.leg))]
    assert [(r["leg"], r["games"], r["conceded_by"]) for r in kept] == [
        (1, "h", None), (2, "a", None), (3, "", "away")]

    runner.downgrade(service.engine, "0023")
    assert "league_leg_results" not in inspect(service.engine).get_table_names()
    runner.upgrade(service.engine)
    with db.reading(service.engine) as conn:
        again = [dict(r._mapping) for r in conn.execute(
            select(league_leg_results).order_by(league_leg_results.c.leg))]
        assert again == kept == derived_leg_results(conn)
