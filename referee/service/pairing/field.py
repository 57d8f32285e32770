"""The pairing engine's value objects: what goes in (the rules, the entrants, the standing, the
rounds played) and what comes out (a :class:`Pairing`: tables, byes, and why).

An *entrant* is what the engine pairs: a partnership in ``pairs`` and ``round_robin``, a player
in ``rotating``. Every object here is frozen and holds only ids, names and numbers, so the
storage layer can build them from its rows and keep a pairing as JSON
(:meth:`Pairing.as_json`, :meth:`PlayedRound.from_json`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from ...core.vocab import TOURNAMENT_FORMATS
from ..errors import Invalid
from .explain import ordinal

FORMATS = TOURNAMENT_FORMATS
# A side of a table: one partnership's entrant id in pairs and round_robin, the two partners'
# player ids in rotating.
Side = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Entrant:
    """One who is paired. ``entered`` is the round before which they joined (1: from the start;
    a late arrival before round 3 has 3); ``present`` is False once they have withdrawn.

    Withdrawn entrants are still passed in: the round robin's schedule keeps their place (their
    scheduled opponent sits out), and names in explanations are found here."""

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
    ``round_robin``: partnerships, every one meets every other once) and what a bye earns."""

    format: str
    bye: ByeAward = ByeAward()

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise Invalid(f"unknown tournament format {self.format!r}: one of {', '.join(FORMATS)}")


@dataclass(frozen=True, slots=True)
class Standing:
    """The event standing before the round: ``ranks`` maps entrant ids to their rank (1 leads;
    equal ranks are ties, which the engine breaks by entrant id). Entrants it does not rank
    (everyone before round 1, late arrivals) come after every ranked one, by id."""

    ranks: tuple[tuple[str, int], ...] = ()

    @classmethod
    def ordered(cls, ids: Iterable[str]) -> Standing:
        """The standing of entrants listed best first, with no ties."""
        return cls(tuple((entrant, rank) for rank, entrant in enumerate(ids, start=1)))

    @classmethod
    def of(cls, ranks: Mapping[str, int]) -> Standing:
        return cls(tuple(sorted(ranks.items(), key=lambda item: (item[1], item[0]))))

    def rank(self, entrant: str) -> int | None:
        return dict(self.ranks).get(entrant)


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """A round as it was paired (and has started or been played): each table's two sides, and
    who had a bye."""

    number: int
    tables: tuple[tuple[Side, Side], ...]
    byes: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlayedRound:
        """The round from :meth:`Pairing.as_json`'s shape (``round``, ``tables[].sides``,
        ``byes[].entrant``), as the storage layer keeps it."""
        tables = tuple((tuple(t["sides"][0]), tuple(t["sides"][1])) for t in data["tables"])
        return cls(int(data["round"]), tables, tuple(b["entrant"] for b in data.get("byes", ())))


@dataclass(frozen=True)
class History:
    """The rounds played so far, and what the engine reads from them: who partnered, who met
    whom (as opponents) and who had a bye, each as the round numbers it happened in."""

    rounds: tuple[PlayedRound, ...] = ()
    _partners: Mapping[frozenset[str], tuple[int, ...]] = field(init=False, repr=False, compare=False)
    _opponents: Mapping[frozenset[str], tuple[int, ...]] = field(init=False, repr=False, compare=False)
    _byes: Mapping[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        partners: dict[frozenset[str], list[int]] = {}
        opponents: dict[frozenset[str], list[int]] = {}
        byes: dict[str, list[int]] = {}
        for played in self.rounds:
            for one, other in played.tables:
                for side in (one, other):
                    for i, a in enumerate(side):
                        for b in side[i + 1:]:
                            partners.setdefault(frozenset((a, b)), []).append(played.number)
                for a in one:
                    for b in other:
                        opponents.setdefault(frozenset((a, b)), []).append(played.number)
            for entrant in played.byes:
                byes.setdefault(entrant, []).append(played.number)
        # set once here: the object is frozen, these are caches of what the rounds say
        object.__setattr__(self, "_partners", {k: tuple(v) for k, v in partners.items()})
        object.__setattr__(self, "_opponents", {k: tuple(v) for k, v in opponents.items()})
        object.__setattr__(self, "_byes", {k: tuple(v) for k, v in byes.items()})

    @property
    def next_round(self) -> int:
        return max((r.number for r in self.rounds), default=0) + 1

    def partnered(self, a: str, b: str) -> tuple[int, ...]:
        return self._partners.get(frozenset((a, b)), ())

    def met(self, a: str, b: str) -> tuple[int, ...]:
        return self._opponents.get(frozenset((a, b)), ())

    def byes(self, entrant: str) -> tuple[int, ...]:
        return self._byes.get(entrant, ())

    def after(self, pairing: Pairing) -> History:
        """This history with ``pairing``'s round added (once it has started)."""
        return History(self.rounds + (pairing.played(),))


@dataclass(frozen=True, slots=True)
class Table:
    """A table of the round: its number (1 for the leaders), its two sides, and the reasons, in
    plain English, that put these entrants here."""

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
    """A round's pairing. ``relaxed`` names each constraint that had to give (a rematch, a
    repeated partner, opponents met again) and why it could not hold; it is empty when every
    rule held. Pairing the same inputs again gives the same pairing, so a round is re-paired
    before it starts by calling the engine again with the changed field."""

    format: str
    round: int
    tables: tuple[Table, ...]
    byes: tuple[Bye, ...]
    relaxed: tuple[str, ...]

    def played(self) -> PlayedRound:
        return PlayedRound(self.round, tuple(t.sides for t in self.tables),
                           tuple(b.entrant for b in self.byes))

    def seated(self) -> list[str]:
        """Every entrant at a table, table by table."""
        return [e for t in self.tables for side in t.sides for e in side]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Pairing:
        """The pairing :meth:`as_json` wrote, as the engine's object again."""
        return cls(data["format"], int(data["round"]),
                   tuple(Table(t["table"], (tuple(t["sides"][0]), tuple(t["sides"][1])),
                               tuple(t["reasons"])) for t in data["tables"]),
                   tuple(Bye(b["entrant"], tuple(b["reasons"])) for b in data["byes"]),
                   tuple(data["relaxed"]))

    def as_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "round": self.round,
            "tables": [{"table": t.number, "sides": [list(s) for s in t.sides],
                        "reasons": list(t.reasons)} for t in self.tables],
            "byes": [{"entrant": b.entrant, "reasons": list(b.reasons)} for b in self.byes],
            "relaxed": list(self.relaxed),
        }


class Field:
    """The entrants present for a round in standing order (rank, then id), with their places
    (1-based, counted among those present) and names: what every format pairs from."""

    def __init__(self, entrants: Sequence[Entrant], standing: Standing, history: History) -> None:
        ids = Counter(e.id for e in entrants)
        twice = sorted(i for i, count in ids.items() if count > 1)
        if twice:
            raise Invalid(f"entrant {twice[0]!r} is listed twice")
        ranks = dict(standing.ranks)
        last = max(ranks.values(), default=0) + 1  # the unranked come after every rank
        self.history = history
        self.everyone: dict[str, Entrant] = {e.id: e for e in entrants}
        self.order: list[str] = sorted((e.id for e in entrants if e.present),
                                       key=lambda i: (ranks.get(i, last), i))
        self.position: dict[str, int] = {e: n for n, e in enumerate(self.order)}

    def name(self, entrant: str) -> str:
        known = self.everyone.get(entrant)
        return known.name if known else entrant

    def place(self, entrant: str) -> str:
        """``5th``: the entrant's place among those present."""
        return ordinal(self.position[entrant] + 1)

    def called(self, entrant: str) -> str:
        """``Ana (5th)``."""
        return f"{self.name(entrant)} ({self.place(entrant)})"

    def bye_queue(self) -> list[str]:
        """Who sits out first: fewest byes so far, then the lowest standing (then the higher
        id), so that nobody has a second bye while someone present has none."""
        return sorted(self.order, key=lambda e: (len(self.history.byes(e)), -self.position[e]))

    def pairs_where(self, test: Callable[[str, str], object]) -> dict[str, set[str]]:
        """For each entrant present, the others present ``test`` holds for (met, partnered)."""
        return {a: {b for b in self.order if b != a and test(a, b)} for a in self.order}

    def best_first(self, entrants: Iterable[str]) -> list[str]:
        return sorted(entrants, key=self.position.__getitem__)

