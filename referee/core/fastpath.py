"""push_all's run of moves: a hand-made copy of the move judges and appliers, for the replay's
hot path.

Most of a record is plays, draws and passes that are plainly legal: by the seat on turn, once
the lead is down, a play of a tile it may hold (known in its hand, or unseen and nowhere else)
where it goes, a draw it may make of a tile unseen or in the boneyard, a pass it may make.
``run_moves`` applies such moves one after another with the table's fields in local variables,
while the round is in play; everything else (a tile written unusually, any refused or disputed
move, any other event) it hands to the match's judges and appliers (Match._push_one,
referee.core.moves), the one path the slow replay takes for every event.

``run_moves`` restates what the judges find legal and what the appliers do for the seeds'
family: a line with two open ends, nothing scored during play; ``lead_line`` does for a round's
plainly legal lead (push_all lays it, then the run begins), on that line and on the points
family's (``lead_counted``), whose policy scores it. ``run_counted`` does the same for the
points family (referee.core.counting's layouts, referee.core.points' policy), calling the
policy to score a play. Family.run names a family's run (none for a family neither fits). They
stay because they pay: each family's replay of parsed events against the same replay through
the judges and appliers alone (docs/performance.md, "Hand-made copies"; ``python
bench/validate_bench.py``, its "run of moves off" rows), and tests/core/test_core_fastpath.py
holds them to the slow path: for random legal, mutated, disputed and closed records of every
preset, the same violations, the same state and the same report.
"""

from __future__ import annotations

from typing import Any, Iterator

from .counting import DOUBLE_COUNT, NAMED, WORTH, place_on_four
from .outcomes import BLOCKED, DOMINO
from .tiles import placement

_new = tuple.__new__  # a layout made as fast as it can be (a named tuple)


def _drawn(match: Any, text: Any, seat: int, line: int, held: int) -> tuple[Any, int]:
    """A run's draw by ``seat`` that it may make, of tile ``text``: into the hand when plainly
    legal (unseen, or a tile written as the set writes it that is on the line nor seen in a
    hand), then (the tile, or None when unseen; the tiles seen in hands); else (False, held)."""
    if text is None:  # an unseen tile came in
        match.unseen_pips[seat] = None
        match.round.closed = True
        return None, held
    if type(text) is str and (parts := match.tiles.parts.get(text)) is not None:
        bit = parts[1]
        if not (line | held) & bit:
            match.known[seat] |= bit
            return parts[0], held | bit
    return False, held


def lead_line(match: Any, event: Any, counted: bool = False) -> bool:
    """Lay ``event`` (a dict) on a family's empty layout (the seeds' line, the points
    family's counted lines) when it is a plainly legal lead, as the play's judge
    (MoveJudges._play, _lead) and applier (_apply_play) would (``counted``: the points
    family's line, its policy scoring the lead): a play with no ``seq``, ``end`` nor anything
    odd, in a round in play before its lead, by a seat that may lead, of a tile written as the set writes it that the seat may hold (known in its hand, or
    unseen and nowhere else) and that is the tile the rules name, if they name one. Whether it
    did (else nothing changed: the slow path judges it). Every round has one: through the
    slow path it cost a round as much as a dozen of its moves in the run."""
    if (event.get("type") != "play" or "seq" in event or "end" in event or not match.playing
            or match.finished or match.layout.left is not None):
        return False
    seat, text = event.get("seat"), event.get("tile")
    if (type(seat) is not int or not 0 <= seat < match.seats or not match.may_lead >> seat & 1
            or type(text) is not str or (parts := match.tiles.parts.get(text)) is None):
        return False
    tile, bit = parts[0], parts[1]
    known, count = match.known, match.count
    hand = known[seat]
    if not (hand & bit or not (match.line | match.held) & bit
            and hand.bit_count() != count[seat]):
        return False
    if match.lead_tile is not None and tile != match.lead_tile:
        return False
    # the lead: the tile alone, lying as written; out of the hand
    match.seq = seq = match.seq + 1
    halves = match.tiles.written[text]
    if counted:  # the points family's counted line (its lead may spin)
        layout = match.layout = match.layout.lead(tile, halves)
    else:
        layout = match.layout = _new(type(match.layout),
                                     (halves[0], halves[1], tile, tile, None, ()))
    round_ = match.round
    round_.opener = seat
    round_.trail.append((seq, "play", seat, tile, halves))
    if hand & bit:
        known[seat] = hand ^ bit
    else:  # an unseen tile left: the unseen total is lost
        match.unseen_pips[seat] = None
    count[seat] -= 1
    match.line |= bit
    match.passes, match.drew, match.last_player = 0, False, seat
    match.turn = turn = match.next_seat[seat]
    if counted and (WORTH[match.rules.count][parts[4]] or not count[seat]):
        # the points family: the policy scores a lead whose count (a lone lead's, its pips) is
        # worth points, or that empties the hand (a chip-out point); it scores no other lead
        match.family.scoring.after_play(match, seat)
        if not match.playing:  # its score reached the target: the round stopped there
            return True
    if not count[seat] and match.family.scoring.side_goes_out(match, seat):
        round_.seat_out = seat
        match._end_play(DOMINO)
    elif halves[0] == halves[1] and layout.blocked(match.line, match.tiles):
        # (a lead of two pips leaves two ends unlike: never blocked, no call made)
        match._end_play(BLOCKED)
    elif not count[turn]:
        match._skip_out()
    return True


def lead_counted(match: Any, event: Any) -> bool:
    """``lead_line`` for the points family (referee.core.counting's lines, scored by
    referee.core.points' policy): the lead laid as its line's ``lead`` lays it, and scored."""
    return lead_line(match, event, True)


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
            # (a "seq" field, no type or seat, or no object at all: the judges check it; the
            # fields read by subscript, a third of a get's cost, a missing one caught)
            kind = seat = None
            if type(event) is dict and "seq" not in event:
                try:
                    kind, seat = event["type"], event["seat"]
                except KeyError:
                    pass
            # A seat that is the turn's is a seat of the table: it is well-formed. (It is the
            # same int object: the small ints are one object each, and an int that is not, or a
            # bool or float equal to one, is judged.)
            if kind == "play" and seat is turn:
                text = event.get("tile")
                end = event["end"] if "end" in event else None
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


_PARTNERS = (0, 1, 0, 1)  # each seat's side in partnerships (rules.side_of)
# The end a play may name, as its shape allows (events.shape_error): a pip (an int) or these.
_NAMED_ENDS = frozenset({"left", "right", "up", "down"})
_SIDES = frozenset({"L", "R", "U", "D"})  # the sides a tile may go on (layout.place's answers)


def _put(match: Any, seq: int, layout: Any, turn: int | None, line: int, passes: int,
         drew: bool, last_player: int | None, boneyard: int, held: int) -> bool:
    """End a run of counted moves: the table's fields it held go back to the match."""
    match.seq, match.layout, match.turn, match.line = seq, layout, turn, line
    match.passes, match.drew, match.last_player = passes, drew, last_player
    match.boneyard, match.held = boneyard, held
    return False


def run_counted(match: Any, events: Iterator[Any], violations: list[Any]) -> None:  # noqa: C901 (a hand-made copy of the judges and appliers of three kinds of move on a counted line, in one loop so that its fields stay local: see the module's docstring)
    """``run_moves`` for the points family (referee.core.counting's layouts, scored by
    referee.core.points' policy): the same plainly legal moves applied here. The layout's
    fields are held here (``left``, ``right``, their outer tiles, ``spinner``, ``arms``); the
    layout itself is made of them only where it is needed (a method of its class called, the
    fields written back), not after every play. While the layout is a line of two ends (no
    arms open, a spinner down or not) a tile's place is worked out here as the layout's
    ``place`` does; on the spinner's open arms ``place_on_four`` says; else the layout's
    ``place``. The new layout and its count are worked out here as ``placed`` and ``count``
    do (the first double made the spinner here too, and its arms opened once both its sides
    hold a tile); whether the line is blocked, as ``blocked`` has it. A play whose count is
    worth points (or a last tile that may take the chip-out point) is scored by the policy's
    ``after_play``; anything else by the match's judges and appliers."""
    seats, after = match.seats, match.next_seat
    tiles = match.tiles
    parts_of, pip_mask, high_of, ends = tiles.parts.get, tiles.pip_mask, tiles.high, tiles.max_pip + 1
    rules = match.rules
    drawing, one_draw, reserve = rules.draw != "none", rules.draw == "one", rules.reserve
    worth = WORTH[rules.count]
    chip_out = bool(rules.exact_target and rules.out_bonus)  # a last tile may score
    # each seat's side, as rules.side_of says (partners sit across: seats 0 and 2, 1 and 3)
    side_of, target = _PARTNERS if rules.partnerships else range(seats), rules.target
    # whether a seat out of tiles may sit out while its partner plays on (side_goes_out): else
    # a hand emptied ends the round, and every seat on turn holds tiles
    plays_on = rules.partners_out == "both" and rules.partnerships
    double_count, sides = DOUBLE_COUNT, _SIDES  # (locals: read at every play)
    scoring = match.family.scoring
    round_ = match.round
    trail, scored, reached, scores = round_.trail, round_.scored, round_.reached, round_.scores
    known, count, totals, unseen = match.known, match.count, match.totals, match.unseen_pips
    seq, layout, turn, line = match.seq, match.layout, match.turn, match.line
    passes, drew, last_player = match.passes, match.drew, match.last_player
    boneyard, held = match.boneyard, match.held
    shape, spins = type(layout), layout.spins
    left, right, lt, rt, spinner, arms = layout
    spun = None if spinner is None else high_of[spinner]  # the spinner's pip
    live = True  # the fields above are the table's (not yet written back)
    try:
        for event in events:
            kind = seat = None  # (read by subscript, as run_moves reads them)
            if type(event) is dict and "seq" not in event:
                try:
                    kind, seat = event["type"], event["seat"]
                except KeyError:
                    pass
            if kind == "play" and seat is turn:
                text, end = event.get("tile"), event.get("end")
                side = None
                if (type(text) is str and (parts := parts_of(text)) is not None
                        and ((hand := known[seat]) & parts[1]
                             or not (line | held) & parts[1] and hand.bit_count() != count[seat])):
                    tile, bit, high, low, pips, where = parts
                    if not arms and end is None and left != right:
                        # two unlike ends, none named: the one it fits, as the seeds' line has
                        # it (where: None when it fits both, ambiguous, or neither: judged)
                        side = where[left * ends + right]
                    elif not arms:  # the ends it fits, of those the play names (as place has it)
                        if end is None:  # (two ends alike: it fits both or neither)
                            at_left = at_right = left == high or left == low
                        elif type(end) is int:
                            fits = end == high or end == low
                            at_left, at_right = fits and left == end, fits and right == end
                        elif end == "left":
                            at_left, at_right = left == high or left == low, False
                        elif end == "right":
                            at_left, at_right = False, right == high or right == low
                        else:  # an arm (none is open), or an end no play may name: judged
                            at_left = at_right = False
                        if at_left is not at_right:
                            side = "L" if at_left else "R"
                        elif at_left:  # it fits both: do the open ends it leaves differ?
                            side = _new(shape, (left, right, lt, rt, spinner, arms)).place(
                                high, low, end)
                    elif end is None or type(end) is int or type(end) is str and end in _NAMED_ENDS:
                        if arms and not (high == low and high == spun):
                            # the spinner's arms open: place's way for them (place_on_four),
                            # its commonest answers here without the call (a play on four
                            # ends, two in five of All Fives, 73 bytecodes a call): an end
                            # named by its name is that end if it shows one of the tile's pips;
                            # else the one end it fits (of the pip named, one of the tile's)
                            (up, _), (down, _) = arms
                            if type(end) is str:
                                side = NAMED[end]
                                pip = (right if side == "R" else left if side == "L"
                                       else up if side == "U" else down)
                                if pip != high and pip != low:
                                    side = "no_match"
                            else:
                                if end is None:
                                    at_right, at_left = right == high or right == low, left == high or left == low
                                    at_up, at_down = up == high or up == low, down == high or down == low
                                else:  # (a pip that is not the tile's fits nowhere: the call)
                                    at_right = at_left = at_up = at_down = False
                                    if end == high or end == low:
                                        at_right, at_left = right == end, left == end
                                        at_up, at_down = up == end, down == end
                                if at_right + at_left + at_up + at_down == 1:
                                    side = ("R" if at_right else "L" if at_left
                                            else "U" if at_up else "D")
                                else:  # several ends (are they alike?), or none
                                    side = place_on_four(left, right, lt, rt, spinner, arms,
                                                         high, low, end)
                        else:
                            side = _new(shape, (left, right, lt, rt, spinner, arms)).place(
                                high, low, end)
                if side in sides:  # (not None, "no_match" nor "ambiguous_end")
                    # only the end it goes on changes (as placed does), its other pip showing
                    # there
                    if side == "R":
                        right, rt = pips - right, tile
                    elif side == "L":
                        left, lt = pips - left, tile
                    elif side == "U":
                        arms = ((pips - arms[0][0], tile), arms[1])
                    else:
                        arms = (arms[0], (pips - arms[1][0], tile))
                    if spins and spinner is None and high == low:
                        # the first double placed is the spinner (as placed has it), at an end
                        # of the line, its arms closed (asked in the order that answers
                        # soonest: a game with no spinner, a spinner down, a tile not a double)
                        spinner, spun = tile, high
                    # the count (as count has it: the lead no longer alone)
                    total = (double_count[lt] or left) + (double_count[rt] or right)
                    if arms:
                        (up, up_tile), (down, down_tile) = arms
                        if up_tile != spinner:
                            total += double_count[up_tile] or up
                        if down_tile != spinner:
                            total += double_count[down_tile] or down
                    elif spinner is not None and lt != spinner and rt != spinner:
                        # both the spinner's sides hold a tile: its arms open, counting
                        # nothing until a tile lies on them (as placed and count have it)
                        arms = ((spun, spinner), (spun, spinner))
                    points = worth[total]
                    # the play: on the round's trail, out of the hand
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
                    if (points and in_hand
                            and totals[team := side_of[seat]] + points < target):
                        # it scores, short of the target (no bust, no chip-out point, the
                        # match goes on): as the policy's after_play scores it
                        scored.append({"seq": seq, "seat": seat, "count": total,
                                       "points": points})
                        totals[team] += points
                        reached.append(totals[team])
                        scores[team] += points
                    elif points or chip_out and not in_hand:
                        # it may score: the policy scores it, on the table as it now stands
                        live = _put(match, seq, _new(shape, (left, right, lt, rt, spinner, arms)),
                                    turn, line, passes, drew, last_player, boneyard, held)
                        scoring.after_play(match, seat)
                        if not match.playing:  # the target reached: the round stopped there
                            return
                        live = True
                    if not in_hand and scoring.side_goes_out(match, seat):
                        live = _put(match, seq, _new(shape, (left, right, lt, rt, spinner, arms)),
                                    turn, line, passes, drew, last_player, boneyard, held)
                        round_.seat_out = seat
                        match._end_play(DOMINO)
                        return
                    # every open end shows one pip and every tile bearing it is down (as
                    # blocked has it)
                    if (left == right and (not arms or arms[0][0] == left and arms[1][0] == left)
                            and line & (pip := pip_mask[left]) == pip):
                        live = _put(match, seq, _new(shape, (left, right, lt, rt, spinner, arms)),
                                    turn, line, passes, drew, last_player, boneyard, held)
                        match._end_play(BLOCKED)
                        return
                    if plays_on and not count[turn]:  # a seat gone out, its partner playing on
                        live = _put(match, seq, _new(shape, (left, right, lt, rt, spinner, arms)),
                                    turn, line, passes, drew, last_player, boneyard, held)
                        match._skip_out()
                        turn, live = match.turn, True
                    continue
            elif (kind == "pass" or kind == "draw") and seat is turn and not known[seat] & (
                    pip_mask[left] | pip_mask[right] if not arms
                    else pip_mask[left] | pip_mask[right] | pip_mask[arms[0][0]]
                    | pip_mask[arms[1][0]]):
                # holding (as far as the record shows) no tile that fits an open end (as
                # fitting has it): a pass once the rules allow no draw; a draw while they
                # allow one, of a tile unseen or in the boneyard
                may_draw = drawing and boneyard > reserve and not (one_draw and drew)
                if kind == "pass":
                    if not may_draw:
                        seq += 1
                        trail.append((seq, "pass", seat, None, (left, right) if not arms else
                                      (left, right, arms[0][0], arms[1][0])))
                        passes += 1
                        drew = False
                        turn = after[seat]
                        if (passes >= (seats - count.count(0) if plays_on else seats)
                                and not (drawing and boneyard > reserve)):
                            live = _put(match, seq,
                                        _new(shape, (left, right, lt, rt, spinner, arms)), turn,
                                        line, passes, drew, last_player, boneyard, held)
                            match._end_play(BLOCKED)
                            return
                        if plays_on and not count[turn]:
                            live = _put(match, seq,
                                        _new(shape, (left, right, lt, rt, spinner, arms)), turn,
                                        line, passes, drew, last_player, boneyard, held)
                            match._skip_out()
                            turn, live = match.turn, True
                        continue
                elif may_draw:
                    drawn, held = _drawn(match, event.get("tile"), seat, line, held)
                    if drawn is not False:
                        seq += 1
                        trail.append((seq, "draw", seat, drawn, (left, right) if not arms else
                                      (left, right, arms[0][0], arms[1][0])))
                        count[seat] += 1
                        boneyard -= 1
                        drew = True
                        continue
            # not plainly legal, or not a move: judged the long way, with the fields written
            # back first; the run goes on while play does
            live = _put(match, seq, _new(shape, (left, right, lt, rt, spinner, arms)), turn,
                        line, passes, drew, last_player, boneyard, held)
            match._push_one(event, violations)
            if not match.playing or match.finished:
                return
            seq, layout, turn, line = match.seq, match.layout, match.turn, match.line
            passes, drew, last_player = match.passes, match.drew, match.last_player
            boneyard, held = match.boneyard, match.held
            known, count, totals = match.known, match.count, match.totals
            unseen = match.unseen_pips
            round_ = match.round
            trail, scored, reached, scores = (round_.trail, round_.scored, round_.reached,
                                              round_.scores)
            left, right, lt, rt, spinner, arms = layout
            spun = None if spinner is None else high_of[spinner]
            live = True
    finally:
        if live:
            _put(match, seq, _new(shape, (left, right, lt, rt, spinner, arms)), turn, line,
                 passes, drew, last_player, boneyard, held)
