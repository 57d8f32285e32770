"""Migration 0021 from a 0020 database and back, on SQLite and PostgreSQL: the leaves signed
before stay as they were, and acta_leaves stays append-only (SQLite rebuilds the table, and its
triggers with it); a leaf is of a match or of a fixture, never neither; going down is refused
while a log holds a sheet, and done once none does."""

from __future__ import annotations

import pytest
from league_helpers import fixture_id, play, set_up
from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import DBAPIError, IntegrityError
from template_helpers import at_revision

from migrations import runner
from referee.service import Service

LEAF = ("INSERT INTO acta_leaves (club_id, leaf_index, match_id, seq, acta, leaf_hash, "
        "signed_at{extra}) VALUES (1, {index}, {match}, 1, '{{}}', 'h', '2026-12-01 00:00:00'"
        "{value})")


def columns(engine: Engine) -> dict[str, bool]:
    return {c["name"]: c["nullable"] for c in inspect(engine).get_columns("acta_leaves")}


def test_upgrade_from_0020_and_down_again(engine: Engine) -> None:
    at_revision(engine, "0020")
    before = columns(engine)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO clubs (slug, name, created_at, public) "
                          "VALUES ('casino', 'Casino', '2026-12-01 00:00:00', false)"))
        conn.execute(text("INSERT INTO matches (club_id, header, played_on, rules, players, "
                          "status, totals, last_seq, violations, head, created_at, updated_at) "
                          "VALUES (1, '{}', '2026-12-01', '{}', '[]', 'finished', '[0, 0]', 1, "
                          "0, 'h', '2026-12-01 00:00:00', '2026-12-01 00:00:00')"))
        conn.execute(text(LEAF.format(extra="", index=0, match=1, value="")))

    runner.upgrade(engine, "0021")
    assert columns(engine)["match_id"] and "fixture_id" in columns(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT match_id, fixture_id FROM acta_leaves")).one() \
            == (1, None)
    for statement in ("UPDATE acta_leaves SET seq = 2", "DELETE FROM acta_leaves"):
        with pytest.raises(DBAPIError, match="append-only"), engine.begin() as conn:
            conn.execute(text(statement))
    with pytest.raises(IntegrityError), engine.begin() as conn:  # neither a match nor a fixture
        conn.execute(text(LEAF.format(extra=", fixture_id", index=1, match="NULL",
                                      value=", NULL")))

    runner.downgrade(engine, "0020")
    assert columns(engine) == before
    with engine.connect() as conn:
        assert conn.execute(text("SELECT match_id, seq FROM acta_leaves")).one() == (1, 1)
    runner.upgrade(engine)
    assert "fixture_id" in columns(engine)


def test_going_down_is_refused_while_a_log_holds_a_sheet(service: Service, club: str) -> None:
    service.keys.init(club)
    set_up(service, club)
    f = fixture_id(service, club, "oak", "elm")
    play(service, club, f, [(["Mara"], ["Olga"], 0), (["Nico"], ["Pepe"], 0),
                            (["Mara", "Nico"], ["Olga", "Pepe"], 1)])
    for side in ("home", "away"):
        service.leagues.confirm(club, "2027", f, side=side)
    with pytest.raises(RuntimeError, match="1 league result sheets"):
        runner.downgrade(service.engine, "0020")
    assert runner.current_revision(service.engine) == runner.head_revision()
