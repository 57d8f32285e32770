"""Migration 0027 on SQLite and PostgreSQL, with a season's fixtures, legs, games, history and a
signed sheet in the table it changes: ``league_fixtures`` gains ``cup_id`` and ``cup_tie``, and
the unique constraint over (season, home, away) becomes a partial unique index over the league's
fixtures, beside one over a cup's ties. On SQLite the table is rebuilt, which the other tables'
foreign keys refuse unless the runner takes them off for it (``sqlite_foreign_keys_off``) and
checks every row before the commit: a row pointing at nothing rolls everything back."""

from __future__ import annotations

import pytest
from league_helpers import fixture_id, play, set_up
from sqlalchemy import Engine, inspect, select, text
from sqlalchemy.exc import IntegrityError

from migrations import runner
from referee.service import Service
from referee.store import db
from referee.store.schema import league_fixtures


def _rows(engine: Engine) -> list[dict]:
    columns = [c for c in league_fixtures.c if c.name not in ("cup_id", "cup_tie")]
    with db.reading(engine) as conn:
        return [dict(r._mapping) for r in conn.execute(
            select(*columns).order_by(league_fixtures.c.id))]


def _counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return {table: conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
                for table in ("league_legs", "league_leg_matches", "league_fixture_history",
                              "league_leg_results", "league_sheets")}


def _copy(engine: Engine, fixture: int, **values: object) -> None:
    """Another fixture between the same two teams as ``fixture``, with ``values``."""
    names = ", ".join(values)
    params = ", ".join(f":{name}" for name in values)
    with engine.begin() as conn:
        conn.execute(text(
            f"INSERT INTO league_fixtures (season_id, division_id, round, home_id, away_id, "
            f"played_on, scheduled_on, version{', ' if values else ''}{names}) "
            f"SELECT season_id, division_id, 99, home_id, away_id, played_on, scheduled_on, 1"
            f"{', ' if values else ''}{params} FROM league_fixtures WHERE id = :id"),
            {"id": fixture, **values})


def _cup(engine: Engine) -> int:
    with engine.connect() as conn:
        return conn.execute(text("SELECT id FROM league_cups")).scalar_one()


def test_down_and_up_with_fixtures_played(service: Service, club: str) -> None:
    service.keys.init(club)  # the sheet is signed: acta_leaves point at the fixture too
    set_up(service, club)
    f = fixture_id(service, club, "crown", "anchor")
    play(service, club, f, [(["Ana"], ["Dani"], 0), (["Beto"], ["Eva"], 0),
                            (["Ana", "Beto"], ["Dani", "Eva"], 1)])
    for side in ("home", "away"):
        service.leagues.confirm(club, "2027", f, side=side)
    assert service.leagues.sheet(club, "2027", f)["number"] == 1
    service.leagues.create_cup(club, "cup", "Cup", entrants=["crown", "anchor", "bell"],
                               season="2027")
    kept, counts = _rows(service.engine), _counts(service.engine)
    assert counts["league_sheets"] == 1 and counts["league_leg_matches"] == 3

    runner.downgrade(service.engine, "0026")
    columns = {c["name"] for c in inspect(service.engine).get_columns("league_fixtures")}
    assert not columns & {"cup_id", "cup_tie"}
    assert _rows(service.engine) == kept and _counts(service.engine) == counts
    with pytest.raises(IntegrityError):  # the old constraint is back
        _copy(service.engine, f)

    runner.upgrade(service.engine, "0027")
    assert _rows(service.engine) == kept and _counts(service.engine) == counts
    with db.reading(service.engine) as conn:
        assert set(conn.execute(select(league_fixtures.c.cup_id, league_fixtures.c.cup_tie))
                   ) == {(None, None)}
    with pytest.raises(IntegrityError):  # the league's two teams still meet once at each home
        _copy(service.engine, f)
    cup = _cup(service.engine)
    _copy(service.engine, f, cup_id=cup, cup_tie="W1-1")  # and in the cup as well
    with pytest.raises(IntegrityError):  # a cup's tie is one fixture
        _copy(service.engine, f, cup_id=cup, cup_tie="W1-1")
    with pytest.raises(IntegrityError):  # of a cup that exists (the foreign key is on again)
        _copy(service.engine, f, cup_id=cup + 100, cup_tie="W1-2")
    # the league reads leave the cup's fixture out: the listings, the table
    assert [x["id"] for x in service.leagues.fixtures(club, "2027", team="crown")
            if x["away"] == "anchor"] == [f]
    assert {r["team"]: r["played"] for r in service.leagues.table(club, "2027", "one")["rows"]
            }["crown"] == 1

    with pytest.raises(RuntimeError, match="cups' ties"):  # going down cannot hold it
        runner.downgrade(service.engine, "0026")
    assert runner.current_revision(service.engine) == "0027"
    with service.engine.begin() as conn:
        conn.execute(text("DELETE FROM league_fixtures WHERE cup_id IS NOT NULL"))
    runner.downgrade(service.engine, "0026")
    assert _rows(service.engine) == kept
    runner.upgrade(service.engine)
    assert _rows(service.engine) == kept and _counts(service.engine) == counts


def test_only_the_revisions_that_say_so_pause_sqlites_foreign_keys(engine: Engine) -> None:
    sqlite = engine.dialect.name == "sqlite"
    assert runner.pauses_foreign_keys(engine, "0026", "0027") is sqlite
    assert runner.pauses_foreign_keys(engine, "0027", "0026") is sqlite
    assert runner.pauses_foreign_keys(engine, None, "head") is sqlite
    assert runner.pauses_foreign_keys(engine, "0027", "base") is sqlite
    assert runner.pauses_foreign_keys(engine, "0024", "0026") is False
    assert runner.pauses_foreign_keys(engine, "0026", "0024") is False
    assert runner.pauses_foreign_keys(engine, "0027", "head") is False


def test_a_row_left_pointing_at_nothing_rolls_everything_back(engine: Engine) -> None:
    if engine.dialect.name != "sqlite":
        pytest.skip("SQLite's foreign keys only")
    runner.upgrade(engine)
    orphan = "INSERT INTO league_legs (fixture_id, leg) VALUES (4242, 1)"
    with pytest.raises(runner.ForeignKeysBroken, match="league_legs"):
        with runner.transaction(engine, paused=True) as conn:
            conn.execute(text("INSERT INTO clubs (slug, name, created_at, public, language) "
                              "VALUES ('casino', 'Casino', '2026-12-01 00:00:00', 1, 'es')"))
            conn.execute(text(orphan))  # accepted while they are off
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM clubs")).scalar_one() == 0
        assert conn.execute(text("PRAGMA foreign_keys")).scalar_one() == 1
    with pytest.raises(IntegrityError):  # on again for the pool's connection
        with engine.begin() as conn:
            conn.execute(text(orphan))
