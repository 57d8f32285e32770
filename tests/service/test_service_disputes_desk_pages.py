"""The disputes desk with many disputes (``svc.disputes.desk``): the open ones a page at a
time (DESK_PAGE, the oldest match first, then by seq), only the matches a page shows replayed,
and the disputes ruled last found without replaying the club's history. Run on SQLite, and on
PostgreSQL with DOMINO_TEST_DATABASE_URL set. (bench/disputes_bench.py times it.)"""

from __future__ import annotations

from typing import Any

import pytest
from dispute_helpers import import_disputed
from test_service_disputes_desk import FIVE, RULES, token

from referee import store
from referee.service import Invalid, Service
from referee.service.disputes import DESK_PAGE
from referee.store.db import reading


def disputed(service: Service, club: str, taps: int) -> int:
    """A finished match with ``taps`` refused taps after its deal and Lucía's renege: taps + 1
    open disputes."""
    return import_disputed(service, club, RULES, ["Marco Rossi", "Lucía Gómez"], FIVE, taps)


def listed(desk: dict[str, Any]) -> list[tuple[int, int]]:
    return [(sheet["match"]["id"], sheet["dispute"]["seq"]) for sheet in desk["open"]]


def replays(service: Service, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The matches the service replays for a view from now on, in order (``view_in``)."""
    replayed: list[int] = []
    view_in = service.reading.view_in

    def counted(uow: Any, match_id: Any, who: Any) -> Any:
        replayed.append(match_id)
        return view_in(uow, match_id, who)

    monkeypatch.setattr(service.reading, "view_in", counted)
    return replayed


def test_the_open_disputes_come_a_page_at_a_time(service: Service, club: str) -> None:
    for taps in (2, 0, 4, 1, 29, 3):  # 45 open disputes in six matches
        disputed(service, club, taps)
    referee = token(service, club, "referee")
    everything, total = service.disputes.for_club(club, status="open", limit=1000)
    assert total == 45
    pages = [service.disputes.desk(club, page=n, who=referee) for n in (1, 2, 3)]
    assert [len(p["open"]) for p in pages] == [DESK_PAGE, DESK_PAGE, 45 - 2 * DESK_PAGE]
    assert sum((listed(p) for p in pages), []) == [(d["match"], d["seq"]) for d in everything]
    assert {(p["open_total"], p["pages"], p["per_page"]) for p in pages} == {(45, 3, DESK_PAGE)}
    assert [p["page"] for p in pages] == [1, 2, 3]
    past = service.disputes.desk(club, page="99", who=referee)  # a page past the last: the last
    assert past["page"] == 3 and listed(past) == listed(pages[2])
    for bad in (0, "x", -1, 10_001, None):
        with pytest.raises(Invalid, match="page must be"):
            service.disputes.desk(club, page=bad, who=referee)


def test_no_dispute_is_one_page(service: Service, club: str) -> None:
    desk = service.disputes.desk(club, page=5, who=token(service, club, "referee"))
    assert (desk["open"], desk["open_total"], desk["page"], desk["pages"]) == ([], 0, 1, 1)


def test_only_the_matches_a_page_shows_are_replayed(service: Service, club: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    matches = [disputed(service, club, taps) for taps in (9, 9, 9, 9, 9)]  # 10 open each
    referee = token(service, club, "referee")
    replayed = replays(service, monkeypatch)
    second = service.disputes.desk(club, page=2, who=referee)  # disputes 21 to 40
    assert {m for m, _ in listed(second)} == set(matches[2:4]) and replayed == matches[2:4]


def test_the_disputes_ruled_last_without_the_clubs_history(service: Service, club: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The ten ruled last, the latest first; a scorekeeper's undo (a void) is no ruling, and
    matches ruled long before are not replayed to find them."""
    scorekeeper = token(service, club, "scorekeeper")
    undone = service.recording.create_match(club, RULES, ["Marco Rossi", "Lucía Gómez"],
                                            who=scorekeeper)["id"]
    service.recording.record_event(undone, FIVE[0], expected_seq=0, who=scorekeeper)
    service.recording.record_event(undone, FIVE[1], expected_seq=1, who=scorekeeper)
    service.recording.record_event(undone, {"type": "void", "target": 2, "reason": "a slip"},
                                   expected_seq=2, who=scorekeeper)  # the phone's undo
    ruled = []
    for n in range(14):
        match_id = disputed(service, club, 0)
        service.recording.record_event(match_id, {"type": "stands", "target": 3,
                                                  "reason": f"ruling {n}"}, expected_seq=None)
        ruled.append(match_id)
    with reading(service.engine) as conn:
        club_id = store.club_row(conn, club).id
        candidates = [row.id for row in store.ruled_match_rows(conn, club_id)]
    assert candidates == ruled[::-1]  # the undo's match is none of them
    replayed = replays(service, monkeypatch)
    desk = service.disputes.desk(club, who=token(service, club, "referee"))
    assert [(d["match"]["id"], d["ruling"]["reason"]) for d in desk["ruled"]] == [
        (ruled[n], f"ruling {n}") for n in range(13, 3, -1)]
    assert len(replayed) <= 11  # ten matches, and the one that shows the list is complete
