"""The judges of the events that put tiles in hands and show them: a deal and a reveal."""

from __future__ import annotations

from .events import Violation
from .outcomes import AWAITING
from .said import said, said_n


class HandJudges:
    """The judges of deal and reveal (a part of Match: they read and change its state)."""

    __slots__ = ()

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
        if (masks := self._clean_hands(hands, rules.seats, rules.hand_size)) is not None:
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

    def _clean_hands(self, hands: list | tuple, count: int, size: int) -> list[int | None] | None:
        """The masks of ``hands`` when they are plainly legal: ``count`` of them, each null or a
        list of ``size`` tiles, every tile a string written as the set writes it, none twice
        (a deal's hands; a reveal's tiles, as one hand). Else None. Every such deal is
        well-formed as shape_error has it."""
        if len(hands) != count:
            return None
        bit = self.tiles.bit_of.__getitem__
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
        self._show(seat, texts, shown, pips)
        return None

    def _plain_reveal(self, event: dict) -> bool:
        """Apply ``event`` (an object whose type is "reveal") when it is a plainly legal reveal
        by tiles (no ``seq`` nor ``pips``, a seat that exists, tiles written as the set writes
        them, none twice, and nothing its judge would refuse), as the reveal's judge would;
        whether it did (else nothing changed: the slow path judges it). A closed round ends
        with one for each hand left: the shape check and the judge's dispatch cost each some
        7,600 instructions (docs/performance.md, 7 December 13:15)."""
        if "seq" in event or self.abandoned is not None or self.round is None:
            return False
        seat, texts = event.get("seat"), event.get("tiles")
        if (type(seat) is not int or not 0 <= seat < self.seats or type(texts) is not list
                or event.get("pips") is not None):
            return False
        masks = self._clean_hands((texts,), 1, len(texts))
        if masks is None or self._reveal_problem(seat, texts, shown := masks[0], None) is not None:
            return False
        self.seq += 1
        self._show(seat, texts, shown, None)
        return True

    def _show(self, seat: int, texts: list | None, shown: int, pips: int | None) -> None:
        """Apply a legal reveal: its tiles into the seat's hand, or its pip count; the ended
        round scored once it has every hand it needs."""
        if texts is not None:
            self.known[seat] = shown
            self.held |= shown
            self.unseen_pips[seat] = None
            self.round.trail.append((self.seq, "reveal", seat, shown, None))
        elif not self.hand_known(seat):
            self.unseen_pips[seat] = pips - self.tiles.mask_pips(self.known[seat])
        if self.round.outcome == AWAITING or self.round.owes_pips:
            self._score_if_revealed()

    def _reveal_problem(self, seat: int, texts: list | None, shown: int, pips: int | None) -> str | None:
        count, known, tiles = self.count[seat], self.known[seat], self.tiles
        if texts is not None:
            if len(texts) != count or shown.bit_count() != count:
                return said_n("shows %(shown)s distinct tiles but the seat holds %(num)s",
                              "shows %(shown)s distinct tiles but the seat holds %(num)s", count,
                              shown=shown.bit_count())  # (a tile named twice counts once)
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
