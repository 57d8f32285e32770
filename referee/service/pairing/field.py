"""The pairing engine's value objects: what goes in (the rules, the entrants, the standing, the
rounds played, the director's constraints) and what comes out (a :class:`Pairing`: tables,
byes, and why).

An *entrant* is what the engine pairs: a partnership in ``pairs`` and ``round_robin``, a player
in ``rotating``. Every object here is frozen and holds only ids, names and numbers, so the
storage layer can build them from its rows and keep a pairing as JSON
(:meth:`Pairing.as_json`, :meth:`PlayedRound.from_json`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from ...core.said import packed, said
from ...core.vocab import TOURNAMENT_FORMATS
from ..errors import Invalid
from ..phrases import ordinal, unpack
from .constraints import Constraints

FORMATS = TOURNAMENT_FORMATS
# A side of a table: one partnership's entrant id in pairs and round_robin, the two partners'
# player ids in rotating. Side 0 holds seats 0 and 2, side 1 seats 1 and 3.
Side = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Entrant:
    """One who is paired. ``entered`` is the round before which they joined (1: from the start;
    a late arrival before round 3 has 3); ``present`` is False once they have withdrawn.

    Withdrawn entrants are still passed in: the round robin's schedule keeps their place (their
    scheduled opponent plays someone else or sits out), and names in explanations are found
    here."""

    id: str
    name: str
    entered: int = 1
    present: bool = True


@dataclass(frozen=True, slots=True)
class ByeAward:
    """What a bye earns: a tournament rule the storage layer applies to the standing (the engine
    only chooses who sits out). By default a bye counts as a match won, with ``points`` points
    (0: the bye changes the win count, not the points for or against)."""

    won: bool = True
    points: int = 0


@dataclass(frozen=True, slots=True)
class PairingRules:
    """An event's rules for pairing: its ``format`` (``pairs``: fixed partnerships, Swiss by
    standing; ``rotating``: individual, new partners each round, tables of four;
    ``round_robin``: partnerships, every one meets every other once), what a bye earns, and
    ``rounds``, the number of rounds the event is to have (None: not known), which lets
    ``rotating`` plan a whole event ahead."""

    format: str
    bye: ByeAward = ByeAward()
    rounds: int | None = None

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise Invalid("unknown tournament format %(format)r: one of %(formats)s",
                          format=self.format, formats=", ".join(FORMATS))


@dataclass(frozen=True, slots=True)
class Standing:
    """The event standing before the round: ``ranks`` maps entrant ids to their rank (1 leads;
    equal ranks are ties, which the engine breaks by entrant id), ``points`` to their match
    points (matches won, a bye counted as the event scores it): entrants with equal points are
    a *score group*. Entrants it does not rank (everyone before round 1, late arrivals) come
    after every ranked one, by id, with 0 points."""

    ranks: tuple[tuple[str, int], ...] = ()
    points: tuple[tuple[str, int], ...] = ()

    @classmethod
    def ordered(cls, ids: Iterable[str], points: Mapping[str, int] | None = None) -> Standing:
        """The standing of entrants listed best first, with no ties."""
        return cls(tuple((entrant, rank) for rank, entrant in enumerate(ids, start=1)),
                   tuple(sorted((points or {}).items())))

    @classmethod
    def of(cls, ranks: Mapping[str, int], points: Mapping[str, int] | None = None) -> Standing:
        return cls(tuple(sorted(ranks.items(), key=lambda item: (item[1], item[0]))),
                   tuple(sorted((points or {}).items())))

    def rank(self, entrant: str) -> int | None:
        return dict(self.ranks).get(entrant)


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """A round as it was paired (and has started or been played): each table's two sides (side
    0 first), who had a bye, and who was *floated* (paired outside their score group)."""

    number: int
    tables: tuple[tuple[Side, Side], ...]
    byes: tuple[str, ...] = ()
    floated: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlayedRound:
        """The round from :meth:`Pairing.as_json`'s shape (``round``, ``tables[].sides``,
        ``byes[].entrant``, ``floated``), as the storage layer keeps it."""
        tables = tuple((tuple(t["sides"][0]), tuple(t["sides"][1])) for t in data["tables"])
        return cls(int(data["round"]), tables, tuple(b["entrant"] for b in data.get("byes", ())),
                   tuple(data.get("floated", ())))


def _pairs_of(rounds: Iterable[PlayedRound]) -> tuple[dict, dict, dict, dict, dict]:
    partners: dict[frozenset[str], list[int]] = {}
    opponents: dict[frozenset[str], list[int]] = {}
    byes: dict[str, list[int]] = {}
    floated: dict[str, list[int]] = {}
    seats: dict[str, list[int]] = {}  # entrant or player -> [side 0, side 1, first, second]
    for played in rounds:
        for one, other in played.tables:
            for number, side in enumerate((one, other)):
                for place, a in enumerate(side):
                    counts = seats.setdefault(a, [0, 0, 0, 0])
                    counts[number] += 1
                    counts[2 + place] += 1
                for i, a in enumerate(side):
                    for b in side[i + 1:]:
                        partners.setdefault(frozenset((a, b)), []).append(played.number)
            for a in one:
                for b in other:
                    opponents.setdefault(frozenset((a, b)), []).append(played.number)
        for entrant in played.byes:
            byes.setdefault(entrant, []).append(played.number)
        for entrant in played.floated:
            floated.setdefault(entrant, []).append(played.number)
    return partners, opponents, byes, floated, seats


@dataclass(frozen=True)
class History:
    """The rounds played so far, and what the engine reads from them: who partnered, who met
    whom (as opponents), who had a bye and who was floated, each as the round numbers it
    happened in, and the seats each entrant has held."""

    rounds: tuple[PlayedRound, ...] = ()
    _partners: Mapping[frozenset[str], tuple[int, ...]] = field(init=False, repr=False, compare=False)
    _opponents: Mapping[frozenset[str], tuple[int, ...]] = field(init=False, repr=False, compare=False)
    _byes: Mapping[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    _floated: Mapping[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    _seats: Mapping[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        found = _pairs_of(self.rounds)
        # set once here: the object is frozen, these are caches of what the rounds say
        for name, value in zip(("_partners", "_opponents", "_byes", "_floated", "_seats"), found,
                               strict=True):
            object.__setattr__(self, name, {k: tuple(v) for k, v in value.items()})

    @property
    def next_round(self) -> int:
        return max((r.number for r in self.rounds), default=0) + 1

    def partnered(self, a: str, b: str) -> tuple[int, ...]:
        return self._partners.get(frozenset((a, b)), ())

    def met(self, a: str, b: str) -> tuple[int, ...]:
        return self._opponents.get(frozenset((a, b)), ())

    def byes(self, entrant: str) -> tuple[int, ...]:
        return self._byes.get(entrant, ())

    def floated(self, entrant: str) -> tuple[int, ...]:
        return self._floated.get(entrant, ())

    def seats(self, entrant: str) -> tuple[int, ...]:
        """(tables on side 0, on side 1, first of their side, second of their side): the
        seats held, which the seating balances."""
        return self._seats.get(entrant, (0, 0, 0, 0))

    def after(self, pairing: Pairing) -> History:
        """This history with ``pairing``'s round added (once it has started)."""
        return History(self.rounds + (pairing.played(),))


@dataclass(frozen=True, slots=True)
class Table:
    """A table of the round: its number (1 for the leaders, or the number the director fixed),
    its two sides (side 0 takes seats 0 and 2), and the reasons that put these entrants here
    (sentences said in the reader's language: :mod:`.explain`)."""

    number: int
    sides: tuple[Side, Side]
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Bye:
    """An entrant who sits the round out, and why they were chosen."""

    entrant: str
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's pairing. ``relaxed`` names each rule that had to give (a rematch, a repeated
    partner, opponents met again, a table across score groups) and why it could not hold; it
    is empty when every rule held. ``floated`` lists the entrants paired outside their score
    group (``pairs``), which the next round reads. Pairing the same inputs again gives the same
    pairing, so a round is re-paired before it starts by calling the engine again with the
    changed field."""

    format: str
    round: int
    tables: tuple[Table, ...]
    byes: tuple[Bye, ...]
    relaxed: tuple[str, ...]
    floated: tuple[str, ...] = ()

    def played(self) -> PlayedRound:
        return PlayedRound(self.round, tuple(t.sides for t in self.tables),
                           tuple(b.entrant for b in self.byes), self.floated)

    def seated(self) -> list[str]:
        """Every entrant at a table, table by table."""
        return [e for t in self.tables for side in t.sides for e in side]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Pairing:
        """The pairing :meth:`as_json` wrote, as the engine's object again."""
        return cls(data["format"], int(data["round"]),
                   tuple(Table(t["table"], (tuple(t["sides"][0]), tuple(t["sides"][1])),
                               tuple(map(unpack, t["reasons"]))) for t in data["tables"]),
                   tuple(Bye(b["entrant"], tuple(map(unpack, b["reasons"])))
                         for b in data["byes"]),
                   tuple(map(unpack, data["relaxed"])), tuple(data.get("floated", ())))

    def as_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "round": self.round,
            "tables": [{"table": t.number, "sides": [list(s) for s in t.sides],
                        "reasons": list(map(packed, t.reasons))} for t in self.tables],
            "byes": [{"entrant": b.entrant, "reasons": list(map(packed, b.reasons))}
                     for b in self.byes],
            "relaxed": list(map(packed, self.relaxed)),
            "floated": list(self.floated),
        }


class Field:
    """The entrants present for a round in standing order (rank, then id), with their places
    (1-based, counted among those present), names, score groups, and the director's
    constraints for the round: what every format pairs from."""

    def __init__(self, entrants: Sequence[Entrant], standing: Standing, history: History,
                 constraints: Constraints, round_number: int) -> None:
        ids = Counter(e.id for e in entrants)
        twice = sorted(i for i, count in ids.items() if count > 1)
        if twice:
            raise Invalid("entrant %(entrant)r is listed twice", entrant=twice[0])
        ranks = dict(standing.ranks)
        last = max(ranks.values(), default=0) + 1  # the unranked come after every rank
        self.history = history
        self.round = round_number
        self.everyone: dict[str, Entrant] = {e.id: e for e in entrants}
        self.order: list[str] = sorted((e.id for e in entrants if e.present),
                                       key=lambda i: (ranks.get(i, last), i))
        self.position: dict[str, int] = {e: n for n, e in enumerate(self.order)}
        points = dict(standing.points)
        self.points: dict[str, int] = {e: points.get(e, 0) for e in self.order}
        self.constraints = constraints.check(self.everyone)
        present = set(self.order)
        self.requested: dict[str, str] = {b.entrant: b.note for b in self.constraints.byes
                                          if b.entrant in present and b.round == round_number}
        self.fixed: dict[str, tuple[int, str]] = {f.entrant: (f.table, f.note)
                                                  for f in self.constraints.fixed if f.entrant in present}

    def name(self, entrant: str) -> str:
        known = self.everyone.get(entrant)
        return known.name if known else entrant

    def place(self, entrant: str) -> str:
        """``5th``: the entrant's place among those present."""
        return ordinal(self.position[entrant] + 1)

    def called(self, entrant: str) -> str:
        """``Ana (5th)``."""
        return said("%(name)s (%(place)s)", name=self.name(entrant), place=self.place(entrant))

    def bye_queue(self, among: Iterable[str] | None = None) -> list[str]:
        """Who sits out first: fewest byes so far, then the lowest standing (then the higher
        id), so that nobody has a second bye while someone present has none."""
        return sorted(self.order if among is None else among,
                      key=lambda e: (len(self.history.byes(e)), -self.position[e]))

    def best_first(self, entrants: Iterable[str]) -> list[str]:
        return sorted(entrants, key=self.position.__getitem__)

    def apart(self, a: str, b: str) -> bool:
        """Whether the director keeps ``a`` and ``b`` from one table: a forbidden pairing (of
        the table's scope), or fixed tables of different numbers."""
        if self.constraints.forbids(a, b, "table"):
            return True
        return a in self.fixed and b in self.fixed and self.fixed[a][0] != self.fixed[b][0]

    def why_apart(self, a: str, b: str) -> str:
        """The director's reason for keeping them apart, as a table's explanation says it."""
        if self.constraints.forbids(a, b, "table"):
            note = self.constraints.forbidden_note(a, b)
            return (said("the director forbids them one table (%(note)s)", note=note) if note
                    else said("the director forbids them one table"))
        return said("the director fixes them at tables %(one)s and %(other)s",
                    one=self.fixed[a][0], other=self.fixed[b][0])
