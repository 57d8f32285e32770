"""Rule parameters, the five presets and resolving a match's rules (design: Rules)."""

import pytest

from referee.core.rules import (
    CHOICES,
    DEFAULTS,
    PARAMETERS,
    PRESETS,
    Rules,
    RulesError,
    resolve_rules,
)

# The presets as the design's table states them, parameter by parameter.
DESIGN_PRESETS = {
    "mano-a-mano": dict(partnerships=False, draw="until_playable", reserve=0,
                        first_opener="highest_double", later_opener="next",
                        later_opening_tile="free", domino_points="opponents",
                        blocked_compare="side_total", blocked_points="opponents",
                        blocked_tie="blocker_loses", target=50),
    "parejas": dict(partnerships=True, draw="none", reserve=0, first_opener="double_six",
                    later_opener="first_rule", later_opening_tile="forced",
                    domino_points="opponents", blocked_compare="side_total",
                    blocked_points="opponents", blocked_tie="blocker_loses", target=50),
    "veracruz": dict(partnerships=False, draw="one", reserve=0, first_opener="highest_double",
                     later_opener="next", later_opening_tile="free", domino_points="all",
                     blocked_compare="side_total", blocked_points="all", blocked_tie="mano",
                     target=100),
    "sircle": dict(partnerships=False, draw="until_playable", reserve=2,
                   first_opener="highest_double", later_opener="next", later_opening_tile="free",
                   domino_points="opponents", blocked_compare="side_total",
                   blocked_points="difference", blocked_tie="none", target=100),
    "puerto-rico": dict(partnerships=True, draw="none", reserve=0, first_opener="double_six",
                        later_opener="puerto_rico", later_opening_tile="free",
                        domino_points="all", blocked_compare="side_total", blocked_points="all",
                        blocked_tie="none", target=200),
}
PRESET_PLAYERS = {"mano-a-mano": 2, "parejas": 4, "veracruz": 3, "sircle": 2, "puerto-rico": 4}


@pytest.mark.parametrize("preset", sorted(DESIGN_PRESETS))
def test_presets_match_the_design(preset):
    players = PRESET_PLAYERS[preset]
    rules = resolve_rules(preset, players)
    assert rules.as_dict() == {**DESIGN_PRESETS[preset], "max_pip": 6, "hand_size": 7,
                               "seats": players, "foul_points": None, "foul_share": None,
                               "time_limit": None, **DEFAULTS}
    assert set(rules.as_dict()) == set(PARAMETERS)
    # a preset name and {"preset": name} are the same rules
    assert resolve_rules({"preset": preset}, players) == rules


def test_every_preset_is_covered():
    assert set(PRESETS) == set(DESIGN_PRESETS) | set(POINTS_PRESETS)


@pytest.mark.parametrize("preset, players", [
    ("mano-a-mano", 2), ("parejas", 4), ("veracruz", 2), ("veracruz", 3), ("veracruz", 4),
    ("sircle", 2), ("puerto-rico", 4),
])
def test_preset_seat_counts_allowed(preset, players):
    assert resolve_rules(preset, players).seats == players


@pytest.mark.parametrize("preset, players", [
    ("mano-a-mano", 3), ("mano-a-mano", 4), ("parejas", 2), ("parejas", 3), ("veracruz", 5),
    ("sircle", 3), ("puerto-rico", 2), ("puerto-rico", 3),
])
def test_preset_seat_counts_refused(preset, players):
    with pytest.raises(RulesError):
        resolve_rules(preset, players)


def test_match_may_name_another_seat_count():
    rules = resolve_rules({"preset": "mano-a-mano", "seats": 3}, 3)
    assert rules.seats == 3 and rules.sides == 3


def test_seats_must_equal_players():
    with pytest.raises(RulesError, match="seats"):
        resolve_rules({"preset": "veracruz", "seats": 3}, 4)


def test_a_score_may_reach_its_limit():
    rules = resolve_rules({"preset": "all-fives", "target": 100_000, "out_bonus": 100_000,
                           "foul_points": 100_000}, 2)
    assert (rules.target, rules.out_bonus, rules.foul_points) == (100_000, 100_000, 100_000)


def test_overrides_apply():
    rules = resolve_rules({"preset": "parejas", "target": 100, "draw": "one"}, 4)
    assert rules.target == 100 and rules.draw == "one" and rules.partnerships


def test_veracruz_partnerships_are_optional_with_four():
    assert not resolve_rules("veracruz", 4).partnerships
    rules = resolve_rules({"preset": "veracruz", "partnerships": True}, 4)
    assert rules.partnerships and rules.sides == 2


def test_full_specification_without_preset():
    spec = dict(resolve_rules("sircle", 2).as_dict())
    assert resolve_rules(spec, 2) == resolve_rules("sircle", 2)


@pytest.mark.parametrize("spec, players, fragment", [
    ("chinchon", 2, "unknown preset"),
    ({"preset": "chinchon"}, 2, "unknown preset"),
    ({"preset": 7}, 2, "unknown preset"),
    ({"preset": "parejas", "colour": "red"}, 4, "unknown rule parameter"),
    ({"preset": "parejas", "draw": "sometimes"}, 4, "draw"),
    ({"preset": "parejas", "max_pip": 7}, 4, "max_pip"),
    ({"preset": "parejas", "max_pip": "6"}, 4, "max_pip"),
    ({"preset": "parejas", "target": "100"}, 4, "target"),
    ({"preset": "parejas", "target": 0}, 4, "target"),
    ({"preset": "parejas", "target": 50.0}, 4, "target"),
    ({"preset": "parejas", "target": True}, 4, "target"),
    # a score has a limit (docs/readings.md): unbounded, totals went past the store's integers
    ({"preset": "parejas", "target": 100_001}, 4, "target must be an integer from 1 to 100000"),
    ({"preset": "parejas", "target": 10**30}, 4, "target must be an integer from 1 to 100000"),
    ({"preset": "all-fives", "out_bonus": 100_001}, 2, "out_bonus must be an integer from 0 to"),
    ({"preset": "parejas", "foul_points": 100_001}, 4, "foul_points must be null or an integer from"),
    ({"preset": "parejas", "hand_size": 0}, 4, "hand_size"),
    ({"preset": "parejas", "reserve": -1}, 4, "reserve"),
    ({"preset": "parejas", "partnerships": "yes"}, 4, "partnerships"),
    ({"preset": "parejas", "partnerships": 1}, 4, "partnerships"),
    ({"preset": "mano-a-mano", "blocked_tie": True}, 2, "blocked_tie"),
    ({"preset": "mano-a-mano", "seats": "2"}, 2, "seats"),
    ({"target": 100}, 2, "missing"),
    (["parejas"], 4, "preset name or an object"),
    (None, 4, "preset name or an object"),
])
def test_bad_specifications(spec, players, fragment):
    with pytest.raises(RulesError, match=fragment):
        resolve_rules(spec, players)


@pytest.mark.parametrize("spec, players", [
    ({"preset": "mano-a-mano", "partnerships": True}, 2),
    ({"preset": "veracruz", "partnerships": True}, 3),
    ({"preset": "parejas", "seats": 3}, 3),  # parejas is in partnerships: 4 seats needed
    ({"preset": "mano-a-mano", "seats": 6, "partnerships": True, "max_pip": 12}, 6),
])
def test_partnerships_need_exactly_four_seats(spec, players):
    with pytest.raises(RulesError, match="partnerships"):
        resolve_rules(spec, players)


@pytest.mark.parametrize("spec, players", [
    ({"preset": "veracruz", "hand_size": 10}, 3),         # 30 > 28
    ({"preset": "sircle", "hand_size": 14}, 2),           # 28 + 2 reserve > 28
    ({"preset": "sircle", "reserve": 15}, 2),             # 14 + 15 > 28
    ({"preset": "mano-a-mano", "seats": 5, "hand_size": 5}, 5),  # double-six: 4 seats at most
    ({"preset": "parejas", "max_pip": 9, "hand_size": 14}, 4),  # 56 > 55
])
def test_hands_must_fit_the_set(spec, players):
    with pytest.raises(RulesError):
        resolve_rules(spec, players)


@pytest.mark.parametrize("spec, players", [
    ({"preset": "veracruz", "hand_size": 9}, 3),          # 27 of 28
    ({"preset": "sircle", "hand_size": 13, "reserve": 1}, 2),  # 26 + 1 = 27
    ({"preset": "parejas", "max_pip": 9, "hand_size": 13}, 4),
    ({"preset": "mano-a-mano", "seats": 6, "max_pip": 9}, 6),  # bigger sets seat more
    ({"preset": "mano-a-mano", "seats": 8, "max_pip": 12, "hand_size": 11}, 8),
])
def test_hands_that_fit(spec, players):
    assert resolve_rules(spec, players).seats == players


@pytest.mark.parametrize("max_pip", CHOICES["max_pip"])
def test_every_max_pip_resolves(max_pip):
    assert resolve_rules({"preset": "parejas", "max_pip": max_pip}, 4).max_pip == max_pip


def test_sides_and_partners():
    pairs = resolve_rules("parejas", 4)
    assert pairs.sides == 2
    assert [pairs.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert pairs.seats_of(0) == (0, 2) and pairs.seats_of(1) == (1, 3)
    alone = resolve_rules("veracruz", 4)
    assert alone.sides == 4
    assert [alone.side_of(s) for s in range(4)] == [0, 1, 2, 3]
    assert alone.seats_of(3) == (3,)


def test_rules_are_frozen():
    rules = resolve_rules("parejas", 4)
    assert isinstance(rules, Rules)
    with pytest.raises(AttributeError):
        rules.target = 10  # type: ignore[misc]


@pytest.mark.parametrize("points, share, target, expected", [
    (None, None, 100, None), (20, None, 100, 20), (None, 10, 150, 15), (20, 10, 150, 20),
    (10, 25, 150, 38), (0, 0, 100, 0)])
def test_the_standard_foul_penalty_is_the_greater_of_points_and_share(points, share, target,
                                                                      expected):
    rules = resolve_rules({"preset": "parejas", "foul_points": points, "foul_share": share,
                           "target": target}, 4)
    assert rules.foul_penalty() == expected


@pytest.mark.parametrize("name, value", [("foul_points", -1), ("foul_share", 101),
                                         ("foul_share", 1.5), ("foul_points", True)])
def test_a_bad_standard_penalty_is_refused(name, value):
    with pytest.raises(RulesError):
        resolve_rules({"preset": "parejas", name: value}, 4)


# ---------------------------------------------------------------- the points family's presets
# The design's table ("Points during play"), parameter by parameter, for the seats each allows.
_F3 = dict(max_pip=6, reserve=0, draw="none", first_opener="free", later_opener="next",
           later_opening_tile="free", scoring="ends", count="fives_and_threes", spinner="none",
           out_bonus=1, domino_points="none", blocked_points="none", blocked_compare="side_total",
           blocked_tie="none", partners_out="both", lead_scores="not_to_win", exact_target=True,
           pips_round=1, target=61)
_A5 = dict(max_pip=6, reserve=0, draw="until_playable", first_opener="highest_double",
           later_opener="winner", later_opening_tile="free", scoring="ends", count="fives",
           spinner="first_double", domino_points="opponents", blocked_compare="side_total",
           blocked_points="opponents", blocked_tie="none", pips_round=5, target=100,
           out_bonus=0, partners_out="one", lead_scores="always", exact_target=False)
POINTS_PRESETS = {
    "fives-and-threes": {2: dict(_F3, hand_size=9, partnerships=False),
                         3: dict(_F3, hand_size=7, partnerships=False),
                         4: dict(_F3, hand_size=6, partnerships=True)},
    "all-fives": {n: dict(_A5, hand_size=7 if n == 2 else 5, partnerships=False) for n in (2, 3, 4)},
    "muggins": {n: dict(_A5, hand_size=7 if n == 2 else 5, partnerships=False, spinner="none")
                for n in (2, 3, 4)},
}


@pytest.mark.parametrize("preset, players", [(p, n) for p in sorted(POINTS_PRESETS)
                                             for n in (2, 3, 4)])
def test_points_presets_match_the_design(preset, players):
    rules = resolve_rules(preset, players)
    assert rules.as_dict() == {**POINTS_PRESETS[preset][players], "seats": players,
                               "foul_points": None, "foul_share": None, "time_limit": None}


def test_points_presets_take_overrides():
    # "partnerships with 4 unless the match says partnerships: false"
    assert resolve_rules({"preset": "fives-and-threes", "partnerships": False}, 4).partnerships is False
    assert resolve_rules({"preset": "all-fives", "partnerships": True}, 4).partnerships is True
    # the league variations: 7 tiles a hand, a lead that may win, no chip-out point, 121 up
    rules = resolve_rules({"preset": "fives-and-threes", "hand_size": 7, "lead_scores": "always",
                           "out_bonus": 0, "target": 121}, 2)
    assert (rules.hand_size, rules.lead_scores, rules.out_bonus, rules.target) == (7, "always", 0, 121)


def test_the_seeds_presets_keep_the_seeds_game():
    for preset, players in PRESET_PLAYERS.items():
        rules = resolve_rules(preset, players)
        assert (rules.scoring, rules.spinner, rules.exact_target, rules.out_bonus,
                rules.pips_round) == ("hands", "none", False, 0, 1)


@pytest.mark.parametrize("name, value, words", [
    ("scoring", "both", "scoring must be one of hands, ends, not 'both'"),
    ("count", "threes", "count must be one of fives, fives_and_threes, not 'threes'"),
    ("spinner", True, "spinner must be one of none, first_double, not True"),
    ("exact_target", 1, "exact_target must be true or false, not 1"),
    ("out_bonus", -1, "out_bonus must be an integer from 0 to 100000, not -1"),
    ("out_bonus", True, "out_bonus must be an integer from 0 to 100000, not True"),
    ("partners_out", "all", "partners_out must be one of one, both, not 'all'"),
    ("lead_scores", "sometimes", "lead_scores must be one of always, never, not_to_win, not 'sometimes'"),
    ("pips_round", 10, "pips_round must be one of 1, 5, not 10"),
    ("pips_round", True, "pips_round must be one of 1, 5, not True"),
    ("pips_round", 5.0, "pips_round must be one of 1, 5, not 5.0"),
    ("domino_points", "nothing", "domino_points must be one of opponents, all, none, not 'nothing'"),
])
def test_points_parameters_refuse_bad_values(name, value, words):
    with pytest.raises(RulesError) as error:
        resolve_rules({"preset": "fives-and-threes", name: value}, 2)
    assert str(error.value) == words


def test_none_scores_nothing_from_hands_in_any_preset():
    rules = resolve_rules({"preset": "parejas", "domino_points": "none", "blocked_points": "none"}, 4)
    assert (rules.domino_points, rules.blocked_points) == ("none", "none")


def test_without_a_preset_the_points_parameters_default_to_the_seeds_game():
    spec = {name: value for name, value in resolve_rules("sircle", 2).as_dict().items()
            if name not in DEFAULTS and name != "seats"}
    assert {name: getattr(resolve_rules(spec, 2), name) for name in DEFAULTS} == DEFAULTS
