"""The product's vocabulary: the names and limits every layer shares, written once.

Event kinds and the groups the referee and the service sort them into, violation codes, roles
and their ladder, statuses, tournament formats, tie-breakers, the limits of what is stored, the
slug pattern and how a side is named. The API's schemas, the CLI's options, the store's
constraints and the service's checks all import them from here, so that they cannot disagree.

Standard library only, and nothing heavy: ``domino`` subcommands import this for their
``--help`` (tests/cli/test_cli_startup.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

# ---------------------------------------------------------------- events (domino-log/1)

# What happens at the table, recorded as the table sees it.
PLAY_EVENTS = ("deal", "play", "draw", "pass", "reveal")
# What a scorekeeper records: the table's play, notes, and the table's clock running out.
RECORDED = PLAY_EVENTS + ("note", "time")
# A referee's rulings.
RULINGS = ("penalty", "void", "annul", "forfeit", "stands", "amend")
# Rulings that change what earlier events stand for: the match is replayed with them.
REWRITES = frozenset({"void", "amend"})
# Rulings that settle the dispute they name (a void or an amend takes the event away instead).
SETTLING = frozenset({"stands", "penalty", "annul", "forfeit"})
# Rulings about the record itself: an amend corrects a recorded event, never one of these.
ON_THE_RECORD = frozenset({"void", "amend", "stands"})
# A match withdrawn before anything was played: by the referee, or by the token that created
# the match (the service knows which token that is).
WITHDRAWALS = ("abandon",)
# Every kind, in the order a refusal lists them.
EVENT_TYPES = ("deal", "play", "draw", "pass", "reveal", "penalty", "void", "annul", "forfeit",
               "note", "stands", "amend", "abandon", "time")
# The kinds a seat does, whose violation names that seat.
SEAT_EVENTS = frozenset({"play", "draw", "pass", "reveal"})


def kind_of(event: Any) -> str | None:
    """An event's ``type`` when it is an object with a text type, else None: what a kind group
    above is asked about. Events come from outside (a log, a request, an amend's correction), and
    a ``type`` that is a list or an object is unhashable: asked straight of a frozenset it
    would raise instead of being judged a bad event."""
    if type(event) is dict:
        kind = event.get("type")
        if type(kind) is str:
            return kind
    return None

# Extend, never rename: scripts match on these codes.
VIOLATION_CODES = (
    "bad_event", "unknown_tile", "tile_already_played", "not_in_hand", "out_of_turn", "no_match",
    "ambiguous_end", "wrong_opener", "wrong_opening_tile", "renege", "illegal_draw", "must_draw",
    "round_over", "match_over", "reveal_mismatch", "repeat",
)

# ---------------------------------------------------------------- roles

# Each role holds every right of the ones before it (referee.service.access decides with it).
LADDER = ("viewer", "scorekeeper", "referee", "admin")
ROLES = tuple(reversed(LADDER))  # as lists and choices show them, the most rights first

# ---------------------------------------------------------------- statuses

IN_PROGRESS = "in_progress"
FINISHED = "finished"
# A match withdrawn by an ``abandon``: it ended with no result and counts nowhere.
ABANDONED = "abandoned"
# The statuses the store keeps (ABANDONED since migration 0014).
MATCH_STATUSES = (IN_PROGRESS, FINISHED, ABANDONED)
# How the live scoreboard shows a match; an abandoned one only in a stream's last update of a
# table it showed, which then leaves the board.
LIVE_STATUSES = ("live", "finished", "disputed", ABANDONED)
# Which disputes a listing shows.
DISPUTE_FILTERS = ("open", "ruled", "all")
TOURNAMENT_STATUSES = ("open", "playing", "finished")
ROUND_STATUSES = ("paired", "started", "finished")

# ---------------------------------------------------------------- tournaments, standings

TOURNAMENT_FORMATS = ("pairs", "rotating", "round_robin")
# A tournament director's constraints (docs/tournaments.md): an entrant fixed at a table, two
# kept apart (at one table; in rotating also as partners), a requested bye.
CONSTRAINT_KINDS = ("fixed_table", "forbidden", "bye")
CONSTRAINT_SCOPES = ("table", "partners")
# The tie-breakers a club may set, in the order it gives them (all "more is better" but
# points_against, where fewer is better); head_to_head counts wins in the tied players' matches
# against each other.
TIE_BREAKERS = ("won", "win_rate", "difference", "points_for", "points_against", "rounds_won",
                "rating", "head_to_head")
DEFAULT_TIE_BREAKERS = ("won", "difference", "points_for", "head_to_head")
STANDING_GROUPS = ("players", "partnerships")
# Where a club's standings put the players with no counted match in the filters: listed apart
# after the ranked (no rank), or not at all. The first is the default.
UNRANKED = ("apart", "hidden")
PLAYER_EVENT_KINDS = ("rename", "merge")

# ---------------------------------------------------------------- leagues and cups

# The two teams of a fixture, and the two sides of each of its legs and games.
SIDES = ("home", "away")
# A leg of a fixture: one player a side, or a partnership a side.
LEG_KINDS = ("singles", "pairs")
# What became of a leg: won by a side (its games, or conceded by the other), drawn (its games
# can no longer give either side the leg), void (conceded by both), or still in play.
LEG_STATUSES = ("won", "conceded", "drawn", "void", "in_play")
# A fixture's result for one team, as the table's form lists it.
FIXTURE_RESULTS = ("won", "drawn", "lost")
# A league's tie-breakers after points, in the order it gives them (each "more is better");
# head_to_head is a mini-table of the fixtures among the teams still level.
LEAGUE_TIE_BREAKERS = ("leg_difference", "legs_for", "head_to_head")
DEFAULT_LEAGUE_TIE_BREAKERS = LEAGUE_TIE_BREAKERS
# The places a division's table marks.
ZONES = ("promotion", "relegation")
CUP_FORMATS = ("single_elimination", "double_elimination")
# The parts of a cup's bracket: the winners' bracket (all of single elimination), the losers'
# bracket, and the grand final of double elimination (and its second match when needed).
BRACKETS = ("winners", "losers", "final")
# A tie of a bracket: waiting for an entrant still to be decided, ready to play, played, a bye
# (one entrant, who goes through), empty (nobody to play: byes on both sides), or not needed
# (the grand final's second match when the winners'-bracket side won the first).
TIE_STATUSES = ("waiting", "ready", "played", "bye", "empty", "not_needed")
# Who a cup's entrants are: a season's teams, pairs of the club's players, or players.
CUP_ENTRANTS = ("teams", "pairs", "players")
# A cup's tie decided without a match: conceded by an entrant (it withdrew), or awarded as a
# walkover (an entrant did not turn up).
TIE_AWARDS = ("conceded", "walkover")

# ---------------------------------------------------------------- limits

MAX_INT = 2**31 - 1  # ids, seqs and counts: the store's integer columns are 32-bit
NAME_LENGTH = 200  # a player's, a club's, a tournament's name, a token's label in the store
SLUG_LENGTH = 64
REASON_LENGTH = 1000  # an admin action's reason (a rename, a merge)
EVENT_FILTER_LENGTH = 1000  # the event name a standings filter names
MAX_DEFAULT_TARGET = 10_000  # a club's default target: the phone's start form takes no more
MAX_EVENT_BYTES = 4 * 1024 * 1024  # a 1 MB note must fit; an event is a line of a log


def whole_number(text: str, *, signed: bool = False) -> int | None:
    """The number ``text`` writes in ASCII digits alone (``signed``: a minus may come before
    them), or None. Every number read from text (a query's page, limit or cursor, a table's
    label, a header, a CLI option) is read so: str.isdigit and int take any script's digits
    ("２", "٣") and isdigit superscripts int refuses ("²": a 500), and int takes " 2", "+2" and
    "1_0" too; none of those is a number here (docs/api.md). Nor is a text of more digits than
    int reads (4,300 by default, sys.get_int_max_str_digits: a ValueError, a 500 on a page
    asked for ``page=9999…``), far past every limit of a number here."""
    digits = text[1:] if signed and text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()):
        return None
    try:
        return int(text)
    except ValueError:  # more digits than int reads
        return None


# A club's or a tournament's name in URLs. One compiled object for every layer: the API's
# schema validator calls its ``match`` and the service its ``fullmatch``, hence the ``\Z``; the
# OpenAPI document says ``^SLUG_TEXT$`` (JSON Schema patterns are unanchored, and know no ``\Z``).
SLUG_TEXT = r"[a-z0-9](?:[a-z0-9-]{0,%d}[a-z0-9])?" % (SLUG_LENGTH - 2)
SLUG = re.compile(SLUG_TEXT + r"\Z")
SLUG_RULE = ("1 to 64 lowercase letters, digits and dashes, starting and ending with a letter "
             "or digit")

# ---------------------------------------------------------------- languages

# The languages a club's pages may speak: those words/ has catalogs for (words.LANGUAGES, which
# the rules side may not import; tests/words/test_words.py holds the two equal).
LANGUAGES = ("en", "es", "it")

# ---------------------------------------------------------------- sides

SIDE_JOIN = " & "


def side_name(players: Sequence[str]) -> str:
    """A side's name from its players' names: the player, or the partners ("Ana & Carla")."""
    return SIDE_JOIN.join(players)


def side_names(rules: Any, players: Sequence[str]) -> list[str]:
    """Each side's name in a match: ``rules`` is a core Rules or its dict (the report's and a
    summary's ``rules``); in partnership play seats 0 and 2 are side 0, 1 and 3 side 1."""
    partnerships = (rules["partnerships"] if isinstance(rules, Mapping)
                    else rules.partnerships)
    if partnerships:
        return [side_name((players[0], players[2])), side_name((players[1], players[3]))]
    return list(players)

