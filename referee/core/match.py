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
from .events import Violation, shape_error
from .family import Family, family_of
from .hands import HandJudges
from .layout import Layout
from .moves import DONE, PASS, MoveJudges
from .outcomes import AWAITING, BLOCKED, DOMINO
from .rounds import Round, RoundKeeping, RoundResult
from .rules import Rules
from .rulings import RulingJudges
from .said import said
from .tiles import TileSet, placement, tile_set
from .vocab import EVENT_TYPES, ON_THE_RECORD, SEAT_EVENTS, SETTLING, kind_of

# What push_all is given in place of an event a ruling struck: it keeps its sequence number and
# nothing else.
STRUCK: Any = object()


class Match(RoundKeeping, MoveJudges, HandJudges, RulingJudges):
    """A match being refereed: the table as it stands and everything scored so far."""

    # Slots keep attribute access fast on the replay's hot path (past 30 attributes an
    # instance dict no longer shares keys, and every lookup slows down).
    __slots__ = ("rules", "seats", "players", "tiles", "totals", "finished",
                 "winner", "rounds", "seq", "round", "playing", "known", "count",
                 "unseen_pips", "line", "layout", "boneyard",
                 "turn", "may_lead", "lead_tile", "passes", "drew", "last_player", "voided",
                 "all_dealt", "settled", "forfeited", "rulings", "rulings_at", "timed",
                 "last_round", "time_up", "abandoned", "refused_abandons", "next_seat", "held",
                 "last_dispute", "family")

    def __init__(self, rules: Rules, players: Sequence[str], family: Family | None = None) -> None:
        self.rules = rules
        # How this match's tiles are laid and its points scored (referee.core.family): the
        # rules' family unless one is given (a test's, a family being built).
        self.family = family if family is not None else family_of(rules)
        self.seats = rules.seats
        self.next_seat = tuple((seat + 1) % rules.seats for seat in range(rules.seats))
        self.players = tuple(players)
        self.tiles: TileSet = tile_set(rules.max_pip)
        self.totals = [0] * rules.sides
        self.finished = False
        self.winner: int | None = None
        self.rounds: list[Round] = []
        self.seq = 0
        self.round: Round | None = None
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
        self.layout: Layout = self.family.layout  # the open ends (referee.core.layout)
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

# Each kind's judge, made once for every match.
_JUDGES = {kind: getattr(Match, "_" + kind) for kind in EVENT_TYPES}
