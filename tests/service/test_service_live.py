"""referee.service.live: the scoreboard's rows (what the table saw, in table order, with their
status), and their delivery to a subscription when another process appends (a second Service on
the same database: on PostgreSQL through NOTIFY, on SQLite by polling), resumed by cursor."""

from __future__ import annotations

import json
import threading
from typing import Any, Iterator

import pytest
from sqlalchemy import Engine
from tournament_helpers import NINE, RULES, play_round

from referee.service import OPERATOR, Forbidden, Invalid, Service, Unauthorized
from referee.service.access import Caller, public_reader
from referee.service.live import Busy, Scoreboard, StreamCaps, Subscription, moment_of
from referee.store.db import make_engine

WAIT = 15.0  # seconds a test waits at most for a row that should come (it comes in < 1 s)
SMALL = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none", "target": 5}
HANDS = [["6-6", "6-5", "5-5"], ["6-4", "4-3", "2-1"]]
OPEN_DEAL = {"type": "deal", "hands": HANDS}
# Seat 0 goes out at event 6; seat 1 still holds the 2-1: 3 points to Ana.
ROUND = [OPEN_DEAL, {"type": "play", "seat": 0, "tile": "6-6"},
         {"type": "play", "seat": 1, "tile": "6-4"}, {"type": "play", "seat": 0, "tile": "6-5"},
         {"type": "play", "seat": 1, "tile": "4-3"}, {"type": "play", "seat": 0, "tile": "5-5"}]


@pytest.fixture
def board(service: Service, club: str) -> Iterator[Scoreboard]:
    # No resync on PostgreSQL but the first: what reaches a subscription came by NOTIFY.
    found = Scoreboard(service, poll_seconds=0.05, resync_seconds=3600)
    yield found
    found.hub.close()


@pytest.fixture
def other_worker(engine: Engine, database_url: str) -> Iterator[Service]:
    """Another process's service on the same database: nothing in memory is shared."""
    other = Service(make_engine(database_url))
    yield other
    other.close()


def _match(service: Service, club: str = "casino", players: tuple[str, ...] = ("Ana", "Beto"),
           rules: Any = SMALL, **header: Any) -> int:
    return service.recording.create_match(club, rules, list(players), **header)["id"]


def _record(service: Service, match_id: int, events: list[dict[str, Any]]) -> int:
    seq = 0
    for event in events:
        seq = service.recording.record_event(match_id, event, expected_seq=None).seq
    return seq


def _until(subscription: Subscription, match_id: int, seq: int) -> dict[str, Any]:
    """The first row of ``match_id`` at ``seq`` or later the subscription is handed (bounded:
    a failure, not a hang, when none comes)."""
    for _ in range(int(WAIT / 0.5)):
        for row in subscription.take(0.5):
            if row["match"] == match_id and row["seq"] >= seq:
                return row
    raise AssertionError(f"no row of match {match_id} at seq {seq} arrived")


def _viewer(service: Service, club: str) -> Caller:
    return service.tokens.authenticate(service.tokens.create_token(club, "viewer", label="v"))


def test_rows_are_in_table_order_with_their_status(service: Service, club: str,
                                                   board: Scoreboard) -> None:
    ten = _match(service, table=10)
    two = _match(service, table="2")
    terrace = _match(service, table="Terrace")
    # a label of digits that are not ASCII is text (a "²" was read by int(): the board a 500)
    squared, wide = _match(service, table="²"), _match(service, table="１")
    unnamed = _match(service)
    disputed = _match(service, table=3)
    finished = _match(service, table=1)
    _record(service, finished, [OPEN_DEAL, {"type": "forfeit", "side": 1, "reason": "left"}])
    _record(service, disputed, [OPEN_DEAL, {"type": "play", "seat": 1, "tile": "7-7",
                                            "disputed": True}])
    rows = board.board(club, who=OPERATOR)["rows"]
    assert [(r["match"], r["table"]) for r in rows] == [
        (finished, 1), (two, "2"), (disputed, 3), (ten, 10), (terrace, "Terrace"), (squared, "²"),
        (wide, "１"), (unnamed, None)]
    status = {r["match"]: r["status"] for r in rows}
    assert (status[finished], status[disputed], status[ten]) == ("finished", "disputed", "live")
    won = next(r for r in rows if r["match"] == finished)
    assert won["winner_name"] == "Ana" and won["turn"] is None and won["counts"] == []


def test_a_row_shows_sides_totals_round_turn_and_counts(service: Service, club: str,
                                                        board: Scoreboard) -> None:
    pairs = _match(service, players=("Ana", "Beto", "Carla", "Dani"), rules="parejas", table=4)
    small = _match(service, table=5)
    _record(service, small, ROUND[:4])
    rows = {r["match"]: r for r in board.board(club, who=OPERATOR)["rows"]}
    assert rows[pairs]["sides"] == ["Ana & Carla", "Beto & Dani"]
    assert rows[pairs]["round"] is None and rows[pairs]["seq"] == 0
    row = rows[small]
    assert (row["round"], row["totals"], row["turn"], row["turn_name"]) == (1, [0, 0], 1, "Beto")
    assert row["counts"] == [1, 2] and row["seq"] == 4 and row["status"] == "live"
    _record(service, small, ROUND[4:])
    row = next(r for r in board.board(club, who=OPERATOR)["rows"] if r["match"] == small)
    assert row["totals"] == [3, 0] and row["seq"] == 6


@pytest.mark.parametrize("role", ["public", "viewer", "scorekeeper", "referee", "operator"])
def test_no_hand_ever_shows_whoever_asks(service: Service, club: str, board: Scoreboard,
                                         role: str) -> None:
    """The deal holds both hands; the board shows counts, never a tile, even to a referee
    (a scoreboard shows what the table saw) or the scorekeeper who recorded the deal."""
    service.clubs.set_public(club, True)
    token = service.tokens.create_token(club, "scorekeeper", label="table 7")
    keeper = service.tokens.authenticate(token)
    match_id = _match(service, table=7)
    service.recording.record_event(match_id, OPEN_DEAL, expected_seq=0, who=keeper)
    service.recording.record_event(match_id, ROUND[1], expected_seq=1, who=keeper)
    who = {"public": public_reader(club), "viewer": _viewer(service, club),
           "scorekeeper": keeper, "operator": OPERATOR,
           "referee": service.tokens.authenticate(
               service.tokens.create_token(club, "referee", label="r"))}[role]
    text = json.dumps(board.board(club, who=who)) + json.dumps(board.changed(club, 0, who=who))
    held = {t for hand in HANDS for t in hand} - {"6-6"}
    assert [t for t in held if f'"{t}"' in text] == []  # a tile is a JSON string
    assert '"counts": [2, 3]' in text


def test_access_is_the_club_pages(service: Service, club: str, board: Scoreboard) -> None:
    service.clubs.create_club("other", "Other")
    with pytest.raises(Unauthorized):
        board.board(club)  # no token, a private club
    with pytest.raises(Forbidden):
        board.board(club, who=_viewer(service, "other"))
    with pytest.raises(Unauthorized):
        board.subscribe(club)
    service.clubs.set_public(club, True)
    assert board.board(club)["club"]["public"] is True


def test_an_append_by_another_worker_reaches_a_subscription(
        service: Service, club: str, board: Scoreboard, other_worker: Service) -> None:
    match_id = _match(service, table=1)
    subscription = board.subscribe(club, who=OPERATOR)
    try:
        assert board.hub.ready.wait(WAIT)  # listening (or polling) from now on
        seq = other_worker.recording.record_event(match_id, OPEN_DEAL, expected_seq=0).seq
        row = _until(subscription, match_id, seq)
        assert row["round"] == 1 and row["counts"] == [3, 3]
        seq = _record(other_worker, match_id, ROUND[1:])
        row = _until(subscription, match_id, seq)
        assert row["totals"] == [3, 0]
    finally:
        subscription.close()


def test_a_slow_subscription_gets_each_table_once_at_its_newest(
        service: Service, club: str, board: Scoreboard) -> None:
    match_id = _match(service, table=1)
    subscription = board.subscribe(club, who=OPERATOR)
    try:
        _record(service, match_id, ROUND)
        row = _until(subscription, match_id, len(ROUND))
        assert row["seq"] == len(ROUND)
        # whatever came before it came in earlier takes: a take never holds a table twice
        subscription.put([row, {**row, "seq": 99}])
        assert [r["seq"] for r in subscription.take(0)] == [99]
    finally:
        subscription.close()


def test_ending_all_streams_wakes_a_waiting_one_and_frees_every_place(
        service: Service, club: str, board: Scoreboard) -> None:
    service.clubs.create_club("other", "Other")
    waiting = board.subscribe(club, who=OPERATOR)
    others = [board.subscribe(club, who=OPERATOR), board.subscribe("other", who=OPERATOR)]
    taken: list[list[dict[str, Any]]] = []
    # A stream's thread waits far longer than the test: only the end wakes it.
    thread = threading.Thread(target=lambda: taken.append(waiting.take(3600)), daemon=True)
    thread.start()
    board.hub.end_all()
    thread.join(WAIT)
    assert not thread.is_alive() and taken == [[]]
    assert waiting.closed and all(s.closed for s in others) and board.hub.subscribed == 0
    board.subscribe(club, who=OPERATOR).close()  # a new stream opens as before


def test_changed_since_a_cursor(service: Service, club: str, board: Scoreboard) -> None:
    first, second = _match(service, table=1), _match(service, table=2)
    _record(service, first, ROUND[:1])
    cursor = board.board(club, who=OPERATOR)["cursor"]
    assert cursor == max(r["cursor"] for r in board.board(club, who=OPERATOR)["rows"])
    # Within the clock margin both show; a cursor an hour on shows neither.
    assert {r["match"] for r in board.changed(club, cursor, who=OPERATOR)} == {first, second}
    assert board.changed(club, cursor + 3_600_000_000, who=OPERATOR) == []
    with pytest.raises(Invalid):
        board.changed(club, "yesterday", who=OPERATOR)
    assert moment_of(cursor).tzinfo is not None
    for wrong in ("²", "１７", "+17", "1_7"):  # not ASCII digits alone: refused, never a 500
        with pytest.raises(Invalid):
            moment_of(wrong)


def test_a_process_streams_only_so_many_boards(service: Service, club: str) -> None:
    board = Scoreboard(service, caps=StreamCaps(process=1))
    first = board.subscribe(club, who=OPERATOR)
    try:
        with pytest.raises(Busy):
            board.subscribe(club, who=OPERATOR)
        first.close()
        board.subscribe(club, who=OPERATOR).close()  # a place again
    finally:
        board.hub.close()


def test_the_caps_per_club_and_per_client(service: Service, club: str) -> None:
    service.clubs.create_club("other", "Other")
    board = Scoreboard(service, caps=StreamCaps(club=1, client=2))
    held = [board.subscribe(club, who=OPERATOR, client="10.0.0.1")]
    try:
        with pytest.raises(Busy, match="of this club"):
            board.subscribe(club, who=OPERATOR, client="10.0.0.2")
        held.append(board.subscribe("other", who=OPERATOR, client="10.0.0.1"))
        service.clubs.create_club("third", "Third")
        with pytest.raises(Busy, match="to your address"):
            board.subscribe("third", who=OPERATOR, client="10.0.0.1")
        held.pop().close()
        held.append(board.subscribe("third", who=OPERATOR, client="10.0.0.1"))  # freed
    finally:
        for subscription in held:
            subscription.close()
        board.hub.close()


def test_a_share_of_the_streams_is_kept_for_the_clubs_members(service: Service,
                                                              club: str) -> None:
    """Streams without a token (a public club's visitors) take at most 75 % of the process's
    streams and of each club's: however many come, from however many addresses, the clubs'
    signed-in members still get theirs; an address's streams with a token and without one are
    counted apart."""
    for slug in ("pub1", "pub2"):
        service.clubs.create_club(slug, slug.title())
        service.clubs.set_public(slug, True)
    members = {slug: service.tokens.authenticate(service.tokens.create_token(slug, "viewer"))
               for slug in (club, "pub1")}
    board = Scoreboard(service, caps=StreamCaps(process=8, club=4, client=2, reserved=25))
    held: list[Subscription] = []
    visitors = iter(f"198.51.100.{n}" for n in range(1, 100))
    try:
        held += [board.subscribe("pub1", client=next(visitors)) for _ in range(3)]
        with pytest.raises(Busy, match="of this club without a token"):
            board.subscribe("pub1", client=next(visitors))
        held.append(board.subscribe("pub1", who=members["pub1"], client="10.0.0.1"))
        with pytest.raises(Busy, match="of this club at once"):
            board.subscribe("pub1", who=members["pub1"], client="10.0.0.1")
        held += [board.subscribe("pub2", client=next(visitors)) for _ in range(3)]
        with pytest.raises(Busy, match="scoreboards without a token"):  # 6 of 8: the visitors' all
            board.subscribe("pub2", client=next(visitors))
        held.append(board.subscribe(club, who=members[club], client="10.0.0.2"))  # a private club
        with pytest.raises(Busy, match="scoreboards at once"):  # 8 of 8
            board.subscribe(club, who=members[club], client="10.0.0.2")
        for subscription in held:
            subscription.close()
        held.clear()
        # One address (a club's Wi-Fi): its visitors' cap is not its members'.
        held += [board.subscribe("pub1", client="10.0.0.3") for _ in range(2)]
        with pytest.raises(Busy, match="to your address"):
            board.subscribe("pub1", client="10.0.0.3")
        held += [board.subscribe("pub1", who=members["pub1"], client="10.0.0.3") for _ in range(2)]
        assert board.hub.subscribed == 4
    finally:
        for subscription in held:
            subscription.close()
        board.hub.close()
    assert board.hub.subscribed == 0


def test_a_revoked_tokens_subscription_is_closed(service: Service, club: str) -> None:
    board = Scoreboard(service, poll_seconds=0.05, resync_seconds=0.1)
    token = service.tokens.create_token(club, "viewer")
    who = service.tokens.authenticate(token)
    subscription = board.subscribe(club, who=who)
    kept = board.subscribe(club, who=OPERATOR)
    try:
        service.tokens.revoke_token(club, who.token_id)
        for _ in range(int(WAIT / 0.05)):
            if subscription.closed:
                break
            subscription.take(0.05)
        assert subscription.closed and not kept.closed and board.hub.subscribed == 1
    finally:
        kept.close()
        board.hub.close()


def test_a_row_is_what_the_public_readers_screen_shows(service: Service, club: str,
                                                       board: Scoreboard) -> None:
    """The board builds its rows over one query for all tables; each must be what the club's
    public reader is shown of that match (svc.reading.screen, through views.sight): a round in
    play with both hands dealt open, a closed recording, a draw in sight, a round over."""
    service.clubs.set_public(club, True)
    reader = public_reader(club)
    dealt_open = _match(service, table=1)
    _record(service, dealt_open, ROUND[:3])
    over = _match(service, table=2)
    _record(service, over, ROUND)
    closed = _match(service, table=3)
    _record(service, closed, [{"type": "deal"}, {"type": "play", "seat": 0, "tile": "6-6"}])
    drawing = _match(service, rules={**SMALL, "draw": "until_playable"}, table=4)
    _record(service, drawing, [{"type": "deal", "hands": [["6-6", "1-0", "0-0"],
                                                           ["2-2", "3-1", "4-0"]]},
                               {"type": "play", "seat": 0, "tile": "6-6"},
                               {"type": "draw", "seat": 1, "tile": "6-2"}])
    just_dealt = _match(service, table=5)
    _record(service, just_dealt, ROUND[:1])
    rows = {r["match"]: r for r in board.board(club)["rows"]}
    for match_id in (dealt_open, over, closed, drawing, just_dealt):
        pos = service.reading.screen(match_id, who=reader).position
        row = rows[match_id]
        players = row["players"]
        assert (row["turn"], row["counts"], row["boneyard"], row["phase"], row["round"]) == (
            pos.turn, list(pos.counts), pos.boneyard, pos.phase, pos.round), match_id
        assert row["may_lead_names"] == [players[s] for s in pos.may_lead]
    assert rows[dealt_open]["may_lead_names"] == []  # seat 0 led; the 6-6 is on the table
    # The card says the undealt tiles as the screen decides (screen.shows_undealt), while a
    # round is in play: never in parejas (every tile dealt, none drawn), nor between rounds.
    pairs = _match(service, players=("Ana", "Beto", "Carla", "Dani"), rules="parejas", table=6)
    _record(service, pairs, [{"type": "deal"}])
    rows = {r["match"]: r for r in board.board(club)["rows"]}
    shown = {m: rows[m]["shows_undealt"] for m in (dealt_open, over, closed, drawing, just_dealt, pairs)}
    assert shown == {dealt_open: True, over: False, closed: True, drawing: True, just_dealt: True,
                     pairs: False}
    for match_id in (dealt_open, closed, drawing, just_dealt, pairs):
        assert shown[match_id] is service.reading.screen(match_id, who=reader).shows_undealt
    # The record knows Ana holds the 6-6 and must lead; the table does not: saying so would
    # tell a tile of her hand.
    assert (rows[just_dealt]["turn"], rows[just_dealt]["may_lead_names"]) == (None, ["Ana", "Beto"])


def test_a_tournaments_board_is_its_current_rounds_tables(service: Service, club: str,
                                                          board: Scoreboard) -> None:
    night = _match(service, table=99)  # a club-night table: not the tournament's
    service.tournaments.create(club, "noche", "Noche", rules=RULES, format="rotating",
                               rounds=2, entrants=NINE[:8])
    empty = board.tournament_board(club, "noche", who=OPERATOR)
    assert (empty["tournament"]["round"], empty["rows"]) == (None, [])
    service.tournaments.pair(club, "noche")
    first = board.tournament_board(club, "noche", who=OPERATOR)
    tables = service.tournaments.round_tables(club, "noche", 1, who=OPERATOR)
    assert [r["match"] for r in first["rows"]] == [t["match"] for t in tables]
    assert night not in [r["match"] for r in first["rows"]]
    assert [r["players"] for r in first["rows"]] == [t["players"] for t in tables]
    play_round(service, club, "noche", 1, seed=10)
    assert {r["status"] for r in board.tournament_board(club, "noche", who=OPERATOR)["rows"]
            } <= {"finished", "disputed"}  # a finished round stays on its board until the next
    service.tournaments.pair(club, "noche")
    second = board.tournament_board(club, "noche", who=OPERATOR)
    assert second["tournament"] == {"slug": "noche", "name": "Noche", "round": 2}
    assert [r["match"] for r in second["rows"]] == [
        t["match"] for t in service.tournaments.round_tables(club, "noche", 2, who=OPERATOR)]
    with pytest.raises(Unauthorized):
        board.tournament_board(club, "noche")  # a private club, no token
