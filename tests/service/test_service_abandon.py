"""A match withdrawn (``abandon``) in the service, on SQLite and PostgreSQL: who may record it
(a referee of the club, or the token that created the match; anyone else is refused and told
who may), the status ``abandoned`` in the store, listable by it, counting nowhere (standings,
ratings, actas, a tournament round's progress) and leaving every live list (the in-play
listing, the club page's matches, the scoreboard)."""

from __future__ import annotations

import pytest
from db_helpers import record_all, sample_match
from sqlalchemy import func, select
from tournament_helpers import RULES, finish

from referee.core.vocab import ABANDONED
from referee.service import (
    OPERATOR,
    Caller,
    Forbidden,
    IllegalEvent,
    NotFinished,
    NotFound,
    Service,
)
from referee.service.live import Scoreboard
from referee.service.pages import Pages
from referee.store import match_row
from referee.store.schema import player_ratings, standing_rows

CREATOR = Caller("casino", "scorekeeper", 1, "table 1")
OTHER = Caller("casino", "scorekeeper", 2, "table 2")
REFEREE = Caller("casino", "referee", 3, "referee")
VIEWER = Caller("casino", "viewer", 4, "club screen")
STRANGER = Caller("elsewhere", "referee", 5, "another club's referee")
PLAYERS = ["Ana", "Beto", "Carla", "Dani"]
ABANDON = {"type": "abandon", "reason": "the wrong player was seated"}


def created(service: Service, club: str, who: Caller = CREATOR, **fields: object) -> int:
    return service.recording.create_match(club, "parejas", PLAYERS, who=who, **fields)["id"]


def abandon(service: Service, match_id: int, who: Caller) -> int:
    last = service.reading.get_match(match_id, who=OPERATOR)["last_seq"]
    return service.recording.record_event(match_id, ABANDON, expected_seq=last, who=who).seq


def status_in_store(service: Service, match_id: int) -> str:
    with service.engine.connect() as conn:
        return match_row(conn, match_id).status


def test_the_token_that_created_the_match_may_abandon_it(service: Service, club: str) -> None:
    match_id = created(service, club)
    assert service.reading.screen(match_id, who=CREATOR).can_abandon is True
    recorded = service.recording.record_event(match_id, ABANDON, expected_seq=0, who=CREATOR)
    assert recorded.seq == 1 and recorded.screen.summary["status"] == ABANDONED
    assert recorded.screen.can_abandon is False  # withdrawn: nothing more to withdraw
    assert recorded.screen.undo is None  # and no undo of it: nothing but a note follows it
    assert status_in_store(service, match_id) == ABANDONED
    shown = service.reading.get_match(match_id, who=VIEWER)
    assert shown["status"] == ABANDONED and shown["winner"] is None
    # a note may still be recorded; play may not
    service.recording.record_event(match_id, {"type": "note", "text": "seated again"},
                                   expected_seq=1, who=CREATOR)
    with pytest.raises(IllegalEvent):
        service.recording.record_event(match_id, {"type": "deal"}, expected_seq=2, who=CREATOR)


def test_a_referee_may_abandon_any_match_of_the_club(service: Service, club: str) -> None:
    for maker in (OTHER, OPERATOR):  # a scorekeeper's match, one made on the command line
        match_id = created(service, club, who=maker)
        assert service.reading.screen(match_id, who=REFEREE).can_abandon is True
        abandon(service, match_id, REFEREE)
        assert status_in_store(service, match_id) == ABANDONED


def test_anyone_else_is_refused_and_told_who_may(service: Service, club: str) -> None:
    match_id = created(service, club)
    assert service.reading.screen(match_id, who=OTHER).can_abandon is False
    assert service.reading.screen(match_id, who=VIEWER).can_abandon is False
    with pytest.raises(Forbidden, match="referee of the club or by the token that created it"):
        abandon(service, match_id, OTHER)
    with pytest.raises(Forbidden):  # a viewer records nothing at all
        abandon(service, match_id, VIEWER)
    service.clubs.create_club("elsewhere", "Elsewhere")
    with pytest.raises(NotFound):  # another club's token hears of no such match
        abandon(service, match_id, STRANGER)
    with pytest.raises(Forbidden):  # a preview takes what the append takes
        service.disputes.preview(match_id, [ABANDON], who=OTHER)
    assert service.disputes.preview(match_id, [ABANDON], who=CREATOR)["stored"] is False
    assert status_in_store(service, match_id) == "in_progress"
    assert service.reading.get_match(match_id)["last_seq"] == 0  # nothing written


def test_a_match_with_a_deal_standing_cannot_be_abandoned(service: Service, club: str) -> None:
    match_id = created(service, club)
    service.recording.record_event(match_id, {"type": "deal"}, expected_seq=0, who=CREATOR)
    assert service.reading.screen(match_id, who=CREATOR).can_abandon is False
    assert service.reading.screen(match_id, who=REFEREE).can_abandon is False
    with pytest.raises(IllegalEvent, match="no deal stands"):
        abandon(service, match_id, REFEREE)
    # the deal voided (the creator's own undo), the match may be withdrawn again
    service.recording.record_event(match_id, {"type": "void", "target": 1, "reason": "undo"},
                                   expected_seq=1, who=CREATOR)
    assert service.reading.screen(match_id, who=CREATOR).can_abandon is True
    abandon(service, match_id, CREATOR)
    assert status_in_store(service, match_id) == ABANDONED


def test_listed_by_status_and_left_out_of_every_live_list(service: Service, club: str) -> None:
    live = created(service, club, table="1")
    withdrawn = created(service, club, table="2")
    board = Scoreboard(service)
    assert [r["match"] for r in board.board(club, who=VIEWER)["rows"]] == [live, withdrawn]
    abandon(service, withdrawn, CREATOR)

    def ids(status: str | None = None) -> list[int]:
        return [m["id"] for m in service.reading.list_matches(club, status=status)[0]]

    assert ids("in_progress") == [live]  # the phone's list of matches in play
    assert ids(ABANDONED) == [withdrawn]
    assert ids("finished") == []
    assert ids() == [withdrawn, live]  # the club's record keeps it
    home = Pages(service).home(club, who=VIEWER)  # the club's page
    assert [m["id"] for m in home["matches"]] == [live] and home["matches_total"] == 1
    assert [r["match"] for r in board.board(club, who=VIEWER)["rows"]] == [live]
    # a stream's last update of the table it showed says so, and the page takes it off
    (row,) = [r for r in board.changed(club, 0, who=VIEWER) if r["match"] == withdrawn]
    assert row["status"] == ABANDONED


def test_an_abandoned_match_counts_nowhere(service: Service, club: str) -> None:
    _, events = sample_match("parejas", seed=3)
    played = created(service, club)
    record_all(service, played, events)
    withdrawn = created(service, club)
    abandon(service, withdrawn, CREATOR)
    table = {row["player"]: row for row in service.standings.table(club)}
    assert all(row["played"] == 1 for row in table.values())  # the finished match alone
    with service.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(standing_rows).where(
            standing_rows.c.match_id == withdrawn)).scalar_one() == 0
        assert conn.execute(select(func.count()).select_from(player_ratings).where(
            player_ratings.c.match_id == withdrawn)).scalar_one() == 0
    with pytest.raises(NotFinished, match="abandoned"):
        service.actas.acta(withdrawn, who=VIEWER)
    assert service.rebuild() == 2  # a rebuild finds it withdrawn again
    assert status_in_store(service, withdrawn) == ABANDONED


def test_a_table_withdrawn_does_not_hold_a_tournament_round_up(service: Service,
                                                               club: str) -> None:
    eight = ["Ana", "Beto", "Carla", "Dani", "Eva", "Fede", "Gabi", "Hugo"]
    service.tournaments.create(club, "noche", "Noche", rules=RULES, format="rotating",
                               rounds=2, entrants=eight)
    first, second = service.tournaments.pair(club, "noche")["tables"]
    abandon(service, first["match"], REFEREE)
    finish(service, second, seed=7)
    assert service.tournaments.round(club, "noche", 1)["status"] == "finished"
    assert service.tournaments.pair(club, "noche")["number"] == 2
    played = {row["player"]: row["played"]
              for row in service.tournaments.standings(club, "noche", after=1)}
    assert sorted(played.values()) == [0, 0, 0, 0, 1, 1, 1, 1]  # the withdrawn table: nothing
