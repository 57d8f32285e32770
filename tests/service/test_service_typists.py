"""Whether another typist's record refuses an append (``view.refused_by_a_typist``): each such
record is kept in step with the whole one (``MatchRecord.typist_view``), not replayed on every
append, and it answers as a replay of the record as that token sees it would."""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any, Callable, Iterator

import pytest

import referee.core.replay as core_replay
from referee.core.events import unsighted
from referee.core.replay import replay
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match
from referee.service import Caller, Service, view
from referee.service.checks import rewrites_the_record
from referee.service.record import Mark, MatchRecord

NOW = dt.datetime(2026, 12, 8, tzinfo=dt.timezone.utc)
A, B = 1, 2  # the two scorekeepers' tokens (None: the operator)


def new_record(rules: Any, players: list[str]) -> MatchRecord:
    resolved = resolve_rules(rules, len(players))
    header = {"format": "domino-log/1", "rules": rules, "players": players}
    return MatchRecord.new(match_id=1, club="casino", club_id=1, rules=resolved,
                           players=players, header_text=json.dumps(header), created_at=NOW,
                           events=[], marks=[], result=replay(resolved, players, []), head="")


def replayed_answer(record: MatchRecord, recorder: int | None) -> bool:
    """The answer as the code before answered it: a replay of the record as each other typist
    sees it."""
    secrets = record.secrets()
    marks, last = record.marks, record.last_seq
    for token in {marks[seq - 1].token_id for seq, _ in secrets} - {recorder, None}:
        events = list(record.events)
        for seq, shown in secrets:
            if marks[seq - 1].token_id != token:
                events[seq - 1] = shown
        if replay(record.rules, record.players, events).violation_at(last) is not None:
            return True
    return False


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], int]]:
    """The replays of the rules core made while counting is on (``count(True)``)."""
    made = [0]
    counting = [False]

    def counted(*args: Any, **kwargs: Any) -> Any:
        made[0] += counting[0]
        return replay(*args, **kwargs)

    monkeypatch.setattr(core_replay, "replay", counted)
    if hasattr(view, "replay"):
        monkeypatch.setattr(view, "replay", counted)

    def count(on: bool | None = None) -> int:
        if on is not None:
            counting[0] = on
        return made[0]

    yield count


def test_a_legal_append_after_another_token_typed_a_hand_replays_nothing(
        replays: Callable[..., int]) -> None:
    """A types the deal open; B records the round's plays: each of B's appends asks whether
    A's record (which knows the hands) refuses it. The first asks A's record replayed, then it
    is pushed on with the record: no replay however long the round."""
    rules = {"preset": "mano-a-mano", "first_opener": "free"}
    _, events = random_match(rules, ["Ana", "Beto"], random.Random(3))
    record = new_record(rules, ["Ana", "Beto"])
    record.push(events[0], Mark(A, "a", NOW))
    assert record.secrets(), "A's deal is hidden from the table"
    asked = 0
    for event in events[1:]:
        if event["type"] != "play" or record.match.secret_since() is None:
            break
        assert record.push(event, Mark(B, "b", NOW)) is None
        replays(True)
        assert view.refused_by_a_typist(record, B) is False
        replays(False)
        asked += 1
    assert asked >= 4
    assert replays() <= 1


@pytest.mark.parametrize("seed", range(40))
def test_the_kept_records_answer_as_a_replay_does(seed: int) -> None:
    """Two scorekeepers and the operator record a match, some draws and plays typed wrong (a
    tile another record holds, a tile nobody dealt), as the service appends: an event that
    another typist's record refuses is stored unsighted (the record replayed with the mark).
    After every append the kept records answer as a replay of each would."""
    rng = random.Random(seed)
    players = ["Ana", "Beto"]
    rules = {"preset": "mano-a-mano", "first_opener": "free", "target": 60}
    _, events = random_match(rules, players, rng)
    tiles = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]
    record = new_record(rules, players)
    answers = []
    for event in events[:160]:
        if event["type"] in ("draw", "play") and "tile" in event and rng.random() < 0.15:
            event = {**event, "tile": rng.choice(tiles)}
        token = rng.choice((A, A, B, B, None))
        violation = record.push(event, Mark(token, None, NOW))
        if violation is not None or rewrites_the_record(event) or unsighted(event):
            continue
        expected = replayed_answer(record, token)
        answer = view.refused_by_a_typist(record, token)
        assert answer is expected, (seed, record.last_seq)
        answers.append(answer)
        if answer:
            record.replace_last({**event, "unsighted": True})
    assert False in answers


def test_a_scorekeeper_s_appends_to_a_round_another_typed_replay_nothing(
        service: Service, club: str, replays: Callable[..., int]) -> None:
    """Scorekeeper A types the deal open; scorekeeper B records the round's moves (its draws
    with their tiles) at the expected seq, as a phone does. Each append is judged on B's record
    (without A's hands), asked of A's record (without B's drawn tiles) and answered with B's
    screen: each of them is kept in the record and pushed on with it, so past the round's
    first append none is replayed (nor the record read again)."""
    rules = {"preset": "mano-a-mano", "first_opener": "free"}
    _, events = random_match(rules, ["Ana", "Beto"], random.Random(5))
    end = next(seq for seq, e in enumerate(events) if seq and e["type"] == "deal")
    match_id = service.recording.create_match(club, rules, ["Ana", "Beto"])["id"]
    a, b = (Caller(club, "scorekeeper", token, f"phone {token}") for token in (A, B))
    service.recording.record_event(match_id, events[0], expected_seq=0, who=a)
    per_append = []
    for seq in range(1, end - 1):  # the round's moves but its last (everything shows then)
        replays(True)
        before = replays()
        service.recording.record_event(match_id, events[seq], expected_seq=seq, who=b)
        per_append.append(replays() - before)
        replays(False)
    assert any(e["type"] == "draw" for e in events[1:end - 1]), "B types a hidden tile too"
    assert len(per_append) >= 5 and per_append[1:] == [0] * (len(per_append) - 1), per_append
