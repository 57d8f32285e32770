"""Reads never write, on SQLite and PostgreSQL: with the club's ratings stale after a ruling on
an old match (its process's worker never ran) and a finished match's acta due (its club had no
key when it finished), every read (the pages, the standings, a match's report and screen, the
acta, the listings) runs no INSERT, UPDATE or DELETE, on any thread. Before, a reader of the
standings started the ratings' catch-up itself and reading the acta signed it: no read could
go to a replica. The catch-up and the signing are the jobs' (``svc.jobs.run_due``)."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from db_helpers import record_all, sample_match, statements, writes_in
from test_service_rerating import PENALTY_FLIP, _club_id, _season, _stale_place

from referee.service import ActaPending, Caller, Service, ratings
from referee.service.pages import Pages

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


def _unsigned(service: Service, club: str) -> int:
    """A finished match whose acta is due: its club had no signing key when it finished (nor
    when the others did); the key made since."""
    _, events = sample_match("parejas", seed=4)
    match_id = service.recording.create_match(club, "parejas", PLAYERS)["id"]
    record_all(service, match_id, events)
    service.keys.init(club)  # now it could be signed: a read must still not sign it
    return match_id


def test_no_read_writes(service: Service, club: str, monkeypatch: pytest.MonkeyPatch) -> None:
    service.clubs.set_public(club, True)
    monkeypatch.setattr(ratings, "INLINE_MATCHES", 3)
    renege, _ = _season(service, club)
    due = _unsigned(service, club)
    with monkeypatch.context() as patch:  # the process that ruled stops before its worker runs
        patch.setattr(ratings, "request_catch_up", lambda engine, club_id: None)
        service.recording.record_event(renege, PENALTY_FLIP, expected_seq=7)
    club_id = _club_id(service, club)
    assert _stale_place(service, club_id) == 2
    monkeypatch.setattr(ratings, "READ_WAIT_S", 0.2)  # readers wait a moment for the worker
    pages = Pages(service)
    ana = service.players.find(club, "Ana")["id"]
    reads: list[Callable[[], Any]] = [
        lambda: pages.home(club), lambda: pages.player(club, ana), lambda: pages.match(club, due),
        lambda: pages.matches(club), lambda: pages.players(club), lambda: pages.log(club, due),
        lambda: pages.clubs(), lambda: service.standings.table(club),
        lambda: service.standings.csv(club, group="partnerships"),
        lambda: service.standings.rating_history(club, "Ana"),
        lambda: service.reading.report(due), lambda: service.reading.screen(due),
        lambda: service.reading.get_match(renege), lambda: service.reading.list_matches(club),
        lambda: service.reading.export_log(due), lambda: service.disputes.for_match(renege),
        lambda: service.disputes.desk(club, who=Caller(club, "referee", 7, "desk")),
        lambda: service.transparency.head(club), lambda: service.audit.run()]
    with statements(service.engine) as seen:
        for read in reads:
            read()
        for acta in (lambda: service.actas.acta(due), lambda: pages.acta_page(club, due)):
            with pytest.raises(ActaPending):
                acta()
    assert seen and writes_in(seen) == []
    assert _stale_place(service, club_id) == 2  # nothing was caught up behind the reads
    done = service.jobs.run_due()  # what does the writing: the job
    assert done.rated > 0 and due in [m for m, _ in done.signed]
    assert _stale_place(service, club_id) is None
    assert service.actas.acta(due)["match"] == due

