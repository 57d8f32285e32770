"""The judges of the seats' moves (play, draw, pass), and how a move refused but recorded as
disputed is applied as the table played it."""

from __future__ import annotations

from typing import Any

from .events import Violation, disputed, unsighted
from .layout import Layout
from .outcomes import BLOCKED, DOMINO
from .said import Said, said, said_n
from .tiles import iter_bits

# The kinds of move: their judges say how a legal one is applied, and an applier applies it.
MOVES = ("play", "draw", "pass")
# What a layout's place says of a tile that goes nowhere without a word (any other answer is
# the side it goes on: "L" or "R" on a line, a family's own for its arms).
NOWHERE = ("ambiguous_end", "no_match")
# A legal pass (its judge's verdict); a refused move there is nothing to apply for
# (Match._refused).
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


class MoveJudges:
    """The judges of play, draw and pass, and their appliers (a part of Match: they read and
    change its state)."""

    __slots__ = ()

    # ------------------------------------------------------------------ applying a move

    def _apply_play(self, seat: int, move: tuple[int, int, int, int, int, Any]) -> None:
        """Lay a play's tile as its judge says (the tile's parts, TileSet.parts, with the side
        it goes on, or for the lead its pips as written): on the layout, out of the hand. The
        family's scoring policy scores it; then a domino or a block ends play."""
        tile, bit, _, _, pips, side = move
        layout = self.layout
        if layout.left is None:
            self.layout = layout.lead(tile, side)
            self.round.opener = seat
        else:
            self.layout = layout.placed(side, tile, pips)
        self.round.trail.append((self.seq, "play", seat, tile, side))
        known = self.known
        if known[seat] & bit:
            known[seat] ^= bit
        else:  # an unseen tile left: the unseen total is lost
            self.unseen_pips[seat] = None
        self.count[seat] -= 1
        self.line |= bit
        self.passes, self.drew, self.last_player = 0, False, seat
        self.turn = self.next_seat[seat]
        scoring = self.family.scoring
        if scoring.scores_plays:
            scoring.after_play(self, seat)
            if not self.playing:  # its score reached the target: the round stopped there
                return
        if not self.count[seat] and scoring.side_goes_out(self, seat):
            self.round.seat_out = seat
            self._end_play(DOMINO)
        elif self.layout.blocked(self.line, self.tiles):
            self._end_play(BLOCKED)
        elif not self.count[self.turn]:
            self._skip_out()

    def _apply_draw(self, seat: int, tile: int | None) -> None:
        """A drawn tile (None: unseen) into the hand, out of the boneyard. The round's trail
        keeps the ends it faced (None before the lead: only a disputed draw comes then)."""
        if tile is None:  # an unseen tile came in
            self.unseen_pips[seat] = None
            self.round.closed = True
        else:
            self.known[seat] |= 1 << tile
            self.held |= 1 << tile
        self.round.trail.append((self.seq, "draw", seat, tile, self.layout.ends or None))
        self.count[seat] += 1
        self.boneyard -= 1
        self.drew = True

    def _apply_pass(self, seat: int) -> None:
        """The turn to the next seat; every seat passing in turn with no draw left blocks."""
        self.round.trail.append((self.seq, "pass", seat, None, self.layout.ends))
        self.passes += 1
        self.drew = False
        self.turn = self.next_seat[seat]
        rules = self.rules
        # every seat still holding tiles passed in turn (a seat out is skipped: partners_out)
        if self.passes >= self.seats - self.count.count(0) and not (
                rules.draw != "none" and self.boneyard > rules.reserve):
            self._end_play(BLOCKED)
        elif not self.count[self.turn]:
            self._skip_out()

    def _skip_out(self) -> None:
        """The turn passes over the seats that went out while their partner plays on
        (``partners_out: both``): they hold nothing and are skipped."""
        count, turn = self.count, self.turn
        for _ in range(self.seats):
            if count[turn]:
                break
            turn = self.next_seat[turn]
        self.turn = turn

    # ------------------------------------------------------------------ judging a move

    def _refused(self, event: Any, violation: Violation, violations: list[Violation]) -> Any:
        """A play, draw or pass the record refuses: its violation noted. Recorded as disputed, it
        is applied all the same when it can be (AS_PLAYED): then how push_all applies it, as
        for a legal one; else DONE. The disputed event just before it again (same type, seat
        and tile, nothing between them) is a ``repeat``, never applied: the table did it once."""
        seq = violation.seq
        if violation.code == "bad_event" or not (disputed(event) or unsighted(event)):
            violations.append(violation)
            return DONE
        if unsighted(event):
            # Stored unsighted: the table saw it and its recorder's record allowed it; it goes
            # on as it did there (a seat may draw unseen tiles one after another: no repeat).
            violations.append(violation)
            return self._as_played(event, violation.code)
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
        """How a disputed play, draw or pass is applied as the table played it (as a legal one's
        judge says), or DONE (not applied, or applied here: a pass before the lead)."""
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
            return tile
        if self.layout.left is None:
            side: Any = tiles.halves(text)
        else:
            side = self.layout.place(tiles.high[tile], tiles.low[tile], event.get("end"))
            if side in NOWHERE:
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
        if side not in NOWHERE:
            return side
        name = tiles.names[tile]
        if len(layout.ends) > 2 or type(layout) is not Layout:  # a counted line, arms perhaps
            return self._nowhere(seq, seat, name, side, end)
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

    def _nowhere(self, seq: int, seat: int, name: str, why: str, end: Any) -> Violation:
        """Why a tile goes nowhere on a counted line (the points family): the places it fits
        give different open ends and ``end`` does not say which, or it fits no end named."""
        ends = self._ends_text()
        if why == "ambiguous_end":
            return Violation(seq, "ambiguous_end", seat, said(
                "%(tile)s fits more than one open end with different results (%(ends)s); say which",
                tile=name, ends=ends))
        if end == "up" or end == "down":
            arm = said("up") if end == "up" else said("down")
            if self.rules.spinner == "none":  # Muggins, Fives and Threes: no arms at all
                return Violation(seq, "no_match", seat, said(
                    "%(tile)s cannot go on the %(arm)s arm: these rules have no spinner",
                    tile=name, arm=arm))
            if len(self.layout.ends) <= 2:
                return Violation(seq, "no_match", seat, said(
                    "%(tile)s cannot go on the %(arm)s arm: the spinner's arms are not open",
                    tile=name, arm=arm))
            pip = self.layout.arms[0 if end == "up" else 1][0]
            return Violation(seq, "no_match", seat, said(
                "%(tile)s does not fit the %(arm)s arm (%(pip)s)", tile=name, arm=arm, pip=pip))
        if end == "left" or end == "right":
            pip = self.layout.left if end == "left" else self.layout.right
            return Violation(seq, "no_match", seat, said(
                "%(tile)s does not fit the %(end)s end (%(pip)s)", tile=name,
                end=said("left") if end == "left" else said("right"), pip=pip))
        if end is not None:
            return Violation(seq, "no_match", seat, said(
                "%(tile)s cannot go on a %(end)s end: the open ends are %(ends)s", tile=name,
                end=end, ends=ends))
        return Violation(seq, "no_match", seat, said(
            "%(tile)s fits no open end (%(ends)s)", tile=name, ends=ends))

    def _pass(self, event: dict, seq: int) -> Violation | Any:
        """A pass's violation, or PASS."""
        seat = event["seat"]
        if self.finished or not self.playing:
            return self._not_playing(seq, seat)
        if self.layout.left is None or seat != self.turn:
            if v := self._turn(seq, seat, "pass"):
                return v
            return self._pass_refused(seq, seat, None)
        fitting = self.known[seat] & self.layout.fitting(self.tiles)
        if fitting or self.can_draw():
            return self._pass_refused(seq, seat, fitting)
        return PASS

    def _pass_refused(self, seq: int, seat: int, fitting: int | None) -> Violation:
        """A pass by the opener before the lead (``fitting`` None), by a seat holding the tiles
        ``fitting`` (a renege), or by one that had to draw. The points family's players knock
        (docs/glossary.md): its rules choose the words."""
        name, knock = self.name(seat), self.rules.scoring == "ends"
        if fitting is None:
            return Violation(seq, "renege", seat,
                             said("%(player)s knocked instead of opening the round", player=name)
                             if knock else
                             said("%(player)s passed instead of opening the round", player=name))
        if fitting:
            n, tiles, ends = fitting.bit_count(), self._one_of(fitting), self._ends_text()
            return Violation(seq, "renege", seat, said_n(
                "%(player)s knocked holding %(tiles)s, which fits %(ends)s",
                "%(player)s knocked holding %(tiles)s, which fit %(ends)s",
                n, player=name, tiles=tiles, ends=ends) if knock else said_n(
                "%(player)s passed holding %(tiles)s, which fits %(ends)s",
                "%(player)s passed holding %(tiles)s, which fit %(ends)s",
                n, player=name, tiles=tiles, ends=ends))
        return Violation(seq, "must_draw", seat, said_n(
            "%(player)s knocked but had to draw: the boneyard still holds %(num)s tile",
            "%(player)s knocked but had to draw: the boneyard still holds %(num)s tiles",
            self.boneyard, player=name) if knock else said_n(
            "%(player)s passed but had to draw: the boneyard still holds %(num)s tile",
            "%(player)s passed but had to draw: the boneyard still holds %(num)s tiles",
            self.boneyard, player=name))

    def _one_of(self, mask: int) -> str:
        names = self.tiles.mask_names(mask)
        if len(names) == 1:
            return names[0]
        return said("%(tiles)s and %(last)s", tiles=", ".join(names[:-1]), last=names[-1])

    def _ends_text(self) -> Said:
        ends = self.layout.ends
        if len(ends) > 2:  # the spinner's arms are open
            pips = sorted(set(ends))
            if len(pips) == 1:
                return said("the %(pip)s ends", pip=pips[0])
            return said("the %(ends)s or the %(last)s end", ends=", ".join(map(str, pips[:-1])),
                        last=pips[-1])
        left, right = ends
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
