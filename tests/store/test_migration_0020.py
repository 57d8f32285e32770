"""Migration 0020 (row MACs) on SQLite and PostgreSQL: rows written before it carry no MAC and
are refused, named by the audit, until ``domino db seal`` MACs them, once; the events' trigger
lets the seal's one update through and nothing else; a downgrade drops the columns."""

from __future__ import annotations

from pathlib import Path

import pytest
from db_helpers import record_all, sample_match
from sqlalchemy import Engine, inspect, text

from migrations import runner
from referee.service import Invalid, RowForged, Service

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


def columns(engine: Engine, table: str) -> set[str]:
    return {c["name"] for c in inspect(engine).get_columns(table)}


def a_club(engine: Engine, keys: Path, monkeypatch: pytest.MonkeyPatch) -> Service:
    """The service over ``engine`` at the head revision, its keys in ``keys``, with a club."""
    monkeypatch.setenv("DOMINO_KEYS_DIR", str(keys))
    runner.upgrade(engine)
    svc = Service(engine)
    svc.clubs.create_club("casino", "Casino")
    return svc


def test_rows_from_before_are_refused_until_sealed_once(engine: Engine, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    svc = a_club(engine, tmp_path / "keys", monkeypatch)
    _, evs = sample_match("parejas", seed=4)
    m = svc.recording.create_match("casino", "parejas", PLAYERS)["id"]
    record_all(svc, m, evs[:30])
    report = svc.reading.report(m)
    # The database as it was before 0020: the same rows, without their MACs.
    runner.downgrade(engine, "0019")
    assert "mac" not in columns(engine, "events") | columns(engine, "matches")
    for name in ("row-mac.key", "row-mac.sealed"):  # a server that never had a row key
        (tmp_path / "keys" / name).unlink()
    runner.upgrade(engine)
    assert {"mac", "head_mac"} <= columns(engine, "matches") and "mac" in columns(engine, "events")

    svc = Service(engine)
    with pytest.raises(RowForged, match="carries no MAC"):
        svc.reading.report(m)
    problems = [p.line() for p in svc.audit.run().problems]
    assert any(f"events row, match {m}, event 1: carries no MAC" in p for p in problems)
    assert any(f"matches row, match {m}: carries no MAC" in p for p in problems)
    with engine.begin() as conn:  # the trigger still refuses any other change
        with pytest.raises(Exception):
            conn.execute(text("UPDATE events SET data = '{}' WHERE match_id = :m AND seq = 1"),
                         {"m": m})

    done = svc.seal.run()
    # 30 events and the match; the club, its 4 players and the 4 seats (0022)
    assert done.matches == [m] and done.rows == 31 + 1 + 4 + 4 and done.refused == []
    assert svc.reading.report(m) == report
    assert svc.audit.run().problems == []
    record_all(svc, m, evs[30:], start=30)  # and recording goes on
    with pytest.raises(Invalid, match="sealed already"):
        svc.seal.run()
    assert svc.seal.run(again=True).rows == 0


def test_a_new_database_is_sealed_from_the_start(engine: Engine, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    svc = a_club(engine, tmp_path / "keys", monkeypatch)
    svc.recording.create_match("casino", "parejas", PLAYERS)
    assert "on a database holding no row" in (tmp_path / "keys" / "row-mac.sealed").read_text()
    with pytest.raises(Invalid, match="sealed already"):
        svc.seal.run()
