"""Every code of the product's vocabulary (referee/core/vocab.py, the rules' parameters and
presets) has its word for people in every language, and every event type its sentence: a code
added to the vocabulary without its word fails here, before a page shows it."""

from __future__ import annotations

import pytest

import words
from referee.core import outcomes, vocab
from referee.core.rules import PARAMETERS, PRESETS
from words.events import EVENTS, event_words
from words.terms import TERMS, term

# kind of words.terms -> the codes the product has of that kind
CODES: dict[str, tuple[str, ...]] = {
    "violation": vocab.VIOLATION_CODES,
    "event": vocab.EVENT_TYPES,
    "outcome": (outcomes.IN_PROGRESS, outcomes.DOMINO, outcomes.BLOCKED, outcomes.ANNULLED,
                outcomes.AWAITING),
    "phase": (outcomes.IN_PROGRESS, outcomes.DOMINO, outcomes.BLOCKED, outcomes.ANNULLED,
              outcomes.AWAITING),
    "status": (*vocab.MATCH_STATUSES, *vocab.LIVE_STATUSES),
    "role": vocab.ROLES,
    "format": vocab.TOURNAMENT_FORMATS,
    "tournament": vocab.TOURNAMENT_STATUSES,
    "tournament_round": vocab.ROUND_STATUSES,
    "tie_breaker": vocab.TIE_BREAKERS,
    "dispute_filter": vocab.DISPUTE_FILTERS,
    "constraint": vocab.CONSTRAINT_KINDS,
    "constraint_scope": vocab.CONSTRAINT_SCOPES,
    "group": vocab.STANDING_GROUPS,
    "unranked": vocab.UNRANKED,
    "player_event": vocab.PLAYER_EVENT_KINDS,
    "parameter": PARAMETERS,
    "certainty": ("proven", "possible"),
    "result": ("won", "lost", "drawn"),
    "fixture_result": vocab.FIXTURE_RESULTS,
    "side": vocab.SIDES,
    "leg_kind": vocab.LEG_KINDS,
    "leg_status": vocab.LEG_STATUSES,
    "league_tie_breaker": vocab.LEAGUE_TIE_BREAKERS,
    "zone": vocab.ZONES,
    "cup_format": vocab.CUP_FORMATS,
    "bracket": vocab.BRACKETS,
    "tie_status": vocab.TIE_STATUSES,
}
# Words that are the code in some language too (Italian says "domino").
SAME = {("it", "domino"), ("it", "Domino")}


@pytest.fixture(params=["en", "es", "it"])
def lang(request: pytest.FixtureRequest):
    token = words.use(request.param)
    yield request.param
    words.reset(token)


@pytest.mark.parametrize("kind", sorted(CODES))
def test_every_code_has_its_word(kind: str, lang: str) -> None:
    for code in CODES[kind]:
        assert code in TERMS[kind], f"{kind} {code!r} has no word in words/terms.py"
        said = term(kind, code)
        assert said and "_" not in said, (kind, code, said)
        if lang != "en":
            assert said != TERMS[kind][code] or (lang, said) in SAME, (lang, kind, code, said)


def test_every_preset_has_its_name() -> None:
    for code in PRESETS:
        assert term("preset", code) != code or code.isalpha() and code.istitle()
        assert "-" not in term("preset", code)


def test_every_preset_says_what_it_plays(lang: str) -> None:
    """The words beside a preset's name where rules are picked: one for each preset, in the
    language (never the English in es or it), and the target its rules have."""
    assert set(TERMS["preset_about"]) == set(PRESETS)
    for code, rules in PRESETS.items():
        said = term("preset_about", code)
        assert str(rules["target"]) in said, (code, said)
        if lang != "en":
            assert said != TERMS["preset_about"][code], (lang, code)


def test_every_event_type_has_its_sentence(lang: str) -> None:
    kinds = {sentence.kind for sentence in EVENTS}
    assert kinds == set(vocab.EVENT_TYPES)
    players, sides = ["Ana", "Beto"], ["Ana", "Beto"]
    for kind in vocab.EVENT_TYPES:  # even with none of its fields, a word, never the code
        said = event_words({"type": kind}, players, sides)
        assert said and (said != kind or lang == "en"), (kind, said)
    assert event_words({"type": "time"}, players, sides) == words.gettext("time called")
