"""Reading and writing ``domino-log/1``: UTF-8 JSON Lines, a header and then one event a line.

Parsing stops at what makes a file unreadable (the exit-2 cases); whether each event is usable
is the referee's business, so events are kept as the JSON values they were.
"""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import repeat
from sys import intern
from typing import TYPE_CHECKING, Any, Iterable

from .records import Record, _set
from .rules import CHOICES, Rules, RulesError, resolve_rules
from .said import said
from .vocab import EVENT_TYPES, MAX_EVENT_BYTES

if TYPE_CHECKING:  # (datetime is imported by iso_date alone: a log without a date never needs
    # it, and its import is some 5.6 million instructions of every `domino validate`'s start)
    import datetime as _dt

FORMAT = "domino-log/1"
# A line of a log holds one event, so it may be as long as an event may be, and no longer: a
# reader stops at a longer line before decoding it (a 200 MB line took some 1 GB to decode).
# In bytes of UTF-8, the newline aside.
MAX_LINE_BYTES = MAX_EVENT_BYTES
OPTIONAL_HEADER_FIELDS = ("match", "club", "table", "date", "event")


class LogError(ValueError):
    """A log that cannot be read: ``line`` (1-based, the header is line 1) says where."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(said("line %(line)s: %(problem)s", line=line, problem=message))
        self.line = line
        self.message = message


class Header(Record):
    """A log's first line: the rules, the players, and the header object as written."""

    __slots__ = ("rules", "players", "fields")
    _compared = ("rules", "players")  # two headers written differently may agree

    def __init__(self, rules: Rules, players: tuple[str, ...], fields: dict[str, Any]) -> None:
        _set(self, "rules", rules)
        _set(self, "players", players)
        _set(self, "fields", fields)  # the header object as written


class MatchLog(Record):
    """A whole log: its header and its events."""

    __slots__ = ("header", "events")

    def __init__(self, header: Header, events: tuple[Any, ...]) -> None:
        _set(self, "header", header)
        _set(self, "events", events)  # event n (sequence number n) is events[n - 1]


def line_too_long(line: int) -> LogError:
    """The error of a line longer than MAX_LINE_BYTES (line 1 is the header)."""
    return LogError(line, said("the line is longer than %(limit)s bytes", limit=MAX_LINE_BYTES))


def first_long_line(data: bytes, carried: int = 0) -> int | None:
    """The index (0-based) of the first line of ``data`` longer than MAX_LINE_BYTES, or None.
    ``carried``: bytes of the first line that came before ``data`` (a reader reading in
    pieces); the last line counts as far as it goes. Split at C speed: no Python per line."""
    if carried + len(data) <= MAX_LINE_BYTES:
        return None
    lengths = list(map(len, data.split(b"\n")))
    lengths[0] += carried
    if max(lengths) <= MAX_LINE_BYTES:
        return None
    return next(at for at, length in enumerate(lengths) if length > MAX_LINE_BYTES)


def reject_constant(name: str) -> Any:
    """A ``parse_constant`` refusing NaN, Infinity and -Infinity, which JSON does not have."""
    raise ValueError(said("%(name)s is not JSON", name=name))


# What json's decoder says (its message's start, the C scanner's and the Python one's), and
# what it means for a person: the decoder's English is said in the caller's language.
_JSON_WORDS = (
    ("Expecting value", said("a value was expected")),
    ("Expecting ',' delimiter", said("a comma was expected")),
    ("Expecting ':' delimiter", said("a colon was expected")),
    ("Expecting property name", said("a key in double quotes was expected")),
    ("Unterminated string", said("this string is never closed")),
    ("Invalid control character", said("a control character inside a string")),
    ("Invalid \\uXXXX escape", said("a \\u escape that is not four hexadecimal digits")),
    ("Invalid \\escape", said("a backslash that escapes nothing JSON knows")),
    ("Extra data", said("more text after the value")),
    ("Illegal trailing comma", said("a comma before a closing bracket or brace")),
)


def json_problem(error: ValueError | RecursionError, *, lines: bool = False) -> str:
    """What is wrong with a JSON text and where, as a sentence of the core (said in the
    caller's language at the edge): the column (and, with ``lines``, the line) and the
    decoder's complaint in words. A ValueError not from the decoder (a constant refused, a
    repeated key) is its own sentence."""
    if isinstance(error, RecursionError):
        return said("the JSON is nested too deeply")
    if isinstance(error, RepeatedKey):
        return said("the key %(key)s appears twice in one object", key=repr(error.key))
    if not isinstance(error, json.JSONDecodeError):
        return error.args[0] if error.args else str(error)
    problem = next((words for start, words in _JSON_WORDS if error.msg.startswith(start)),
                   error.msg)
    if lines:
        return said("line %(line)s, column %(column)s: %(problem)s", line=error.lineno,
                    column=error.colno, problem=problem)
    return said("column %(column)s: %(problem)s", column=error.colno, problem=problem)


class RepeatedKey(ValueError):
    """An object naming one key twice: JSON leaves it undefined which one counts (RFC 8259
    §4), so two readers could see two events in one line. ``key`` is the key."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {key!r} appears twice in one object")
        self.key = key


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An ``object_pairs_hook`` refusing a repeated key (RepeatedKey). The dict is built at C
    speed; only a short one is searched for the key that repeats."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RepeatedKey(key)
            seen.add(key)
    return value


_decoder = json.JSONDecoder(parse_constant=reject_constant, object_pairs_hook=unique_keys)
# Without the hook, for the many lines whose colons show that no key repeats (_decode_joined):
# the hook builds a list of pairs for every object and calls Python, some 1.7 times the decode.
_unhooked = json.JSONDecoder(parse_constant=reject_constant)


def _loads(text: str) -> Any:
    return _decoder.decode(text)


def parse_header(value: Any) -> Header:
    """The header of a log (line 1) from its JSON value; raises LogError naming what is wrong."""
    if not isinstance(value, dict):
        raise LogError(1, said("the header must be a JSON object"))
    if value.get("format") != FORMAT:
        raise LogError(1, said("format must be %(format)s, not %(given)s", format=repr(FORMAT),
                               given=repr(value.get("format"))))
    players = value.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise LogError(1, said("players must be a list of player names"))
    if "rules" not in value:
        raise LogError(1, said("rules is missing: give a preset name or an object"))
    try:
        spec = value["rules"]
        rules = (_preset_rules(spec, len(players)) if type(spec) is str
                 else resolve_rules(spec, len(players)))
    except RulesError as error:
        raise LogError(1, said("rules: %(problem)s", problem=error.args[0])) from None
    date = value.get("date")
    if date is not None:
        if not isinstance(date, str) or iso_date(date) is None:
            raise LogError(1, said("date must be an ISO 8601 date or date and time, not %(date)s",
                                   date=repr(date)))
    return Header(rules, tuple(players), dict(value))


@lru_cache(maxsize=64)
def _preset_rules(preset: str, players: int) -> Rules:
    """A preset's rules for so many players: the same every time (Rules is a frozen record),
    so worked out once a process (a log's header names its preset; resolve_rules checks and
    fills in some twenty parameters, a tenth of a short log's parse)."""
    return resolve_rules(preset, players)


def iso_date(text: str) -> _dt.date | None:
    """The day an ISO 8601 date or date and time names, or None if it names none."""
    import datetime as _dt

    for parse in (_dt.date.fromisoformat, _dt.datetime.fromisoformat):
        try:
            value = parse(text)
        except ValueError:
            continue
        return value.date() if isinstance(value, _dt.datetime) else value
    return None


def read_log(data: bytes | str, *, shared: bool = False) -> MatchLog:
    """Parse a whole log. Raises LogError for anything that makes it unreadable.

    ``shared``: for a caller that only reads the events and changes none (``domino validate``,
    cli.logfiles): a line read before, in this log or an earlier one, may be handed out as the
    very object kept for it (see _SEEN), not a copy. Else every event is a new object."""
    # (a character is 4 bytes of UTF-8 at most: a shorter text holds no line too long)
    long_line = (first_long_line(data) if isinstance(data, bytes)
                 else first_long_line(data.encode("utf-8", "surrogatepass"))
                 if len(data) > MAX_LINE_BYTES // 4 else None)
    if long_line is not None:
        raise line_too_long(long_line + 1)
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data[: error.start].count(b"\n") + 1
            raise LogError(line, said("the text is not UTF-8 (byte %(byte)s)", byte=error.start)) from None
    else:
        text = data
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    while lines and not lines[-1].strip(_JSON_SPACE):
        lines.pop()
    if not lines:
        raise LogError(1, said("the log is empty: line 1 must be the header"))
    values = _parse_lines(lines, shared)
    return MatchLog(parse_header(values[0]), tuple(values[1:]))


_JSON_SPACE = " \t\r"  # with the newline, all JSON counts as white space (str.strip takes more)
_MARK = 2**53 + 1  # no float equals it: only the integer written so can decode to it
_MARK_TEXT = str(_MARK)

# Most lines of a log are a few hundred short ones written again and again: the plays, passes
# and draws ({"type": "play", "seat": 2, "tile": "6-3"}). A line read once is kept here, keyed
# by its exact text, with the flat object it decodes to (no list or object inside), and read
# again as a copy of it: the cached object itself leaves this module only for a caller that
# asked for it (read_log's ``shared``); to any other, every event is a new dict. Bounded: when
# full it starts again.
_SEEN: dict[str, dict[str, Any]] = {}
_SEEN_MAX = 4096
_SEEN_LONGEST = 120  # characters: longer lines are rarely written twice
_FLAT = frozenset({str, int, float, bool, type(None)})
_ONLY_DICTS = frozenset({dict})


def _parse_lines(lines: list[str], shared: bool = False) -> list[Any]:
    values = list(map(_SEEN.get, lines))
    if None in values:
        misses = []  # where the lines read for the first time are (found at C speed)
        index, at = values.index, -1
        try:
            while True:
                at = index(None, at + 1)
                misses.append(at)
        except ValueError:
            pass
        texts = [lines[at] for at in misses]
        fresh = _decode_joined(texts)
        if fresh is None:
            fresh = [_decode_line(at + 1, text) for at, text in zip(misses, texts)]
        for at, text, value in zip(misses, texts, fresh):
            if (type(value) is dict and len(text) <= _SEEN_LONGEST
                    and _FLAT.issuperset(map(type, value.values()))):
                kept = _SEEN.get(text)  # (the line met earlier in this log)
                if kept is None:
                    if len(_SEEN) >= _SEEN_MAX:
                        _SEEN.clear()
                    _SEEN[text] = kept = _interned(value)
                value = kept
            values[at] = value
    if shared:  # (a copy an event was some 4 % of `domino validate --json`'s instructions)
        return values
    # Copy every object (a shallow copy is a whole one for a flat object; a fresh one's copy
    # simply replaces it), so none handed out is one kept in _SEEN.
    if _ONLY_DICTS.issuperset(map(type, values)):
        return list(map(dict.copy, values))
    return [value.copy() if type(value) is dict else value for value in values]


# The strings the referee looks a kept line's fields up by and compares them with: the events'
# fields and kinds, the ends a play may name, every tile's text of the largest set the rules
# allow (referee.core.tiles interns its own). Only these are interned, not every string of a
# line: an interned string lives as long as the process on Python 3.12, and a log's notes and
# keys are anyone's.
_WORDS: dict[str, str] = {word: intern(word) for word in (
    *EVENT_TYPES, "type", "seat", "tile", "end", "seq", "hands", "tiles", "pips", "target",
    "text", "disputed", "unsighted", "reason", "points", "side", "event",
    "left", "right", "up", "down",
    *(f"{a}-{b}" for a in range(max(CHOICES["max_pip"]) + 1)
      for b in range(max(CHOICES["max_pip"]) + 1)))}
_word = _WORDS.get


def _interned(value: dict[str, Any]) -> dict[str, Any]:
    """A flat object to keep in _SEEN, its keys and strings that are words of _WORDS the very
    objects the referee holds ("type", "seat", "tile", "play", the tile set's texts): found
    and compared by identity in each of the line's many reads, not character by character
    (json makes each decode's strings anew). Made at C speed (a flat object's values are
    all hashable; a word is a str, so no other value is one)."""
    values = value.values()
    return dict(zip(map(_word, value, value), map(_word, values, values)))


def _decode_joined(lines: list[str]) -> list[Any] | None:
    # One decode of many lines is several times faster than one a line; None on any failure,
    # and then the caller goes line by line to say exactly which line is wrong. The lines are
    # joined with a number written nowhere in them, and the decode is kept only if that number
    # comes back between every two top-level values (a value spanning lines, such as "[1" then
    # "2]", would swallow one).
    joined = f",{_MARK_TEXT},".join(lines)
    n = len(lines)
    if joined.count(_MARK_TEXT) == n - 1:
        try:
            values = _unhooked.decode("[" + joined + "]")
            if len(values) == 2 * n - 1 and values[1::2] == [_MARK] * (n - 1):
                values = values[::2]
                # Every key of a line is followed by a colon of its own, so an object with as
                # many keys as its line has colons repeats none (and holds no object); any
                # other line (a colon in a string, an object inside, not an object) is decoded
                # again with the check, which raises on a repeated key.
                for at, (colons, value) in enumerate(zip(map(str.count, lines, repeat(":")),
                                                         values)):
                    if type(value) is not dict or colons != len(value):
                        values[at] = _loads(lines[at])
                return values
        except (ValueError, RecursionError):
            pass
    return None


def _decode_line(number: int, line: str) -> Any:
    if not line.strip(_JSON_SPACE):
        raise LogError(number, said("blank line before the last event"))
    try:
        return _loads(line)
    except RepeatedKey as error:
        raise LogError(number, json_problem(error)) from None
    except (ValueError, RecursionError) as error:
        raise LogError(number, said("not JSON: %(why)s", why=json_problem(error))) from None


def dumps_line(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate: legal in a JSON string, not in UTF-8 text. Escaped, the line
        # still reads back as the same value.
        text = json.dumps(value, ensure_ascii=True, separators=(", ", ": "))
    return text


def write_log(log: MatchLog) -> str:
    return "".join(dumps_line(v) + "\n" for v in (log.header.fields, *log.events))


def make_log(header_fields: dict[str, Any], events: Iterable[Any]) -> MatchLog:
    return MatchLog(parse_header(header_fields), tuple(events))
