"""The disputes desk's fixture club: ``casino`` (private) with one finished mano-a-mano match
in which Lucía Gómez passed holding a five. Closed recording: seat 1 passes at 3 with both ends
at 5, then plays the 5-2 at 5 without drawing (draw: none), which proves the renege; Marco Rossi
goes out at 6 and Lucía shows her last two tiles at 7. The rules' standard penalty is 10 points.
"""

from __future__ import annotations

from typing import Any

from api_helpers import Api

RULES = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none", "target": 5, "foul_points": 10}
PLAYERS = ["Marco Rossi", "Lucía Gómez"]
PASSED_HOLDING_A_FIVE = [
    {"type": "deal"}, {"type": "play", "seat": 0, "tile": "5-5"}, {"type": "pass", "seat": 1},
    {"type": "play", "seat": 0, "tile": "5-3"}, {"type": "play", "seat": 1, "tile": "5-2"},
    {"type": "play", "seat": 0, "tile": "3-1"},
    {"type": "reveal", "seat": 1, "tiles": ["4-4", "2-1"]},
]
DISPUTED = 3  # the pass


def passed_holding_a_five(api: Api, club: str = "casino", table: str | None = "4") -> int:
    """The match recorded through the API as a scorekeeper would, event by event; its id."""
    header: dict[str, Any] = {"date": "2026-11-27"}
    if table:
        header["table"] = table
    match_id = api.service.recording.create_match(club, RULES, PLAYERS, **header)["id"]
    for seq, event in enumerate(PASSED_HOLDING_A_FIVE):
        response = api.append(match_id, event, seq, club=club)
        assert response.status_code == 201, response.get_json()
    return match_id
