"""An event stored ``"unsighted": true`` (docs/visibility.md, point 3; docs/log.md): recorded by
someone who could not see the hands typed for the round, allowed by the record as the table saw
it, and refused by the whole record because a typed hand contradicts it. The whole record
applies it as the table saw it, so the two records agree on what the table sees (the line, the
ends, whose turn once the lead is down, the counts, the boneyard, whether the round is over),
event after event, to the end of the round; its violation stays an open dispute.
"""

from __future__ import annotations

import random
from typing import Any

from core_helpers import HAND_A, HAND_B, NAMES, deal, draw, play, rules_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.events import as_table_saw_it
from referee.core.position import position
from referee.core.replay import replay
from referee.core.simulate import random_match

PRESETS = {"mano-a-mano": 2, "veracruz": 3, "parejas": 4, "sircle": 2}
TILES = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]


def _table(events: list[Any], since: int) -> list[Any]:
    """The record as the table saw it: from ``since`` (the round in play's deal) on, no hand
    and no drawn tile."""
    return [as_table_saw_it(e) if seq >= since else e for seq, e in enumerate(events, start=1)]


def _seen(match: Any) -> dict[str, Any]:
    """What the table sees of the match now (once the round is over, the whole record may
    score it where the table's awaits reveals: its hands are seen then)."""
    pos = position(match).as_dict()
    seen = {k: pos[k] for k in ("line", "ends", "counts", "boneyard")}
    seen["over"] = pos["phase"] != "in_progress"
    seen["turn"] = pos["turn"] if pos["line"] else None  # before the lead: who may lead
    return seen


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(sorted(PRESETS)),
       depth=st.floats(0.0, 1.0))
def test_the_whole_record_goes_on_as_the_table_saw_it_to_the_end_of_the_round(
        seed: int, preset: str, depth: float) -> None:
    players = NAMES[:PRESETS[preset]]
    rules = rules_for(preset, len(players))
    _, events = random_match(preset, players, random.Random(seed), max_rounds=2)
    start = max(i for i, e in enumerate(events) if e["type"] == "deal")
    record = events[:start + 1 + int(depth * (len(events) - start - 1))]
    since = start + 1
    rng = random.Random(seed)
    for _ in range(12):
        whole = replay(rules, players, record)
        if not whole.match.playing:
            break
        seat = whole.match.turn if whole.match.turn is not None else rng.randrange(len(players))
        event = rng.choice([{"type": "play", "seat": seat, "tile": rng.choice(TILES)},
                            {"type": "pass", "seat": seat}, {"type": "draw", "seat": seat},
                            {"type": "draw", "seat": seat, "tile": rng.choice(TILES)}])
        # its recorder saw what the table saw, and the tile it typed
        if replay(rules, players, [*_table(record, since), event]).violation_at(
                len(record) + 1) is not None:
            continue  # refused there too: nobody records it but as disputed
        refused = replay(rules, players, [*record, event]).violation_at(len(record) + 1)
        stored = {**event, "unsighted": True} if refused is not None else event
        record.append(stored)
        whole = replay(rules, players, record)
        table = replay(rules, players, _table(record, since))
        assert _seen(whole.match) == _seen(table.match), (stored, refused)
        if refused is not None:  # an open dispute of the whole record, with its own code
            assert whole.violation_at(len(record)).code == refused.code


def test_a_tile_a_typed_hand_holds_played_by_another_seat_ends_the_round() -> None:
    """Issue 33's reproduction: seat 1 drew 6-5 in sight, seat 0 played it out, unsighted."""
    rules = rules_for({"preset": "mano-a-mano", "first_opener": "free", "hand_size": 2})
    events = [deal(None, None), play(0, "6-6"), draw(1, "6-5"), play(1, "6-1"),
              {**play(0, "6-5"), "unsighted": True}]
    result = replay(rules, NAMES[:2], events)
    assert [(v.seq, v.code) for v in result.violations] == [(5, "not_in_hand")]
    assert position(result.match).phase == "awaiting_reveal"
    assert result.match.count == [0, 2]
    # without the mark, a refused event is not applied (the log's rule for any other record)
    plain = replay(rules, NAMES[:2], [*events[:4], play(0, "6-5")])
    assert position(plain.match).phase == "in_progress" and plain.match.count == [1, 2]


def test_unseen_draws_stored_unsighted_one_after_another_are_each_a_draw() -> None:
    """A seat typed holding a tile that fits draws twice: to a phone that could not see the
    hand, two legal draws; the whole record applies both (no ``repeat``: that is for a
    scorekeeper's own disputed event recorded twice)."""
    rules = rules_for()
    marked = {**draw(1), "unsighted": True}
    events = [deal(HAND_A, HAND_B), play(0, "6-6"), marked, dict(marked)]
    result = replay(rules, NAMES[:2], events)
    assert [(v.seq, v.code) for v in result.violations] == [(3, "illegal_draw"),
                                                            (4, "illegal_draw")]
    assert result.match.count == [6, 9] and result.match.boneyard == 12


def test_a_hand_known_whole_gives_way_whole_though_a_view_of_it_knew_a_tile() -> None:
    """The record does not always know more than a view of it (the run seed 623771817's case in
    tests/resilience/test_noninterference.py). Seat 1, dealt closed, is seen drawing 5-5 by
    one phone (A) and 6-5 by another (B), and plays out the rest: the whole record holds its
    hand whole, 5-5 and 6-5. B records seat 1's 4-1 (B's record, without A's draw, holds 6-5
    and one tile unseen): unsighted, and the hand gives way whole, 6-5 too (which of the two
    tiles was not there, nothing in the record says). So when seat 0 goes out, B's record
    scores the round at once (6-5 left: 11, the target) and the match is over, while the
    whole record waits for seat 1's reveal. Both are over for the table; which one the round's
    end also finished depends on the hands, which everyone sees then."""
    rules = rules_for({"preset": "mano-a-mano", "first_opener": "free", "hand_size": 2,
                       "target": 11})
    by_a = 6  # seq of A's draw, typed with its tile where A records the draws it sees
    events = [deal(None, None), play(0, "6-6"), play(1, "6-1"), draw(0), play(0, "6-3"),
              draw(1, "5-5"), play(1, "3-2"), draw(0), play(0, "2-0"), draw(1, "6-5"),
              {**play(1, "4-1"), "unsighted": True}, play(0, "4-3")]
    for_b = [draw(1) if seq == by_a else e for seq, e in enumerate(events, start=1)]
    whole, seen_by_b = replay(rules, NAMES[:2], events), replay(rules, NAMES[:2], for_b)
    assert [(v.seq, v.code) for v in whole.violations] == [(11, "not_in_hand")]
    assert seen_by_b.violations == ()
    before = replay(rules, NAMES[:2], events[:11]).match
    assert before.known[1] == 0 and before.count[1] == 1  # 6-5 forgotten with the 5-5
    assert replay(rules, NAMES[:2], for_b[:11]).match.known[1] == 1 << before.tiles.parse("6-5")
    assert _seen(whole.match) == _seen(seen_by_b.match)  # the table: the same, the round over
    assert position(whole.match).phase == "awaiting_reveal" and not whole.match.finished
    assert seen_by_b.match.finished and seen_by_b.match.totals == [11, 0]
