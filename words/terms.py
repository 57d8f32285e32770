"""The words for the codes people are shown (docs/glossary.md): violation codes, round outcomes,
statuses, event types, rulings, roles, tournament formats and statuses, tie-breakers, rule
parameters, the desk's choices, leagues' and cups' codes. A code never changes with the language (it is what the JSON
and the CSV say); its word does. Every edge (a page, a command's output) says a code through
:func:`term`, so each is written here once; tests/words/test_terms.py holds every code of
``referee.core.vocab`` (and the rules' parameters) to a word in every language.

The presets' names are names (a variant of the game, as clubs call it), not words of a
language: :data:`PRESETS` writes them for people ("Puerto Rico", not ``puerto-rico``).
"""

from __future__ import annotations

from . import N_, gettext

TERMS: dict[str, dict[str, str]] = {
    "violation": {
        "bad_event": N_("unusable event"),
        "unknown_tile": N_("unknown tile"),
        "tile_already_played": N_("tile already played"),
        "not_in_hand": N_("tile not in hand"),
        "out_of_turn": N_("out of turn"),
        "no_match": N_("tile does not fit"),
        "ambiguous_end": N_("end not said"),
        "wrong_opener": N_("wrong player leads"),
        "wrong_opening_tile": N_("wrong opening tile"),
        "renege": N_("renege"),
        "illegal_draw": N_("illegal draw"),
        "must_draw": N_("passed instead of drawing"),
        "round_over": N_("no round in play"),
        "match_over": N_("match over"),
        "reveal_mismatch": N_("reveal does not match"),
        "repeat": N_("the same disputed event again"),
    },
    "outcome": {
        "domino": N_("Domino"),
        "blocked": N_("Blocked"),
        "annulled": N_("Annulled"),
        "in_progress": N_("In play"),
        "awaiting_reveal": N_("Awaiting reveals"),
        "target": N_("Target reached"),
    },
    "phase": {  # a round's, as the terminal says it
        "domino": N_("domino"),
        "blocked": N_("blocked"),
        "annulled": N_("annulled"),
        "in_progress": N_("in progress"),
        "awaiting_reveal": N_("awaiting reveal"),
        "target": N_("target reached"),
    },
    "status": {  # a match's, and a scoreboard row's
        "in_progress": N_("Live"),
        "live": N_("Live"),
        "finished": N_("Finished"),
        "disputed": N_("Disputed"),
        "abandoned": N_("Abandoned"),
    },
    "event": {
        "deal": N_("deal"),
        "play": N_("play"),
        "draw": N_("draw"),
        "pass": N_("pass"),
        "reveal": N_("reveal"),
        "note": N_("note"),
        "penalty": N_("penalty"),
        "void": N_("void"),
        "annul": N_("annul"),
        "forfeit": N_("forfeit"),
        "stands": N_("stands"),
        "amend": N_("amend"),
        "abandon": N_("abandon"),
        "time": N_("time called"),
    },
    "role": {
        "admin": N_("secretary"),
        "referee": N_("referee"),
        "scorekeeper": N_("scorekeeper"),
        "viewer": N_("viewer"),
    },
    "result": {
        "won": N_("Won"),
        "lost": N_("Lost"),
        "drawn": N_("Drawn"),
    },
    "format": {
        "pairs": N_("Fixed partnerships, Swiss by standing"),
        "rotating": N_("Individual, new partners every round"),
        "round_robin": N_("Fixed partnerships, everyone meets everyone"),
    },
    "tournament": {
        "open": N_("Not started"),
        "playing": N_("Playing"),
        "finished": N_("Finished"),
    },
    "tournament_round": {
        "paired": N_("Paired"),
        "started": N_("Playing"),
        "finished": N_("Finished"),
    },
    "certainty": {
        "proven": N_("proven"),
        "possible": N_("possible"),
    },
    "tie_breaker": {  # docs/standings.md, "Ranking and tie-breakers"
        "won": N_("Matches won"),
        "win_rate": N_("Win rate"),
        "difference": N_("Points difference"),
        "points_for": N_("Points for"),
        "points_against": N_("Fewest points against"),
        "rounds_won": N_("Rounds won"),
        "rating": N_("Rating"),
        "head_to_head": N_("Head to head"),
    },
    "dispute_filter": {
        "open": N_("Open"),
        "ruled": N_("Ruled"),
        "all": N_("All"),
    },
    "constraint": {
        "fixed_table": N_("A fixed table"),
        "forbidden": N_("Never at one table"),
        "bye": N_("A requested bye"),
    },
    "constraint_scope": {
        "table": N_("at one table"),
        "partners": N_("as partners"),
    },
    "group": {
        "players": N_("Players"),
        "partnerships": N_("Partnerships"),
    },
    "player_event": {  # a player's history
        "rename": N_("renamed"),
        "merge": N_("merged"),
    },
    "unranked": {
        "apart": N_("Listed apart, without a rank"),
        "hidden": N_("Left out"),
    },
    # leagues and cups (docs/leagues.md)
    "side": {  # a fixture's teams, a leg's sides
        "home": N_("Home"),
        "away": N_("Away"),
    },
    "leg_kind": {
        "singles": N_("Singles"),
        "pairs": N_("Pairs"),
    },
    "fixture_result": {  # a team's, as the form lists them
        "won": N_("Win"),
        "drawn": N_("Draw"),
        "lost": N_("Loss"),
    },
    "leg_status": {
        "won": N_("Decided"),
        "conceded": N_("Conceded"),
        "drawn": N_("Level"),
        "void": N_("Void"),
        "in_play": N_("In play"),
    },
    "league_tie_breaker": {
        "leg_difference": N_("Leg difference"),
        "legs_for": N_("Legs for"),
        "head_to_head": N_("Head to head"),
    },
    "zone": {
        "promotion": N_("Promotion"),
        "relegation": N_("Relegation"),
    },
    "cup_format": {
        "single_elimination": N_("Single elimination"),
        "double_elimination": N_("Double elimination"),
    },
    "bracket": {
        "winners": N_("Winners' bracket"),
        "losers": N_("Losers' bracket"),
        "final": N_("Grand final"),
    },
    "tie_status": {  # a cup's tie
        "waiting": N_("Waiting for its entrants"),
        "ready": N_("To play"),
        "played": N_("Played"),
        "bye": N_("Bye"),
        "empty": N_("Nobody to play"),
        "not_needed": N_("Not needed"),
    },
    "parameter": {  # docs/rules.md, "The parameters"
        "max_pip": N_("Highest pip"),
        "seats": N_("Seats"),
        "partnerships": N_("Partnerships"),
        "hand_size": N_("Tiles in a hand"),
        "draw": N_("Drawing from the boneyard"),
        "reserve": N_("Tiles left in the boneyard"),
        "first_opener": N_("Who leads the first round"),
        "later_opener": N_("Who leads the later rounds"),
        "later_opening_tile": N_("The later rounds' lead"),
        "domino_points": N_("Points for a domino"),
        "blocked_compare": N_("Who wins a blocked round"),
        "blocked_points": N_("Points for a blocked round"),
        "blocked_tie": N_("A blocked round tied"),
        "target": N_("Target"),
        "foul_points": N_("Penalty for a foul, in points"),
        "foul_share": N_("Penalty for a foul, as a share of the target"),
        "time_limit": N_("Time limit"),
        "scoring": N_("When points are scored"),
        "count": N_("What a count scores"),
        "spinner": N_("Spinner"),
        "exact_target": N_("Exact target (busts)"),
        "out_bonus": N_("Points for going out"),
        "partners_out": N_("Partners going out"),
        "lead_scores": N_("Whether the lead scores"),
        "pips_round": N_("Pips rounded to"),
    },
    # The open ends of the points family's layout, by side (the spinner's arms up and down).
    "open_end": {"left": N_("left"), "right": N_("right"), "up": N_("up"), "down": N_("down")},
    # What each preset plays, in a few words, beside its name where rules are picked (the
    # desk's forms): the name is the same in every language, these words are not.
    "preset_about": {
        "mano-a-mano": N_("two players, drawing until a tile fits, to 50"),
        "parejas": N_("two pairs, no drawing, to 50"),
        "veracruz": N_("2 to 4 players, drawing one tile, to 100"),
        "sircle": N_("two players, two tiles kept back, to 100"),
        "puerto-rico": N_("two pairs, to 200"),
        "fives-and-threes": N_("points during play for fives and threes, to 61 exactly"),
        "all-fives": N_("points during play for fives, with a spinner, to 100"),
        "muggins": N_("points during play for fives, no spinner, to 100"),
    },
}

# The rules' presets as people name them (names, the same in every language).
PRESETS: dict[str, str] = {
    "mano-a-mano": "Mano a mano",
    "parejas": "Parejas",
    "veracruz": "Veracruz",
    "sircle": "Sircle",
    "puerto-rico": "Puerto Rico",
    "fives-and-threes": "Fives and Threes",
    "all-fives": "All Fives",
    "muggins": "Muggins",
}


def term(kind: str, code: object) -> str:
    """The word for ``code`` of ``kind`` in the current language; an unknown code, as it is."""
    if kind == "preset":
        return PRESETS.get(code, str(code)) if isinstance(code, str) else str(code)
    msgid = TERMS.get(kind, {}).get(code) if isinstance(code, str) else None
    return gettext(msgid) if msgid else str(code)


def terms(kind: str, codes: object) -> list[str]:
    """Each of ``codes`` in words, in their order (a club's tie-breakers)."""
    return [term(kind, code) for code in codes] if isinstance(codes, (list, tuple)) else []
