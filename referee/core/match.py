"""The referee's state machine: push events one by one, each judged against the match as it stands.

``Match.push`` returns the event's violation (and leaves the state as it was) or None (and
applies it). It knows nothing of voids: :mod:`referee.replay` decides which events stand.

Hands are kept as what the record proves: ``known[seat]`` (a mask of tiles seen in that hand)
and ``count[seat]`` (how many it holds). A hand is *known* when the two agree; open recording is
the case where every hand is known, closed recording the case where none is, and any mix works.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from . import vocab
from .events import Violation, disputed, shape_error, unsighted
from .layout import EMPTY, Layout
from .openers import opening
from .outcomes import ANNULLED, AWAITING, BLOCKED, DOMINO, IN_PROGRESS
from .records import Record, _set
from .rules import Rules
from .said import Said, said, said_n
from .scoring import forfeit_winner, match_winner, score_block, score_domino
from .tiles import TileSet, iter_bits, placement, tile_set
from .vocab import EVENT_TYPES, ON_THE_RECORD, SEAT_EVENTS, SETTLING, kind_of

# What push_all is given in place of an event a ruling struck: it keeps its sequence number and
# nothing else.
STRUCK: Any = object()
# A pass push_all is to apply; a refused event it has nothing to apply for (Match._refused).
PASS: Any = object()
DONE: Any = object()
# What may be wrong with an event recorded as disputed that is still applied as the table played
# it (docs/rules.md, "Recording as disputed keeps the game going"): a play by the wrong seat, a lead
# by a seat or with a tile the rules do not name, a pass or a draw the rules forbid, and a tile
# a typed hand says is elsewhere (the typed hand gives way: Match._give_way). Anything else (a
# tile that fits no end, or goes on either, or is on the line; a pass or a draw out of turn; an
# event after the round or the match ended) leaves it unapplied, as any refused event.
AS_PLAYED = {"play": frozenset({"out_of_turn", "wrong_opener", "wrong_opening_tile",
                                "not_in_hand"}),
             "draw": frozenset({"illegal_draw", "not_in_hand"}),
             "pass": frozenset({"renege", "must_draw"})}


class RoundResult(Record):
    """A round as the report shows it."""

    __slots__ = ("round", "opener", "outcome", "winner", "points", "pips", "blocked_by")

    def __init__(self, round: int, opener: int | None, outcome: str, winner: int | None,
                 points: int, pips: tuple[int, ...] | None, blocked_by: int | None) -> None:
        _set(self, "round", round)
        _set(self, "opener", opener)
        _set(self, "outcome", outcome)
        _set(self, "winner", winner)
        _set(self, "points", points)
        _set(self, "pips", pips)
        _set(self, "blocked_by", blocked_by)

    def as_dict(self) -> dict[str, Any]:
        return {"round": self.round, "opener": self.opener, "outcome": self.outcome,
                "winner": self.winner, "points": self.points,
                "pips": list(self.pips) if self.pips is not None else None,
                "blocked_by": self.blocked_by}


class _Round:
    """One deal's bookkeeping; becomes a RoundResult in the report."""

    __slots__ = ("number", "opener", "outcome", "winner", "points", "pips", "blocked_by",
                 "seat_out", "ended", "dealt_at", "dealt", "trail", "closed")

    def __init__(self, number: int, opener: int | None, dealt_at: int,
                 dealt: list[int | None]) -> None:
        self.number = number
        self.dealt_at = dealt_at  # the seq of its deal
        self.dealt = dealt  # each seat's hand as dealt, where the deal shows it (else None)
        # What the round's seats did, as hindsight needs it: (seq, kind, seat, tile, ends).
        # kind: "play" (tile, and where it went: "L" or "R", or for the lead its pips as
        # written; Match.placed reads the line from these), "draw" (tile or None when unseen,
        # the ends: None for a disputed draw before the lead), "pass" (None, the ends),
        # "reveal" (a mask of tiles shown).
        self.trail: list[tuple[str, int, int, Any, Any]] = []
        # Whether the record leaves any of it unseen (a hand dealt closed, a draw unseen): only
        # then has hindsight anything to find.
        self.closed = None in dealt
        self.opener = opener
        self.outcome = IN_PROGRESS
        self.winner: int | None = None
        self.points = 0
        self.pips: tuple[int, ...] | None = None
        self.blocked_by: int | None = None
        self.seat_out: int | None = None  # who went out, on a domino
        self.ended: str | None = None  # DOMINO or BLOCKED once play stopped, even before reveals

    def result(self) -> RoundResult:
        return RoundResult(self.number, self.opener, self.outcome, self.winner, self.points,
                           self.pips, self.blocked_by)


class Match:
    """A match being refereed: the table as it stands and everything scored so far."""

    # Slots keep attribute access fast on the replay's hot path (past 30 attributes an
    # instance dict no longer shares keys, and every lookup slows down).
    __slots__ = ("rules", "seats", "players", "tiles", "totals", "finished",
                 "winner", "rounds", "seq", "round", "playing", "known", "count",
                 "unseen_pips", "line", "layout", "boneyard",
                 "turn", "may_lead", "lead_tile", "passes", "drew", "last_player", "voided",
                 "all_dealt", "settled", "forfeited", "rulings", "rulings_at", "timed",
                 "last_round", "time_up", "abandoned", "refused_abandons", "next_seat", "held",
                 "last_dispute")

    def __init__(self, rules: Rules, players: Sequence[str]) -> None:
        self.rules = rules
        self.seats = rules.seats
        self.next_seat = tuple((seat + 1) % rules.seats for seat in range(rules.seats))
        self.players = tuple(players)
        self.tiles: TileSet = tile_set(rules.max_pip)
        self.totals = [0] * rules.sides
        self.finished = False
        self.winner: int | None = None
        self.rounds: list[_Round] = []
        self.seq = 0
        self.round: _Round | None = None
        self.playing = False  # a round is in progress: plays, draws and passes are expected
        seats = rules.seats
        self.known = [0] * seats
        # The tiles seen in a hand this round (dealt open, drawn in sight, revealed), played
        # since or not: a tile not in ``line | held`` is on the line nor in any known hand.
        self.held = 0
        self.count = [0] * seats
        # Per seat, the pip total of the tiles in its hand the record has not shown, when a
        # pips-only reveal fixed it (None: unknown). Plays of known tiles and draws in sight keep
        # it; a play of an unseen tile or an unseen draw loses it.
        self.unseen_pips: list[int | None] = [None] * seats
        self.line = 0  # mask of tiles on the line
        self.layout: Layout = EMPTY  # the line's open ends (referee.core.layout)
        self.boneyard = 0
        self.turn: int | None = None
        self.may_lead = 0  # mask of seats that may lead
        self.lead_tile: int | None = None  # the tile the lead must be, when the rules name one
        self.passes = 0
        self.drew = False
        self.last_player: int | None = None
        self.voided = False  # a well-formed void was pushed
        self.settled = 0  # the seq of the event that ended the last round (0: none yet)
        self.forfeited = False
        self.rulings: dict[int, int] = {}  # a settled dispute's seq -> the latest settling ruling
        self.rulings_at: set[int] = set()  # seqs holding a void, amend or stands
        self.all_dealt = seats * rules.hand_size == self.tiles.size
        self.timed: int | None = None  # the seq of the ``time`` event: the time limit is reached
        self.last_round: int | None = None  # the round it made the last
        self.time_up = False  # that round (or one after it) has been scored
        self.abandoned: int | None = None  # the seq of the ``abandon`` that withdrew the match
        # Abandons refused on the record as it stood when they were recorded, which the whole
        # record would allow (a later void struck the deal before them): see replay.corrections.
        self.refused_abandons: frozenset[int] = frozenset()
        # The last play, draw or pass refused but recorded as disputed: (its seq, (type, seat,
        # tile)); the same one again right after it is a repeat (Match._refused).
        self.last_dispute: tuple[int, tuple[Any, ...]] | None = None

    # ------------------------------------------------------------------ reading the state

    @property
    def placed(self) -> list[tuple[str, int, int]]:
        """How the line was laid, tile by tile: ("lead", left pip, right pip) and then ("L" or
        "R", left pip, right pip) as each tile lies. Read from the round's trail (a play
        records only its side: one tuple fewer on the replay's hot path)."""
        placed: list[tuple[str, int, int]] = []
        if self.round is None:
            return placed
        high, low = self.tiles.high, self.tiles.low
        left = right = 0
        for _, kind, _, tile, side in self.round.trail:
            if kind != "play":
                continue
            if side == "R":
                out = high[tile] + low[tile] - right
                placed.append(("R", right, out))
                right = out
            elif side == "L":
                out = high[tile] + low[tile] - left
                placed.append(("L", out, left))
                left = out
            else:
                left, right = side
                placed.append(("lead", left, right))
        return placed

    @property
    def left(self) -> int | None:
        """The pip the line's left end shows (None before the lead): the layout's."""
        return self.layout.left

    @property
    def right(self) -> int | None:
        """The pip the line's right end shows (None before the lead): the layout's."""
        return self.layout.right

    @property
    def status(self) -> str:
        """The match's status as listings name it (see referee.core.vocab)."""
        if self.abandoned is not None:
            return vocab.ABANDONED
        return vocab.FINISHED if self.finished else vocab.IN_PROGRESS

    @property
    def withdrawable(self) -> bool:
        """Whether an ``abandon`` recorded now would stand: the match is not over and no deal
        stands in its record (what a screen offers; the event itself is judged all the same)."""
        return not self.finished and not self.rounds

    def hand_known(self, seat: int) -> bool:
        return self.known[seat].bit_count() == self.count[seat]

    def playable_mask(self) -> int:
        return self.layout.fitting(self.tiles)

    def can_draw(self) -> bool:
        """Whether the rules still let the seat on turn take a tile from the boneyard."""
        rules = self.rules
        return (rules.draw != "none" and self.boneyard > rules.reserve
                and not (rules.draw == "one" and self.drew))

    def pips_left(self, seat: int) -> int | None:
        count = self.count[seat]
        if count == 0:
            return 0
        known = self.known[seat]
        known_pips = self.tiles.mask_pips(known)
        if known.bit_count() == count:  # the hand is known
            return known_pips
        unseen = self.unseen_pips[seat]
        return None if unseen is None else known_pips + unseen

    def secret_since(self) -> int | None:
        """The first seq whose deals and drawn tiles the table may not have seen: everything
        after the event that ended the last round. That covers the round in play from its deal,
        and also a deal struck or refused since (it may be the round's own deal with a typo).
        None once the match is over, or when nothing came after the last round ended."""
        if self.finished or self.seq <= self.settled:
            return None
        return self.settled + 1

    def owes_reveal(self, seat: int) -> bool:
        """Whether the ended round waits on this seat to show what it holds."""
        return (self.round is not None and self.round.outcome == AWAITING and not self.finished
                and self.pips_left(seat) is None)

    def results(self) -> list[RoundResult]:
        return [r.result() for r in self.rounds]

    def name(self, seat: int) -> str:
        """A seat as people read it: its player's name. A table knows its players by name; only
        when two seats share a name does a number tell them apart, and then it is counted from 1
        as the table cards, the phone and the pages count seats (the log's ``seat`` keeps 0)."""
        player = self.players[seat]
        if self.players.count(player) == 1:
            return player
        return said("%(player)s (seat %(seat)s)", player=player, seat=seat + 1)

    # ------------------------------------------------------------------ pushing events

    def push(self, event: Any) -> Violation | None:
        """Judge the next event; apply it if legal. Returns its violation, if any."""
        found = self.push_all((event,))
        return found[0] if found else None

    def push_all(self, events: Iterable[Any]) -> list[Violation]:  # noqa: C901 (the replay's hot path, its run of moves in local variables: bench/validate_bench.py)
        """Judge each event in turn, applying the legal ones; their violations, in order.

        The one place plays, draws and passes are applied (``push`` is this on one event).
        A move is applied at once when it is plainly legal: by the seat on turn, once the lead
        is down, a play of a tile it may hold (known in its hand, or unseen and nowhere else)
        where it goes, a draw it may make of a tile unseen or in the boneyard, a pass it may
        make. Any other event is judged by :meth:`_judge`, which names its violation, or finds
        a move legal after all (a lead, a tile written unusually, "06-5") and says how it is
        applied, here as the others.

        A run of plainly legal moves keeps the table's fields below in local variables; they
        go back to the match before anything else reads them (any other event, the end of the
        round, the end of the events)."""
        violations = []
        seats, after = self.seats, self.next_seat
        tiles = self.tiles
        parts_of, pip_mask, ends = tiles.parts.get, tiles.pip_mask, tiles.max_pip + 1
        rules = self.rules
        drawing, one_draw, reserve = rules.draw != "none", rules.draw == "one", rules.reserve
        run = False
        seq = left = right = lt = rt = turn = line = passes = drew = last_player = boneyard = None
        known = count = unseen = trail = None
        held = 0
        try:
            for event in events:
                # (a "seq" field, or no object at all: _judge checks it)
                kind = event.get("type") if type(event) is dict and "seq" not in event else None
                if kind == "play":
                    seat, text, end = event.get("seat"), event.get("tile"), event.get("end")
                    if not run and self.playing and not self.finished and self.layout.left is not None:
                        run = True
                        (seq, left, right, lt, rt, turn, line, passes, drew, last_player, boneyard,
                         known, count, unseen, trail, held) = self._run_fields()
                    side = None
                    # A seat that is the turn's is a seat of the table: it is well-formed. (It
                    # is the same int object: the small ints are one object each, and an int
                    # that is not, or a bool or float equal to one, takes the long way.)
                    if (run and seat is turn and type(text) is str
                            and (parts := parts_of(text)) is not None
                            and ((hand := known[seat]) & parts[1]
                                 or not (line | held) & parts[1]
                                 and hand.bit_count() != count[seat])):
                        tile, bit, high, low, pips, where = parts
                        if end is None:
                            side = where[left * ends + right]
                        elif type(end) is int or end == "left" or end == "right":
                            side = placement(high, low, left, right, end)
                            if side != "L" and side != "R":
                                side = None
                    if side is not None:
                        seq += 1
                    else:  # not plainly legal: judged the long way
                        if run:
                            run = self._write_back(seq, left, right, lt, rt, turn, line, passes, drew,
                                                   last_player, boneyard, held)
                        self.seq = seq = self.seq + 1
                        move = self._judge(event, seq)
                        if type(move) is Violation:
                            move = self._refused(event, move, violations)
                            if move is DONE:
                                continue
                        tile, bit, high, low, pips, side = move
                        run = True
                        (seq, left, right, lt, rt, turn, line, passes, drew, last_player, boneyard,
                         known, count, unseen, trail, held) = self._run_fields()
                        hand = known[seat]
                    # the play: the tile's other pip becomes the open end (or, for the lead,
                    # it lies as written), and it leaves the hand for the line
                    if side == "R":
                        right, rt = pips - right, tile
                    elif side == "L":
                        left, lt = pips - left, tile
                    else:
                        left, right = side
                        lt = rt = tile
                        self.round.opener = seat
                    trail.append((seq, "play", seat, tile, side))
                    if hand & bit:
                        known[seat] = hand ^ bit
                    else:  # an unseen tile left: the unseen total is lost
                        unseen[seat] = None
                    count[seat] = in_hand = count[seat] - 1
                    line |= bit
                    passes, drew, last_player = 0, False, seat
                    turn = after[seat]
                    if not in_hand:
                        run = self._write_back(seq, left, right, lt, rt, turn, line, passes, drew,
                                               last_player, boneyard, held)
                        self.round.seat_out = seat
                        self._end_play(DOMINO)
                    elif left == right and line & (pip := pip_mask[left]) == pip:
                        # both ends show one pip and every tile bearing it is down
                        run = self._write_back(seq, left, right, lt, rt, turn, line, passes, drew,
                                               last_player, boneyard, held)
                        self._end_play(BLOCKED)
                    continue
                if kind == "pass" or kind == "draw":
                    seat = event.get("seat")
                    if not run and self.playing and not self.finished and self.layout.left is not None:
                        run = True
                        (seq, left, right, lt, rt, turn, line, passes, drew, last_player, boneyard,
                         known, count, unseen, trail, held) = self._run_fields()
                    # once it is legal: PASS, or a draw's tile (None: unseen)
                    drawn = False
                    # by the seat on turn, holding (as far as the record shows) no tile that
                    # fits: a pass once the rules allow no draw; a draw while they allow one,
                    # of a tile unseen or in the boneyard
                    if (run and seat is turn
                            and not known[seat] & (pip_mask[left] | pip_mask[right])):
                        may_draw = drawing and boneyard > reserve and not (one_draw and drew)
                        if kind == "pass":
                            if not may_draw:
                                drawn = PASS
                        elif may_draw:
                            text = event.get("tile")
                            if text is None:
                                drawn = None
                            elif (type(text) is str and (parts := parts_of(text)) is not None
                                    and not (line | held) & parts[1]):
                                drawn = parts[0]
                    if drawn is not False:
                        seq += 1
                    else:  # not plainly legal: judged the long way (a pass always is refused)
                        if run:
                            run = self._write_back(seq, left, right, lt, rt, turn, line, passes, drew,
                                                   last_player, boneyard, held)
                        self.seq = seq = self.seq + 1
                        drawn = self._judge(event, seq)
                        if type(drawn) is Violation:
                            drawn = self._refused(event, drawn, violations)
                            if drawn is DONE:
                                continue
                        run = True
                        (seq, left, right, lt, rt, turn, line, passes, drew, last_player, boneyard,
                         known, count, unseen, trail, held) = self._run_fields()
                    if drawn is PASS:
                        trail.append((seq, "pass", seat, None, (left, right)))
                        passes += 1
                        drew = False
                        turn = after[seat]
                        if passes >= seats and not (drawing and boneyard > reserve):
                            run = self._write_back(seq, left, right, lt, rt, turn, line, passes, drew,
                                                   last_player, boneyard, held)
                            self._end_play(BLOCKED)
                        continue
                    # the draw: one tile more in the hand, one less in the boneyard
                    if drawn is None:  # an unseen tile came in
                        unseen[seat] = None
                        self.round.closed = True
                    else:
                        known[seat] |= 1 << drawn
                        held |= 1 << drawn
                    trail.append((seq, "draw", seat, drawn, (left, right)))
                    count[seat] += 1
                    boneyard -= 1
                    drew = True
                    continue
                # any other event reads the match: it gets the run's fields back first
                if run:
                    run = self._write_back(seq, left, right, lt, rt, turn, line, passes, drew,
                                           last_player, boneyard, held)
                if kind == "deal":
                    # a plainly legal deal when one is due (_clean_deal checks the shape too)
                    hands = event.get("hands")
                    if (not self.playing and not self.finished and type(hands) is list
                            and (masks := self._clean_deal(hands)) is not None):
                        self.seq += 1
                        self._start_round(masks)
                        continue
                elif event is STRUCK:
                    self.seq += 1
                    continue
                elif kind is None and type(event) is dict and self._own_seq(event):
                    # the same event without its (right) sequence number, as any other
                    violations += self.push_all(({k: v for k, v in event.items() if k != "seq"},))
                    continue
                self.seq += 1
                if (violation := self._judge(event, self.seq)) is not None:
                    violations.append(violation)
        finally:
            if run:
                self._write_back(seq, left, right, lt, rt, turn, line, passes, drew, last_player,
                                 boneyard, held)
        return violations

    def _own_seq(self, event: dict) -> bool:
        """Whether the event's ``seq`` field is the number it will have (shape_error's check)."""
        seq = event.get("seq")
        return type(seq) is int and seq == self.seq + 1

    def _judge(self, event: Any, seq: int) -> Any:
        """Judge event ``seq`` by its kind's checks, in the contract's order: its violation;
        for a legal play, draw or pass, how push_all applies it (see each kind's judge); for
        anything else legal, None, having applied it."""
        problem = shape_error(event, self.rules, seq)
        if problem is not None:
            return Violation(seq, "bad_event", self._acting_seat(event), problem)
        kind = event["type"]
        if self.abandoned is not None and kind != "note":  # withdrawn: nothing more counts
            return self._over(seq, self._acting_seat(event))
        verdict = _JUDGES[kind](self, event, seq)
        if verdict is None and "target" in event:
            if kind in SETTLING:
                self.rulings[event["target"]] = seq
            if kind in ON_THE_RECORD:
                self.rulings_at.add(seq)
        return verdict

    def _refused(self, event: Any, violation: Violation, violations: list[Violation]) -> Any:
        """A play, draw or pass the record refuses: its violation noted. Recorded as disputed, it
        is applied all the same when it can be (AS_PLAYED): then how push_all applies it, as
        for a legal one; else DONE. The disputed event just before it again (same type, seat
        and tile, nothing between them) is a ``repeat``, never applied: the table did it once."""
        seq = violation.seq
        if violation.code == "bad_event" or not disputed(event):
            violations.append(violation)
            # Stored unsighted: the table saw it and its recorder's record allowed it; it goes
            # on as it did there (a seat may draw unseen tiles one after another: no repeat).
            return self._as_played(event, violation.code) if unsighted(event) else DONE
        seat, text = event["seat"], event.get("tile")
        tile = self.tiles.parse(text) if type(text) is str else None  # "5-6" is the 6-5
        key = (event["type"], seat, text if tile is None else tile)
        repeat = self.last_dispute is not None and self.last_dispute == (seq - 1, key)
        self.last_dispute = (seq, key)
        if repeat:
            violations.append(Violation(seq, "repeat", seat, said(
                "the same disputed event as event %(seq)s, recorded already", seq=seq - 1)))
            return DONE
        violations.append(violation)
        return self._as_played(event, violation.code)

    def _as_played(self, event: dict, code: str) -> Any:
        """How push_all applies a disputed play, draw or pass as the table played it, or DONE
        (not applied, or applied here: a pass or a draw before the lead)."""
        kind, seat = event["type"], event["seat"]
        if code not in AS_PLAYED[kind]:
            return DONE
        if kind == "pass":
            if self.layout.left is None:  # the opener passed instead of leading: the next seat acts
                self.turn = self.next_seat[seat]
                return DONE
            return PASS
        tiles, text = self.tiles, event.get("tile")
        tile = None if text is None else tiles.parse(text)  # (an unknown tile came first)
        if tile is not None and self.line >> tile & 1:
            return DONE  # it is on the line: nobody holds it
        if kind == "draw":
            if not self.boneyard:
                return DONE
            self._give_way(seat, tile, played=False)
            if self.layout.left is None:
                self._draw_before_lead(seat, tile)
                return DONE
            return tile
        if self.layout.left is None:
            side: Any = tiles.halves(text)
        else:
            side = self.layout.place(tiles.high[tile], tiles.low[tile], event.get("end"))
            if side != "L" and side != "R":
                return DONE  # it fits no end, or either and the event does not say which
        self._give_way(seat, tile, played=True)
        _, bit, high, low, pips, _ = tiles.parts[tiles.names[tile]]
        return tile, bit, high, low, pips, side

    def _give_way(self, seat: int, tile: int | None, played: bool) -> None:
        """The typed hands a disputed move of ``tile`` by ``seat`` contradicts give way to what
        the table saw: another hand typed with the tile no longer holds it, and a hand typed
        whole without the tile it played is known no more (its tiles show at the round's end)."""
        if tile is None:
            return
        bit, known = 1 << tile, self.known
        for other in range(self.seats):
            if other != seat and known[other] & bit:
                known[other] ^= bit
                self.unseen_pips[other] = None
        if played and not known[seat] & bit and self.hand_known(seat):
            known[seat] = 0
            self.unseen_pips[seat] = None

    def _draw_before_lead(self, seat: int, tile: int | None) -> None:
        """push_all's draw, for the one it never applies in a run of moves (a run begins once
        the lead is down): a disputed draw before the lead. It faced no open ends."""
        if tile is None:
            self.unseen_pips[seat] = None
            self.round.closed = True
        else:
            self.known[seat] |= 1 << tile
            self.held |= 1 << tile
        self.round.trail.append((self.seq, "draw", seat, tile, None))
        self.count[seat] += 1
        self.boneyard -= 1
        self.drew = True

    def _run_fields(self) -> tuple[Any, ...]:
        """Begin push_all's run of moves: the table's fields it holds in local variables (the
        layout as its line's two ends and their outer tiles)."""
        layout = self.layout
        return (self.seq, layout.left, layout.right, layout.left_tile, layout.right_tile,
                self.turn, self.line, self.passes, self.drew, self.last_player, self.boneyard,
                self.known, self.count, self.unseen_pips, self.round.trail, self.held)

    def _write_back(self, seq: int, left: int, right: int, lt: int, rt: int, turn: int,
                    line: int, passes: int, drew: bool, last_player: int | None, boneyard: int,
                    held: int) -> bool:
        """End push_all's run of moves: the table's fields it held go back to the match (a new
        layout when a tile was laid)."""
        layout = self.layout
        if lt != layout.left_tile or rt != layout.right_tile:
            self.layout = Layout(left, right, lt, rt, layout.spinner, layout.arms)
        self.seq, self.turn, self.line = seq, turn, line
        self.passes, self.drew, self.last_player, self.boneyard = (passes, drew, last_player,
                                                                   boneyard)
        self.held = held
        return False

    def _acting_seat(self, event: Any) -> int | None:
        """The seat a seat's own event names, when it names one that exists (else None)."""
        if kind_of(event) in SEAT_EVENTS:
            seat = event.get("seat")
            if type(seat) is int and 0 <= seat < self.seats:
                return seat
        return None

    def skip(self) -> None:
        """Account for a struck event: it keeps its sequence number and nothing else."""
        self.seq += 1

    def _over(self, seq: int, seat: int | None = None) -> Violation | None:
        if self.finished:
            return Violation(seq, "match_over", seat, said("the match is already over"))
        return None

    def _not_playing(self, seq: int, seat: int | None) -> Violation | None:
        if self.finished:
            return Violation(seq, "match_over", seat, said("the match is already over"))
        if not self.playing:
            if self.round is None:
                return Violation(seq, "round_over", seat, said("no round has been dealt yet"))
            return Violation(seq, "round_over", seat, said("round %(round)s is already over", round=self.round.number))
        return None

    def _tile(self, seq: int, seat: int | None, text: str) -> tuple[int | None, Violation | None]:
        tile = self.tiles.by_text.get(text)
        if tile is None:
            tile = self.tiles.parse(text)
        if tile is None:
            return None, Violation(seq, "unknown_tile", seat,
                                   said("%(text)s is not a tile of the double-%(max)s set", text=repr(text),
                                         max=self.rules.max_pip))
        return tile, None

    def _turn(self, seq: int, seat: int, acting: str) -> Violation | None:
        if self.layout.left is None:
            if not self.may_lead >> seat & 1:
                code = "wrong_opener" if acting == "play" else "out_of_turn"
                return Violation(seq, code, seat, self._not_opener(seat))
            return None
        if seat != self.turn:
            return Violation(seq, "out_of_turn", seat,
                             said("it is %(turn)s's turn, not %(player)s's", turn=self.name(self.turn),
                                  player=self.name(seat)))
        return None

    def _not_opener(self, seat: int) -> Said:
        seats = list(iter_bits(self.may_lead))
        if len(seats) == 1:
            return said("%(player)s may not open this round; %(opener)s opens",
                        player=self.name(seat), opener=self.name(seats[0]))
        return said("%(player)s may not open this round", player=self.name(seat))

    def _held_elsewhere(self, seat: int, tile: int) -> bool:
        bit = 1 << tile
        for other, known in enumerate(self.known):
            if known & bit and other != seat:
                return True
        return False

    def _play(self, event: dict, seq: int) -> Violation | tuple[int, int, int, int, int, Any]:
        """A play's violation, or where it goes: the tile's parts (TileSet.parts) with "L" or
        "R" in place of the table of ends, or for the lead its pips as written."""
        seat, text = event["seat"], event["tile"]
        if self.finished or not self.playing:
            return self._not_playing(seq, seat)
        tile, v = self._tile(seq, seat, text)
        if v:
            return v
        tiles = self.tiles
        _, bit, high, low, pips, _ = tiles.parts[tiles.names[tile]]
        if self.layout.left is None:
            return self._lead(seq, seat, tile) or (tile, bit, high, low, pips, tiles.halves(text))
        if seat != self.turn:
            return self._turn(seq, seat, "play")
        if not self.known[seat] & bit and (v := self._tile_elsewhere(seq, seat, tile)):
            return v
        side = self._side_for(seq, seat, tile, event.get("end"))
        return side if type(side) is Violation else (tile, bit, high, low, pips, side)

    def _tile_elsewhere(self, seq: int, seat: int, tile: int) -> Violation | None:
        """The tile is not among the seat's known tiles: may the seat still hold it?"""
        names = self.tiles.names
        if self.line >> tile & 1:
            return Violation(seq, "tile_already_played", seat, said("%(tile)s is already on the line", tile=names[tile]))
        if self._held_elsewhere(seat, tile) or self.hand_known(seat):
            return Violation(seq, "not_in_hand", seat, said("%(player)s does not hold %(tile)s", player=self.name(seat),
                                  tile=names[tile]))
        return None

    def _lead(self, seq: int, seat: int, tile: int) -> Violation | None:
        """Why the seat may not open the round with this tile, if it may not."""
        if v := self._turn(seq, seat, "play"):
            return v
        if not self.known[seat] >> tile & 1 and (v := self._tile_elsewhere(seq, seat, tile)):
            return v
        if self.lead_tile is not None and tile != self.lead_tile:
            names = self.tiles.names
            return Violation(seq, "wrong_opening_tile", seat,
                             said("this round must open with %(lead)s, not %(tile)s",
                                  lead=names[self.lead_tile], tile=names[tile]))
        return None

    def _side_for(self, seq: int, seat: int, tile: int, end: Any) -> str | Violation:
        tiles, layout = self.tiles, self.layout
        left, right = layout.left, layout.right
        side = layout.place(tiles.high[tile], tiles.low[tile], end)
        if side == "L" or side == "R":
            return side
        name = tiles.names[tile]
        if side == "ambiguous_end":
            return Violation(seq, "ambiguous_end", seat,
                             said("%(tile)s fits both the %(left)s and the %(right)s end; say which",
                                  tile=name, left=left, right=right))
        if end == "left" or end == "right":
            pip = left if end == "left" else right
            return Violation(seq, "no_match", seat, said("%(tile)s does not fit the %(end)s end (%(pip)s)", tile=name,
                                  end=said("left") if end == "left" else said("right"), pip=pip))
        if end is not None:
            return Violation(seq, "no_match", seat,
                             said("%(tile)s cannot go on a %(end)s end: the open ends are %(left)s and %(right)s",
                                  tile=name, end=end, left=left, right=right))
        return Violation(seq, "no_match", seat,
                         said("%(tile)s fits neither open end (%(left)s and %(right)s)", tile=name, left=left,
                              right=right))

    def _pass(self, event: dict, seq: int) -> Violation:
        """A pass's violation: push_all applies every pass that has none, never asking."""
        seat = event["seat"]
        if self.finished or not self.playing:
            return self._not_playing(seq, seat)
        left, right = self.layout.left, self.layout.right
        if left is None or seat != self.turn:
            if v := self._turn(seq, seat, "pass"):
                return v
            return Violation(seq, "renege", seat,
                             said("%(player)s passed instead of opening the round", player=self.name(seat)))
        pip_mask = self.tiles.pip_mask
        fitting = self.known[seat] & (pip_mask[left] | pip_mask[right])  # playable_mask()
        if fitting:
            return Violation(seq, "renege", seat,
                             said_n("%(player)s passed holding %(tiles)s, which fits %(ends)s",
                                    "%(player)s passed holding %(tiles)s, which fit %(ends)s",
                                    fitting.bit_count(), player=self.name(seat),
                                    tiles=self._one_of(fitting), ends=self._ends_text()))
        if self.can_draw():
            return Violation(seq, "must_draw", seat,
                             said_n("%(player)s passed but had to draw: the boneyard still holds %(num)s tile",
                                    "%(player)s passed but had to draw: the boneyard still holds %(num)s tiles",
                                    self.boneyard, player=self.name(seat)))
        raise AssertionError(f"a legal pass at {seq} came to be judged")  # push_all's guard

    def _one_of(self, mask: int) -> str:
        names = self.tiles.mask_names(mask)
        if len(names) == 1:
            return names[0]
        return said("%(tiles)s and %(last)s", tiles=", ".join(names[:-1]), last=names[-1])

    def _ends_text(self) -> Said:
        left, right = self.layout.left, self.layout.right
        if left == right:
            return said("the %(pip)s ends", pip=left)
        return said("the %(left)s or the %(right)s end", left=left, right=right)

    def _draw(self, event: dict, seq: int) -> Violation | int | None:
        """A draw's violation, or the tile drawn (None: unseen)."""
        seat = event["seat"]
        if v := self._not_playing(seq, seat):
            return v
        text = event.get("tile")
        tile = None
        if text is not None:
            tile, v = self._tile(seq, seat, text)
            if v:
                return v
        if v := self._turn(seq, seat, "draw"):
            return v
        rules = self.rules
        why = None
        if rules.draw == "none":
            why = said("these rules have no drawing")
        elif self.boneyard <= rules.reserve:
            why = (said_n("the boneyard holds %(num)s tile and %(reserve)s must stay",
                          "the boneyard holds %(num)s tiles and %(reserve)s must stay",
                          self.boneyard, reserve=rules.reserve)
                   if rules.reserve else said("the boneyard is empty"))
        elif self.layout.left is None:
            why = said("%(player)s must open the round, not draw", player=self.name(seat))
        elif fitting := self.known[seat] & self.playable_mask():
            why = said_n("%(player)s drew holding %(tiles)s, which fits %(ends)s",
                         "%(player)s drew holding %(tiles)s, which fit %(ends)s",
                         fitting.bit_count(), player=self.name(seat),
                         tiles=self._one_of(fitting), ends=self._ends_text())
        elif rules.draw == "one" and self.drew:
            why = said("only one draw is allowed per turn under these rules")
        if why is not None:
            return Violation(seq, "illegal_draw", seat, why)
        if tile is not None:
            bit = 1 << tile
            name = self.tiles.names[tile]
            if self.line & bit:
                return Violation(seq, "tile_already_played", seat,
                                 said("%(tile)s is on the line, not in the boneyard", tile=name))
            if any(known & bit for known in self.known):
                return Violation(seq, "not_in_hand", seat, said("%(tile)s is in a hand, not in the boneyard", tile=name))
        return tile

    def _reveal(self, event: dict, seq: int) -> Violation | None:
        seat = event["seat"]
        if self.round is None:
            return Violation(seq, "round_over", seat, said("no round has been dealt yet"))
        texts, pips = event.get("tiles"), event.get("pips")
        shown = 0
        if texts is not None:
            for text in texts:
                tile, v = self._tile(seq, seat, text)
                if v:
                    return v
                shown |= 1 << tile
        if problem := self._reveal_problem(seat, texts, shown, pips):
            return Violation(seq, "reveal_mismatch", seat, said("%(player)s's reveal %(problem)s",
                                                                      player=self.name(seat), problem=problem))
        if texts is not None:
            self.known[seat] = shown
            self.held |= shown
            self.unseen_pips[seat] = None
            self.round.trail.append((seq, "reveal", seat, shown, None))
        elif not self.hand_known(seat):
            self.unseen_pips[seat] = pips - self.tiles.mask_pips(self.known[seat])
        if self.round.outcome == AWAITING:
            self._score_if_revealed()
        return None

    def _reveal_problem(self, seat: int, texts: list | None, shown: int, pips: int | None) -> str | None:
        count, known, tiles = self.count[seat], self.known[seat], self.tiles
        if texts is not None:
            if len(texts) != count or shown.bit_count() != count:
                return said_n("shows %(shown)s distinct tiles but the seat holds %(num)s",
                              "shows %(shown)s distinct tiles but the seat holds %(num)s", count,
                              shown=len(texts))
            if missing := known & ~shown:
                return said("leaves out %(tiles)s, known to be in that hand", tiles=self._one_of(missing))
            if clash := shown & self.line:
                return said("names %(tiles)s, already on the line", tiles=self._one_of(clash))
            others = 0
            for s in range(self.rules.seats):
                if s != seat:
                    others |= self.known[s]
            if clash := shown & others:
                return said("names %(tiles)s, known to be in another hand", tiles=self._one_of(clash))
            if pips is not None and tiles.mask_pips(shown) != pips:
                return said("says %(pips)s pips but its tiles make %(total)s", pips=pips,
                            total=tiles.mask_pips(shown))
            unseen = self.unseen_pips[seat]
            if unseen is not None and tiles.mask_pips(shown & ~known) != unseen:
                return said("shows unseen tiles of %(pips)s pips, but an earlier reveal made them %(unseen)s",
                            pips=tiles.mask_pips(shown & ~known), unseen=unseen)
        elif pips is not None:
            total = self.pips_left(seat)
            if self.hand_known(seat):
                if pips != total:
                    return said("says %(pips)s pips but the hand holds %(total)s", pips=pips, total=total)
            elif total is not None:
                if pips != total:
                    return said("says %(pips)s pips, but an earlier reveal made the hand %(total)s",
                                pips=pips, total=total)
            elif pips < tiles.mask_pips(known):
                return said("says %(pips)s pips, fewer than the tiles known in that hand", pips=pips)
        return None

    def _deal(self, event: dict, seq: int) -> Violation | None:
        if v := self._over(seq):
            return v
        if self.playing:
            return Violation(seq, "bad_event", None,
                             said("round %(round)s is still in progress; it cannot be dealt again",
                                  round=self.round.number))
        rules = self.rules
        hands = event.get("hands")
        if hands is None:
            self._start_round([None] * rules.seats)
            return None
        if (masks := self._clean_deal(hands)) is not None:
            self._start_round(masks)
            return None
        # Something is wrong (or only unusual, as "06-5"): the checks below, in their order.
        masks = []
        for hand in hands:
            if hand is None:
                masks.append(None)
                continue
            mask = 0
            for text in hand:
                tile, v = self._tile(seq, None, text)
                if v:
                    return v
                mask |= 1 << tile
            masks.append(mask)
        if len(hands) != rules.seats:
            return Violation(seq, "bad_event", None,
                             said("the deal has %(hands)s hands for %(seats)s seats", hands=len(hands),
                                  seats=rules.seats))
        for seat, hand in enumerate(hands):
            if hand is not None and len(hand) != rules.hand_size:
                return Violation(seq, "bad_event", None,
                                 said("hand %(seat)s has %(tiles)s tiles; the rules deal %(size)s", seat=seat,
                                      tiles=len(hand), size=rules.hand_size))
        seen = 0
        for seat, (hand, mask) in enumerate(zip(hands, masks)):
            if hand is None:
                continue
            if mask.bit_count() != len(hand):
                return Violation(seq, "bad_event", None, said("hand %(seat)s holds the same tile twice", seat=seat))
            if seen & mask:
                return Violation(seq, "bad_event", None, said("%(tiles)s is dealt twice", tiles=self._one_of(seen & mask)))
            seen |= mask
        self._start_round(masks)
        return None

    def _clean_deal(self, hands: list) -> list[int | None] | None:
        """The hands' masks when the deal is plainly legal (a hand per seat, each null or a
        list of the right size, every tile a string written as the set writes it, none twice),
        else None. Every such deal is well-formed as shape_error has it."""
        rules = self.rules
        if len(hands) != rules.seats:
            return None
        bit, size = self.tiles.bit_of.__getitem__, rules.hand_size
        masks: list[int | None] = []
        seen = 0
        try:
            for hand in hands:
                if hand is None:
                    masks.append(None)
                    continue
                if type(hand) is not list or len(hand) != size:
                    return None
                mask = sum(map(bit, hand))
                # Adding bits gives their OR when they are distinct, and then only: a repeated
                # bit carries, and the sum has fewer bits than the hand has tiles.
                if mask.bit_count() != size or seen & mask:
                    return None
                seen |= mask
                masks.append(mask)
        except (KeyError, TypeError):  # not a tile's text; not even a string (a list)
            return None
        return masks

    def _annul(self, event: dict, seq: int) -> Violation | None:
        if v := self._not_playing(seq, None):
            return v
        self.round.outcome = ANNULLED
        self.playing = False
        self.turn = None
        self.settled = seq
        return None

    def _penalty(self, event: dict, seq: int) -> Violation | None:
        # A penalty naming a dispute is a ruling on it: accepted after the match ended, and the
        # result follows (the winner may change, the match may come back into play).
        if "target" not in event and (v := self._over(seq)):
            return v
        self.totals[event["side"]] += event["points"]
        if not self.forfeited:
            self._settle()
        return None

    def _forfeit(self, event: dict, seq: int) -> Violation | None:
        if v := self._over(seq):
            return v
        self.finished = self.forfeited = True
        self.winner = forfeit_winner(self.totals, event["side"])
        return None

    def _void(self, event: dict, seq: int) -> Violation | None:
        # What a void (or an amend) strikes or replaces is settled before the replay (see
        # referee.core.replay); noting that one was seen lets a replay without any skip that step.
        self.voided = True
        return None

    def _amend(self, event: dict, seq: int) -> Violation | None:
        target = event["target"]
        if target in self.rulings_at:
            return Violation(seq, "bad_event", None, said("an amend corrects a recorded event, not a ruling: event %(target)s is one",
                                                          target=target))
        return self._void(event, seq)

    def _stands(self, event: dict, seq: int) -> Violation | None:
        return None  # the disputed event stays as recorded: nothing in the game changes

    def _note(self, event: dict, seq: int) -> Violation | None:
        return None

    def _time(self, event: dict, seq: int) -> Violation | None:
        """The table's clock ran out: the round in play, or the next one dealt, is the last."""
        if v := self._over(seq):
            return v
        if self.rules.time_limit is None:
            return Violation(seq, "bad_event", None, said("these rules have no time limit"))
        if self.timed is not None:
            return Violation(seq, "bad_event", None,
                             said("time was already called at event %(seq)s", seq=self.timed))
        self.timed = seq
        self.last_round = self.round.number if self.playing else len(self.rounds) + 1
        return None

    def _abandon(self, event: dict, seq: int) -> Violation | None:
        """A match withdrawn before anything was played: it ends with no result."""
        if v := self._over(seq):
            return v
        if not self.withdrawable or seq in self.refused_abandons:
            return Violation(seq, "bad_event", None,
                             said("a match can be abandoned only while no deal stands in its record"))
        self.abandoned = seq
        self.finished, self.winner = True, None
        return None

    # ------------------------------------------------------------------ rounds

    def _start_round(self, masks: list[int | None]) -> None:
        rules, tiles = self.rules, self.tiles
        seats = rules.seats
        self.known = [m or 0 for m in masks]
        held = 0
        for mask in self.known:
            held |= mask
        self.held = held
        self.count = [rules.hand_size] * seats
        self.unseen_pips = [None] * seats
        self.line = 0
        self.layout = EMPTY
        self.boneyard = tiles.size - seats * rules.hand_size
        self.passes = 0
        self.drew = False
        self.last_player = None
        previous = None  # the last round that counted
        for round_ in reversed(self.rounds):
            if round_.outcome != ANNULLED:
                previous = round_
                break
        may_lead, self.lead_tile = opening(rules, tiles, masks, self.all_dealt, previous)
        self.may_lead = may_lead
        # the one seat that may lead has the turn; with several (or none) nobody has it yet
        alone = may_lead and not may_lead & (may_lead - 1)
        self.turn = may_lead.bit_length() - 1 if alone else None
        self.round = _Round(len(self.rounds) + 1, self.turn, self.seq, list(masks))
        self.rounds.append(self.round)
        self.playing = True

    def _end_play(self, how: str) -> None:
        self.playing = False
        self.turn = None
        self.settled = self.seq
        self.round.ended = how
        if how == BLOCKED:
            self.round.blocked_by = self.last_player
        self.round.outcome = AWAITING
        self._score_if_revealed()

    def _score_if_revealed(self) -> None:
        if self.finished:  # a penalty or forfeit ended the match first: the round stays unscored
            return
        pips = list(map(self.pips_left, range(self.seats)))
        if None in pips:
            return
        round_ = self.round
        round_.pips = tuple(pips)
        round_.outcome = round_.ended
        if round_.ended == DOMINO:
            winner, points = score_domino(self.rules, pips, round_.seat_out)
        else:
            opener = round_.opener if round_.opener is not None else 0
            winner, points = score_block(self.rules, pips, round_.blocked_by, opener)
        round_.winner, round_.points = winner, points
        if winner is not None:
            self.totals[winner] += points
        if self.timed is not None and round_.number >= self.last_round:
            self.time_up = True
        self._settle()

    def _settle(self) -> None:
        """Whether the totals end the match: a side reached the target (the highest total
        wins, none on a tie), or time is up and one side's total is the highest alone. Checked
        after every scored round and every penalty, so a ruling can bring it back into play."""
        totals = self.totals
        reached = max(totals) >= self.rules.target
        if reached or self.time_up:
            winner = match_winner(totals)
            if reached or winner is not None:
                self.finished, self.winner = True, winner
                return
        self.finished, self.winner = False, None


# Each kind's judge, made once for every match.
_JUDGES = {kind: getattr(Match, "_" + kind) for kind in EVENT_TYPES}
