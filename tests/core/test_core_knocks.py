"""referee.core.knocks: hindsight says a pass as a knock in the first place under rules that
score during play (no rewording of its findings afterwards), a nested sentence too, and as a
pass in the seeds' games."""

from __future__ import annotations

import random
from typing import Any, Iterator

from core_helpers import NAMES, deal, mutate, pass_, play

from referee.core.hindsight import findings
from referee.core.knocks import KNOCKED, said_as_knock, words_of_a_pass
from referee.core.replay import replay
from referee.core.rules import resolve_rules
from referee.core.said import Said, said
from referee.core.simulate import random_match

KNOCKS = {said_as_knock(template, player="P", ends="6", seq=1, left=6, right=3).template
          for template in KNOCKED}


def _sentences(*texts: Any) -> Iterator[Said]:
    """Every sentence in ``texts``, and those nested in their values."""
    for text in texts:
        if isinstance(text, Said):
            yield text
            yield from _sentences(*text.values.values())


def test_a_knock_says_what_the_pass_said_with_the_same_values() -> None:
    values = {"player": "Beto", "ends": said("%(left)s or %(right)s", left=6, right=3),
              "seq": 9, "left": 6, "right": 3}
    for template in KNOCKED:
        knock = said_as_knock(template, **values)
        assert str(knock) == template.replace(" passed ", " knocked ") % values
        assert knock.values == {k: values[k] for k in knock.values}
    assert words_of_a_pass(resolve_rules("muggins", 2)) is said_as_knock
    assert words_of_a_pass(resolve_rules("parejas", 4)) is said


def test_hindsight_says_a_knock_on_the_spinners_arms_in_the_first_place() -> None:
    """Closed All Fives (small hands, no boneyard): Ana leads the 6-6 (the spinner), Beto lays
    the 6-4, Ana the 6-1 (the arms open: ends 1, 4, 6, 6); Beto knocks holding the 6-5, which
    he lays on the down arm later: proven, every sentence of the proof a knock; cut before his
    6-5, a suspicion whose nested fact is the knock. Scored from the hands, the same record
    says passes."""
    fives = {"preset": "all-fives", "hand_size": 4, "draw": "none", "first_opener": "free"}
    events = [deal(None, None), play(0, "6-6"), play(1, "6-4"), play(0, "6-1"), pass_(1),
              play(0, "6-2", "up"), play(1, "6-5", "down")]

    def found(spec: Any, events: list[Any]) -> Any:
        return findings(replay(resolve_rules(spec, 2), NAMES[:2], events).match)

    [proof] = found(fives, events).proven
    assert (proof.seq, proof.code, proof.found_at) == (5, "renege", 7)
    assert proof.message == ("Beto knocked holding a tile that fits 1, 4 or 6, as its plays "
                             "and reveals up to event 7 prove")
    assert proof.evidence[0]["fact"] == "Beto knocked with the open ends at 1, 4, 6, 6"
    assert {proof.message.template, proof.evidence[0]["fact"].template} <= KNOCKS
    [maybe] = found(fives, events[:-1]).suspicions
    assert [str(s) for s in _sentences(maybe.evidence[0]["fact"])][1] == (
        "Beto knocked with the open ends at 1, 4, 6, 6")
    [seeds] = found({**fives, "scoring": "hands"}, events).proven
    assert seeds.evidence[0]["fact"] == "Beto passed with the open ends at 1, 4, 6, 6"
    assert seeds.message.template in KNOCKED


def test_hindsight_says_every_pass_of_a_points_game_as_a_knock() -> None:
    """Random closed matches (every seat hidden, half of them mutated): under the points
    presets no finding holds a pass's sentence, not even nested in a suspicion's fact; the
    seeds' games hold no knock's."""
    rng = random.Random(34)
    said_in: dict[str, set[str]] = {"ends": set(), "hands": set()}
    for preset, seats in (("fives-and-threes", 3), ("all-fives", 2), ("all-fives", 4),
                          ("muggins", 4), ("parejas", 4), ("mano-a-mano", 2)):
        rules = resolve_rules(preset, seats)
        for i in range(12):
            _, events = random_match(preset, NAMES[:seats], rng, hidden=tuple(range(seats)))
            events = mutate(events, rng) if i % 2 else events
            found = findings(replay(rules, NAMES[:seats], events).match)
            for v in found.proven + found.suspicions:
                for text in _sentences(v.message, *(fact["fact"] for fact in v.evidence)):
                    said_in[rules.scoring].add(text.template)
    assert not said_in["ends"] & set(KNOCKED) and not said_in["hands"] & KNOCKS
    assert said_in["ends"] & KNOCKS and said_in["hands"] & set(KNOCKED)  # some said at all
