"""The vocabulary: its groups cover the event kinds without overlap where they must, every kind
has a shape and a judge, and the one slug pattern is what the API and the service both use."""

from __future__ import annotations

import re
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from referee.core import vocab
from referee.core.events import _SHAPES
from referee.core.match import _JUDGES
from referee.core.rules import resolve_rules


def test_every_kind_is_recorded_by_someone_and_judged() -> None:
    kinds = set(vocab.EVENT_TYPES)
    assert len(kinds) == len(vocab.EVENT_TYPES)
    groups = (set(vocab.RECORDED), set(vocab.RULINGS), set(vocab.WITHDRAWALS))
    assert set.union(*groups) == kinds
    assert sum(map(len, groups)) == len(kinds)  # each kind in one group: one decides who
    assert set(_SHAPES) == kinds == set(_JUDGES)
    assert vocab.REWRITES <= set(vocab.RULINGS) and vocab.SETTLING <= set(vocab.RULINGS)
    assert vocab.ON_THE_RECORD <= set(vocab.RULINGS) and not vocab.REWRITES & vocab.SETTLING
    assert vocab.SEAT_EVENTS <= set(vocab.PLAY_EVENTS) <= set(vocab.RECORDED)


def test_the_ladder_and_the_roles_are_one_list() -> None:
    assert vocab.ROLES == tuple(reversed(vocab.LADDER))
    assert vocab.LADDER[0] == "viewer" and vocab.LADDER[-1] == "admin"


def test_statuses_and_defaults_name_known_values() -> None:
    assert vocab.MATCH_STATUSES == (vocab.IN_PROGRESS, vocab.FINISHED, vocab.ABANDONED)
    assert set(vocab.DEFAULT_TIE_BREAKERS) <= set(vocab.TIE_BREAKERS)
    assert vocab.MAX_INT == 2**31 - 1


SLUG_TEXT = st.text(alphabet="abz09-_A .\n", max_size=70)


@given(SLUG_TEXT)
def test_the_slug_pattern_is_what_its_rule_says(text: str) -> None:
    meant = (1 <= len(text) <= vocab.SLUG_LENGTH and re.fullmatch(r"[a-z0-9-]+", text) is not None
             and not text.startswith("-") and not text.endswith("-"))
    assert (vocab.SLUG.fullmatch(text) is not None) is meant
    assert (vocab.SLUG.match(text) is not None) is meant  # as marshmallow's Regexp calls it


def test_a_trailing_dash_is_refused() -> None:
    assert vocab.SLUG.match("casino") and vocab.SLUG.match("la-plaza") and vocab.SLUG.match("a")
    for bad in ("casino-", "-casino", "", "a" * 65, "casino\n", "Casino"):
        assert not vocab.SLUG.match(bad), bad


def test_side_names() -> None:
    players = ["Ana", "Beto", "Carla", "Dani"]
    pairs = resolve_rules("parejas", 4)
    assert vocab.side_names(pairs, players) == ["Ana & Carla", "Beto & Dani"]
    assert vocab.side_names(pairs.as_dict(), players) == ["Ana & Carla", "Beto & Dani"]
    assert vocab.side_names(resolve_rules("veracruz", 4), players) == players
    assert vocab.side_name(["Ana"]) == "Ana"


def test_the_vocabulary_imports_nothing_but_the_standard_library() -> None:
    code = ("import sys; import referee.core.vocab; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('sqlalchemy', 'flask', 'click', 'marshmallow')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_kind_of_is_a_text_type_or_none() -> None:
    assert vocab.kind_of({"type": "play", "seat": 0}) == "play"
    assert vocab.kind_of({"type": "jump"}) == "jump"  # a kind or not is for shape_error to say
    for odd in ({"type": []}, {"type": {"a": 1}}, {"type": 3}, {}, [], "play", None):
        assert vocab.kind_of(odd) is None
        assert vocab.kind_of(odd) not in vocab.SEAT_EVENTS  # asked of a set, never raises


def test_a_whole_number_is_ascii_digits_alone() -> None:
    for text, number, signed in (("0", 0, 0), ("42", 42, 42), ("-3", None, -3)):
        assert vocab.whole_number(text) == number
        assert vocab.whole_number(text, signed=True) == signed
    # ... and no more digits than int reads (sys.get_int_max_str_digits: a ValueError was a 500)
    for text in ("", "-", "２", "٣", "²", " 2", "2 ", "+2", "1_0", "--2", "-２", "2-", "9" * 5000,
                 "0" * 5000 + "1"):
        assert vocab.whole_number(text) is None, text
        assert vocab.whole_number(text, signed=True) is None, text


@given(st.integers(min_value=-10**30, max_value=10**30))
def test_a_whole_number_reads_back_what_str_writes(number: int) -> None:
    assert vocab.whole_number(str(number), signed=True) == number
    assert vocab.whole_number(str(number)) == (number if number >= 0 else None)
