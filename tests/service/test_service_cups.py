"""svc.leagues' cups on SQLite and PostgreSQL: a cup of a season's teams, or of the club's players
or pairs without a league, created, drawn from a recorded seed (again identical; another seed
refused once a tie is played), its ties played as matches (best of n, a drawn match played
again), a ruling on a match changing the tie and the bracket at once, and every bad input
refused with nothing changed; a cup's rows changed behind the service (its seed, a match's
sides) refused on every read and named by the audit (row MACs)."""

from __future__ import annotations

import json

import pytest
from league_helpers import SQUADS, fixture_id, set_up, win_game
from league_helpers import play as play_legs
from sqlalchemy import text

from referee.service import Invalid, NotFound, Service
from referee.service.errors import Duplicate, RowForged
from referee.service.leagues import draw_cup

SEASON = "2027"
TEAMS = ["crown", "anchor", "bell", "swan", "oak"]


def snapshot(service: Service, club: str, cup: str) -> str:
    return json.dumps(service.leagues.cup(club, cup), sort_keys=True, default=str)


def play(service: Service, club: str, cup: str, tie: str, side: int,
         **players: list[str]) -> int:
    """The tie's next match, won by ``side`` at once; its id."""
    match = service.leagues.play_tie(club, cup, tie, **players)["match"]
    win_game(service, match, side)
    return match


def tie(service: Service, club: str, cup: str, tie_id: str) -> dict:
    return next(t for t in service.leagues.cup(club, cup)["ties"] if t["id"] == tie_id)


def test_a_team_cup_drawn_played_and_ruled_on(service: Service, club: str) -> None:
    set_up(service, club)
    made = service.leagues.create_cup(club, "knockout", "The Knockout", season=SEASON,
                                      entrants=TEAMS)
    assert made["entrants"] == TEAMS and made["kind"] == "teams"
    drawn = service.leagues.draw(club, "knockout", seed=2025, seeded=1)
    expected = draw_cup(TEAMS, 2025, 1)
    assert drawn["order"] == list(expected.order) and drawn["seed"] == 2025
    cup = service.leagues.cup(club, "knockout")
    assert cup["seed"] == 2025 and cup["seeded"] == 1
    assert [e["key"] for e in cup["entrants"]] == TEAMS  # the pot in its recorded order
    ties = {t["id"]: t for t in cup["ties"]}
    assert [t["status"] for t in cup["ties"] if t["round"] == 1].count("bye") == 3
    assert ties["W1-1"]["home"] == "crown" and ties["W1-1"]["status"] == "bye"  # the seed

    ready = next(t for t in cup["ties"] if t["status"] == "ready")
    # a team cup's tie is a fixture of the season's format, the home team (smaller draw
    # number) at home; its legs' players from the squads (tests/service/test_service_cup_
    # fixtures.py plays a whole cup's so)
    home, away = ready["home"], ready["away"]
    f = service.leagues.fixture_tie(club, "knockout", ready["id"], on="2027-03-04")["fixture"]
    h, a = SQUADS[home], SQUADS[away]
    matches = play_legs(service, club, f, [([h[0]], [a[0]], 1), ([h[1]], [a[1]], 0),
                                           ([h[0], h[1]], [a[0], a[1]], 1)])
    after = tie(service, club, "knockout", ready["id"])
    assert (after["status"], after["winner"], after["loser"]) == ("played", away, home)
    assert after["fixture"]["id"] == f and after["fixture"]["legs_won"] == {"home": 1,
                                                                            "away": 2}
    match = matches[2]

    # a ruling on a leg's match: void the forfeit, the other side forfeits: the tie changes
    service.recording.record_event(match, {"type": "void", "target": 1, "reason": "wrong"},
                                   expected_seq=1)
    assert tie(service, club, "knockout", ready["id"])["status"] == "ready"
    win_game(service, match, 0)
    assert tie(service, club, "knockout", ready["id"])["winner"] == home

    # the draw again from the same seed is the same; another is refused once a tie is played
    before = snapshot(service, club, "knockout")
    assert service.leagues.draw(club, "knockout", seed=2025, seeded=1) == drawn
    with pytest.raises(Invalid, match="cannot be made again"):
        service.leagues.draw(club, "knockout", seed=2026, seeded=1)
    with pytest.raises(Invalid, match="cannot be made again"):
        service.leagues.draw(club, "knockout")
    assert snapshot(service, club, "knockout") == before


def test_a_club_cup_of_players_in_double_elimination(service: Service, club: str) -> None:
    names = ["Ana", "Beto", "Carla", "Dani"]
    service.leagues.create_cup(club, "singles", "Singles", kind="players", entrants=names,
                               format="double_elimination")
    service.leagues.draw(club, "singles", seeded=4)  # seeded whole: no seed needed
    cup = service.leagues.cup(club, "singles")
    assert cup["seed"] is None and cup["season"] is None
    # seeds 1-4, 2-3; winners' final, losers' bracket, the grand final and its second match
    results = [("W1-1", 0), ("W1-2", 0), ("W2-1", 1), ("L1-1", 0), ("L2-1", 0), ("F1", 0)]
    for tie_id, side in results:
        play(service, club, "singles", tie_id, side)
    cup = service.leagues.cup(club, "singles")
    ties = {t["id"]: t for t in cup["ties"]}
    assert ties["F1"]["winner"] == ties["L2-1"]["winner"]  # the losers' side won the first
    assert ties["F2"]["status"] == "ready" and cup["champion"] is None
    play(service, club, "singles", "F2", 0)
    cup = service.leagues.cup(club, "singles")
    assert cup["champion"] == tie(service, club, "singles", "F2")["winner"]
    losses: dict[str, int] = {}
    for t in cup["ties"]:
        if t["status"] == "played":
            losses[t["loser"]] = losses.get(t["loser"], 0) + 1
    assert sorted(losses.values()) == [1, 2, 2, 2]  # everyone out lost twice


def test_pairs_best_of_three_and_a_drawn_match_decides_nothing(service: Service,
                                                                  club: str) -> None:
    pairs = [["Ana", "Beto"], ["Carla", "Dani"]]
    service.leagues.create_cup(club, "pairs", "Pairs", kind="pairs", entrants=pairs,
                               best_of=3)
    service.leagues.draw(club, "pairs", seeded=2)
    play(service, club, "pairs", "W1-1", 0)
    play(service, club, "pairs", "W1-1", 1)
    assert tie(service, club, "pairs", "W1-1")["status"] == "ready"
    play(service, club, "pairs", "W1-1", 0)
    done = tie(service, club, "pairs", "W1-1")
    assert (done["winner"], done["won"]) == ("Ana & Beto", {"home": 2, "away": 1})
    assert service.leagues.cup(club, "pairs")["champion"] == "Ana & Beto"
    with pytest.raises(Invalid, match="decided already"):
        service.leagues.play_tie(club, "pairs", "W1-1")


def test_a_ruling_before_a_later_tie_leaves_its_matches_out(service: Service,
                                                           club: str) -> None:
    names = ["Ana", "Beto", "Carla", "Dani"]
    service.leagues.create_cup(club, "open", "Open", kind="players", entrants=names)
    service.leagues.draw(club, "open", seeded=4)  # W1-1 Ana v Dani, W1-2 Beto v Carla
    first = play(service, club, "open", "W1-1", 0)
    play(service, club, "open", "W1-2", 0)
    final = play(service, club, "open", "W2-1", 0)
    assert service.leagues.cup(club, "open")["champion"] == "Ana"
    service.recording.record_event(first, {"type": "void", "target": 1, "reason": "wrong"},
                                   expected_seq=1)
    win_game(service, first, 1)  # Dani won W1-1 after all
    cup = service.leagues.cup(club, "open")
    ties = {t["id"]: t for t in cup["ties"]}
    assert ties["W1-1"]["winner"] == "Dani" and cup["champion"] is None
    assert ties["W2-1"]["status"] == "ready" and ties["W2-1"]["home"] == "Beto"
    assert ties["W2-1"]["matches"] == [{"game": 1, "match": final, "status": "finished",
                                        "home": "Ana", "away": "Beto", "winner": "Ana",
                                        "counts": False}]
    play(service, club, "open", "W2-1", 1)  # Beto v Dani again: game 2
    assert service.leagues.cup(club, "open")["champion"] == "Dani"


def test_a_result_from_matches_recorded_already(service: Service, club: str) -> None:
    service.leagues.create_cup(club, "open", "Open", kind="players",
                               entrants=["Ana", "Beto", "Carla"])
    service.leagues.draw(club, "open", seeded=3)  # W1-1 Ana bye, W1-2 Beto v Carla
    made = service.recording.create_match(club, "mano-a-mano", ["Carla", "Beto"])
    win_game(service, made["id"], 0)  # Carla, on side 0, wins
    other = service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"])
    before = snapshot(service, club, "open")
    refusals = [
        (dict(tie="W1-2", matches=[made["id"]], winner="Beto"), Invalid, "not won by"),
        (dict(tie="W1-2", matches=[made["id"]], winner="Ana"), Invalid, "between"),
        (dict(tie="W1-2", matches=[other["id"]]), Invalid, "not a match of"),
        (dict(tie="W2-1", matches=[made["id"]]), Invalid, "not decided"),
        (dict(tie="W1-1", matches=[made["id"]]), Invalid, "bye"),
        (dict(tie="W9-9", matches=[made["id"]]), NotFound, "no tie"),
        (dict(tie="W1-2", matches=[99999]), NotFound, "no match"),
        (dict(tie="W1-2", matches=[]), Invalid, "matches"),
    ]
    for kwargs, error, says in refusals:
        with pytest.raises(error, match=says):
            service.leagues.record_tie(club, "open", **kwargs)
        assert snapshot(service, club, "open") == before
    done = service.leagues.record_tie(club, "open", "W1-2", matches=[made["id"]],
                                      winner="Carla")
    assert done == {"cup": "open", "tie": "W1-2", "status": "played", "winner": "Carla"}
    with pytest.raises(Invalid, match="decided already"):
        service.leagues.record_tie(club, "open", "W1-2", matches=[other["id"]])


def test_bad_cups_are_refused(service: Service, club: str) -> None:
    set_up(service, club)
    bad = [
        (dict(entrants=TEAMS), Invalid, "season"),  # a team cup without its season
        (dict(entrants=["crown"], season=SEASON), Invalid, "from 2"),
        (dict(entrants=["crown", "crown"], season=SEASON), Invalid, "twice"),
        (dict(entrants=["crown", "nope"], season=SEASON), Invalid, "no team"),
        (dict(entrants=["Ana", "ana"], kind="players"), Invalid, "seated twice"),
        (dict(entrants=[["Ana", "Beto"], ["Beto", "Carla"]], kind="pairs"), Invalid,
         "seated twice"),
        (dict(entrants=[["Ana"], ["Beto", "Carla"]], kind="pairs"), Invalid, "two player"),
        (dict(entrants=TEAMS, season=SEASON, best_of=2), Invalid, "odd"),
        (dict(entrants=TEAMS, season=SEASON, format="swiss"), Invalid, "format"),
        (dict(entrants=TEAMS, season=SEASON, kind="clubs"), Invalid, "kind"),
        (dict(entrants=TEAMS, season="1999"), NotFound, "no season"),
    ]
    for kwargs, error, says in bad:
        with pytest.raises(error, match=says):
            service.leagues.create_cup(club, "cup", "Cup", **kwargs)
    assert service.leagues.cups(club) == []
    service.leagues.create_cup(club, "cup", "Cup", season=SEASON, entrants=TEAMS)
    with pytest.raises(Duplicate):
        service.leagues.create_cup(club, "cup", "Cup", season=SEASON, entrants=TEAMS)
    with pytest.raises(Invalid, match="not drawn"):
        service.leagues.play_tie(club, "cup", "W1-1")
    with pytest.raises(NotFound):
        service.leagues.draw(club, "nope")
    for seeded, seed in ((6, None), (-1, None), (0, -5), (0, 2**64)):
        with pytest.raises(Invalid):
            service.leagues.draw(club, "cup", seed=seed, seeded=seeded)
    assert not service.leagues.cups(club)[0]["drawn"]
    service.leagues.draw(club, "cup", seed=7)
    service.leagues.draw(club, "cup", seed=8)  # again, while no tie is played
    assert service.leagues.cup(club, "cup")["seed"] == 8
    ready = next(t for t in service.leagues.cup(club, "cup")["ties"] if t["status"] == "ready")
    with pytest.raises(Invalid, match="make its fixture first"):  # a team cup's tie
        service.leagues.play_tie(club, "cup", ready["id"], home=["Nobody"], away=["Ana"])
    listed = service.leagues.cups(club, season=SEASON)
    assert [(c["slug"], c["drawn"], c["entrants"]) for c in listed] == [("cup", True, 5)]


def test_a_draw_seeded_by_a_ranking_or_the_tables(service: Service, club: str) -> None:
    set_up(service, club)
    crown = fixture_id(service, club, "crown", "anchor")
    play_legs(service, club, crown, [(["Ana"], ["Dani"], 0), (["Beto"], ["Eva"], 0),
                                     (["Ana", "Carla"], ["Dani", "Fede"], 0)])
    service.leagues.create_cup(club, "ko", "KO", season=SEASON,
                               entrants=["oak", "anchor", "crown", "swan"])
    # division one's table: crown (3 points), then swan (level on none), anchor (0-3)
    drawn = service.leagues.draw(club, "ko", seeded=2, ranking="table", seed=1)
    assert drawn["order"][:2] == ["crown", "swan"] and drawn["seeded"] == 2
    cup = service.leagues.cup(club, "ko")
    assert [e["key"] for e in cup["entrants"]] == ["crown", "swan", "anchor", "oak"]
    again = service.leagues.draw(club, "ko", ranking=["oak", "anchor"], seed=1)
    assert again["order"][:2] == ["oak", "anchor"] and again["seeded"] == 2
    redrawn = draw_cup(["oak", "anchor", "crown", "swan"], 1, 2)  # the pot as recorded
    assert again["order"] == list(redrawn.order)
    before = snapshot(service, club, "ko")
    for ranking, says in ((["oak", "oak"], "twice"), (["elm"], "not an entrant"),
                          ("points", "best first")):
        with pytest.raises(Invalid, match=says):
            service.leagues.draw(club, "ko", ranking=ranking)
    assert snapshot(service, club, "ko") == before
    service.leagues.create_cup(club, "open", "Open", kind="players", entrants=["Ana", "Beto"])
    with pytest.raises(Invalid, match="tables"):
        service.leagues.draw(club, "open", ranking="table")


def test_a_cup_changed_behind_the_service_is_refused_and_named(service: Service,
                                                                club: str) -> None:
    service.leagues.create_cup(club, "open", "Open", kind="players",
                               entrants=["Ana", "Beto", "Carla"])
    service.leagues.draw(club, "open", seed=5)
    match = service.leagues.play_tie(club, "open", "W1-2")["match"]
    assert service.audit.run().problems == []
    # a database writer moves the seed (another draw) and swaps a match's sides
    with service.engine.begin() as conn:
        conn.execute(text("UPDATE league_cups SET seed = '6' WHERE slug = 'open'"))
    with pytest.raises(RowForged, match="cup open"):
        service.leagues.cup(club, "open")
    with pytest.raises(RowForged):
        service.leagues.cups(club)
    with pytest.raises(RowForged):
        service.leagues.draw(club, "open", seed=5)
    found = [p.line() for p in service.audit.run().problems]
    assert any("cup open fails its MAC" in line for line in found), found
    with service.engine.begin() as conn:
        conn.execute(text("UPDATE league_cups SET seed = '5' WHERE slug = 'open'"))
        conn.execute(text("UPDATE league_cup_matches SET home = away, away = home "
                          f"WHERE match_id = {match}"))
    with pytest.raises(RowForged, match="cup open"):
        service.leagues.cup(club, "open")
    found = [p.line() for p in service.audit.run().problems]
    assert any(f"match {match} (W1-2) fails its MAC" in line for line in found), found
