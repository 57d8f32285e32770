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
from .moves import DONE, MOVES, MoveJudges
from .outcomes import AWAITING
from .rounds import Round, RoundKeeping, RoundResult
from .rules import Rules
from .rulings import RulingJudges
from .said import said
from .tiles import TileSet, tile_set
from .vocab import EVENT_TYPES, ON_THE_RECORD, SEAT_EVENTS, SETTLING, kind_of

# What push_all is given in place of an event a ruling struck: it keeps its sequence number and
# nothing else.
STRUCK: Any = object()
_new = tuple.__new__  # a Layout made as fast as it can be (a named tuple)


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
            elif type(side) is tuple:  # the lead, as written
                left, right = side
                placed.append(("lead", left, right))
            # (any other side is a family's arm, off the line)
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
        if known.bit_count() == count:  # the hand is known
            return self.tiles.mask_pips(known)
        unseen = self.unseen_pips[seat]  # (None: unknown, its known tiles not counted)
        return None if unseen is None else self.tiles.mask_pips(known) + unseen

    def pips_in_hands(self) -> list[int] | None:
        """Every seat's ``pips_left``, or None while one is not known: what a round's scoring
        asks when its play ends and again after each reveal of a closed round. The seats are
        read from the last, as a closed round's reveals come in seat order: a hand still
        hidden stops the reading before the hands known already are counted again."""
        pips, pips_left = [], self.pips_left
        for seat in range(self.seats - 1, -1, -1):
            if (left := pips_left(seat)) is None:
                return None
            pips.append(left)
        pips.reverse()
        return pips

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
        round_ = self.round
        return (round_ is not None and (round_.outcome == AWAITING and not self.finished
                                        or round_.owes_pips) and self.pips_left(seat) is None)

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

    def push_all(self, events: Iterable[Any], fast: bool = True) -> list[Violation]:
        """Judge each event in turn, applying the legal ones; their violations, in order.

        Every event is judged by its kind's judge (:meth:`_judge`) and a legal move applied by
        its applier (referee.core.moves), one event after another: :meth:`_push_one`, the
        slow path, and the whole of it with ``fast`` false. With ``fast`` (and a family it
        fits), a run of plainly legal moves is applied by ``run_moves`` (referee.core.fastpath,
        a hand-made copy of the judges and appliers held to this slow path by a test), and a
        plainly legal deal when one is due starts its round at once, a plainly legal reveal by
        tiles is applied at once (both through their judges' own checks: ``_plain_deal``,
        ``_plain_reveal``), and a plainly legal lead is laid by the family's ``lead``
        (``fastpath.lead_line``, ``lead_counted``); anything else goes the slow path."""
        violations: list[Violation] = []
        run = self.family.run
        if not fast or run is None:
            for event in events:
                self._push_one(event, violations)
            return violations
        lead = self.family.lead  # a plainly legal lead laid by hand (fastpath.lead_line)
        events = iter(events)  # the run takes more events from the same iterator
        for event in events:
            kind = event.get("type") if type(event) is dict else None
            if not (self._plain_deal(event) if kind == "deal"
                    else self._plain_reveal(event) if kind == "reveal"
                    else kind == "play" and lead is not None and lead(self, event)):
                self._push_one(event, violations)
            if self.playing and not self.finished and self.layout.left is not None:
                run(self, events, violations)  # the lead is down: a run of moves
        return violations

    def _plain_deal(self, event: Any) -> bool:
        """Deal ``event`` (an object whose type is "deal") when it is a plainly legal deal and
        one is due (_clean_hands checks the hands' shape too), as the deal's judge would; whether
        it did."""
        if "seq" in event or self.playing or self.finished:
            return False
        hands = event.get("hands")
        if type(hands) is not list or (masks := self._clean_hands(
                hands, self.seats, self.rules.hand_size)) is None:
            return False
        self.seq += 1
        self._start_round(masks)
        return True

    def _push_one(self, event: Any, violations: list[Violation]) -> None:
        """The slow path: judge one event by its kind's judge, and apply a legal (or disputed
        and applied as played) move by its applier; its violations added to ``violations``."""
        if event is STRUCK:
            self.seq += 1
            return
        if type(event) is dict and "seq" in event and self._own_seq(event):
            # the same event without its (right) sequence number, as any other
            self._push_one({k: v for k, v in event.items() if k != "seq"}, violations)
            return
        self.seq += 1
        verdict = self._judge(event, self.seq)
        kind = event.get("type") if type(event) is dict else None
        if kind not in MOVES:
            if verdict is not None:
                violations.append(verdict)
            return
        if type(verdict) is Violation:
            verdict = self._refused(event, verdict, violations)
            if verdict is DONE:
                return
        if kind == "play":
            self._apply_play(event["seat"], verdict)
        elif kind == "draw":
            self._apply_draw(event["seat"], verdict)
        else:
            self._apply_pass(event["seat"])

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
        if verdict is None and event.get("target") is not None:  # (null: no target)
            if kind in SETTLING:
                self.rulings[event["target"]] = seq
            if kind in ON_THE_RECORD:
                self.rulings_at.add(seq)
        return verdict

    def _run_fields(self) -> tuple[Any, ...]:
        """Begin a run of moves (referee.core.fastpath): the table's fields it holds in local variables (the
        layout as its line's two ends and their outer tiles)."""
        layout = self.layout
        return (self.seq, layout.left, layout.right, layout.left_tile, layout.right_tile,
                self.turn, self.line, self.passes, self.drew, self.last_player, self.boneyard,
                self.known, self.count, self.unseen_pips, self.round.trail, self.held)

    def _write_back(self, seq: int, left: int, right: int, lt: int, rt: int, turn: int,
                    line: int, passes: int, drew: bool, last_player: int | None, boneyard: int,
                    held: int) -> bool:
        """End a run of moves (referee.core.fastpath): the table's fields it held go back to the match (a new
        layout when a tile was laid)."""
        layout = self.layout
        if lt != layout.left_tile or rt != layout.right_tile:
            self.layout = _new(Layout, (left, right, lt, rt, layout.spinner, layout.arms))
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
