"""Hindsight: the fouls a closed (or partly closed) record proves afterwards, and the ones it
only allows.

A table that records only what it sees can still prove a foul: a seat that passed with the ends
at 5 and 3, and later played the 5-2 without drawing in between, held the 5-2 when it passed.
Every proof here rests on one fact: the tiles a seat shows after a moment (the tiles it plays,
and the tiles a reveal shows) were in its hand at that moment or came from the boneyard since.
So when more of the tiles it shows fit the ends it faced than its draws since could have
brought, it held a tile that fit. A draw seen to bring a tile that does not fit could not have
brought one. That is sound: a legal match, recorded closed, never gets a proven violation.

The lead is judged in hindsight too: once every seat's dealt hand is determined by the record
(it drew nothing that round and every tile it held was played or revealed), the round's opening
is judged as in open recording.

What the record allows but does not prove (a pass by a seat that may have held a tile that
fits) is a *suspicion*: certainty ``possible``, with the facts for and against.

Pure, like the rest of the core: it reads the trail each round keeps (see ``Match``).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Sequence

from .events import Violation
from .knocks import words_of_a_pass
from .openers import opening
from .outcomes import ANNULLED, DOMINO
from .records import Record, _set
from .said import Said, said, said_n

FOULS = {"pass": "renege", "draw": "illegal_draw"}

_seq = itemgetter(0)  # a Violation's seq, read at C speed (every suspicion is sorted by it)
_tuple_new = tuple.__new__


def _ends(*ends: int) -> str:
    """The open ends' pips as a sentence says them (the spinner's arms too, when open)."""
    if len(ends) > 2:
        pips = sorted(set(ends))
        if len(pips) == 1:
            return str(pips[0])
        return said("%(ends)s or %(last)s", ends=", ".join(map(str, pips[:-1])), last=pips[-1])
    a, b = ends
    return str(a) if a == b else said("%(left)s or %(right)s", left=a, right=b)


class Findings(Record):
    """What hindsight finds in a match: proven fouls and suspicions, each by seq."""

    __slots__ = ("proven", "suspicions")

    def __init__(self, proven: tuple[Violation, ...], suspicions: tuple[Violation, ...]) -> None:
        _set(self, "proven", proven)
        _set(self, "suspicions", suspicions)


def findings(match: Any) -> Findings:
    """What hindsight finds in every round of ``match`` (a ``referee.core.match.Match``)."""
    proven: list[Violation] = []
    suspicions: list[Violation] = []
    names: list[str] = []  # the seats' names, once a round needs them
    # The sentences of suspicions said already in this match, by what they say (a seat at the
    # same ends, over and over): each said once (its words are the same; a Said is not changed
    # once made), where saying them was most of what a closed recording costs beyond its open
    # twin's.
    memo: dict[tuple[Any, ...], Any] = {}
    previous = None
    for round_ in match.rounds:
        if round_.closed:  # a round recorded entirely in the open was judged as it went
            names = names or [match.name(s) for s in range(match.rules.seats)]
            _Round(match, round_, previous, names, memo).find(proven, suspicions)
        if round_.outcome != ANNULLED:
            previous = round_
    proven.sort(key=_seq)  # (stable: a seq's findings stay in the order found)
    suspicions.sort(key=_seq)
    return Findings(tuple(proven), tuple(suspicions))


def _proves(fit: int, brought: int, since: int, stretches: list[tuple[Any, int]],
            fitting: int) -> bool:
    """Whether a seat's entries after a moment prove it held a tile of ``fit`` then (what
    ``_Round.proof`` finds, without walking them): more of those tiles shown at some point than
    the moment's draw (``brought``) and the seat's draws since could have brought. The count
    shown only grows between two draws and what may have been brought only at a draw, so it is
    enough to look just before each draw, and at the end: ``since``, the tiles shown before the
    seat's next draw; ``stretches``, each later draw (its tile, None unseen) with the tiles
    shown after it up to the draw after, the last draw first; ``fitting``, every tile of
    ``fit`` shown after the moment (once all are counted, draws only add to what may have been
    brought: no proof can follow)."""
    shown = since & fit
    if shown.bit_count() > brought:
        return True
    for x, stretch in reversed(stretches):
        if shown == fitting:
            return False
        brought += x is None or fit >> x & 1
        shown |= stretch & fit
        if shown.bit_count() > brought:
            return True
    return False


class _Round:
    def __init__(self, match: Any, round_: Any, previous: Any, names: list[str],
                 memo: dict[tuple[Any, ...], Any]) -> None:
        self.match, self.round, self.previous, self.names = match, round_, previous, names
        self.memo = memo
        # How a pass is said: ``said`` itself, or as the points family's players knock
        # (referee.core.knocks; its sentences take the same values)
        self.said = words_of_a_pass(match.rules)
        self.tiles = match.tiles
        self.trail = round_.trail
        self.seats = seats = match.rules.seats
        dealt = round_.dealt
        # One pass over the round, for what each moment (a pass or a draw) asks: each seat's
        # entries in order; what each seat showed in the round (played, revealed, drew in
        # sight, or was dealt open), which the other seats cannot have held; and per seat its
        # moments, each as (its index among the seat's entries, the tiles on the line then,
        # whether the seat's whole hand was known then); and which seats drew.
        self.mine: list[list[tuple[int, str, int, Any, Any]]] = [[] for _ in range(seats)]
        self.shown = shown = [d or 0 for d in dealt]
        self.moments: list[list[tuple[int, int, bool]]] = [[] for _ in range(seats)]
        self.drew = drew = [False] * seats
        known = [d is not None for d in dealt]
        line = 0
        mines, moments = self.mine, self.moments  # (read once: every entry of the round comes)
        for entry in self.trail:
            _, kind, s, x, ends = entry
            if kind == "play":
                bit = 1 << x
                line |= bit
                shown[s] |= bit
            elif kind == "reveal":
                shown[s] |= x
                known[s] = True
            else:  # a pass or a draw (a moment, but a disputed draw before the lead, no ends)
                if ends is not None:
                    moments[s].append((len(mines[s]), line, known[s]))
                if kind == "draw":
                    drew[s] = True
                    if x is None:
                        known[s] = False
                    else:
                        shown[s] |= 1 << x
            mines[s].append(entry)

    def name(self, seat: int) -> str:
        return self.names[seat]

    def tile(self, tile: int) -> str:
        return self.tiles.names[tile]

    # ------------------------------------------------------------------------ passes and draws

    def find(self, proven: list[Violation], suspicions: list[Violation]) -> None:
        pip_mask = self.tiles.pip_mask
        for seat, moments in enumerate(self.moments):
            if not moments:
                continue
            entries = self.mine[seat]
            others = 0
            for s, mask in enumerate(self.shown):
                if s != seat:
                    others |= mask
            final_known = self.final_hand_known(seat)
            # Back from the seat's last entry: after each moment, how many draws it made, the
            # tiles it drew in sight (they were in the boneyard then), and the tiles it played
            # or revealed (a proof counts those that fit: where no more of them fit than the
            # moment's own draw may have brought, there is no proof to look for). The tiles
            # shown are kept by stretch between two of the seat's draws: ``since`` from the
            # moment to its next draw, then each draw with the stretch after it (``stretches``,
            # the last draw first), ``beyond`` all of theirs together.
            draws = seen = beyond = since = 0
            stretches: list[tuple[Any, int]] = []
            # The seat's entries after each moment, folded in a slice at a time from its last
            # entry back, the last first (each moment's own entry with the slice before it: a
            # draw counts for the moments before it, not for its own)
            upto = len(entries)
            for m in range(len(moments) - 1, -1, -1):
                at, line, known = moments[m]
                for _, kind, _, x, _ in entries[upto - 1:at:-1]:
                    if kind == "play":
                        since |= 1 << x
                    elif kind == "reveal":
                        since |= x
                    elif kind == "draw":
                        draws += 1
                        if x is not None:
                            seen |= 1 << x
                        stretches.append((x, since))
                        beyond |= since
                        since = 0
                upto = at + 1
                seq, kind, _, tile, ends = entries[at]
                fit = 0
                for pip in ends:  # the line's two, and the spinner's arms when open
                    fit |= pip_mask[pip]
                # A draw itself may bring a fitting tile (the tiles held *before* it are in
                # question).
                brought = 1 if kind == "draw" and (tile is None or fit >> tile & 1) else 0
                proof = None
                if ((fitting := (since | beyond) & fit).bit_count() > brought
                        and _proves(fit, brought, since, stretches, fitting)):
                    proof = self.proof(seat, seq, kind, ends, fit, brought, entries[at + 1:],
                                       fitting)
                if proof is not None:
                    proven.append(proof)
                # A known hand was judged at once; a hand later shown whole, with no draw
                # since, is exactly what it showed since: decided either way.
                elif not known and not (draws == 0 and final_known):
                    # possible when a tile that fits was not seen anywhere else (nor on the
                    # line, nor drawn by the seat since: it was in the boneyard then)
                    if possible := fit & ~(line | others | seen):
                        suspicions.append(self.suspicion(seat, seq, kind, ends, draws,
                                                         possible))
        if (lead := self.lead()) is not None:
            proven.append(lead)

    def proof(self, seat: int, seq: int, kind: str, ends: tuple[int, ...], fit: int,
              brought: int, later: Sequence[tuple[int, str, int, Any, Any]],
              fitting: int) -> Violation | None:
        """The foul the seat's entries ``later`` prove at the moment ``seq``, where the tiles
        ``fit`` fitted and the moment itself may have brought ``brought`` of them; ``fitting``:
        the tiles of ``fit`` that ``later`` shows."""
        draws = 1 if kind == "draw" else 0
        shown = 0
        hits: list[tuple[int, str, int]] = []  # (seq, "play" or "reveal", what it showed)
        for u, k, _, x, _ in later:
            if k == "draw":
                draws += 1
                brought += x is None or fit >> x & 1
                continue
            if k == "play":
                if not fit >> x & 1 or shown >> x & 1:
                    continue
                shown |= 1 << x
                hits.append((u, k, 1 << x))
            elif k == "reveal":
                new = x & fit & ~shown
                if not new:
                    continue
                shown |= new
                hits.append((u, k, new))
            else:
                continue
            if shown.bit_count() > brought:
                return self._proven(seat, seq, kind, ends, hits, draws, brought)
            if shown == fitting:  # every fitting tile shown, and draws only bring more: none
                return None
        return None

    def _proven(self, seat: int, seq: int, kind: str, ends: tuple[int, ...],
                hits: list[tuple[int, str, int]], draws: int, brought: int) -> Violation:
        """The proof in words: built only for the fouls found (most passes prove nothing)."""
        name, where, u = self.name(seat), _ends(*ends), hits[-1][0]
        facts = [{"seq": seq, "fact": self._at_ends(kind, name, ends)}]
        for at, how, mask in hits:
            tiles = ", ".join(self.tiles.mask_names(mask))
            facts.append({"seq": at, "fact": said("%(player)s played %(tiles)s, which fits %(ends)s",
                                                  player=name, tiles=tiles, ends=where)
                          if how == "play" else
                          said("%(player)s revealed %(tiles)s, which fit %(ends)s", player=name,
                               tiles=tiles, ends=where)})
        facts.append({"seq": u, "fact": said(
            "%(player)s drew nothing since: it held a tile that fits at event %(seq)s",
            player=name, seq=seq) if not draws else said_n(
            "%(player)s drew %(num)s tile from event %(seq)s on, of which at most %(brought)s "
            "could fit: it held a tile that fits at event %(seq)s",
            "%(player)s drew %(num)s tiles from event %(seq)s on, of which at most %(brought)s "
            "could fit: it held a tile that fits at event %(seq)s",
            draws, player=name, seq=seq, brought=brought)})
        message = (self.said("%(player)s passed holding a tile that fits %(ends)s, as its plays "
                             "and reveals up to event %(seq)s prove", player=name, ends=where,
                             seq=u)
                   if kind == "pass" else
                   said("%(player)s drew holding a tile that fits %(ends)s, as its plays and "
                        "reveals up to event %(seq)s prove", player=name, ends=where, seq=u))
        return Violation(seq, FOULS[kind], seat, message, "proven", u, tuple(facts))

    def _at_ends(self, kind: str, name: str, ends: tuple[int, ...]) -> Said:
        if len(ends) > 2:  # the spinner's arms open
            pips = ", ".join(map(str, ends))
            if kind == "pass":
                return self.said("%(player)s passed with the open ends at %(ends)s",
                                 player=name, ends=pips)
            return said("%(player)s drew with the open ends at %(ends)s", player=name, ends=pips)
        a, b = ends
        if kind == "pass":
            return self.said("%(player)s passed with the ends at %(left)s and %(right)s",
                             player=name, left=a, right=b)
        return said("%(player)s drew with the ends at %(left)s and %(right)s", player=name,
                    left=a, right=b)

    def suspicion(self, seat: int, seq: int, kind: str, ends: tuple[int, ...], draws: int,
                  possible: int) -> Violation:
        """A pass or draw by a hand not known then, which may have held the tiles ``possible``
        (they fit, and the record shows them nowhere else)."""
        name, memo = self.names[seat], self.memo
        unseen = memo.get(key := (kind, seat, ends, possible))
        if unseen is None:
            names = self.tiles.mask_names(possible)
            at_ends = memo.get(at := (kind, seat, ends))
            if at_ends is None:
                at_ends = memo[at] = self._at_ends(kind, name, ends)
            unseen = memo[key] = said_n(
                "%(at_ends)s; %(tiles)s fits and was not seen anywhere else",
                "%(at_ends)s; %(tiles)s fit and were not seen anywhere else", len(names),
                at_ends=at_ends, tiles=", ".join(names))
        against = memo.get(key := (seat, draws))
        if against is None:
            against = memo[key] = (
                said_n("%(player)s drew %(num)s tile afterwards",
                       "%(player)s drew %(num)s tiles afterwards", draws, player=name)
                if draws else said("%(player)s's hand at that moment was never shown in full",
                                   player=name))
        message = memo.get(key := (seat, ends))
        if message is None:
            message = memo[key] = said("%(player)s may have held a tile that fits %(ends)s",
                                       player=name, ends=_ends(*ends))
        # (the tuple made at C speed: Violation's own __new__ is a Python function, called for
        # every suspicion)
        return _tuple_new(Violation, (seq, FOULS[kind], seat, message, "possible", None,
                                      ({"seq": seq, "fact": unseen},
                                       {"seq": seq, "fact": against})))

    def final_hand_known(self, seat: int) -> bool:
        """Whether the record shows what the seat held at the round's end (it went out, or a
        reveal by tiles came after its last play and draw)."""
        round_ = self.round
        if round_.ended == DOMINO and round_.seat_out == seat:
            return True
        for entry in reversed(self.mine[seat]):
            kind = entry[1]
            if kind == "reveal":
                return True
            if kind in ("play", "draw"):
                return False
        return self.round.dealt[seat] is not None and not self.mine[seat]

    # ------------------------------------------------------------------------------- the lead

    def lead(self) -> Violation | None:
        """The lead judged as in open recording, once every dealt hand is determined."""
        rules = self.match.rules
        for lead in self.trail:  # the round's first play (a loop: no generator a round)
            if lead[1] == "play":
                break
        else:
            return None
        # A hand dealt closed is determined when the seat drew nothing that round and every
        # tile it held was played or revealed: exactly hand_size tiles shown.
        masks: list[int] = []
        for seat in range(self.seats):
            dealt = self.round.dealt[seat]
            if dealt is None:
                if self.drew[seat] or self.shown[seat].bit_count() != rules.hand_size:
                    return None  # what it was dealt is mixed with what it drew, or unknown
                dealt = self.shown[seat]
            masks.append(dealt)
        may_lead, tile = opening(rules, self.tiles, masks, self.match.all_dealt, self.previous)
        seq, _, seat, played, _ = lead
        if may_lead >> seat & 1 and (tile is None or played == tile):
            return None
        # A foul: the facts, in words (worked out only now: most leads are legal). Each closed
        # hand was shown whole at the event that showed its last tile.
        facts = []
        found_at = seq
        for s in range(self.seats):
            if self.round.dealt[s] is not None:
                continue
            held, when = 0, None
            for u, k, _, x, _ in self.mine[s]:
                held |= (1 << x) if k == "play" else (x if k == "reveal" else 0)
                if held.bit_count() == rules.hand_size:
                    when = u
                    break
            found_at = max(found_at, when)
            facts.append({"seq": when, "fact": said(
                "%(player)s was dealt %(tiles)s: it drew nothing and played or showed them all",
                player=self.name(s), tiles=", ".join(self.tiles.mask_names(held)))})
        facts.append({"seq": seq, "fact": said("%(player)s led %(tile)s", player=self.name(seat),
                                               tile=self.tile(played))})
        if not may_lead >> seat & 1:
            who = [self.name(s) for s in range(self.seats) if may_lead >> s & 1]
            for other in who[1:]:
                who[0] = said("%(one)s or %(other)s", one=who[0], other=other)
            return Violation(seq, "wrong_opener", seat,
                             said("%(player)s led, but the hands dealt name %(who)s to open",
                                  player=self.name(seat), who=who[0]),
                             "proven", found_at, tuple(facts))
        return Violation(seq, "wrong_opening_tile", seat,
                         said("the hands dealt name %(lead)s to open the round, not %(tile)s",
                              lead=self.tile(tile), tile=self.tile(played)),
                         "proven", found_at, tuple(facts))
