"""Helpers for the tournament tests (service, CLI, API, pages): short matches, played out."""

from __future__ import annotations

import random
from typing import Any

from referee.core.replay import replay
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match
from referee.service import OPERATOR, Service

RULES = {"preset": "parejas", "target": 30}  # short matches: a few rounds each
NINE = ["Ana", "Beto", "Carla", "Dani", "Eva", "Fede", "Gabi", "Hugo", "Ines"]


def finished_events(players: list[str], seed: int) -> list[dict[str, Any]]:
    """A random legal match of RULES at these seats that ends finished."""
    while True:
        _, events = random_match(RULES, players, random.Random(seed))
        if replay(resolve_rules(RULES, 4), players, events).match.finished:
            return events
        seed += 1000


def finish(service: Service, table: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """Record a random legal match at the table until it is finished; returns its events."""
    events = finished_events(table["players"], seed)
    for seq, event in enumerate(events):
        service.recording.record_event(table["match"], event, expected_seq=seq)
    return events


def play_round(service: Service, club: str, slug: str, number: int,
               seed: int) -> dict[int, list[dict[str, Any]]]:
    """Play every table of the round to its end: match id -> its events."""
    return {t["match"]: finish(service, t, seed + t["table"])
            for t in service.tournaments.round_tables(club, slug, number, who=OPERATOR)}
