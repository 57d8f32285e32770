"""Limits per match: at most so many events and so many bytes of event JSON. Past either, an
append or an import is refused (TooLarge, naming the limit) and nothing is stored; the bytes are
kept on the match by every append, by an import, by a rebuild and by the migration."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from db_helpers import PRESET_PLAYERS, migrate, sample_match
from sqlalchemy import select, update

from migrations import runner
from referee import store
from referee.core.log import make_log, write_log
from referee.service import MatchLimits, Service, TooLarge
from referee.store import db
from referee.store.schema import matches

PLAYERS = PRESET_PLAYERS["parejas"]


def limited(database_url: str, **limits: int) -> Service:
    service = Service(db.make_engine(database_url, limits=MatchLimits(**limits)))
    migrate(service.engine)
    return service


@pytest.fixture
def small(database_url: str) -> Iterator[Service]:
    service = limited(database_url, events=5, bytes=400)
    service.clubs.create_club("casino", "Casino")
    yield service
    service.close()


def note(size: int, char: str = "x") -> dict[str, Any]:
    """A note event whose JSON is ``size`` bytes (``char`` a one-byte character)."""
    base = len(store.dump_json({"type": "note", "text": ""}))
    return {"type": "note", "text": char * (size - base)}


def stored_bytes(service: Service, match_id: int) -> int:
    with service.engine.connect() as conn:
        return conn.execute(select(matches.c.event_bytes).where(matches.c.id == match_id)).scalar_one()


def last_seq(service: Service, match_id: int) -> int:
    return service.reading.get_match(match_id)["last_seq"]


@pytest.mark.parametrize("cached", [True, False])
def test_at_most_so_many_events(small: Service, cached: bool) -> None:
    match_id = small.recording.create_match("casino", "parejas", PLAYERS)["id"]
    for seq in range(5):
        small.recording.record_event(match_id, note(30), expected_seq=seq)
    if not cached:
        small.matches.forget_all()  # the append that replays the record from the database
    with pytest.raises(TooLarge) as refused:
        small.recording.record_event(match_id, note(30), expected_seq=5)
    assert (refused.value.limit, refused.value.maximum, refused.value.would_be) == ("events", 5, 6)
    assert "at most 5 events" in refused.value.message
    assert "DOMINO_MAX_MATCH_EVENTS" in refused.value.message
    with pytest.raises(TooLarge):  # the CLI's append-at-the-end too
        small.recording.record_event(match_id, note(30), expected_seq=None)
    assert last_seq(small, match_id) == 5 and stored_bytes(small, match_id) == 150


@pytest.mark.parametrize("cached", [True, False])
def test_at_most_so_many_bytes(small: Service, cached: bool) -> None:
    match_id = small.recording.create_match("casino", "parejas", PLAYERS)["id"]
    small.recording.record_event(match_id, note(150), expected_seq=0)
    small.recording.record_event(match_id, note(150), expected_seq=1)
    assert stored_bytes(small, match_id) == 300
    if not cached:
        small.matches.forget_all()
    with pytest.raises(TooLarge) as refused:
        small.recording.record_event(match_id, note(101), expected_seq=2)
    assert (refused.value.limit, refused.value.maximum, refused.value.would_be) == (
        "bytes of events", 400, 401)
    assert "DOMINO_MAX_MATCH_BYTES" in refused.value.message
    # Exactly to the limit is allowed; one event bigger than the whole limit is refused at once.
    small.recording.record_event(match_id, note(100), expected_seq=2)
    assert stored_bytes(small, match_id) == 400 and last_seq(small, match_id) == 3
    with pytest.raises(TooLarge):
        small.recording.record_event(match_id, note(1), expected_seq=3)
    with pytest.raises(TooLarge):
        small.recording.record_event(match_id, note(500), expected_seq=3)
    assert last_seq(small, match_id) == 3


def test_bytes_are_utf8_bytes(small: Service) -> None:
    match_id = small.recording.create_match("casino", "parejas", PLAYERS)["id"]
    event = {"type": "note", "text": "ñandú " * 10}
    small.recording.record_event(match_id, event, expected_seq=0)
    size = len(store.dump_json(event).encode("utf-8"))
    assert size > len(store.dump_json(event))
    assert stored_bytes(small, match_id) == size
    with small.engine.connect() as conn:
        assert store.event_bytes(conn, match_id) == size  # what the database counts


def test_a_stale_append_is_still_a_conflict_not_too_large(small: Service) -> None:
    from referee.service import Conflict

    match_id = small.recording.create_match("casino", "parejas", PLAYERS)["id"]
    small.recording.record_event(match_id, note(300), expected_seq=0)
    with pytest.raises(Conflict):
        small.recording.record_event(match_id, note(50), expected_seq=0)


def test_imports_respect_the_limits(small: Service) -> None:
    header, events = sample_match("parejas", seed=3)
    before = small.reading.list_matches("casino")[1]
    with pytest.raises(TooLarge) as refused:
        small.recording.import_log("casino", write_log(make_log(header, events)))
    assert refused.value.limit == "events" and refused.value.would_be == len(events)
    notes = [note(150), note(150), note(150)]
    with pytest.raises(TooLarge) as refused:
        small.recording.import_log("casino", write_log(make_log(header, notes)))
    assert refused.value.limit == "bytes of events"
    assert small.reading.list_matches("casino")[1] == before  # nothing stored
    created = small.recording.import_log("casino", write_log(make_log(header, notes[:2])))
    assert stored_bytes(small, created["id"]) == 300 and created["last_seq"] == 2


def test_rebuild_and_migration_count_the_bytes(service: Service, club: str) -> None:
    match_id = service.recording.create_match(club, "parejas", PLAYERS)["id"]
    _, events = sample_match("parejas", seed=2)
    for seq, event in enumerate(events[:20]):
        service.recording.record_event(match_id, event, expected_seq=seq)
    size = sum(len(store.dump_json(e).encode("utf-8")) for e in events[:20])
    assert stored_bytes(service, match_id) == size
    with service.engine.begin() as conn:
        conn.execute(update(matches).values(event_bytes=0))
    service.rebuild()
    assert stored_bytes(service, match_id) == size
    # A database from before the column (0001) gets it filled in by the migration.
    runner.downgrade(service.engine, "0001")
    runner.upgrade(service.engine)
    assert stored_bytes(service, match_id) == size


def test_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DOMINO_MAX_MATCH_EVENTS", raising=False)
    monkeypatch.delenv("DOMINO_MAX_MATCH_BYTES", raising=False)
    assert MatchLimits.from_environment() == MatchLimits(events=5000, bytes=8 * 1024 * 1024)
    monkeypatch.setenv("DOMINO_MAX_MATCH_EVENTS", "10")
    monkeypatch.setenv("DOMINO_MAX_MATCH_BYTES", "2048")
    assert MatchLimits.from_environment() == MatchLimits(events=10, bytes=2048)
    assert db.match_limits(db.make_engine("sqlite://")) == MatchLimits(events=10, bytes=2048)
    for bad in ("0", "lots", "-3"):
        monkeypatch.setenv("DOMINO_MAX_MATCH_EVENTS", bad)
        with pytest.raises(ValueError, match="DOMINO_MAX_MATCH_EVENTS"):
            MatchLimits.from_environment()
