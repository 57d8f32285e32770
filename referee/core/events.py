"""The event vocabulary of ``domino-log/1`` and the shape every event must have.

Events stay the JSON objects they were recorded as (so a log writes back exactly as it was
read); :func:`shape_error` says whether one is usable before the referee judges it.
"""

# (no `from __future__ import annotations` here: a NamedTuple's annotations written as strings
# are each compiled at import, as typing's ForwardRef, which made Violation's class some 10.8
# million instructions of every `domino validate`'s start; every annotation in this module can
# be evaluated where it is written)
from typing import Any, NamedTuple

from .rules import SCORE_LIMIT, Rules
from .said import said
from .vocab import EVENT_TYPES, ON_THE_RECORD, RULINGS, VIOLATION_CODES, WITHDRAWALS, kind_of

__all__ = ["EVENT_TYPES", "RULINGS", "VIOLATION_CODES", "Violation", "as_table_saw_it",
           "disputed", "shape_error", "unsighted"]


class Violation(NamedTuple):
    seq: int
    code: str
    seat: int | None
    message: str
    certainty: str = "proven"
    # Found in hindsight: the event that completed the proof, and the facts it rests on
    # ({"seq", "fact"} each); for a suspicion, the facts for and against.
    found_at: int | None = None
    evidence: tuple[dict[str, Any], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        found = {"seq": self.seq, "code": self.code, "certainty": self.certainty,
                 "seat": self.seat, "message": self.message}
        if self.found_at is not None:
            found["found_at"] = self.found_at
        if self.found_at is not None or self.evidence:
            # (copied at C speed: every suspicion of a closed recording has its two facts)
            found["evidence"] = list(map(dict, self.evidence))
        return found


def as_table_saw_it(event: Any) -> Any:
    """The event with what only its seat saw taken out: a deal's hands and a drawn tile. A deal
    reads as the phone deals closed, ``{"type": "deal"}``, whether its hands were typed, left
    null or left out: nothing tells the three apart."""
    if type(event) is not dict:
        return event
    if event.get("type") == "deal" and "hands" in event:
        return {k: v for k, v in event.items() if k != "hands"}
    if event.get("type") == "draw" and "tile" in event:
        return {k: v for k, v in event.items() if k != "tile"}
    if event.get("type") == "amend" and type(event.get("event")) is dict:
        inner = as_table_saw_it(event["event"])  # a corrected deal is as secret as the deal
        if inner is not event["event"]:
            return {**event, "event": inner}
    return event


def unsighted(event: Any) -> bool:
    """Whether the event was stored ``"unsighted": true``: its recorder could not see the hand
    it contradicts, and judged on what it could see it was allowed (docs/visibility.md). Refused
    in the whole record, it is an open dispute, applied all the same as the table saw it, so
    that the record and the recorder's view of it go on alike."""
    return type(event) is dict and event.get("unsighted") is True


def disputed(event: Any) -> bool:
    """Whether the event was recorded ``"disputed": true``: refused, it is kept in the record
    as an open dispute, and applied all the same when it can be (the table did it)."""
    return type(event) is dict and event.get("disputed") is True


def _is_int(value: Any) -> bool:
    return type(value) is int


def _seat(event: dict, rules: Rules, field: str = "seat") -> str | None:
    value = event.get(field)
    limit = rules.seats if field == "seat" else rules.sides
    if type(value) is int and 0 <= value < limit:
        return None
    if field not in event:
        return said("%(field)s is missing", field=field)
    if not _is_int(value):
        return said("%(field)s must be an integer", field=field)
    return said("%(field)s %(value)s is out of range (0 to %(last)s)", field=field, value=value,
                last=limit - 1)


def _text(event: dict, field: str) -> str | None:
    if field not in event:
        return said("%(field)s is missing", field=field)
    if not isinstance(event[field], str):
        return said("%(field)s must be a string", field=field)
    return None


_ONLY_STR = frozenset({str})


def _tile_list(value: Any, field: str) -> str | None:
    if not isinstance(value, list):
        return said("%(field)s must be a list of tiles", field=field)
    # (every element a plain str, as JSON gives them, is the common case, checked at C speed)
    if (not _ONLY_STR.issuperset(map(type, value))
            and not all(isinstance(tile, str) for tile in value)):
        return said("every tile in %(field)s must be a string like \"6-5\"", field=field)
    return None


def _deal(event: dict, rules: Rules, seq: int) -> str | None:
    hands = event.get("hands")
    if hands is None:
        return None
    if not isinstance(hands, list):
        return said("hands must be a list with one hand (a list of tiles, or null) per seat")
    for i, hand in enumerate(hands):
        if hand is not None and (error := _tile_list(hand, f"hands[{i}]")):
            return error
    return None


def _play(event: dict, rules: Rules, seq: int) -> str | None:
    seat = event.get("seat")
    if type(seat) is not int or not 0 <= seat < rules.seats:
        return _seat(event, rules)
    if type(event.get("tile")) is not str:
        return _text(event, "tile")
    end = event.get("end")
    if end is not None and type(end) is not int and end not in ("left", "right", "up", "down"):
        return said("end must be a pip number or \"left\", \"right\", \"up\" or \"down\"")
    return None


def _draw(event: dict, rules: Rules, seq: int) -> str | None:
    if error := _seat(event, rules):
        return error
    if event.get("tile") is not None and not isinstance(event["tile"], str):
        return said("tile must be a string like \"6-5\"")
    return None


def _pass(event: dict, rules: Rules, seq: int) -> str | None:
    return _seat(event, rules)


def _reveal(event: dict, rules: Rules, seq: int) -> str | None:
    if error := _seat(event, rules):
        return error
    tiles, pips = event.get("tiles"), event.get("pips")
    if tiles is None and pips is None:
        return said("a reveal needs tiles (a list) or pips (a number)")
    if tiles is not None and (error := _tile_list(tiles, "tiles")):
        return error
    if pips is not None and (not _is_int(pips) or pips < 0):
        return said("pips must be a whole number, 0 or more")
    if pips is not None and pips > SCORE_LIMIT:  # (rules.py: why a score has a limit)
        return said("pips must be from %(least)s to %(most)s", least=0, most=SCORE_LIMIT)
    return None


def _target(event: dict, seq: int, required: bool = True) -> str | None:
    """``target``: the seq of an earlier event (a ruling names the event it rules on). An
    optional one may be null: the field left out (docs/log.md)."""
    target = event.get("target")
    if target is None and not required:
        return None
    if not _is_int(target):
        return (said("target must be an integer") if "target" in event
                else said("%(field)s is missing", field="target"))
    if not 1 <= target < seq:
        return said("target %(target)s is not an earlier event (1 to %(last)s)", target=target,
                    last=seq - 1)
    return None


def _penalty(event: dict, rules: Rules, seq: int) -> str | None:
    if error := _seat(event, rules, "side"):
        return error
    points = event.get("points")
    if not _is_int(points):
        return (said("%(field)s must be an integer", field="points") if "points" in event
                else said("%(field)s is missing", field="points"))
    if not -SCORE_LIMIT <= points <= SCORE_LIMIT:  # (rules.py: why a score has a limit)
        return said("points must be from %(least)s to %(most)s", least=-SCORE_LIMIT,
                    most=SCORE_LIMIT)  # (not the number: it may run to thousands of digits)
    return _target(event, seq, required=False) or _text(event, "reason")


def _void(event: dict, rules: Rules, seq: int) -> str | None:
    return _target(event, seq) or _text(event, "reason")


def _annul(event: dict, rules: Rules, seq: int) -> str | None:
    return _target(event, seq, required=False) or _text(event, "reason")


def _forfeit(event: dict, rules: Rules, seq: int) -> str | None:
    return (_seat(event, rules, "side") or _target(event, seq, required=False)
            or _text(event, "reason"))


def _stands(event: dict, rules: Rules, seq: int) -> str | None:
    return _target(event, seq) or _text(event, "reason")


def _amend(event: dict, rules: Rules, seq: int) -> str | None:
    if error := _target(event, seq):
        return error
    replacement = event.get("event")
    if type(replacement) is not dict:
        return (said("event must be the corrected event (a JSON object)") if "event" in event
                else said("%(field)s is missing", field="event"))
    if kind_of(replacement) in ON_THE_RECORD:
        return said("an amend corrects a recorded event, not another ruling")
    if kind_of(replacement) in WITHDRAWALS:
        return said("an amend cannot withdraw a match: record an abandon")
    if (problem := shape_error({k: v for k, v in replacement.items() if k != "seq"}, rules,
                               event["target"])) is not None:
        return said("the corrected event is not usable: %(problem)s", problem=problem)
    return _text(event, "reason")


def _note(event: dict, rules: Rules, seq: int) -> str | None:
    return _text(event, "text")


def _abandon(event: dict, rules: Rules, seq: int) -> str | None:
    return _text(event, "reason")


def _time(event: dict, rules: Rules, seq: int) -> str | None:
    return _text(event, "reason") if event.get("reason") is not None else None


_SHAPES = {"deal": _deal, "play": _play, "draw": _draw, "pass": _pass, "reveal": _reveal,
           "penalty": _penalty, "void": _void, "annul": _annul, "forfeit": _forfeit, "note": _note,
           "stands": _stands, "amend": _amend, "abandon": _abandon, "time": _time}


def shape_error(event: Any, rules: Rules, seq: int) -> str | None:
    """Why ``event`` (the JSON at sequence number ``seq``) is not a usable event, or None."""
    if type(event) is not dict:
        return said("an event must be a JSON object")
    kind = event.get("type")
    check = _SHAPES.get(kind) if type(kind) is str else None
    if check is None:
        if "type" not in event:
            return said("the event has no type")
        return said("unknown event type %(kind)s; known: %(known)s", kind=repr(kind),
                    known=", ".join(EVENT_TYPES))
    if "seq" in event and (not _is_int(event["seq"]) or event["seq"] != seq):
        return said("seq is %(given)s but this is event %(seq)s", given=repr(event["seq"]), seq=seq)
    return check(event, rules, seq)
