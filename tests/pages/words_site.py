"""A club whose every page has something to say in words: the fixture of the tests that read
the pages as people do (test_pages_words_browser.py).

``pena-sur`` ("Peña del Sur"), public, its tie-breakers not the default and its time zone
Madrid's, with players whose names sort differently by bytes and in Spanish (Álvaro, Íñigo,
Ñico...), tokens labelled as a secretary labels them, and:

- ``finished``: a parejas match played out (a partnership won it);
- ``ruled``: a mano-a-mano match whose renege the referee ruled with the rules' standard
  penalty (the reason the system writes);
- ``open``: the same foul, not ruled yet (the disputes desk has it);
- ``live``: a timed parejas match in play, time called, the scorekeeper's last entry undone
  (the phone's undo, its reason the system's), a tile recorded as disputed;
- ``withdrawn``: a match abandoned before its deal;
- ``tournament`` ``copa-otono``: four partnerships of newcomers (tied), round 1 paired and its
  tables started.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from db_helpers import migrate
from flask import Flask

from api import create_app
from api.context import EXTENSION
from referee.core.simulate import random_match
from referee.service import Service, open_service

CLUB, NAME = "pena-sur", "Peña del Sur"
TOURNAMENT = "copa-otono"
ZONE = "Europe/Madrid"
TIE_BREAKERS = ["won", "head_to_head", "points_against", "rating"]
LABELS = {"admin": "Secretaría", "referee": "Marta, árbitra", "scorekeeper": "Mesa uno",
          "viewer": "Pantalla del bar"}
PLAYERS = ["Íñigo", "Raúl", "Ñico", "Nuria", "Álvaro", "Zoe", "Beatriz", "Carmen"]
# The tournament's partnerships: newcomers all, so tied on everything (their order is their
# names'), each pair's names and the pairs in another order by bytes than in Spanish.
ENTRANTS = [["Zacarías", "Ángel"], ["Ñoño", "Nadia"], ["Óscar", "Olga"], ["Úrsula", "Ulises"]]
SMALL = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none", "target": 5, "foul_points": 10}
# Seat 1 passes with both ends at 5, then plays the 5-2 at 5 (draw: none): a renege, proven.
RENEGE = [{"type": "deal"}, {"type": "play", "seat": 0, "tile": "5-5"}, {"type": "pass", "seat": 1},
          {"type": "play", "seat": 0, "tile": "5-3"}, {"type": "play", "seat": 1, "tile": "5-2"},
          {"type": "play", "seat": 0, "tile": "3-1"},
          {"type": "reveal", "seat": 1, "tiles": ["4-4", "2-1"]}]


@dataclass
class WordsSite:
    app: Flask
    service: Service
    tokens: dict[str, str] = field(default_factory=dict)  # role -> token
    matches: dict[str, int] = field(default_factory=dict)  # what it shows -> match id
    names: list[str] = field(default_factory=lambda: list(PLAYERS))  # its players, as built

    def players(self) -> dict[str, int]:
        found, _ = self.service.players.list(CLUB, limit=100)
        return {p["name"]: p["id"] for p in found}


def _append(site: WordsSite, match_id: int, event: dict[str, Any], role: str = "scorekeeper") -> Any:
    client = site.app.test_client()
    seq = site.service.reading.get_match(match_id)["last_seq"]
    answer = client.post(f"/api/v1/matches/{match_id}/events", json=event,
                         headers={"Authorization": f"Bearer {site.tokens[role]}",
                                  "If-Match": f'"{seq}"'})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def build_words_site(database_url: str, players: list[str] = PLAYERS,
                     entrants: list[list[str]] = ENTRANTS, name: str = NAME) -> WordsSite:
    """The club above; ``players`` (eight), ``entrants`` (four pairs) and the club's ``name``
    give another one the same matches (wide_site.py: long Spanish names)."""
    with open_service(database_url) as service:
        migrate(service.engine)
    app = create_app({"DATABASE_URL": database_url, "ACCESS_LOG": "0"})
    svc = app.extensions[EXTENSION]
    svc.clubs.create_club(CLUB, name)
    svc.clubs.settings(CLUB, public=True, tie_breakers=TIE_BREAKERS, timezone=ZONE)
    svc.keys.init(CLUB)
    site = WordsSite(app, svc, names=list(players))
    for role, label in LABELS.items():
        site.tokens[role] = svc.tokens.create_token(CLUB, role, label=label)

    header, events = random_match("parejas", players[:4], random.Random(3))
    from referee.core.log import make_log, write_log

    log = write_log(make_log({**header, "date": "2026-10-03", "event": "Liga de otoño"}, events))
    site.matches["finished"] = svc.recording.import_log(CLUB, log)["id"]

    for name in ("ruled", "open"):
        match_id = svc.recording.create_match(CLUB, SMALL, [players[4], players[0]], date="2026-10-10",
                                              table="2")["id"]
        for event in RENEGE:
            _append(site, match_id, event)
        site.matches[name] = match_id
    svc.disputes.apply_standard_penalty(site.matches["ruled"], 3, expected_seq=len(RENEGE))

    live = svc.recording.create_match(CLUB, {"preset": "parejas", "time_limit": 30},
                                      [players[2], players[3], players[6], players[7]], date="2026-10-17",
                                      table="5")["id"]
    _append(site, live, {"type": "deal"})
    _append(site, live, {"type": "play", "seat": 0, "tile": "6-6"})
    _append(site, live, {"type": "note", "text": "la mesa cojea"})
    _append(site, live, {"type": "void", "target": 3, "reason": "undone by the scorekeeper"})
    _append(site, live, {"type": "time"})
    _append(site, live, {"type": "play", "seat": 1, "tile": "5-4", "disputed": True})
    site.matches["live"] = live

    withdrawn = svc.recording.create_match(CLUB, "mano-a-mano", [players[5], players[1]])["id"]
    _append(site, withdrawn, {"type": "abandon", "reason": "se sentó quien no era"}, role="referee")
    site.matches["withdrawn"] = withdrawn

    svc.tournaments.create(CLUB, TOURNAMENT, "Copa de otoño", rules={"preset": "parejas", "target": 30},
                           format="pairs", rounds=3)
    for pair in entrants:
        svc.tournaments.enter(CLUB, TOURNAMENT, pair, confirm_new=True)
    svc.tournaments.pair(CLUB, TOURNAMENT)
    svc.tournaments.start_tables(CLUB, TOURNAMENT, 1)
    return site
