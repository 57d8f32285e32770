"""A season's settings checked as the secretary gives them, and read back from the store as
the league engine's values (:class:`FixtureFormat`, :class:`PointsRule`, :class:`TableRules`,
:class:`Calendar`): one reading of each, for every use case."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Row

from ...core.rules import PRESETS, RulesError, resolve_rules
from ...core.vocab import DEFAULT_LEAGUE_TIE_BREAKERS, LEG_KINDS
from ..errors import Invalid
from ..leagues import Calendar, FixtureFormat, LegFormat, PointsRule, TableRules
from ..leagues.format import PLAYERS

# What a leg of each kind is played under unless the season says otherwise.
DEFAULT_LEG_RULES = {"singles": "mano-a-mano", "pairs": "parejas"}
POINTS_FIELDS = ("win", "draw", "loss", "per_leg", "bonus", "bonus_margin")
FORMAT_FIELDS = ("legs", "singles", "pairs", "best_of", "singles_each", "pairs_each",
                 "walkover")
MAX_LEGS = 30


def _mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise Invalid("%(what)s is an object, not %(value)r", what=what, value=value)
    return value


def _known(value: Mapping[str, Any], fields: Sequence[str], what: str) -> None:
    unknown = sorted(set(value) - set(fields))
    if unknown:
        raise Invalid("%(what)s: unknown fields %(unknown)s; known: %(known)s", what=what,
                      unknown=", ".join(unknown), known=", ".join(fields))


def fixture_format(value: Any) -> FixtureFormat:
    """The format from ``{"legs": [{"kind", "best_of"}, ...]}`` or ``{"singles": 6, "pairs":
    3, "best_of": 1}``, with ``singles_each``, ``pairs_each``, ``walkover`` if given."""
    value = _mapping(value, "format")
    _known(value, FORMAT_FIELDS, "format")
    options = {k: value[k] for k in ("singles_each", "pairs_each") if k in value}
    if value.get("walkover") is not None:
        walkover = value["walkover"]
        options["walkover"] = tuple(walkover) if isinstance(walkover, list) else walkover
    if "legs" in value:
        if any(k in value for k in ("singles", "pairs", "best_of")):
            raise Invalid("format: give its legs, or how many singles and pairs, not both")
        legs = value["legs"]
        if not isinstance(legs, list):
            raise Invalid("format: legs is a list, not %(value)r", value=legs)
        shaped = []
        for leg in legs:
            leg = _mapping(leg, "a leg")
            _known(leg, ("kind", "best_of"), "a leg")
            shaped.append(LegFormat(leg.get("kind"), leg.get("best_of", 1)))
        made = FixtureFormat(tuple(shaped), **options)
    else:
        made = FixtureFormat.of(value.get("singles", 0), value.get("pairs", 0),
                                value.get("best_of", 1), **options)
    if len(made.legs) > MAX_LEGS:
        raise Invalid("format: a fixture has at most %(most)s legs", most=MAX_LEGS)
    return made


def format_json(format: FixtureFormat) -> dict[str, Any]:
    return {"legs": [{"kind": leg.kind, "best_of": leg.best_of} for leg in format.legs],
            "singles_each": format.singles_each, "pairs_each": format.pairs_each,
            "walkover": list(format.walkover or ())}


def format_of(row: Row) -> FixtureFormat:
    """The season's format, as stored."""
    stored = row.format
    return FixtureFormat(tuple(LegFormat(leg["kind"], leg["best_of"]) for leg in stored["legs"]),
                         stored["singles_each"], stored["pairs_each"],
                         tuple(stored["walkover"]))  # type: ignore[arg-type]


def leg_rules(value: Any) -> dict[str, Any]:
    """Each kind of leg's rules (a preset name or an object, as a match takes them), the
    defaults for a kind not given; each must seat its kind's players in two sides."""
    given = {} if value is None else dict(_mapping(value, "leg_rules"))
    _known(given, LEG_KINDS, "leg_rules")
    rules = {**DEFAULT_LEG_RULES, **given}
    for kind, spec in rules.items():
        seats = 2 * PLAYERS[kind]
        try:
            resolved = resolve_rules(spec, seats)
        except RulesError as error:
            raise Invalid("leg_rules: %(kind)s: %(why)s", kind=kind,
                          why=error.args[0] if error.args else str(error)) from None
        if kind == "pairs" and not resolved.partnerships:
            raise Invalid("leg_rules: a pairs leg is two partnerships: give rules with "
                          "partnerships (parejas, puerto-rico, or partnerships: true)")
    return rules


def leg_presets() -> dict[str, list[str]]:
    """The presets a season's legs of each kind may be played under: those :func:`leg_rules`
    accepts for that kind (what the desk offers)."""
    offered: dict[str, list[str]] = {}
    for kind in LEG_KINDS:
        offered[kind] = []
        for name in PRESETS:
            try:
                leg_rules({kind: name})
            except Invalid:
                continue
            offered[kind].append(name)
    return offered


def points_rule(value: Any) -> PointsRule:
    given = {} if value is None else _mapping(value, "points")
    _known(given, POINTS_FIELDS, "points")
    return PointsRule(**given)


def points_json(rule: PointsRule) -> dict[str, int]:
    return {name: getattr(rule, name) for name in POINTS_FIELDS}


def table_rules(row: Row) -> TableRules:
    return TableRules(PointsRule(**row.points), tuple(row.tie_breakers), row.promotion,
                      row.relegation)


def tie_breakers(value: Any, promotion: Any, relegation: Any) -> TableRules:
    """The tie-breakers and places checked as a table takes them (the default order when
    ``value`` is None)."""
    breakers = DEFAULT_LEAGUE_TIE_BREAKERS if value is None else value
    if isinstance(breakers, list):
        breakers = tuple(breakers)
    return TableRules(PointsRule(), breakers, promotion, relegation)


def day(value: Any, what: str) -> dt.date:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise Invalid("%(what)s must be a date, YYYY-MM-DD, not %(value)r", what=what, value=value)


def calendar(first: Any, weeks_off: Any, last: Any) -> Calendar:
    if isinstance(weeks_off, str) or not isinstance(weeks_off, Sequence):
        raise Invalid("weeks_off is a list of dates, not %(value)r", value=weeks_off)
    return Calendar(day(first, "first_day"), None,
                    tuple(day(d, "weeks_off") for d in weeks_off),
                    None if last is None else day(last, "last_day"))


def calendar_of(row: Row) -> Calendar:
    return calendar(row.first_day, row.weeks_off, row.last_day)


def whole(value: Any, what: str, low: int, high: int | None = None) -> int:
    if type(value) is not int or value < low or (high is not None and value > high):
        if high is None:
            raise Invalid("%(what)s is a whole number of at least %(low)s, not %(value)r",
                          what=what, low=low, value=value)
        raise Invalid("%(what)s is a whole number from %(low)s to %(high)s, not %(value)r",
                      what=what, low=low, high=high, value=value)
    return value


def least_players(format: FixtureFormat) -> int:
    """The fewest players a team fields the whole format with: each plays at most its legs of
    each kind."""
    singles = sum(1 for leg in format.legs if leg.kind == "singles")
    pairs = sum(2 for leg in format.legs if leg.kind == "pairs")
    return max(-(-singles // format.singles_each), -(-pairs // format.pairs_each), 1)
