"""A team cup's tie played as a fixture of the season's format (issue 35, docs/leagues.md
"Cups"), on SQLite and PostgreSQL: made once its two teams are known (home by the draw, on the
secretary's date), its legs recorded, conceded and walked over through the league's own fixture
use cases, confirmed by both captains and signed; the team that wins more legs wins the tie and
the bracket moves, again when a ruling on a leg turns it; a level fixture settled by a deciding
match of the cup's best_of. Refused with nothing changed: a pairs or players cup, a tie not
ready, a second fixture, a match before the fixture or while its legs decide the tie, another
draw once a fixture is made."""

from __future__ import annotations

import json

import pytest
from league_helpers import set_up, win_game

from referee.service import Invalid, Service
from referee.service.access import OPERATOR

SEASON = "2027"
TEAMS = ["crown", "anchor", "bell", "swan"]  # all of division one: they meet in the league too
PLAYERS = {"crown": ["Ana", "Beto", "Carla"], "anchor": ["Dani", "Eva", "Fede"],
           "bell": ["Gabi", "Hugo", "Ines"], "swan": ["Juan", "Kike", "Lola"]}


def tie(service: Service, club: str, tie_id: str, cup: str = "cup") -> dict:
    return next(t for t in service.leagues.cup(club, cup)["ties"] if t["id"] == tie_id)


def snapshot(service: Service, club: str) -> str:
    return json.dumps(service.leagues.cup(club, "cup"), sort_keys=True, default=str)


def legs(service: Service, club: str, fixture: int, home: str, away: str,
         sides: list[int]) -> list[int]:
    """The fixture's legs (two singles, one pairs) each won by its side in ``sides``."""
    h, a = PLAYERS[home], PLAYERS[away]
    named = [([h[0]], [a[0]]), ([h[1]], [a[1]]), ([h[0], h[2]], [a[0], a[2]])]
    made = []
    for number, (side, (mine, theirs)) in enumerate(zip(sides, named), start=1):
        game = service.leagues.record_leg(club, SEASON, fixture, number, home=mine, away=theirs)
        win_game(service, game["match"], side)
        made.append(game["match"])
    return made


@pytest.fixture
def cup(service: Service, club: str) -> str:
    service.keys.init(club)
    set_up(service, club)
    service.leagues.create_cup(club, "cup", "Cup", season=SEASON, entrants=TEAMS, best_of=3)
    service.leagues.draw(club, "cup", seeded=4)  # 1 v 4, 2 v 3: crown v swan, anchor v bell
    return "cup"


def test_a_tie_is_a_fixture_won_by_more_legs(service: Service, club: str, cup: str) -> None:
    first = tie(service, club, "W1-1")
    assert (first["home"], first["away"], first["fixture"]) == ("crown", "swan", None)
    made = service.leagues.fixture_tie(club, cup, "W1-1", on="2027-03-04")
    assert (made["home"], made["away"], made["date"]) == ("crown", "swan", "2027-03-04")
    f = made["fixture"]
    shown = service.leagues.fixture(club, SEASON, f)  # a fixture of the season's format
    assert [leg["kind"] for leg in shown["legs"]] == ["singles", "singles", "pairs"]
    assert (shown["home"], shown["away"], shown["date"]) == ("crown", "swan", "2027-03-04")
    assert tie(service, club, "W1-1")["fixture"]["id"] == f

    matches = legs(service, club, f, "crown", "swan", [1, 0, 1])
    after = tie(service, club, "W1-1")
    assert (after["status"], after["winner"], after["loser"]) == ("played", "swan", "crown")
    assert after["fixture"]["legs_won"] == {"home": 1, "away": 2}
    assert tie(service, club, "W2-1")["home"] == "swan"  # the bracket moved

    # both captains confirm; the sheet is signed as a league fixture's
    for side in ("home", "away"):
        service.leagues.confirm(club, SEASON, f, side=side)
    assert service.leagues.sheet(club, SEASON, f)["legs_won"] == {"home": 1, "away": 2}

    # a ruling on leg 3 turns the fixture, the tie and the bracket at once
    service.recording.record_event(matches[2], {"type": "void", "target": 1,
                                                "reason": "wrong side"}, expected_seq=1)
    assert tie(service, club, "W1-1")["status"] == "ready"
    win_game(service, matches[2], 0)
    after = tie(service, club, "W1-1")
    assert (after["winner"], after["fixture"]["legs_won"]) == ("crown",
                                                               {"home": 2, "away": 1})
    assert tie(service, club, "W2-1")["home"] == "crown"
    assert service.leagues.sheet(club, SEASON, f)["number"] == 2  # signed again


def test_a_level_fixture_is_settled_by_a_deciding_match(service: Service, club: str,
                                                        cup: str) -> None:
    f = service.leagues.fixture_tie(club, cup, "W1-2", on="2027-03-04")["fixture"]
    with pytest.raises(Invalid, match="only when they end level"):
        service.leagues.play_tie(club, cup, "W1-2", home=["Dani"], away=["Gabi"])
    legs(service, club, f, "anchor", "bell", [0, 1])
    service.leagues.concede(club, SEASON, f, 3, "home", reason="no pair")
    service.leagues.concede(club, SEASON, f, 3, "away", reason="no pair either")  # void
    level = tie(service, club, "W1-2")
    assert level["status"] == "ready" and level["fixture"]["complete"]
    assert level["fixture"]["level"] and level["fixture"]["legs_won"] == {"home": 1, "away": 1}
    # the deciding match, best of the cup's three, through the cup's own path: a team's
    # players from its squad, as many each
    before = snapshot(service, club)
    for home, away, said in ((["Nobody"], ["Gabi"], "squad"), (["Gabi"], ["Hugo"], "squad"),
                             (["Dani", "Eva"], ["Gabi"], "as many")):
        with pytest.raises(Invalid, match=said):
            service.leagues.play_tie(club, cup, "W1-2", home=home, away=away)
    assert snapshot(service, club) == before
    for side in (1, 0, 1):
        win_game(service, service.leagues.play_tie(club, cup, "W1-2", home=["Eva"],
                                                   away=["Hugo"])["match"], side)
    done = tie(service, club, "W1-2")
    assert (done["status"], done["winner"], done["won"]) == ("played", "bell",
                                                             {"home": 1, "away": 2})


def test_a_walkover_of_the_fixture_or_of_the_tie(service: Service, club: str,
                                                 cup: str) -> None:
    f = service.leagues.fixture_tie(club, cup, "W1-1", on="2027-03-04")["fixture"]
    service.leagues.walkover(club, SEASON, f, "home", reason="no show")
    assert tie(service, club, "W1-1")["winner"] == "swan"
    service.leagues.walkover_tie(club, cup, "W1-2", "away", reason="withdrew")  # stays
    final = tie(service, club, "W2-1")  # home: the smaller draw number
    assert (final["home"], final["away"], final["status"]) == ("anchor", "swan", "ready")
    made = service.leagues.fixture_tie(club, cup, "W2-1", on="2027-04-01")
    assert (made["home"], made["away"]) == ("anchor", "swan")


def test_refusals_change_nothing(service: Service, club: str, cup: str) -> None:
    before = snapshot(service, club)
    for args, error, said in [
        (("W1-1",), Invalid, "make its fixture first"),
    ]:
        with pytest.raises(error, match=said):
            service.leagues.play_tie(club, cup, *args, home=["Ana"], away=["Juan"])
    for tie_id, on, error, said in [
        ("W2-1", "2027-03-04", Invalid, "not decided"),
        ("W1-1", "2026-12-01", Invalid, "first fixture day"),
        ("W1-1", "soon", Invalid, "date"),
    ]:
        with pytest.raises(error, match=said):
            service.leagues.fixture_tie(club, cup, tie_id, on=on)
    assert snapshot(service, club) == before
    f = service.leagues.fixture_tie(club, cup, "W1-1", on="2027-03-04")["fixture"]
    with pytest.raises(Invalid, match="fixture already"):
        service.leagues.fixture_tie(club, cup, "W1-1", on="2027-03-11")
    with pytest.raises(Invalid, match="cannot be made again"):
        service.leagues.draw(club, cup, seed=7)
    assert service.leagues.fixture(club, SEASON, f)["date"] == "2027-03-04"
    league = [x for x in service.leagues.fixtures(club, SEASON, team="crown")
              if {x["home"], x["away"]} == {"crown", "swan"}]
    with pytest.raises(Invalid, match="the draw made its home team"):  # not the league's
        service.leagues.swap(club, SEASON, f, reason="their hall")
    assert [x for x in service.leagues.fixtures(club, SEASON, team="crown")
            if {x["home"], x["away"]} == {"crown", "swan"}] == league
    service.leagues.create_cup(club, "open", "Open", kind="players", entrants=["Ana", "Juan"])
    service.leagues.draw(club, "open")
    with pytest.raises(Invalid, match="as matches, not fixtures"):
        service.leagues.fixture_tie(club, "open", "W1-1", on="2027-03-04")


def test_a_ruling_on_an_earlier_tie_leaves_a_later_fixture_counting_for_nothing(
        service: Service, club: str, cup: str) -> None:
    first = service.leagues.fixture_tie(club, cup, "W1-1", on="2027-03-04")["fixture"]
    matches = legs(service, club, first, "crown", "swan", [0, 0, 1])  # crown 2-1
    service.leagues.walkover_tie(club, cup, "W1-2", "away", reason="withdrew")  # anchor
    final = service.leagues.fixture_tie(club, cup, "W2-1", on="2027-04-01")
    assert (final["home"], final["away"]) == ("crown", "anchor")
    with pytest.raises(Invalid, match="fixture already"):
        service.leagues.fixture_tie(club, cup, "W2-1", on="2027-04-08")
    # a ruling on W1-1's first leg: swan win it 2-1, so the final is anchor v swan now
    service.recording.record_event(matches[0], {"type": "void", "target": 1,
                                                "reason": "wrong side"}, expected_seq=1)
    win_game(service, matches[0], 1)
    now = tie(service, club, "W2-1")
    assert (now["home"], now["away"], now["status"]) == ("anchor", "swan", "ready")
    assert now["fixture"]["id"] == final["fixture"] and not now["fixture"]["counts"]
    with pytest.raises(Invalid, match="make its fixture first"):  # no deciding match of it
        service.leagues.play_tie(club, cup, "W2-1", home=["Dani"], away=["Juan"])
    again = service.leagues.fixture_tie(club, cup, "W2-1", on="2027-04-08")
    assert (again["home"], again["away"]) == ("anchor", "swan")
    assert tie(service, club, "W2-1")["fixture"]["id"] == again["fixture"]
    listed = {f["id"]: f["tie"] for f in service.leagues.cup_fixtures(club, SEASON)}
    assert listed == {first: "W1-1", again["fixture"]: "W2-1"}  # the old one no longer a tie's
    assert service.leagues.fixture(club, SEASON, final["fixture"])["home"] == "crown"


def test_a_rounds_fixtures_give_its_other_ties_their_date(service: Service, club: str,
                                                         cup: str) -> None:
    """The cups keep no round dates (docs/leagues.md says why): the desk offers a tie's fixture
    the date its round's latest fixture was made for, a postponement moving one fixture only,
    a fixture a ruling left counting for nothing giving none."""
    def offered() -> dict[str, str]:
        return service.leagues.desk_cup(club, cup, who=OPERATOR)["fixture_on"]

    assert offered() == {}
    first = service.leagues.fixture_tie(club, cup, "W1-1", on="2027-03-04")["fixture"]
    assert offered() == {"W1-1": "2027-03-04", "W1-2": "2027-03-04"}
    service.leagues.postpone(club, SEASON, first, "2027-03-06", reason="snow")
    assert offered()["W1-2"] == "2027-03-04"  # the round's day; one fixture moved
    matches = legs(service, club, first, "crown", "swan", [0, 0, 1])  # crown 2-1
    second = service.leagues.fixture_tie(club, cup, "W1-2", on="2027-03-11")["fixture"]
    assert offered()["W1-1"] == "2027-03-11"  # the latest made says the round's day now
    service.leagues.walkover(club, SEASON, second, by="away", reason="no van")  # anchor
    final = service.leagues.fixture_tie(club, cup, "W2-1", on="2027-04-01")["fixture"]
    assert offered()["W2-1"] == "2027-04-01"
    # a ruling turns W1-1 (swan through): the final's fixture counts for nothing, nor its day
    service.recording.record_event(matches[0], {"type": "void", "target": 1,
                                                "reason": "wrong side"}, expected_seq=1)
    win_game(service, matches[0], 1)
    assert tie(service, club, "W2-1")["fixture"]["id"] == final
    assert "W2-1" not in offered()
