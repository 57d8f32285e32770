"""Rule parameters, the presets, and resolving a match's rules from a preset and overrides.

Two families of games share them: the seeds' (a round scores from the hands left at its end) and
the points family (``scoring: ends``: the layout's open ends are counted after every play, Fives
and Threes, All Fives, Muggins). The points family's parameters default to the seeds' game, so
every earlier preset and rule set resolves as it did."""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Mapping

from .records import Record, _set
from .said import said
from .tiles import tile_set


class RulesError(ValueError):
    """A rules specification that names an unknown preset, parameter or value, or contradicts itself."""


class Rules(Record):
    """A match's rule parameters (see CHOICES, INTEGERS, OPTIONAL; resolve_rules checks them)."""

    __slots__ = ("max_pip", "seats", "partnerships", "hand_size", "draw", "reserve",
                 "first_opener", "later_opener", "later_opening_tile", "domino_points",
                 "blocked_compare", "blocked_points", "blocked_tie", "target", "foul_points",
                 "foul_share", "time_limit", "scoring", "count", "spinner", "exact_target",
                 "out_bonus", "partners_out", "lead_scores", "pips_round")

    def __init__(self, max_pip: int, seats: int, partnerships: bool, hand_size: int, draw: str,
                 reserve: int, first_opener: str, later_opener: str, later_opening_tile: str,
                 domino_points: str, blocked_compare: str, blocked_points: str,
                 blocked_tie: str, target: int, foul_points: int | None = None,
                 foul_share: int | None = None, time_limit: int | None = None,
                 scoring: str = "hands", count: str = "fives", spinner: str = "none",
                 exact_target: bool = False, out_bonus: int = 0, partners_out: str = "one",
                 lead_scores: str = "always", pips_round: int = 1) -> None:
        _set(self, "max_pip", max_pip)
        _set(self, "seats", seats)
        _set(self, "partnerships", partnerships)
        _set(self, "hand_size", hand_size)
        _set(self, "draw", draw)
        _set(self, "reserve", reserve)
        _set(self, "first_opener", first_opener)
        _set(self, "later_opener", later_opener)
        _set(self, "later_opening_tile", later_opening_tile)
        _set(self, "domino_points", domino_points)
        _set(self, "blocked_compare", blocked_compare)
        _set(self, "blocked_points", blocked_points)
        _set(self, "blocked_tie", blocked_tie)
        _set(self, "target", target)
        # The standard penalty for a proven foul, as club rules write it: fixed points, or a
        # share of the target (percent), whichever is greater; awarded to each opposing side.
        # None: no standard penalty (a referee names the points).
        _set(self, "foul_points", foul_points)
        _set(self, "foul_share", foul_share)
        # A match's time limit in minutes (tournament play), or None. The clock is the table's:
        # the record says when it ran out, with a ``time`` event.
        _set(self, "time_limit", time_limit)
        # The points family (docs/rules.md, "Points during play"): when points are made (at the
        # round's end only, or after every play too), what a count is worth, the spinner, an
        # exact target (busts), the chip-out bonus, partners going out, the lead's count, and
        # the rounding of pips.
        _set(self, "scoring", scoring)
        _set(self, "count", count)
        _set(self, "spinner", spinner)
        _set(self, "exact_target", exact_target)
        _set(self, "out_bonus", out_bonus)
        _set(self, "partners_out", partners_out)
        _set(self, "lead_scores", lead_scores)
        _set(self, "pips_round", pips_round)

    @property
    def sides(self) -> int:
        return 2 if self.partnerships else self.seats

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        return (side, side + 2) if self.partnerships else (side,)

    def as_dict(self) -> dict[str, Any]:
        # every value is an int, a str, a bool or None: dataclasses.asdict's deep copy of each
        # changes nothing and costs more than the report's other parts (the fields read and
        # paired at C speed: every report holds its rules)
        return dict(zip(PARAMETERS, _read_all(self)))

    def foul_penalty(self) -> int | None:
        """The points the rules award the opponents for a proven foul, or None."""
        if self.foul_points is None and self.foul_share is None:
            return None
        share = -(-self.target * (self.foul_share or 0) // 100)  # rounded up
        return max(self.foul_points or 0, share)


CHOICES: dict[str, tuple[Any, ...]] = {
    "max_pip": (6, 9, 12),
    "draw": ("none", "until_playable", "one"),
    "first_opener": ("double_six", "highest_double", "free"),
    "later_opener": ("first_rule", "next", "winner", "puerto_rico"),
    "later_opening_tile": ("forced", "free"),
    "domino_points": ("opponents", "all", "none"),
    "blocked_compare": ("side_total", "lowest_hand"),
    "blocked_points": ("opponents", "all", "difference", "none"),
    "blocked_tie": ("blocker_loses", "mano", "none"),
    "scoring": ("hands", "ends"),
    "count": ("fives", "fives_and_threes"),
    "spinner": ("none", "first_double"),
    "partners_out": ("one", "both"),
    "lead_scores": ("always", "never", "not_to_win"),
    "pips_round": (1, 5),
}
# The most a score may be: a penalty's points either way, a target, a chip-out point, the
# standard penalty. A total is a sum of them (at most some thousands of events): unbounded,
# one of 10**20 was an HTTP 500 (past SQLite's and PostgreSQL's integers, the standings'), and
# totals past 4,300 digits a traceback of `domino validate` (Python's integer-to-text limit).
SCORE_LIMIT = 100_000
# The most a side's total may be, either way: a match ends at its target, but penalties naming a
# dispute are accepted after the end, and negative ones have no end: some thousands of them made
# a total past what a month's standings sum in PostgreSQL's integers (an HTTP 500 on import).
TOTAL_LIMIT = 1_000_000
# name -> smallest value
INTEGERS = {"seats": 2, "hand_size": 1, "reserve": 0, "target": 1, "out_bonus": 0}
# name -> largest value, for the integers that have one
LARGEST = {"target": SCORE_LIMIT, "out_bonus": SCORE_LIMIT}
# name -> (least, most), or null
OPTIONAL = {"foul_points": (0, SCORE_LIMIT), "foul_share": (0, 100), "time_limit": (1, None)}
BOOLEANS = {"partnerships", "exact_target"}
PARAMETERS = Rules._fields
_read_all = attrgetter(*PARAMETERS)  # a Rules' fields, in order, as a tuple
# The points family's parameters, and the value each takes unless a preset or the match names
# another: the seeds' game (nothing scored during play), so a rule set written before they
# existed resolves as it did.
DEFAULTS: dict[str, Any] = {"scoring": "hands", "count": "fives", "spinner": "none",
                            "exact_target": False, "out_bonus": 0, "partners_out": "one",
                            "lead_scores": "always", "pips_round": 1}

_COMMON = {"max_pip": 6, "hand_size": 7, "reserve": 0, "partnerships": False}
PRESETS: dict[str, dict[str, Any]] = {
    "mano-a-mano": {**_COMMON, "draw": "until_playable", "first_opener": "highest_double",
                    "later_opener": "next", "later_opening_tile": "free",
                    "domino_points": "opponents", "blocked_compare": "side_total",
                    "blocked_points": "opponents", "blocked_tie": "blocker_loses", "target": 50},
    "parejas": {**_COMMON, "partnerships": True, "draw": "none", "first_opener": "double_six",
                "later_opener": "first_rule", "later_opening_tile": "forced",
                "domino_points": "opponents", "blocked_compare": "side_total",
                "blocked_points": "opponents", "blocked_tie": "blocker_loses", "target": 50},
    "veracruz": {**_COMMON, "draw": "one", "first_opener": "highest_double",
                 "later_opener": "next", "later_opening_tile": "free", "domino_points": "all",
                 "blocked_compare": "side_total", "blocked_points": "all", "blocked_tie": "mano",
                 "target": 100},
    "sircle": {**_COMMON, "draw": "until_playable", "reserve": 2,
               "first_opener": "highest_double", "later_opener": "next",
               "later_opening_tile": "free", "domino_points": "opponents",
               "blocked_compare": "side_total", "blocked_points": "difference",
               "blocked_tie": "none", "target": 100},
    "puerto-rico": {**_COMMON, "partnerships": True, "draw": "none", "first_opener": "double_six",
                    "later_opener": "puerto_rico", "later_opening_tile": "free",
                    "domino_points": "all", "blocked_compare": "side_total",
                    "blocked_points": "all", "blocked_tie": "none", "target": 200},
}
# The points family's presets (docs/rules.md, "Fives and Threes", "All Fives", "Muggins"):
# the double-six set, no reserve; the hand's size follows the number of players (PRESET_HANDS).
_ALL_FIVES = {"max_pip": 6, "reserve": 0, "partnerships": False, "hand_size": 7,
              "draw": "until_playable", "first_opener": "highest_double",
              "later_opener": "winner", "later_opening_tile": "free",
              "domino_points": "opponents", "blocked_compare": "side_total",
              "blocked_points": "opponents", "blocked_tie": "none", "target": 100,
              "scoring": "ends", "count": "fives", "spinner": "first_double", "pips_round": 5}
PRESETS.update({
    "fives-and-threes": {"max_pip": 6, "reserve": 0, "partnerships": False, "hand_size": 9,
                         "draw": "none", "first_opener": "free", "later_opener": "next",
                         "later_opening_tile": "free", "domino_points": "none",
                         "blocked_compare": "side_total", "blocked_points": "none",
                         "blocked_tie": "none", "target": 61, "scoring": "ends",
                         "count": "fives_and_threes", "out_bonus": 1, "partners_out": "both",
                         "lead_scores": "not_to_win", "exact_target": True},
    "all-fives": _ALL_FIVES,
    "muggins": {**_ALL_FIVES, "spinner": "none"},
})
PRESET_SEATS: dict[str, tuple[int, ...]] = {
    "mano-a-mano": (2,), "parejas": (4,), "veracruz": (2, 3, 4), "sircle": (2,),
    "puerto-rico": (4,), "fives-and-threes": (2, 3, 4), "all-fives": (2, 3, 4),
    "muggins": (2, 3, 4),
}
# Presets whose deal follows the number of players (players -> tiles a hand; the rest of the
# set "sleeping" or the boneyard), unless the match names a hand_size.
PRESET_HANDS: dict[str, dict[int, int]] = {
    "fives-and-threes": {2: 9, 3: 7, 4: 6},
    "all-fives": {2: 7, 3: 5, 4: 5},
    "muggins": {2: 7, 3: 5, 4: 5},
}
# Presets played in partnerships when four play, unless the match says partnerships: false.
PRESET_PARTNERS_WITH_FOUR = {"fives-and-threes"}


def resolve_rules(spec: Any, players: int) -> Rules:
    """The rules of a match with ``players`` seats from a preset name or a ``{"preset": ...}`` object."""
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, Mapping):
        raise RulesError(said("rules must be a preset name or an object"))
    values: dict[str, Any] = dict(DEFAULTS)
    preset = spec.get("preset")
    if preset is not None:
        if not isinstance(preset, str) or preset not in PRESETS:
            raise RulesError(said("unknown preset %(preset)s; known: %(known)s", preset=repr(preset),
                                  known=", ".join(PRESETS)))
        values.update(PRESETS[preset])
        if preset in PRESET_HANDS and players in PRESET_HANDS[preset]:
            values["hand_size"] = PRESET_HANDS[preset][players]
        if preset in PRESET_PARTNERS_WITH_FOUR and players == 4:
            values["partnerships"] = True
    for name, value in spec.items():
        if name == "preset":
            continue
        if name not in PARAMETERS:
            raise RulesError(said("unknown rule parameter %(name)s", name=repr(name)))
        _check_value(name, value)
        values[name] = value
    if "seats" in spec:
        if spec["seats"] != players:
            raise RulesError(said("seats is %(seats)s but the match has %(players)s players",
                                  seats=spec["seats"], players=players))
    elif preset is not None and players not in PRESET_SEATS[preset]:
        allowed = " or ".join(map(str, PRESET_SEATS[preset]))  # numbers: "2 or 4"
        raise RulesError(said("preset %(preset)s is played by %(allowed)s players, not %(players)s",
                              preset=repr(preset), allowed=allowed, players=players))
    values["seats"] = players
    missing = [name for name in PARAMETERS if name not in values and name not in OPTIONAL]
    if missing:
        raise RulesError(said("no preset given and these parameters are missing: %(missing)s",
                              missing=", ".join(missing)))
    rules = Rules(**values)
    _check_consistent(rules)
    return rules


def _check_value(name: str, value: Any) -> None:
    if name in OPTIONAL:
        least, most = OPTIONAL[name]
        if value is not None and (type(value) is not int or value < least
                                  or (most is not None and value > most)):
            raise RulesError(said("%(name)s must be null or an integer from %(least)s to %(most)s, "
                                  "not %(value)s", name=name, least=least, most=most,
                                  value=repr(value)) if most is not None else
                             said("%(name)s must be null or an integer of at least %(least)s, "
                                  "not %(value)s", name=name, least=least, value=repr(value)))
    elif name in BOOLEANS:
        if not isinstance(value, bool):
            raise RulesError(said("%(name)s must be true or false, not %(value)s", name=name,
                                  value=repr(value)))
    elif name in INTEGERS:
        most = LARGEST.get(name)
        if (not isinstance(value, int) or isinstance(value, bool) or value < INTEGERS[name]
                or (most is not None and value > most)):
            raise RulesError(said("%(name)s must be an integer from %(least)s to %(most)s, not "
                                  "%(value)s", name=name, least=INTEGERS[name], most=most,
                                  value=repr(value)) if most is not None else
                             said("%(name)s must be an integer of at least %(least)s, not %(value)s",
                                  name=name, least=INTEGERS[name], value=repr(value)))
    elif value not in CHOICES[name] or type(value) not in (int, str):  # not True for 1, 6.0 for 6
        choices = ", ".join(map(str, CHOICES[name]))
        raise RulesError(said("%(name)s must be one of %(choices)s, not %(value)s", name=name,
                              choices=choices, value=repr(value)))


def _check_consistent(rules: Rules) -> None:
    if rules.seats < 2:
        raise RulesError(said("a match needs at least 2 players, not %(seats)s", seats=rules.seats))
    if rules.partnerships and rules.seats != 4:
        raise RulesError(said("partnerships need exactly 4 seats, not %(seats)s", seats=rules.seats))
    if rules.max_pip == 6 and rules.seats > 4:
        raise RulesError(said("the double-six set seats at most 4 players, not %(seats)s",
                              seats=rules.seats))
    size = tile_set(rules.max_pip).size
    needed = rules.seats * rules.hand_size + rules.reserve
    if needed > size:
        raise RulesError(said("%(seats)s hands of %(size)s and a reserve of %(reserve)s need "
                              "%(needed)s tiles; the double-%(max)s set has %(tiles)s",
                              seats=rules.seats, size=rules.hand_size, reserve=rules.reserve,
                              needed=needed, max=rules.max_pip, tiles=size))
