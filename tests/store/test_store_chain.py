"""Each event's digest is stored with it, chained from its match's header, however it came in
(a cached append, one replayed afresh, an append at the end, an import), on both databases; a
wrong link is refused; migration 0006 backfills the events stored before it."""

from __future__ import annotations

import json

import pytest
from db_helpers import record_all, sample_match
from sqlalchemy import Engine, select, text
from template_helpers import at_revision

from migrations import runner
from referee import store
from referee.core import chain
from referee.core.log import make_log, write_log
from referee.service import Service
from referee.store.db import reading, writing
from referee.store.schema import events, matches

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


def stored_chain(engine: Engine, match_id: int) -> tuple[dict, list, list[str]]:
    """The match's header, its events and their stored digests."""
    with reading(engine) as conn:
        header = conn.execute(select(matches.c.header).where(matches.c.id == match_id)).scalar_one()
        rows = conn.execute(select(events.c.data, events.c.digest)
                            .where(events.c.match_id == match_id).order_by(events.c.seq)).all()
    return json.loads(header), [json.loads(r.data) for r in rows], [r.digest for r in rows]


def assert_chained(engine: Engine, match_id: int) -> None:
    header, evs, digests = stored_chain(engine, match_id)
    assert digests == [link.hex() for link in chain.links(header, evs)[1:]]


def test_every_append_stores_its_link(service: Service, club: str, engine: Engine) -> None:
    _, evs = sample_match("parejas", seed=5)
    m = service.recording.create_match(club, "parejas", PLAYERS, table="3")["id"]
    record_all(service, m, evs[:10])                     # cached appends
    cold = Service(engine)                               # another worker: nothing cached
    record_all(cold, m, evs[10:12], start=10)
    service.recording.record_event(m, evs[12], expected_seq=None)  # at the end, whatever it is
    service.recording.record_event(m, {"type": "void", "target": 13, "reason": "typo"},
                                   expected_seq=13)      # a void replays the record
    service.recording.record_event(m, evs[12], expected_seq=14)
    assert_chained(engine, m)
    header, recorded, digests = stored_chain(engine, m)
    assert digests[-1] == chain.head(header, recorded)


def test_an_import_stores_its_links_and_the_next_append_chains_on(service: Service, club: str,
                                                                  engine: Engine) -> None:
    header, evs = sample_match("veracruz", seed=2)
    imported = service.recording.import_log(club, write_log(make_log(header, evs[:20])))["id"]
    service.recording.record_event(imported, evs[20], expected_seq=20)
    Service(engine).recording.record_event(imported, evs[21], expected_seq=21)
    assert_chained(engine, imported)
    # The head is the log's as the club stores it (naming the club): the same values,
    # whatever the text looked like.
    assert stored_chain(engine, imported)[2][-1] == chain.head({**header, "club": club}, evs[:22])


def test_a_wrong_link_is_refused_and_nothing_stored(service: Service, club: str) -> None:
    m = service.recording.create_match(club, "parejas", PLAYERS)["id"]
    service.recording.record_event(m, {"type": "note", "text": "a"}, expected_seq=0)
    new = [store.NewEvent(store.dump_json({"type": "note", "text": "b"}), "note")]
    projection = store.Projection("in_progress", None, [0, 0], None, 2, 0, store.utcnow())
    with pytest.raises(store.StaleSeq):
        with writing(service.engine) as conn:
            store.append(conn, m, 1, new, projection, store.utcnow(), "0" * 64)
    assert service.reading.get_match(m)["last_seq"] == 1
    with writing(service.engine) as conn:
        appended = store.append(conn, m, 1, new, projection, store.utcnow(),
                                store.chain_link(conn, m, 1))
    assert appended.seq == 2


def test_migration_0006_backfills_the_stored_events(engine: Engine) -> None:
    at_revision(engine, "0005")
    header, evs = sample_match("mano-a-mano", seed=9)
    header_text = json.dumps({**header, "club": "casino"}, separators=(",", ":"))
    now = "2026-12-01 10:00:00+00:00"
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO clubs (id, slug, name, created_at) "
                          "VALUES (1, 'casino', 'Casino', :t)"), {"t": now})
        for match_id, count in ((1, len(evs)), (2, 0), (3, 3)):
            conn.execute(text(
                "INSERT INTO matches (id, club_id, header, played_on, rules, players, status, "
                "totals, last_seq, violations, event_bytes, created_at, updated_at) VALUES "
                "(:id, 1, :h, '2026-12-01', '{}', '[]', 'in_progress', '[0, 0]', :n, 0, 0, :t, :t)"),
                {"id": match_id, "h": header_text, "n": count, "t": now})
            for seq, event in enumerate(evs[:count], start=1):
                conn.execute(text(
                    "INSERT INTO events (match_id, seq, type, data, recorded_at) "
                    "VALUES (:m, :s, :ty, :d, :t)"),
                    {"m": match_id, "s": seq, "ty": event["type"],
                     "d": json.dumps(event, ensure_ascii=False), "t": now})
    runner.upgrade(engine)
    for match_id in (1, 3):
        assert_chained(engine, match_id)
    assert stored_chain(engine, 1)[2][-1] == chain.head({**header, "club": "casino"}, evs)
    with pytest.raises(Exception, match="append-only"):  # the guard is back
        with engine.begin() as conn:
            conn.execute(text("UPDATE events SET digest = ''"))
    runner.downgrade(engine, "0005")
    runner.upgrade(engine)
    assert_chained(engine, 1)
