"""words.events: an event, a round and a match's result in words, the one place each is said
(the desk, the sheets, the CLI and the phone read them); the reasons the system writes said in
the reader's language, old records' English included; a partnership's verb agreeing."""

from __future__ import annotations

from pathlib import Path

import pytest

import words
from referee.core.rules import resolve_rules
from words.events import event_words, knocks, reason, round_words, screen_words, won_by

ROOT = Path(__file__).resolve().parents[2]
PLAYERS, SIDES = ["Ana", "Beto", "Carla", "Dani"], ["Ana & Carla", "Beto & Dani"]


@pytest.fixture
def speak():
    tokens = []
    yield lambda lang: tokens.append(words.use(lang))
    for token in reversed(tokens):
        words.reset(token)


def test_each_event_in_words(speak) -> None:
    said = {
        "pass": event_words({"type": "pass", "seat": 1}, PLAYERS, SIDES),
        "left": event_words({"type": "play", "seat": 0, "tile": "6-5", "end": "left"}, PLAYERS, SIDES),
        "pips": event_words({"type": "reveal", "seat": 2, "pips": 1}, PLAYERS, SIDES),
        "penalty": event_words({"type": "penalty", "side": 0, "points": 10, "target": 3,
                                "reason": "late"}, PLAYERS, SIDES),
        "time": event_words({"type": "time"}, PLAYERS, SIDES),
        "closed": event_words({"type": "deal"}, PLAYERS, SIDES),
        "amend": event_words({"type": "amend", "target": 3, "reason": "typo",
                              "event": {"type": "draw", "seat": 1}}, PLAYERS, SIDES),
    }
    assert said == {"pass": "Beto passed", "left": "Ana played 6-5 on the left",
                    "pips": "Carla revealed 1 pip",
                    "penalty": "penalty: 10 points to Ana & Carla for event 3 (late)",
                    "time": "time called", "closed": "dealt a new round (closed)",
                    "amend": "amended event 3 to: Beto drew a tile (unseen) (typo)"}
    speak("es")
    assert event_words({"type": "pass", "seat": 1}, PLAYERS, SIDES) == "Beto pasó"
    assert event_words({"type": "time"}, PLAYERS, SIDES) == "tiempo cumplido"
    # what is not an event, or lacks what its sentence needs, is still said in words
    assert event_words("nonsense", PLAYERS, SIDES) == "un evento que no se puede leer"
    assert event_words({"type": "penalty"}, PLAYERS, SIDES) == "penalización"
    assert event_words({"type": "warp"}, PLAYERS, SIDES) == "un evento que no se puede leer"


@pytest.mark.parametrize("rules", [{"scoring": "ends"}, resolve_rules("fives-and-threes", 4),
                                   resolve_rules("all-fives", 2)], ids=["json", "f3", "a5"])
def test_the_points_familys_rules_say_a_pass_as_a_knock(speak, rules) -> None:
    """The rules choose the word (docs/glossary.md): a game scoring during play knocks, an
    amend's corrected pass too; the seeds' games pass."""
    knock, amend = {"type": "pass", "seat": 1}, {"type": "amend", "target": 3, "reason": "typo",
                                                "event": {"type": "pass", "seat": 1}}
    assert knocks(rules) and not knocks(resolve_rules("parejas", 4)) and not knocks(None)
    assert event_words(knock, PLAYERS, SIDES, rules) == "Beto knocked"
    assert event_words(amend, PLAYERS, SIDES, rules) == "amended event 3 to: Beto knocked (typo)"
    assert event_words(knock, PLAYERS, SIDES, {"scoring": "hands"}) == "Beto passed"
    speak("es")
    assert event_words(knock, PLAYERS, SIDES, rules) == "Beto tocó"
    speak("it")
    assert event_words(knock, PLAYERS, SIDES, rules) == "Beto ha bussato"


def test_a_seat_of_a_shared_name_is_numbered_from_one() -> None:
    twins = ["Ana", "Beto", "Ana", "Dani"]
    assert event_words({"type": "pass", "seat": 2}, twins, SIDES) == "Ana (seat 3) passed"


@pytest.mark.parametrize("lang, stored, said", [
    ("es", "undone by the scorekeeper", "deshecho por el anotador"),
    ("it", "undone by the scorekeeper", "annullato dal segnapunti"),
    ("es", "undo at the table", "deshecho en la mesa"),
    ("es", "the rules' penalty for renege at event 3",
     "la penalización del reglamento por renuncio en el evento 3"),
    ("it", "the rules' penalty for must_draw at event 12",
     "la penalità del regolamento per ha passato invece di pescare all'evento 12"),
    ("en", "the rules' penalty for must_draw at event 12",
     "the rules' penalty for passed instead of drawing at event 12"),
    ("it", "30 minutes", "30 minuti"),
    ("es", "both sides agreed", "both sides agreed"),  # typed by a person: as typed
])
def test_the_reasons_the_system_wrote_are_said_in_the_readers_language(speak, lang, stored, said) -> None:
    speak(lang)
    assert reason(stored) == said
    event = {"type": "void", "target": 5, "reason": stored}
    assert said in event_words(event, PLAYERS, SIDES)


def test_a_partnerships_verb_agrees(speak) -> None:
    domino = {"round": 2, "outcome": "domino", "winner": 1, "points": 12, "blocked_by": None}
    single = ["Ana", "Beto"]
    speak("es")
    assert round_words(domino, PLAYERS, SIDES) == "Ronda 2: Beto & Dani ganaron con dominó, 12 puntos."
    assert round_words(domino, single, single) == "Ronda 2: Beto ganó con dominó, 12 puntos."
    assert won_by("Ana & Carla", True) == "ganaron Ana & Carla"
    assert won_by("Ana", False) == "ganó Ana"
    speak("it")
    assert round_words(domino, PLAYERS, SIDES) == "Mano 2: Beto & Dani hanno vinto con domino, 12 punti."
    screen = {"finished": True, "winner": 0, "players": PLAYERS, "sides": SIDES, "rounds": [domino],
              "phase": "domino", "round": 2}
    said = screen_words(screen, {"type": "pass", "seat": 3})
    assert said == {"phase": "Partita finita: hanno vinto Ana & Carla",
                    "rounds": ["Mano 2: Beto & Dani hanno vinto con domino, 12 punti."],
                    "undo": "Dani ha passato", "undealt": None}
    # the tiles not dealt, named by the server for the phone to say (where the screen shows
    # them): Fives and Threes' sleep, a game that draws has a boneyard
    shown = {**screen, "shows_undealt": True}
    assert screen_words({**shown, "rules": {"scoring": "ends", "draw": "none"}})["undealt"] \
        == "Tessere dormienti"
    assert screen_words({**shown, "rules": {"scoring": "ends", "draw": "until_playable"}}
                        )["undealt"] == "Dormiente"


# The phone's phase line: after "Round N:" the phase is said mid-line (the terminal's word, no
# capital: Italian read "Mano 1: In corso"); alone, before a deal, it stands as a label.
PHASE_LINES = {"en": ("Round 1: in progress", "Round 2: blocked", "Not dealt yet"),
               "es": ("Ronda 1: en juego", "Ronda 2: trancada", "Aún sin repartir"),
               "it": ("Mano 1: in corso", "Mano 2: bloccata", "Non ancora distribuita")}


@pytest.mark.parametrize("lang", sorted(PHASE_LINES))
def test_the_phase_line_says_the_phase_mid_line_after_the_round(speak, lang: str) -> None:
    speak(lang)
    base = {"finished": False, "winner": None, "players": PLAYERS, "sides": SIDES}
    said = [screen_words({**base, "phase": "in_progress", "round": 1})["phase"],
            screen_words({**base, "phase": "blocked", "round": 2})["phase"],
            screen_words({**base, "phase": "before_first_deal", "round": None})["phase"]]
    assert tuple(said) == PHASE_LINES[lang]


def test_an_event_is_said_in_one_place() -> None:
    """The desk's and the CLI's own copies are gone; the one left needs no branch a type."""
    for path in ("api/desk_disputes.py", "cli/render.py"):
        text = (ROOT / path).read_text(encoding="utf-8")
        assert "def event_words" not in text and "def event_text" not in text, path
    assert "noqa: C901" not in (ROOT / "words" / "events.py").read_text(encoding="utf-8")


def test_the_words_load_nothing_heavy() -> None:
    """The CLI's fast path (domino validate, domino show LOG) says events without the service,
    SQLAlchemy, flask or Babel."""
    import subprocess
    import sys

    code = ("import sys, words.events as e; e.event_words({'type': 'pass', 'seat': 0}, ['Ana'], ['Ana']);"
            "print(sorted(m for m in ('sqlalchemy', 'flask', 'babel', 'referee.service', 'icu')"
            " if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("lang, number", [("en", "table 7"), ("es", "mesa 7"), ("it", "tavolo 7")])
def test_a_table_is_its_number_after_the_word_or_its_name_as_written(lang: str, number: str) -> None:
    """A label that is a number reads "mesa 7"; one the club wrote as a name reads as written,
    never "mesa Mesa 2"."""
    from words import reset, use
    from words.events import table_words

    token = use(lang)
    try:
        assert table_words("7") == number and table_words(" 7 ") == number
        assert table_words("Mesa 2") == "Mesa 2" and table_words("Terraza") == "Terraza"
    finally:
        reset(token)



def test_an_event_is_said_by_the_first_sentence_of_events_that_fits() -> None:
    # event_words tries the sentences of the event's type (events._BY_KIND): the one it takes
    # is the first that fits in all of EVENTS, on real records' events and on each made odd
    # (its type another's or not a type, a field dropped), under rules that knock and not.
    import random

    from referee.core.simulate import random_match
    from words import events

    def first(sentences: tuple, event: dict, rules: dict) -> str | None:
        values = events.params(event, PLAYERS, SIDES, rules)
        if events.knocks(rules):
            values["knock"] = "yes"
        return next((s.text for s in sentences if events._fits(s, event.get("type"), values)), None)

    rng = random.Random(5)
    kinds = [*sorted(events._EVENT_WORDS), "nonsense", 3, None, ["play"]]
    fitted = 0
    for preset in ("parejas", "puerto-rico", "all-fives", "fives-and-threes"):
        _, record = random_match(preset, PLAYERS, rng)
        for event in record:
            odd = dict(event)
            if rng.random() < 0.5:
                odd["type"] = rng.choice(kinds)
            if rng.random() < 0.5:
                odd.pop(rng.choice(sorted(odd)))
            for case in (event, odd):
                for rules in ({"scoring": "ends"}, {"scoring": "hands"}):
                    kind = case.get("type")
                    by_kind = events._BY_KIND.get(kind, ()) if isinstance(kind, str) else ()
                    expected = first(events.EVENTS, case, rules)
                    assert first(by_kind, case, rules) == expected
                    fitted += expected is not None
    assert fitted > 1000
