"""referee.store.notify: an append notifies on PostgreSQL once committed (two connections: the
append on one, the LISTEN on another), never for an append that rolled back or found its seq
taken; appends close together go out as one statement; the channel is the schema's; what a
poll reads on either database."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from referee import store
from referee.service import Service, projectors
from referee.store import db, notify
from referee.store.notify import Listener, Notice

WAIT = 10.0  # seconds a test waits for a notice that should come (it comes in milliseconds)
QUIET = 0.5  # seconds a test listens for a notice that must not come

DEAL = {"type": "deal"}
SMALL = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none", "target": 5}


def _postgresql(engine: Engine) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("NOTIFY is PostgreSQL's; SQLite polls (tested below)")


def _match(service: Service, club: str, **header: object) -> int:
    return service.recording.create_match(club, SMALL, ["Ana", "Beto"], **header)["id"]


def _next(listener: Listener) -> Notice:
    found = listener.wait(WAIT)
    assert found, "no notice arrived"
    return found[0]


def test_an_append_notifies_a_listener_on_another_connection(service: Service, club: str) -> None:
    _postgresql(service.engine)
    match_id = _match(service, club)
    listener = Listener(service.engine)
    try:
        recorded = service.recording.record_event(match_id, DEAL, expected_seq=0)
        assert _next(listener) == Notice(club, match_id, recorded.seq)
        recorded = service.recording.record_event(
            match_id, {"type": "play", "seat": 0, "tile": "6-6"}, expected_seq=1)
        assert _next(listener) == Notice(club, match_id, 2)
    finally:
        listener.close()


def test_a_rolled_back_append_sends_nothing(service: Service, club: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A forfeit finishes the match, so its append and the standings share a transaction;
    the standings failing rolls the append back, and nothing is sent for it."""
    _postgresql(service.engine)
    first, second = _match(service, club), _match(service, club)
    service.recording.record_event(first, DEAL, expected_seq=0)
    service.notifier.flush()  # the deal's notice is out before anyone listens
    listener = Listener(service.engine)

    def fails(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the standings could not be written")

    try:
        monkeypatch.setattr(projectors, "record_standing", fails)
        with pytest.raises(RuntimeError):
            service.recording.record_event(first, {"type": "forfeit", "side": 1, "reason": "r"},
                                           expected_seq=1)
        monkeypatch.undo()
        with db.reading(service.engine) as conn:
            assert store.last_seq(conn, first) == 1  # rolled back
        # Notices come in commit order: had the rolled-back one been sent, it would come first.
        service.recording.record_event(second, DEAL, expected_seq=0)
        assert _next(listener) == Notice(club, second, 1)
    finally:
        listener.close()


def test_an_append_refused_for_a_stale_seq_sends_nothing(service: Service, club: str) -> None:
    _postgresql(service.engine)
    match_id = _match(service, club)
    service.recording.record_event(match_id, DEAL, expected_seq=0)
    service.notifier.flush()
    listener = Listener(service.engine)
    try:
        with pytest.raises(Exception):
            service.recording.record_event(match_id, {"type": "play", "seat": 0, "tile": "6-6"},
                                           expected_seq=0)
        assert listener.wait(QUIET) == []
    finally:
        listener.close()


def test_the_channel_is_the_schemas(service: Service, database_url: str) -> None:
    _postgresql(service.engine)
    options = make_url(database_url).query["options"]
    schema = str(options).split("search_path=", 1)[1]
    listener = Listener(service.engine)
    try:
        assert listener.channel == f"{notify.CHANNEL}_{schema}"
    finally:
        listener.close()


@pytest.mark.parametrize("payload", ["", "casino", "casino:1", "casino:x:2", "casino:1:-2",
                                     ":1:2", "casino:1:2:3", "casino:²:2", "casino:1:２"])
def test_a_payload_that_is_not_a_notice_is_ignored(payload: str) -> None:
    assert Notice.parse(payload) is None


def test_a_payload_names_club_match_and_seq() -> None:
    assert Notice.parse("casino-2:12:7") == Notice("casino-2", 12, 7)
    assert Notice.parse_all("casino:1:2\nrival:3:4\nnoise") == [Notice("casino", 1, 2),
                                                                  Notice("rival", 3, 4)]


def test_payloads_carry_each_matchs_newest_seq_within_the_size_limit() -> None:
    notices = [Notice("c" * 40, match_id, seq) for match_id in range(400) for seq in (1, 3, 2)]
    found = notify.payloads(notices)
    assert len(found) > 1 and all(len(p) <= notify.PAYLOAD_BYTES for p in found)
    assert sorted(n for p in found for n in Notice.parse_all(p)) == sorted(
        Notice("c" * 40, match_id, 3) for match_id in range(400))


def test_appends_close_together_are_sent_as_one_batch(service: Service, club: str) -> None:
    _postgresql(service.engine)
    match_ids = [_match(service, club) for _ in range(5)]
    notifier = notify.Notifier(service.engine, batch_seconds=0.5)
    listener = Listener(service.engine)
    try:
        for match_id in match_ids:
            notifier.tell(club, match_id, 1)
        got: list[Notice] = []
        while len(got) < 5:
            found = listener.wait(WAIT)
            assert found, "no notice arrived"
            got += found
        assert sorted(got) == sorted(Notice(club, m, 1) for m in match_ids)
        notifier.flush()  # waits for the batch in flight to be counted
        assert notifier.batches == 1
    finally:
        listener.close()


def test_sending_on_sqlite_does_nothing(service: Service, club: str) -> None:
    if service.engine.dialect.name != "sqlite":
        pytest.skip("SQLite's case")
    notifier = notify.Notifier(service.engine)
    notifier.tell(club, 1, 1)  # no channel to send on: the boards poll
    notifier.flush()
    assert notifier.batches == 0


def test_what_a_poll_reads(service: Service, club: str) -> None:
    """On either database: the board's matches (in play, or played on or after the night's
    first date), their last seqs, and those recorded to since a moment."""
    old = _match(service, club, date="2020-01-01")
    live = _match(service, club, date="2020-01-01", table=2)
    tonight = _match(service, club, date="2026-12-01")
    for event in ({"type": "deal", "hands": [["6-6", "6-5", "5-5"], ["6-4", "4-3", "2-1"]]},
                  {"type": "forfeit", "side": 1, "reason": "left"}):
        service.recording.record_event(old, event, expected_seq=None)
    service.recording.record_event(live, DEAL, expected_seq=0)  # the last one recorded to
    assert service.reading.get_match(old)["status"] == "finished"
    with db.reading(service.engine) as conn:
        club_id = store.club_row(conn, club).id
        seqs = {r.id: r.last_seq for r in notify.last_seqs(conn, [club_id], "2026-11-30")}
        assert seqs == {live: 1, tonight: 0}
        assert [r.id for r in notify.board_rows(conn, club_id, "2026-11-30")] == [live, tonight]
        assert [r.id for r in notify.board_rows(conn, club_id, "2019-01-01", ids=[old])] == [old]
        updated = store.match_row(conn, live).updated_at
        assert notify.changed_since(conn, club_id, "2019-01-01", store.as_utc(updated)) == [live]
        later = store.as_utc(updated) + dt.timedelta(seconds=1)
        assert notify.changed_since(conn, club_id, "2019-01-01", later) == []
