"""An event, a round and a match's state in words, in the reader's language: the one place
each is said. The desk, the dispute sheet, the match page and the acta (through the templates'
``event_words``), the CLI's lines and the scorekeeper's phone (its screen's ``said``, and the
table :data:`EVENTS` embedded in its page) all read them from here.

An event is said by the first sentence of :data:`EVENTS` of its type whose placeholders the
event fills and whose ``when`` it meets, so choosing a sentence is data, the same in Python and
in the phone's script (``api/static/score/words.js``), and no branch a type. A seat is its
player's name ("Lucía passed"); where two players share a name, with the seat numbered from 1
as the table cards number it ("Ana (seat 3)"); the log and the JSON keep their own numbers.

A reason the system wrote (a scorekeeper's undo, the rules' standard penalty) is stored as its
English sentence, as every record before this module was; :func:`reason` recognises each such
sentence, old or new, and says it in the reader's language. A reason a person typed is shown as
typed.

Standard library only (and :mod:`words`): the CLI's fast path imports it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from . import N_, N_plural, current, gettext, ngettext, npgettext, pgettext
from .terms import term

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


@dataclass(frozen=True)
class Sentence:
    """One way of saying an event of type ``kind``: ``text`` (a msgid; ``plural`` too when a
    count is in it, the event's field ``count``), taken when the event fills every placeholder
    and meets ``when`` (the values some words stand for: a play ``on the left``)."""

    kind: str
    text: str
    plural: str | None = None
    count: str | None = None
    when: Mapping[str, str] = field(default_factory=dict)
    needs: tuple[str, ...] = field(init=False)  # its placeholders (a count's aside)

    def __post_init__(self) -> None:
        object.__setattr__(self, "needs", tuple(
            name for name in dict.fromkeys(_PLACEHOLDER.findall(self.text)) if name != "num"))

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "plural": self.plural,
                "count": self.count, "when": dict(self.when), "needs": list(self.needs)}


S = Sentence
# The most particular first: the first that fits says the event.
EVENTS: tuple[Sentence, ...] = (
    S("deal", N_("dealt a new round (open)"), when={"hands": "all"}),
    S("deal", N_("dealt a new round (partly open)"), when={"hands": "some"}),
    S("deal", N_("dealt a new round (closed)"), when={"hands": "none"}),
    S("deal", N_("dealt a new round")),
    S("play", N_("%(who)s played %(tile)s on the left"), when={"end": "left"}),
    S("play", N_("%(who)s played %(tile)s on the right"), when={"end": "right"}),
    S("play", N_("%(who)s played %(tile)s on the spinner's up arm"), when={"end": "up"}),
    S("play", N_("%(who)s played %(tile)s on the spinner's down arm"), when={"end": "down"}),
    S("play", N_("%(who)s played %(tile)s on the %(end)s end")),
    S("play", N_("%(who)s played %(tile)s")),
    S("draw", N_("%(who)s drew %(tile)s")),
    S("draw", N_("%(who)s drew a tile (unseen)")),
    # the points family's pass: a phone says so ("knock" among the values, words.js)
    S("pass", N_("%(who)s knocked"), when={"knock": "yes"}),
    S("pass", N_("%(who)s passed")),
    S("reveal", N_("%(who)s revealed %(tiles)s")),
    S("reveal", *N_plural("%(who)s revealed %(num)s pip", "%(who)s revealed %(num)s pips"), "pips"),
    S("penalty", *N_plural("penalty: %(num)s point to %(side)s for event %(target)s (%(reason)s)",
                           "penalty: %(num)s points to %(side)s for event %(target)s (%(reason)s)"),
      "points"),
    S("penalty", *N_plural("penalty: %(num)s point to %(side)s (%(reason)s)",
                           "penalty: %(num)s points to %(side)s (%(reason)s)"), "points"),
    S("stands", N_("event %(target)s stands (%(reason)s)")),
    S("amend", N_("amended event %(target)s to: %(event)s (%(reason)s)")),
    S("void", N_("voided event %(target)s (%(reason)s)")),
    S("annul", N_("annulled the round (%(reason)s)")),
    S("forfeit", N_("forfeit by %(side)s (%(reason)s)")),
    S("note", N_("note: %(text)s")),
    S("time", N_("time called (%(reason)s)")),
    S("time", N_("time called")),
    S("abandon", N_("match withdrawn (%(reason)s)")),
    S("abandon", N_("match withdrawn")),
)
UNREADABLE = N_("an event that cannot be read")

# The reasons the system writes (their English, as stored), said in the reader's language.
REASONS: dict[str, str] = {
    "undone by the scorekeeper": N_("undone by the scorekeeper"),  # the phone's undo
    "undo at the table": N_("undo at the table"),  # domino table's u
}


def _standard_penalty(found: re.Match[str]) -> str:
    return gettext("the rules' penalty for %(foul)s at event %(seq)s",
                   foul=term("violation", found["code"]), seq=found["seq"])


def _minutes(found: re.Match[str]) -> str:
    return ngettext("%(num)s minute", "%(num)s minutes", int(found["num"]))


# Those with a value in them: the pattern of the stored English, and how to say it.
PATTERNS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    # svc.disputes.standard_penalty's (a violation code and a seq)
    (re.compile(r"the rules' penalty for (?P<code>[a-z_]+) at event (?P<seq>\d+)"),
     _standard_penalty),
    # a time limit running out, as referee.core.simulate's time events say it
    (re.compile(r"(?P<num>\d+) minutes?"), _minutes),
)


def standard_penalty_reason(code: str, seq: int) -> str:
    """The reason stored with the rules' standard penalty (English: :func:`reason` says it)."""
    return f"the rules' penalty for {code} at event {seq}"


def reason(text: Any) -> Any:
    """A stored reason in the reader's language: one the system wrote, recognised by its
    English; any other as it was typed (None as None)."""
    if not isinstance(text, str):
        return text
    if text in REASONS:
        return gettext(REASONS[text])
    for pattern, say in PATTERNS:
        if found := pattern.fullmatch(text):
            return say(found)
    return text


def seat(value: Any, players: Sequence[str]) -> str | None:
    """A seat as people read it: its player's name, and the seat counted from 1 when another
    seat has the same name; None for no seat of the match."""
    if type(value) is not int or not 0 <= value < len(players):
        return None
    name = players[value]
    if list(players).count(name) > 1:
        return gettext("%(name)s (seat %(seat)s)", name=name, seat=value + 1)
    return name


def table_words(label: Any) -> str:
    """A match's table as people read it: a number (or a label that starts with one) after the
    word "table" ("mesa 7"); a label the club wrote as a name as written ("Mesa 2", "Terraza"),
    never "mesa Mesa 2". The phone's script says it alike (score/words.js tableWords)."""
    text = str(label).strip()
    return gettext("table %(table)s", table=text) if text[:1].isdigit() else text


def seat_number(value: int) -> int:
    """The number people read for a seat of the log (counted from 0): counted from 1."""
    return value + 1


def _side(value: Any, sides: Sequence[str]) -> str | None:
    return sides[value] if type(value) is int and 0 <= value < len(sides) else None


def _hands(hands: Any) -> str | None:
    if hands is None:  # a closed deal: no hands recorded
        return "none"
    if not isinstance(hands, list) or not hands:
        return None
    seen = sum(hand is not None for hand in hands)
    return "all" if seen == len(hands) else "some" if seen else "none"


def params(event: Mapping[str, Any], players: Sequence[str],
           sides: Sequence[str], rules: Any = None) -> dict[str, Any]:
    """What an event's sentences are filled with (a value the event lacks is left out); an
    amend's corrected event said under the same ``rules``."""
    found: dict[str, Any] = {
        "who": seat(event.get("seat"), players), "side": _side(event.get("side"), sides),
        "hands": _hands(event.get("hands")), "reason": reason(event.get("reason")),
    }
    for name in ("tile", "text"):
        if isinstance(event.get(name), str):
            found[name] = event[name]
    end = event.get("end")
    if type(end) is int or end in ("left", "right", "up", "down"):
        found["end"] = str(end)
    if isinstance(event.get("tiles"), list):
        found["tiles"] = " ".join(map(str, event["tiles"]))
    for name in ("target", "pips", "points"):
        if type(event.get(name)) is int:
            found[name] = event[name]
    if isinstance(event.get("event"), dict):  # an amend's corrected event
        found["event"] = event_words(event["event"], players, sides, rules)
    return {k: v for k, v in found.items() if v is not None}


def _fits(sentence: Sentence, kind: Any, values: Mapping[str, Any]) -> bool:
    return (sentence.kind == kind and all(n in values for n in sentence.needs)
            and all(values.get(k) == v for k, v in sentence.when.items())
            and (sentence.count is None or sentence.count in values))


def knocks(rules: Any) -> bool:
    """Whether a pass is a knock under ``rules`` (a match's rules as JSON, or
    ``referee.core.rules.Rules``): the game's vocabulary, docs/glossary.md. The points family
    (``scoring: ends``) knocks. The one place the Python edges (the CLI, the pages, the phone's
    screen said by the server) choose the word; the phone's script chooses it in words.js
    from the same rule."""
    return _rule(rules, "scoring") == "ends"


def sleeping(rules: Any) -> bool:
    """Whether the tiles not dealt are "sleeping tiles" under ``rules``, not a boneyard: the
    points family's word where nobody draws (Fives and Threes, ``draw: none``; docs/glossary.md).
    Chosen here for the CLI, the pages, the phone (:func:`undealt_word`) and the scoreboard's
    rows (api/scoreboard.py): the scripts only say the word the server chose."""
    return knocks(rules) and _rule(rules, "draw") == "none"


def undealt_word(rules: Any) -> str:
    """What the tiles not dealt are called under ``rules``, as a heading: "Sleeping tiles"
    (:func:`sleeping`) or "Boneyard". The match page's column and the phone's fact (its
    screen's ``said.undealt``: the phone's script says it, never chooses it)."""
    return gettext("Sleeping tiles") if sleeping(rules) else gettext("Boneyard")


def side_word(rules: Any, *, heading: bool = True, number: int | None = None) -> str:
    """What one of a match's sides is called where they are listed: a player in singles, a
    partnership in pairs (Spanish and Italian have no word for either: "Equipo", "Squadra" read
    "team"). ``heading``: a page's column ("Player"), else the terminal's ("player");
    ``number``: one side of two by its place, counted from 1 ("Partnership 1")."""
    if _rule(rules, "partnerships"):
        if number is not None:
            return gettext("Partnership %(position)s", position=number)
        return gettext("Partnership") if heading else gettext("partnership")
    if number is not None:
        return gettext("Player %(position)s", position=number)
    return gettext("Player") if heading else gettext("player")


# A tournament's tables are always two partnerships of two (referee.service.tournaments.fields
# rules_of refuses other rules), whatever preset or rules its matches take.
TOURNAMENT_TABLE: Mapping[str, Any] = {"partnerships": True}


def _rule(rules: Any, name: str) -> Any:
    """A rule's value from a match's rules as JSON or as ``referee.core.rules.Rules``."""
    return rules.get(name) if isinstance(rules, Mapping) else getattr(rules, name, None)


def event_words(event: Any, players: Sequence[str], sides: Sequence[str],
                rules: Any = None) -> str:
    """What a recorded event says, each seat by its player's name: "Lucía Gómez passed",
    "penalty: 10 points to Ana & Carla for event 3 (...)"; under ``rules`` that score during
    play (:func:`knocks`) a pass is a knock: "Lucía Gómez knocked"."""
    if not isinstance(event, dict):
        return gettext(UNREADABLE)
    kind, values = event.get("type"), params(event, players, sides, rules)
    if knocks(rules):  # the points family's rules: a pass is a knock
        values["knock"] = "yes"
    for sentence in _BY_KIND.get(kind, ()) if isinstance(kind, str) else ():
        if _fits(sentence, kind, values):
            if sentence.plural is not None and sentence.count is not None:
                return ngettext(sentence.text, sentence.plural, values[sentence.count], **values)
            return gettext(sentence.text, **values)
    # a known type without what its sentences need: its word; an unknown type: unreadable
    return term("event", kind) if isinstance(kind, str) and kind in _EVENT_WORDS else gettext(UNREADABLE)


_EVENT_WORDS = frozenset(sentence.kind for sentence in EVENTS)
# EVENTS by type, in their order: the first that fits among its type's is the first in EVENTS
# (a sentence of another type never fits), without trying the other types' sentences.
_BY_KIND: Mapping[str, tuple[Sentence, ...]] = {
    kind: tuple(sentence for sentence in EVENTS if sentence.kind == kind) for kind in _EVENT_WORDS}


# --------------------------------------------------------------------------- rounds

def _pair(side: int | None, players: Sequence[str], sides: Sequence[str]) -> bool:
    """Whether side ``side`` is two players (partnership play: four seats, two sides)."""
    return side is not None and len(sides) * 2 == len(players)


def round_words(result: Mapping[str, Any], players: Sequence[str], sides: Sequence[str]) -> str | None:
    """A round's result in one sentence, as the table is told it: who won it, how, and how many
    points; None for a round in play. ``result``: a report's round (``round``, ``outcome``,
    ``winner`` side, ``points``, ``blocked_by`` seat). A partnership's verb agrees with two
    (the catalogs' context "partnership")."""
    # A round that has ended never changes: each screen of a match says its rounds again (the
    # append's answer), so each is said once per language and kept.
    return _round_words(current(), result["round"], result["outcome"], result.get("points") or 0,
                        result.get("winner"), result.get("blocked_by"), tuple(players),
                        tuple(sides))


@lru_cache(maxsize=4096)
def _round_words(lang: str, number: int, outcome: str, points: int, winner_side: Any,
                 blocked_by: Any, players: tuple[str, ...], sides: tuple[str, ...]) -> str | None:
    winner = _side(winner_side, sides)
    blocker = seat(blocked_by, players)
    pair = _pair(winner_side, players, sides)
    if outcome == "domino" and winner is not None:
        return (npgettext("partnership", "Round %(round)s: %(winner)s won by domino, %(num)s point.",
                          "Round %(round)s: %(winner)s won by domino, %(num)s points.", points,
                          round=number, winner=winner) if pair else
                ngettext("Round %(round)s: %(winner)s won by domino, %(num)s point.",
                         "Round %(round)s: %(winner)s won by domino, %(num)s points.", points,
                         round=number, winner=winner))
    if outcome == "blocked":
        return _blocked(number, winner, blocker, points, pair)
    if outcome == "awaiting_reveal":
        return gettext("Round %(round)s is over: the reveals say who won it.", round=number)
    if outcome == "annulled":
        return gettext("Round %(round)s was annulled: it scores nothing.", round=number)
    return None


def _blocked(number: int, winner: str | None, blocker: str | None, points: int,
             pair: bool) -> str:
    if winner is None:
        return (gettext("Round %(round)s was blocked by %(blocker)s: a tie, no points.",
                        round=number, blocker=blocker) if blocker is not None else
                gettext("Round %(round)s was blocked: a tie, no points.", round=number))
    values = {"round": number, "winner": winner, "blocker": blocker}
    if blocker is None:
        return (npgettext("partnership", "Round %(round)s was blocked: %(winner)s won on pips, %(num)s point.",
                          "Round %(round)s was blocked: %(winner)s won on pips, %(num)s points.",
                          points, **values) if pair else
                ngettext("Round %(round)s was blocked: %(winner)s won on pips, %(num)s point.",
                         "Round %(round)s was blocked: %(winner)s won on pips, %(num)s points.",
                         points, **values))
    return (npgettext("partnership",
                      "Round %(round)s was blocked by %(blocker)s: %(winner)s won on pips, %(num)s point.",
                      "Round %(round)s was blocked by %(blocker)s: %(winner)s won on pips, %(num)s points.",
                      points, **values) if pair else
            ngettext("Round %(round)s was blocked by %(blocker)s: %(winner)s won on pips, %(num)s point.",
                     "Round %(round)s was blocked by %(blocker)s: %(winner)s won on pips, %(num)s points.",
                     points, **values))


# --------------------------------------------------------------------------- a match

def won_by(winner: str, pair: bool) -> str:
    """"won by Ana", "won by Ana & Carla": the match's result, the verb agreeing with two."""
    return (pgettext("partnership", "won by %(name)s", name=winner) if pair
            else gettext("won by %(name)s", name=winner))


PHASES = {
    "before_first_deal": N_("Not dealt yet"),
    "in_progress": N_("In play"),
    "domino": N_("Domino"),
    "blocked": N_("Blocked"),
    "annulled": N_("Annulled"),
    "awaiting_reveal": N_("Waiting on reveals"),
}


def phase_words(screen: Mapping[str, Any]) -> str:
    """The line above the table on the phone: "Round 2: In play", "Match over: Ana & Carla
    won". ``screen``: a match screen's JSON (``phase``, ``round``, ``finished``, ``winner``,
    ``players``, ``sides``)."""
    players, sides = screen["players"], screen["sides"]
    if screen["finished"]:
        winner = _side(screen.get("winner"), sides)
        if winner is None:
            return gettext("Match over")
        return (pgettext("partnership", "Match over: %(winner)s won", winner=winner)
                if _pair(screen["winner"], players, sides)
                else gettext("Match over: %(winner)s won", winner=winner))
    phase = screen.get("phase")
    if screen.get("round"):  # mid-line, the terminal's word: "Mano 1: in corso", not "In corso"
        return gettext("Round %(round)s: %(phase)s", round=screen["round"],
                       phase=term("phase", phase))
    return gettext(PHASES[phase]) if phase in PHASES else term("outcome", phase)


def screen_words(screen: Mapping[str, Any], undo_event: Any = None) -> dict[str, Any]:
    """What a phone's screen says in words (its ``said``): the phase line, each round's result
    (in the order of ``screen["rounds"]``; None for one in play) and the entry the undo takes
    back (``undo_event``: that event, or None); what the tiles not dealt are called, where the
    screen shows them (``shows_undealt``; else None)."""
    players, sides = screen["players"], screen["sides"]
    return {
        "phase": phase_words(screen),
        "rounds": [round_words(r, players, sides) for r in screen.get("rounds") or ()],
        "undo": (event_words(undo_event, players, sides, screen.get("rules"))
                 if undo_event is not None else None),
        "undealt": undealt_word(screen.get("rules") or {}) if screen.get("shows_undealt") else None,
    }


def table() -> list[dict[str, Any]]:
    """:data:`EVENTS` as the phone's script reads it (msgids; its page embeds their
    translations with its own messages, words.scripts)."""
    return [sentence.as_dict() for sentence in EVENTS]


def msgids() -> tuple[tuple[str, str | None], ...]:
    """(singular, plural or None) of every sentence the phone's script may say from here."""
    found = [(s.text, s.plural) for s in EVENTS] + [(UNREADABLE, None)]
    found += [(msgid, None) for msgid in REASONS.values()]
    return tuple(dict.fromkeys(found))
