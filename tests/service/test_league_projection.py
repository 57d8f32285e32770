"""The league legs' results (``league_leg_results``, migration 0024), which the division tables,
team pages and averages read, on SQLite and PostgreSQL: a season played at random (legs won,
drawn out of best-of-3, conceded by one team or both, a walkover, a game still in play, a
ruling that turns a leg round) gives the tables and averages an independent computation gives
from each leg's match reports and the fixtures' concessions; the projection equals its
recomputation after each kind of change, a players merge included; ``domino db audit`` names a
row changed or removed behind the service's back, and a rebuild writes it right again."""

from __future__ import annotations

import random
import threading
from collections import Counter, defaultdict
from typing import Any

import pytest
from league_helpers import SQUADS, win_game
from sqlalchemy import delete, update

from referee.service import Service
from referee.service.legresults import differences
from referee.store import db
from referee.store import leagues as store
from referee.store.schema import league_leg_results

SEASON = "p27"
TEAMS = ["crown", "anchor", "bell", "swan"]
FORMAT = {"legs": [{"kind": "singles"}, {"kind": "singles"}, {"kind": "pairs", "best_of": 3}]}
KINDS = ["singles", "singles", "pairs"]
BEST_OF = [1, 1, 3]
MIN_LEGS = 2


def set_up(service: Service, club: str) -> None:
    service.leagues.create_season(club, SEASON, "Projection league", format=FORMAT,
                                  first_day="2027-01-07", min_legs=MIN_LEGS,
                                  points={"win": 3, "draw": 1, "per_leg": 1})
    service.leagues.add_division(club, SEASON, "one", "Division 1")
    for team in TEAMS:
        service.leagues.add_team(club, SEASON, "one", team, team.title())
        service.leagues.add_players(club, SEASON, team, SQUADS[team], on="2027-01-01")
    service.leagues.generate(club, SEASON)


def play_leg(service: Service, club: str, fixture: dict[str, Any], leg: int,
             home: list[str], away: list[str], rng: random.Random) -> list[int]:
    """The leg played game after game (a random winner each) until it is decided."""
    games: list[int] = []
    wins = [0, 0]
    need = BEST_OF[leg - 1] // 2 + 1
    while max(wins) < need:
        made = service.leagues.record_leg(club, SEASON, fixture["id"], leg, home=home,
                                          away=away)
        side = rng.randrange(2)
        win_game(service, made["match"], side)
        wins[side] += 1
        games.append(made["match"])
    return games


def play_season(service: Service, club: str, seed: int) -> None:
    """Every fixture but two played at random: one left alone, one with a game in play; one a
    walkover; legs conceded now and then."""
    rng = random.Random(seed)
    fixtures = service.leagues.fixtures(club, SEASON)
    rng.shuffle(fixtures)
    untouched, in_play, walkover, *played = fixtures
    service.leagues.walkover(club, SEASON, walkover["id"], rng.choice(["home", "away"]),
                             reason="did not turn up")
    service.leagues.record_leg(club, SEASON, in_play["id"], 1,
                               home=[SQUADS[in_play["home"]][0]],
                               away=[SQUADS[in_play["away"]][0]])
    for fixture in played:
        home, away = list(SQUADS[fixture["home"]]), list(SQUADS[fixture["away"]])
        rng.shuffle(home)
        rng.shuffle(away)
        named = [([home[0]], [away[0]]), ([home[1]], [away[1]]), (home[:2], away[:2])]
        for leg, (h, a) in enumerate(named, start=1):
            roll = rng.random()
            if roll < 0.1:
                service.leagues.concede(club, SEASON, fixture["id"], leg,
                                        rng.choice(["home", "away"]), reason="no player")
            elif roll < 0.13:
                for side in ("home", "away"):
                    service.leagues.concede(club, SEASON, fixture["id"], leg, side,
                                            reason="nobody")
            else:
                play_leg(service, club, fixture, leg, h, a, rng)


def independent(service: Service, club: str) -> tuple[dict[str, dict[str, int]],
                                                        dict[str, dict[str, int]]]:
    """Each team's table line and each player's average, computed here from the fixtures'
    walkovers and concessions and each leg's games' match reports (their winners and seats),
    not by the league engine."""
    walkover = service.leagues.season(club, SEASON)["format"]["walkover"]
    table: dict[str, Counter[str]] = {t: Counter() for t in TEAMS}
    players: dict[str, Counter[str]] = defaultdict(Counter)
    for line in service.leagues.fixtures(club, SEASON):
        sides = {"home": line["home"], "away": line["away"]}
        legs_won = {"home": 0, "away": 0}
        complete = True
        if line["walkover_by"] is not None:
            loser = line["walkover_by"]
            winner = "home" if loser == "away" else "away"
            legs_won = {winner: walkover[0], loser: walkover[1]}
        else:
            for number, leg in enumerate(service.leagues.fixture(club, SEASON,
                                                                 line["id"])["legs"], 1):
                conceded = leg["conceded_by"]
                if conceded:
                    if len(conceded) == 1:
                        legs_won["home" if conceded == ["away"] else "away"] += 1
                    continue
                wins = {"home": 0, "away": 0}
                seated: dict[str, list[str]] = {"home": [], "away": []}
                for game in leg["games"]:
                    report = service.reading.report(game["match"])
                    summary = service.reading.get_match(game["match"])
                    if game["game"] == 1:
                        for seat, name in enumerate(summary["players"]):
                            seated["home" if seat % 2 == 0 else "away"].append(name)
                    if report["finished"]:
                        wins["home" if report["winner"] == 0 else "away"] += 1
                need = BEST_OF[number - 1] // 2 + 1
                decided = [s for s in wins if wins[s] >= need]
                if not decided:
                    complete = False
                    continue
                legs_won[decided[0]] += 1
                kind = KINDS[number - 1]
                for side in ("home", "away"):
                    for name in seated[side]:
                        players[name][f"{kind}_played"] += 1
                        players[name][f"{kind}_won"] += side == decided[0]
        if not complete:
            continue
        for side, other in (("home", "away"), ("away", "home")):
            row = table[sides[side]]
            row["played"] += 1
            row["legs_for"] += legs_won[side]
            row["legs_against"] += legs_won[other]
            won, lost = legs_won[side] > legs_won[other], legs_won[side] < legs_won[other]
            row["won" if won else "lost" if lost else "drawn"] += 1
            if line["walkover_by"] != side:  # the team that gave a walkover scores nothing
                row["points"] += (3 if won else 0 if lost else 1) + legs_won[side]
    return ({t: {k: v for k, v in c.items() if v} for t, c in table.items()},
            {p: {k: v for k, v in c.items() if v} for p, c in players.items()})


TABLE_FIELDS = ("played", "won", "drawn", "lost", "legs_for", "legs_against", "points")
AVERAGE_FIELDS = ("singles_played", "singles_won", "pairs_played", "pairs_won")


def shown(service: Service, club: str) -> tuple[dict[str, dict[str, int]],
                                                  dict[str, dict[str, int]]]:
    """What the service shows: its table's lines and its averages, the same fields."""
    rows = service.leagues.table(club, SEASON, "one")["rows"]
    table = {r["team"]: {k: r[k] for k in TABLE_FIELDS if r[k]} for r in rows}
    averages = {a["player"]: {k: a[k] for k in AVERAGE_FIELDS if a[k]}
                for a in service.leagues.averages(club, SEASON)}
    return table, averages


def projection_differences(service: Service) -> list[Any]:
    with db.reading(service.engine) as conn:
        return differences(conn)


@pytest.mark.parametrize("seed", [1, 2])
def test_tables_and_averages_equal_an_independent_computation(service: Service, club: str,
                                                              seed: int) -> None:
    set_up(service, club)
    play_season(service, club, seed)
    (table, averages), (their_table, their_averages) = (shown(service, club),
                                                        independent(service, club))
    assert table == their_table
    assert {p: (averages.get(p), their_averages.get(p)) for p in averages | their_averages
            if averages.get(p) != their_averages.get(p)} == {}
    assert projection_differences(service) == []
    for team in TEAMS:  # a team's page: its division's fixtures it plays, as the listing says
        assert service.leagues.team(club, SEASON, team)["fixtures"] == \
            service.leagues.fixtures(club, SEASON, team=team)
    # the minimum of legs: those with fewer are unranked, listed after every ranked player
    lines = service.leagues.averages(club, SEASON)
    assert lines, "the season has averages"
    ranked = [a for a in lines if a["legs_played"] >= MIN_LEGS]
    assert all(a["rank"] is not None for a in ranked)
    assert all(a["rank"] is None for a in lines[len(ranked):])
    assert lines[:len(ranked)] == ranked
    rates = [a["win_rate"] for a in ranked]
    assert rates == sorted(rates, reverse=True)


def test_a_ruling_a_merge_and_a_rebuild_keep_it(service: Service, club: str) -> None:
    service.keys.init(club)  # every acta signed: the audit finds nothing but what is done here
    set_up(service, club)
    fixture = service.leagues.fixtures(club, SEASON, team="crown")[0]
    home, away = SQUADS[fixture["home"]], SQUADS[fixture["away"]]
    made = service.leagues.record_leg(club, SEASON, fixture["id"], 1, home=home[:1],
                                      away=away[:1])
    win_game(service, made["match"], 0)
    before = shown(service, club)
    # a ruling turns the leg round: the forfeit voided, the home side forfeits
    service.recording.record_event(made["match"], {"type": "void", "target": 1,
                                                   "reason": "wrong side"}, expected_seq=1)
    assert projection_differences(service) == []
    win_game(service, made["match"], 1)
    after = shown(service, club)
    assert after != before and after == independent(service, club)
    assert projection_differences(service) == []
    # the home player merged into a new player of the club: the leg is played by them now
    newcomer = service.players.create(club, "Zoe Newcomer")
    service.players.merge(club, home[0], newcomer["id"], "the same person")
    assert projection_differences(service) == []
    merged = shown(service, club)
    assert "Zoe Newcomer" in merged[1] and home[0] not in merged[1]

    # changed or removed behind the service's back: the audit names it, a rebuild mends it
    with db.writing(service.engine) as conn:
        conn.execute(update(league_leg_results).where(
            league_leg_results.c.fixture_id == fixture["id"]).values(games="h"))
        rows = conn.execute(league_leg_results.select()).all()
    assert rows
    found = [p.line() for p in service.audit.run().problems]
    assert any("league_leg_results" in line and "games" in line for line in found), found
    with db.writing(service.engine) as conn:
        conn.execute(delete(league_leg_results))
    found = [p.line() for p in service.audit.run().problems]
    assert any("league_leg_results" in line and "missing" in line for line in found), found
    service.rebuild()
    assert projection_differences(service) == []
    assert service.audit.run().problems == []
    assert shown(service, club) == merged


def test_two_changes_to_one_fixture_at_once_leave_it_right(service: Service, club: str,
                                                           database_url: str) -> None:
    """On PostgreSQL: a game of leg 1 won while another transaction concedes leg 2 of the same
    fixture and has not committed yet. The append's projection waits for the fixture's lock
    (2 s here, within the deployed 5 s lock timeout) and reads the concession once committed
    (before the lock, it wrote rows from before the concession, or collided with the other's
    rows)."""
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite's writers take turns: no two changes at once")
    set_up(service, club)
    fixture = service.leagues.fixtures(club, SEASON, team="crown")[0]
    home, away = SQUADS[fixture["home"]], SQUADS[fixture["away"]]
    game = service.leagues.record_leg(club, SEASON, fixture["id"], 1, home=home[:1],
                                      away=away[:1])
    errors: list[BaseException] = []

    def append() -> None:
        try:
            win_game(service, game["match"], 0)
        except BaseException as error:  # noqa: BLE001 (the assertion below says it)
            errors.append(error)

    with service.engine.connect() as conn, conn.begin():  # the concession, not committed yet
        store.set_leg(conn, fixture["id"], 2, "away", "no player")
        store.project_legs(conn, [fixture["id"]])
        racing = threading.Thread(target=append)
        racing.start()
        racing.join(timeout=2)  # it waits for the fixture's lock (or is done, unlocked)
    racing.join(timeout=120)
    assert errors == [] and not racing.is_alive()
    assert projection_differences(service) == []
    legs = service.leagues.fixture(club, SEASON, fixture["id"])["legs"]
    assert (legs[0]["winner"], legs[1]["conceded_by"]) == ("home", ["away"])
