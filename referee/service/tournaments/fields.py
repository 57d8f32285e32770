"""A tournament's fields as the director gives them, checked: the rules of its tables, whole
numbers within their bounds, flags."""

from __future__ import annotations

from typing import Any

from ...core.rules import PRESETS, RulesError, resolve_rules
from ..errors import Invalid

MAX_ROUNDS = 100
MAX_BYE_POINTS = 10_000
MAX_TABLE = 1_000


def rules_of(rules: Any) -> Any:
    """The rules as given, once they resolve to four seats in two partnerships: every format
    here seats two sides of two."""
    try:
        resolved = resolve_rules(rules, 4)
    except RulesError as error:
        # the core's sentence (a Said), said in the caller's language at the edge
        raise Invalid("rules: %(why)s", why=error.args[0] if error.args else str(error)) from None
    if not resolved.partnerships:
        raise Invalid("rules: a tournament's tables are two partnerships: give rules with "
                      "partnerships (parejas, puerto-rico, fives-and-threes, or partnerships: "
                      "true)")
    return rules


def _seats_two_pairs(preset: str) -> bool:
    try:
        return resolve_rules(preset, 4).partnerships
    except RulesError:  # a preset four do not play
        return False


# The presets a tournament's tables may take as they are: those four play in two partnerships
# (parejas, puerto-rico, and fives-and-threes, a pairs game with four).
TABLE_PRESETS: tuple[str, ...] = tuple(name for name in PRESETS if _seats_two_pairs(name))


def whole(value: Any, what: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise Invalid("%(what)s must be a whole number from %(low)s to %(high)s, not %(value)r",
                      what=what, low=low, high=high, value=value)
    return value


def flag(value: Any, what: str) -> bool:
    if type(value) is not bool:
        raise Invalid("%(what)s must be true or false, not %(value)r", what=what, value=value)
    return value
