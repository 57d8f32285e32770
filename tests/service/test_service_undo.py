"""What the match screen offers a phone beyond the legal moves (referee.service.screen,
referee.service.undo): the scorekeeper's undo of its own last entry (a void it may record
although voids are rulings), the tiles not seen that the seat on turn may play, and who may
lead with what before a lead several seats may make."""

from __future__ import annotations

import pytest

from referee.service import Caller, Forbidden, Service

A = Caller("casino", "scorekeeper", 1, "table 1")
B = Caller("casino", "scorekeeper", 2, "table 1, second phone")
REFEREE = Caller("casino", "referee", 4, "referee")
VIEWER = Caller("casino", "viewer", 3, "club screen")
HANDS = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
         ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"]]


def record(service: Service, match_id: int, event: dict, who: Caller = A) -> int:
    last = service.reading.get_match(match_id)["last_seq"]
    return service.recording.record_event(match_id, event, expected_seq=last, who=who).seq


def void(target: int) -> dict:
    return {"type": "void", "target": target, "reason": "undone at the table"}


@pytest.fixture
def closed(service: Service, club: str) -> int:
    """A mano-a-mano match dealt closed by A."""
    match_id = service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"])["id"]
    record(service, match_id, {"type": "deal"})
    return match_id


def test_undo_walks_back_through_ones_own_entries_and_stops_at_anothers(service: Service,
                                                                        closed: int) -> None:
    assert service.reading.screen(closed, who=A).undo == 1
    assert service.reading.screen(closed, who=B).undo is None  # B recorded nothing
    record(service, closed, {"type": "play", "seat": 0, "tile": "6-6"}, who=B)
    record(service, closed, {"type": "play", "seat": 1, "tile": "6-5"})
    assert service.reading.screen(closed, who=A).undo == 3
    assert service.reading.screen(closed, who=B).undo is None  # A's entry came after B's
    record(service, closed, void(3))
    # A's undo walks back to B's entry and stops; B stops at A's undo, which stands.
    assert service.reading.screen(closed, who=A).undo is None
    assert service.reading.screen(closed, who=B).undo is None


def test_a_scorekeeper_may_void_only_its_own_last_entry(service: Service, closed: int) -> None:
    record(service, closed, {"type": "play", "seat": 0, "tile": "6-6"})
    record(service, closed, {"type": "play", "seat": 1, "tile": "6-5"})
    with pytest.raises(Forbidden):
        record(service, closed, void(2))  # not its last entry
    with pytest.raises(Forbidden):
        record(service, closed, void(3), who=B)  # not its entry
    with pytest.raises(Forbidden):
        record(service, closed, void(3), who=VIEWER)
    preview = service.disputes.preview(closed, [void(3)], who=A)  # as the append would take
    assert preview["stored"] is False and preview["changes"]
    with pytest.raises(Forbidden):
        service.disputes.preview(closed, [void(3)], who=B)
    assert record(service, closed, void(3)) == 4
    screen = service.reading.screen(closed, who=A)
    assert screen.position.line == ("6-6",) and screen.undo == 2  # walks back past its undo
    assert record(service, closed, void(2)) == 5
    assert service.reading.screen(closed, who=A).undo == 1  # and back to its deal
    with pytest.raises(Forbidden):
        record(service, closed, void(4))  # an undo of an undo is a referee's ruling
    assert record(service, closed, void(5), who=REFEREE) == 6  # the referee may
    assert service.reading.screen(closed, who=A).undo is None  # the referee recorded last


def test_the_tiles_not_seen_that_a_closed_seat_may_play(service: Service, closed: int) -> None:
    # Before the lead of a closed deal either seat may open, with any tile.
    screen = service.reading.screen(closed, who=A)
    assert screen.position.turn is None and screen.unseen_plays == ()
    assert len(screen.leads) == 2 * 28 and {"seat": 1, "tile": "3-2"} in screen.leads
    record(service, closed, {"type": "play", "seat": 0, "tile": "6-6"})
    record(service, closed, {"type": "draw", "seat": 1, "tile": "6-1"})  # drawn in sight
    screen = service.reading.screen(closed, who=A)
    assert screen.leads == ()
    assert screen.position.legal["plays"] == [{"tile": "6-1", "end": 6}]
    # Every other tile bearing a 6: not on the line, not the 6-1 it is known to hold.
    assert screen.unseen_plays == tuple({"tile": f"6-{b}", "end": 6} for b in (0, 2, 3, 4, 5))
    record(service, closed, {"type": "play", "seat": 1, "tile": "6-4"})
    ends = service.reading.screen(closed, who=A)
    assert ends.position.ends == (6, 4) and {"tile": "6-5", "end": 6} in ends.unseen_plays
    assert {"tile": "5-4", "end": 4} in ends.unseen_plays
    assert {"tile": "6-4", "end": 4} not in ends.unseen_plays  # on the line
    assert len(ends.unseen) == 28 - 2 - 1 and not {"6-6", "6-4", "6-1"} & set(ends.unseen)


def test_a_known_hand_has_legal_plays_only_and_a_named_lead_is_offered_to_each_seat(
        service: Service, club: str) -> None:
    opened = service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"])["id"]
    record(service, opened, {"type": "deal", "hands": HANDS})
    record(service, opened, {"type": "play", "seat": 0, "tile": "6-6"})
    assert service.reading.screen(opened, who=A).unseen_plays == ()
    parejas = service.recording.create_match(club, "parejas", ["Ana", "Beto", "Carla", "Dani"])
    record(service, parejas["id"], {"type": "deal"})
    screen = service.reading.screen(parejas["id"], who=A)
    assert screen.leads == tuple({"seat": s, "tile": "6-6"} for s in range(4))
    assert screen.as_dict()["leads"] == list(screen.leads) and screen.as_dict()["undo"] == 1


def test_undo_walks_back_past_a_run_of_undos_longer_than_its_first_look(service: Service,
                                                                         closed: int) -> None:
    plays = [{"type": "play", "seat": 0, "tile": "6-6"}, {"type": "play", "seat": 1, "tile": "6-5"},
             {"type": "play", "seat": 0, "tile": "5-5"}, {"type": "play", "seat": 1, "tile": "5-4"},
             {"type": "play", "seat": 0, "tile": "4-4"}]
    for event in plays:
        record(service, closed, event)  # seqs 2 to 6
    for target in range(6, 1, -1):  # undone latest first: seqs 7 to 11, ten rows after the deal
        assert service.reading.screen(closed, who=A).undo == target
        record(service, closed, void(target))
    assert service.reading.screen(closed, who=A).undo == 1  # the deal, before the whole run
