"""What a scorekeeper types at a live table, read into events: pure text handling, no database.

The forms (``domino table`` prints them with ``?``)::

    6-5  65  65 on 5  6-5 left     play (the end: a pip, or left/right for the lead's halves,
                                   u/d for the spinner's up and down arms)
    p                              pass
    d    d 3-2                     draw, unseen or seen
    r 6-5 4-4    r 12              reveal tiles, or only the pips
    n TEXT                         note
    deal   deal 6-6 6-5 .. / - / ..  a closed deal, or hands per seat split by "/" ("-": closed)
    u  !  ?  s  q                  undo, insist on the refused entry, help, show the table, quit
    2: ...                         act as seat 2

Tiles are written ``6-5`` (also ``6/5``, ``6|5``, ``[6|5]``) or, for pips under 10, ``65``.
Whether a tile is in the set, whose turn it is and what is legal is the referee's to say: this
module only reads the text. A line holding a control character (an arrow key's escape sequence
from a terminal without line editing, say) is refused whole, so none ends up in a note.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from words import _

# Words a line may start with, by action. Commands are not events.
EVENT_WORDS = {
    "p": "pass", "pass": "pass",
    "d": "draw", "draw": "draw",
    "r": "reveal", "reveal": "reveal",
    "n": "note", "note": "note",
    "deal": "deal",
}
COMMAND_WORDS = {
    "u": "undo", "undo": "undo",
    "!": "insist",
    "?": "help", "h": "help", "help": "help",
    "s": "show", "show": "show",
    "q": "quit", "quit": "quit", "exit": "quit",
}
SEATED = ("play", "draw", "pass", "reveal")  # events that name the acting seat

_SEAT_PREFIX = re.compile(r"\s*(\d+)\s*:\s*(.*)", re.DOTALL)
_TILE = re.compile(r"\[?(\d+)\s*[-/|]\s*(\d+)\]?")
_SHORT_TILE = re.compile(r"(\d)(\d)")


class InputError(ValueError):
    """Text that is not one of the forms; ``message`` says what was expected."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Entry:
    """One line read. ``action`` is an event type or a command (undo, insist, help, show, quit);
    ``event`` is the event without its seat (None for a command); ``seat`` the ``N:`` prefix."""

    action: str
    event: dict[str, Any] | None = None
    seat: int | None = field(default=None)

    def event_for(self, seat: int | None) -> dict[str, Any]:
        """The event to record, the acting seat put in second place (logs read better so)."""
        assert self.event is not None
        if self.action not in SEATED:
            return dict(self.event)
        rest = {k: v for k, v in self.event.items() if k != "type"}
        return {"type": self.event["type"], "seat": seat, **rest}


def parse_tile(text: str) -> str:
    """``"6-5"``, ``"65"``, ``"6/5"``, ``"[6|5]"`` -> ``"6-5"`` (as written: ``"56"`` -> ``"5-6"``)."""
    token = text.strip()
    match = _TILE.fullmatch(token) or _SHORT_TILE.fullmatch(token)
    if match is None:
        raise InputError(_("%(text)r is not a tile: write it like 6-5 (or 65)", text=text))
    return f"{int(match[1])}-{int(match[2])}"


# The sides a play may name (docs/rules.md): the line's left and right, the spinner's arms.
SIDES = {"l": "left", "left": "left", "r": "right", "right": "right",
         "u": "up", "up": "up", "d": "down", "down": "down"}


def parse_end(text: str) -> int | str:
    """An open end: a pip, or a side: left/right (l/r) of the line, up/down (u/d) for the
    spinner's arms (the points family's All Fives). Whether the side is open is the referee's
    to say."""
    word = text.strip().lower()
    if word in SIDES:
        return SIDES[word]
    if word.isascii() and word.isdigit():
        return int(word)
    raise InputError(_("%(text)r is not an end: give its pip (like 5), or left, right, up or "
                       "down (l, r, u, d)", text=text))


def parse_hand(text: str) -> list[str] | None:
    """A hand's tiles, split by spaces or commas; ``-`` (or nothing) for a hand not seen."""
    tokens = text.replace(",", " ").split()
    if tokens in ([], ["-"]):
        return None
    return [parse_tile(t) for t in tokens]


def parse_entry(text: str) -> Entry:
    """Read one line; raises InputError for text that is none of the forms."""
    _check_printable(text)
    seat = None
    prefixed = _SEAT_PREFIX.fullmatch(text)
    if prefixed:
        seat, text = int(prefixed[1]), prefixed[2]
    words = text.split()
    if not words:
        raise InputError(_("say what happened: a tile (6-5), p, d, ... (? for help)"))
    head, rest = words[0].lower(), words[1:]
    if head in COMMAND_WORDS and not rest:
        if seat is not None:
            raise InputError(_("%(word)r takes no seat", word=head))
        return Entry(COMMAND_WORDS[head])
    action = EVENT_WORDS.get(head)
    if action is None:
        return Entry("play", _play(words), seat)
    if action == "note":
        note = text.strip()[len(words[0]):].strip()
        if not note:
            raise InputError(_("n needs the text of the note: n TEXT"))
        return Entry("note", {"type": "note", "text": note}, seat)
    event = _READERS[action](rest)
    return Entry(action, event, seat)


def _check_printable(text: str) -> None:
    """Refuse a line with a control character (a tab is white space): without readline, the
    arrow keys come in as escape sequences ("\\x1b[A"), and no event should keep one."""
    for ch in text:
        if ch != "\t" and unicodedata.category(ch) in ("Cc", "Cs"):
            if ch == "\x1b":
                raise InputError(_("the line holds an escape sequence (an arrow key?): nothing "
                                   "recorded, type it again"))
            raise InputError(_("the line holds a control character (%(char)r): nothing recorded, "
                               "type it again", char=ch))


def _play(words: list[str]) -> dict[str, Any]:
    try:
        tile = parse_tile(words[0])
    except InputError:
        raise InputError(_("%(text)r is neither a tile nor a command (? for help)",
                           text=words[0])) from None
    rest = words[1:]
    if rest and rest[0].lower() == "on":
        rest = rest[1:]
    if len(rest) > 1 or (not rest and len(words) > 1):
        raise InputError(_("a play is a tile and perhaps its end: 6-5, 65 on 5, 6-5 left, 6-5 u"))
    event: dict[str, Any] = {"type": "play", "tile": tile}
    if rest:
        event["end"] = parse_end(rest[0])
    return event


def _pass(rest: list[str]) -> dict[str, Any]:
    if rest:
        raise InputError(_("p (pass) takes nothing after it"))
    return {"type": "pass"}


def _draw(rest: list[str]) -> dict[str, Any]:
    if len(rest) > 1:
        raise InputError(_("d draws one tile: d, or d 3-2 when it was seen"))
    return {"type": "draw", **({"tile": parse_tile(rest[0])} if rest else {})}


def _reveal(rest: list[str]) -> dict[str, Any]:
    if not rest:
        raise InputError(_("r needs the tiles (r 6-5 4-4) or the pips (r 12)"))
    # One bare number is a pip count: "r 12"; tiles need a dash, or come several ("r 65 44").
    if len(rest) == 1 and rest[0].isascii() and rest[0].isdigit():
        return {"type": "reveal", "pips": int(rest[0])}
    return {"type": "reveal", "tiles": [parse_tile(t) for t in rest]}


def _deal(rest: list[str]) -> dict[str, Any]:
    if not rest:
        return {"type": "deal"}
    return {"type": "deal", "hands": [parse_hand(hand) for hand in " ".join(rest).split("/")]}


_READERS = {"pass": _pass, "draw": _draw, "reveal": _reveal, "deal": _deal}
