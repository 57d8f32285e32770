"""Helpers for the league tests (service, CLI, API): a small season of two divisions set up,
and a leg's game won at once (a forfeit, one referee's event)."""

from __future__ import annotations

from typing import Any

from referee.service import Service

FORMAT = {"singles": 2, "pairs": 1}  # three legs: quick to play, a walkover 2-1
SQUADS = {"crown": ["Ana", "Beto", "Carla"], "anchor": ["Dani", "Eva", "Fede"],
          "bell": ["Gabi", "Hugo", "Ines"], "swan": ["Juan", "Kike", "Lola"],
          "oak": ["Mara", "Nico"], "elm": ["Olga", "Pepe"], "ash": ["Rita", "Sara"]}
DIVISIONS = {"one": ["crown", "anchor", "bell", "swan"], "two": ["oak", "elm", "ash"]}


def set_up(service: Service, club: str, season: str = "2027", **settings: Any) -> None:
    """A season of DIVISIONS (four teams, then three), squads SQUADS, fixtures generated."""
    service.leagues.create_season(club, season, f"League {season}",
                                  **{"format": FORMAT, "first_day": "2027-01-07",
                                     "promotion": 1, "relegation": 1, **settings})
    for number, (division, names) in enumerate(DIVISIONS.items()):
        service.leagues.add_division(club, season, division, f"Division {number + 1}")
        for team in names:
            service.leagues.add_team(club, season, division, team, team.title())
            service.leagues.add_players(club, season, team, SQUADS[team], on="2027-01-01")
    service.leagues.generate(club, season)


def fixture_id(service: Service, club: str, home: str, away: str,
               season: str = "2027") -> int:
    return next(f["id"] for f in service.leagues.fixtures(club, season, team=home)
                if (f["home"], f["away"]) == (home, away))


def win_game(service: Service, match: int, side: int) -> None:
    """The match won by ``side`` at once: the other side forfeits it (a referee's ruling)."""
    seq = service.reading.get_match(match)["last_seq"]
    service.recording.record_event(match, {"type": "forfeit", "side": 1 - side,
                                           "reason": "test"}, expected_seq=seq)


def play(service: Service, club: str, fixture: int, legs: list[tuple[list[str], list[str], int]],
         season: str = "2027") -> list[int]:
    """Each leg (home players, away players, the winning side) played as one game; the
    matches."""
    made = []
    for number, (home, away, side) in enumerate(legs, start=1):
        game = service.leagues.record_leg(club, season, fixture, number, home=home, away=away)
        win_game(service, game["match"], side)
        made.append(game["match"])
    return made
