"""A team cup's tie is a fixture of ``league_fixtures`` (migration 0027), played through the
league's own fixture use cases, but no league read counts it: the fixtures' listings (by week,
by team), the division's table, the players' averages, a team's page, the calendar feeds' league
fixtures, the legs' results the tables read (``league_leg_results``), ``domino db audit`` and
``rebuild``. Each assertion fails if the cup's fixture leaks in. The calendar feeds list the
cup's fixtures apart, after the league's, each marked with its cup and tie (a team plays them on
its fixture days)."""

from __future__ import annotations

from league_helpers import fixture_id, play, set_up, win_game
from sqlalchemy import text

from referee.service import Service
from referee.service.access import OPERATOR
from referee.store import db

SEASON = "2027"


def _cup_fixture(service: Service, club: str, like: int, tie: str, **values: object) -> int:
    """A fixture of the cup ``cup`` between the two teams of the league's fixture ``like``
    (what the cups' use cases make: the store's row, written here as it is)."""
    names = "".join(f", {name}" for name in values)
    params = "".join(f", :{name}" for name in values)
    with service.engine.begin() as conn:
        cup = conn.execute(text("SELECT id FROM league_cups WHERE slug = 'cup'")).scalar_one()
        conn.execute(text(
            f"INSERT INTO league_fixtures (season_id, division_id, round, home_id, away_id, "
            f"played_on, scheduled_on, version, cup_id, cup_tie{names}) "
            f"SELECT season_id, division_id, 1, home_id, away_id, played_on, scheduled_on, 1, "
            f":cup, :tie{params} FROM league_fixtures WHERE id = :id"),
            {"id": like, "cup": cup, "tie": tie, **values})
        return conn.execute(text("SELECT id FROM league_fixtures WHERE cup_tie = :tie"),
                            {"tie": tie}).scalar_one()


def _reads(service: Service, club: str) -> dict[str, object]:
    leagues = service.leagues
    with db.reading(service.engine) as conn:
        kept = conn.execute(text("SELECT fixture_id, leg, games FROM league_leg_results "
                                 "ORDER BY fixture_id, leg")).all()
    return {"fixtures": leagues.fixtures(club, SEASON),
            "crown": leagues.fixtures(club, SEASON, team="crown"),
            "weeks": leagues.fixtures_page(club, SEASON, who=OPERATOR)["weeks"],
            "table": leagues.table(club, SEASON, "one"),
            "averages": leagues.averages(club, SEASON),
            "division averages": leagues.averages(club, SEASON, division="one"),
            "team": leagues.team(club, SEASON, "crown"),
            "calendar": _league_only(leagues.calendar(club, SEASON, who=OPERATOR)),
            "team calendar": _league_only(leagues.calendar(club, SEASON, team="anchor",
                                                           who=OPERATOR)),
            "home": {key: leagues.home_page(club, SEASON, who=OPERATOR)[key]
                     for key in ("this_week", "awaiting", "latest")},
            "leg results": kept}


def _league_only(calendar: dict[str, object]) -> list[dict[str, object]]:
    """A feed's league fixtures: its cups' ties are the ones with a ``cup``."""
    return [f for f in calendar["fixtures"] if "cup" not in f]  # type: ignore[attr-defined]


def test_a_cup_fixture_counts_in_no_league_read(service: Service, club: str) -> None:
    service.keys.init(club)  # every match's acta signed: the audit has nothing else to say
    set_up(service, club)
    league = fixture_id(service, club, "crown", "anchor")
    play(service, club, league, [(["Ana"], ["Dani"], 0), (["Beto"], ["Eva"], 0),
                                 (["Ana", "Beto"], ["Dani", "Eva"], 1)])
    service.leagues.create_cup(club, "cup", "Cup", entrants=["crown", "anchor", "bell"],
                               season=SEASON)
    before = _reads(service, club)
    assert before["table"]["rows"][0]["team"] == "crown"

    # the cup's ties: one played through the league's own leg use cases (Carla and Fede, who
    # have no league leg, win one each), one a walkover
    played = _cup_fixture(service, club, league, "W1-1")
    for leg, (home, away, side) in enumerate([(["Carla"], ["Fede"], 1),
                                              (["Beto"], ["Eva"], 1),
                                              (["Carla", "Ana"], ["Fede", "Dani"], 0)], 1):
        game = service.leagues.record_leg(club, SEASON, played, leg, home=home, away=away)
        win_game(service, game["match"], side)
    shown = service.leagues.fixture(club, SEASON, played)
    assert shown["legs_won"] == {"home": 1, "away": 2} and shown["complete"]
    walked = _cup_fixture(service, club, fixture_id(service, club, "bell", "crown"), "W1-2",
                          walkover_by="away", walkover_reason="no show")

    after = _reads(service, club)
    for name, read in before.items():
        assert after[name] == read, name
    ids = {f["id"] for f in after["fixtures"]}
    assert not ids & {played, walked}
    feed = service.leagues.calendar(club, SEASON, who=OPERATOR)["fixtures"]
    assert [(f["id"], f["tie"], f["cup"], f["cup_name"]) for f in feed if "cup" in f] == [
        (played, "W1-1", "cup", "Cup"), (walked, "W1-2", "cup", "Cup")]
    assert feed[:len(after["calendar"])] == after["calendar"]  # the league's first
    anchor = service.leagues.calendar(club, SEASON, team="anchor", who=OPERATOR)["fixtures"]
    assert [f["id"] for f in anchor if "cup" in f] == [played]  # bell v crown is not anchor's
    crown = next(r for r in after["table"]["rows"] if r["team"] == "crown")
    assert (crown["played"], crown["points"]) == (1, 3)
    assert "Carla" not in {a["player"] for a in after["averages"]}

    # the audit finds the legs' results as they should be; a rebuild writes the same
    assert service.audit.run().as_dict()["problems"] == []
    service.rebuild(force=True)
    assert _reads(service, club)["leg results"] == before["leg results"]
