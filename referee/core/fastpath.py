"""push_all's run of moves: a hand-made copy of the move judges and appliers, for the replay's
hot path.

Most of a record is plays, draws and passes that are plainly legal: by the seat on turn, once
the lead is down, a play of a tile it may hold (known in its hand, or unseen and nowhere else)
where it goes, a draw it may make of a tile unseen or in the boneyard, a pass it may make.
``run_moves`` applies such moves one after another with the table's fields in local variables,
while the round is in play; everything else (a tile written unusually, any refused or disputed
move, any other event) it hands to the match's judges and appliers (Match._push_one,
referee.core.moves), the one path the slow replay takes for every event.

It restates what the judges find legal and what the appliers do, for one family only: a line
with two open ends, nothing scored during play (Family.fast). It stays because it pays: the
replay of parsed events 2.2× as fast as through the judges and appliers alone
(docs/performance.md, "Hand-made copies"; ``python bench/validate_bench.py``), and
tests/core/test_core_fastpath.py holds it to the slow path: for random legal, mutated and
closed records, the same violations, the same state and the same report.
"""

from __future__ import annotations

from typing import Any, Iterator

from .outcomes import BLOCKED, DOMINO
from .tiles import placement


def run_moves(match: Any, events: Iterator[Any], violations: list[Any]) -> None:  # noqa: C901 (a hand-made copy of the judges and appliers of three kinds of move, in one loop so that its fields stay local: see the module's docstring)
    """Take events from ``events`` while ``match`` (a referee.core.match.Match, playing, its
    lead down, its family's ``fast`` true) stays in play: a plainly legal move applied here,
    anything else by the match's judges and appliers (Match._push_one), adding its violations
    to ``violations``. Returns once play stops (or the events run out)."""
    seats, after = match.seats, match.next_seat
    tiles = match.tiles
    parts_of, pip_mask, ends = tiles.parts.get, tiles.pip_mask, tiles.max_pip + 1
    rules = match.rules
    drawing, one_draw, reserve = rules.draw != "none", rules.draw == "one", rules.reserve
    round_ = match.round
    (seq, left, right, lt, rt, turn, line, passes, drew, last_player, boneyard, known, count,
     unseen, trail, held) = match._run_fields()
    live = True  # the fields above are the table's (not yet written back)
    try:
        for event in events:
            # (a "seq" field, or no object at all: the judges check it)
            kind = event.get("type") if type(event) is dict and "seq" not in event else None
            # A seat that is the turn's is a seat of the table: it is well-formed. (It is the
            # same int object: the small ints are one object each, and an int that is not, or a
            # bool or float equal to one, is judged.)
            seat = event.get("seat") if kind is not None else None
            if kind == "play" and seat is turn:
                text, end = event.get("tile"), event.get("end")
                side = None
                if (type(text) is str and (parts := parts_of(text)) is not None
                        and ((hand := known[seat]) & parts[1]
                             or not (line | held) & parts[1] and hand.bit_count() != count[seat])):
                    tile, bit, high, low, pips, where = parts
                    if end is None:
                        side = where[left * ends + right]
                    elif type(end) is int or end == "left" or end == "right":
                        side = placement(high, low, left, right, end)
                # the play: the tile's other pip becomes the open end, and it leaves the hand
                if side == "R" or side == "L":
                    if side == "R":
                        right, rt = pips - right, tile
                    else:
                        left, lt = pips - left, tile
                    seq += 1
                    trail.append((seq, "play", seat, tile, side))
                    if hand & bit:
                        known[seat] = hand ^ bit
                    else:  # an unseen tile left: the unseen total is lost
                        unseen[seat] = None
                    count[seat] = in_hand = count[seat] - 1
                    line |= bit
                    passes, drew, last_player = 0, False, seat
                    turn = after[seat]
                    # out of tiles, or both ends show one pip and every tile bearing it is down
                    if not in_hand or left == right and line & (pip := pip_mask[left]) == pip:
                        live = match._write_back(seq, left, right, lt, rt, turn, line, passes,
                                                 drew, last_player, boneyard, held)
                        if not in_hand:
                            round_.seat_out = seat
                        match._end_play(BLOCKED if in_hand else DOMINO)
                        return
                    continue
            elif ((kind == "pass" or kind == "draw") and seat is turn
                    and not known[seat] & (pip_mask[left] | pip_mask[right])):
                # holding (as far as the record shows) no tile that fits: a pass once the rules
                # allow no draw; a draw while they allow one, of a tile unseen or in the boneyard
                may_draw = drawing and boneyard > reserve and not (one_draw and drew)
                if kind == "pass":
                    if not may_draw:
                        seq += 1
                        trail.append((seq, "pass", seat, None, (left, right)))
                        passes += 1
                        drew = False
                        turn = after[seat]
                        if passes >= seats and not (drawing and boneyard > reserve):
                            live = match._write_back(seq, left, right, lt, rt, turn, line,
                                                     passes, drew, last_player, boneyard, held)
                            match._end_play(BLOCKED)
                            return
                        continue
                elif may_draw:
                    text = event.get("tile")
                    drawn: Any = False
                    if text is None:  # an unseen tile came in
                        drawn = None
                        unseen[seat] = None
                        round_.closed = True
                    elif (type(text) is str and (parts := parts_of(text)) is not None
                            and not (line | held) & parts[1]):
                        drawn = parts[0]
                        known[seat] |= parts[1]
                        held |= parts[1]
                    if drawn is not False:
                        seq += 1
                        trail.append((seq, "draw", seat, drawn, (left, right)))
                        count[seat] += 1
                        boneyard -= 1
                        drew = True
                        continue
            # not plainly legal, or not a move: judged the long way, with the fields written
            # back first; the run goes on while play does
            live = match._write_back(seq, left, right, lt, rt, turn, line, passes, drew,
                                     last_player, boneyard, held)
            match._push_one(event, violations)
            if not match.playing or match.finished:
                return
            (seq, left, right, lt, rt, turn, line, passes, drew, last_player, boneyard, known,
             count, unseen, trail, held) = match._run_fields()
            live = True
    finally:
        if live:
            match._write_back(seq, left, right, lt, rt, turn, line, passes, drew, last_player,
                              boneyard, held)
