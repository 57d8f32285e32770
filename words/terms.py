"""The words for the codes people are shown (docs/glossary.md): violation codes, round outcomes,
statuses, event types, rulings, roles, tournament formats. A code never changes with the
language (it is what the JSON and the CSV say); its word does. Every edge (a page, a command's
output) says a code through :func:`term`, so each is written here once.
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
    },
    "outcome": {
        "domino": N_("Domino"),
        "blocked": N_("Blocked"),
        "annulled": N_("Annulled"),
        "in_progress": N_("In play"),
        "awaiting_reveal": N_("Awaiting reveals"),
    },
    "phase": {  # a round's, as the terminal says it
        "domino": N_("domino"),
        "blocked": N_("blocked"),
        "annulled": N_("annulled"),
        "in_progress": N_("in progress"),
        "awaiting_reveal": N_("awaiting reveal"),
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
    },
    "role": {
        "admin": N_("secretary (admin)"),
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
}


def term(kind: str, code: object) -> str:
    """The word for ``code`` of ``kind`` in the current language; an unknown code, as it is."""
    msgid = TERMS.get(kind, {}).get(code) if isinstance(code, str) else None
    return gettext(msgid) if msgid else str(code)
