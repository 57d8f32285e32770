"""Migration 0016 from a 0015 database and back, on SQLite and PostgreSQL: every match gets its
chain head (its last event's digest, its header's link when it has none), so appends carry on
from it; going down drops the column and nothing else."""

from __future__ import annotations

import json

from sqlalchemy import Engine, inspect, text

from migrations import runner
from referee.core import chain
from referee.service import Service
from tests.db_helpers import record_all, sample_match


def heads(engine: Engine) -> dict[int, str]:
    with engine.connect() as conn:
        return dict(conn.execute(text("SELECT id, head FROM matches")).all())


def test_backfills_every_head_and_goes_down_again(engine: Engine) -> None:
    runner.upgrade(engine)
    svc = Service(engine)
    svc.clubs.create_club("casino", "Casino")
    header, events = sample_match("parejas", seed=3)
    played = svc.recording.create_match("casino", "parejas", header["players"])["id"]
    record_all(svc, played, events[:12])
    empty = svc.recording.create_match("casino", "parejas", header["players"])["id"]
    written = heads(engine)
    with engine.connect() as conn:
        last = conn.execute(text("SELECT digest FROM events WHERE match_id = :m AND seq = 12"),
                            {"m": played}).scalar_one()
        stored = conn.execute(text("SELECT header FROM matches WHERE id = :m"),
                              {"m": empty}).scalar_one()
    assert written == {played: last, empty: chain.root(json.loads(stored)).hex()}

    damaged = svc.recording.create_match("casino", "parejas", header["players"])["id"]
    record_all(svc, damaged, events[:2])
    runner.downgrade(engine, "0015")
    assert "head" not in {c["name"] for c in inspect(engine).get_columns("matches")}
    with engine.begin() as conn:
        assert conn.execute(text("SELECT count(*) FROM events")).scalar_one() == 14
        # its last event gone, as a writer past the triggers could leave it
        conn.execute(text("UPDATE matches SET last_seq = 3 WHERE id = :m"), {"m": damaged})
    runner.upgrade(engine)
    with engine.connect() as conn:
        damaged_header = conn.execute(text("SELECT header FROM matches WHERE id = :m"),
                                      {"m": damaged}).scalar_one()
    assert heads(engine) == {**written, damaged: chain.root(json.loads(damaged_header)).hex()}

    after = Service(engine)  # a new process: nothing cached, the record read afresh
    sealed = after.seal.run(again=True)  # the rows from before the MACs (0020), but damaged's
    assert [m for m, _ in sealed.refused] == [damaged]
    record_all(after, played, events[12:20], start=12)
    record_all(after, empty, events[:3])
    problems = [p.as_dict() for p in after.audit.run().problems]
    assert problems and {p["match"] for p in problems} == {damaged}, problems
