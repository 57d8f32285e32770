"""svc.leagues on SQLite and PostgreSQL: a season set up, its fixtures generated from its
calendar, legs recorded as matches, a fixture's result derived from them, confirmed by both
captains (the wrong one refused) and signed; a ruling on a leg changes the fixture, the table
and the averages at once and signs the sheet again; bad input refused with nothing changed."""

from __future__ import annotations

import json

import pytest
from league_helpers import DIVISIONS, fixture_id, play, set_up, win_game

from referee.seal import documents
from referee.seal.keys import read_keys
from referee.service import Caller, Forbidden, Invalid, NotFound, Service
from referee.service.errors import Duplicate

SEASON = "2027"


def snapshot(service: Service, club: str) -> str:
    """Everything the season shows, to compare before and after a refused request."""
    leagues = service.leagues
    return json.dumps([leagues.season(club, SEASON), leagues.fixtures(club, SEASON),
                       [leagues.table(club, SEASON, d) for d in DIVISIONS],
                       leagues.averages(club, SEASON)], sort_keys=True, default=str)


def captain(service: Service, club: str, team: str) -> Caller:
    return service.tokens.authenticate(service.leagues.captain(club, SEASON, team))


def test_fixtures_from_the_calendar(service: Service, club: str) -> None:
    set_up(service, club, weeks_off=["2027-01-21"])
    one = service.leagues.fixtures(club, SEASON, division="one")
    two = service.leagues.fixtures(club, SEASON, division="two")
    assert len(one) == 12 and len(two) == 6  # 4 teams: 6 rounds of 2; 3 teams: 6 of 1
    days = sorted({f["date"] for f in one})
    assert days == ["2027-01-07", "2027-01-14", "2027-01-28", "2027-02-04", "2027-02-11",
                    "2027-02-18"]  # weekly, the week off skipped
    pairs = {(f["home"], f["away"]) for f in one}
    assert len(pairs) == 12 and all((a, h) in pairs for h, a in pairs)
    with pytest.raises(Invalid, match="fixtures already"):
        service.leagues.generate(club, SEASON)


def test_a_fixture_played_confirmed_signed_and_ruled_on(service: Service, club: str) -> None:
    service.keys.init(club)
    set_up(service, club)
    f = fixture_id(service, club, "crown", "anchor")
    home, away, other = (captain(service, club, t) for t in ("crown", "anchor", "bell"))
    matches = play(service, club, f, [(["Ana"], ["Dani"], 0), (["Beto"], ["Eva"], 1),
                                      (["Ana", "Carla"], ["Dani", "Fede"], 0)])
    shown = service.leagues.fixture(club, SEASON, f)
    assert shown["legs_won"] == {"home": 2, "away": 1} and shown["complete"]
    assert [leg["home"] for leg in shown["legs"]] == [["Ana"], ["Beto"], ["Ana", "Carla"]]

    with pytest.raises(Forbidden):
        service.leagues.confirm(club, SEASON, f, who=other)
    with pytest.raises(Forbidden):
        service.leagues.confirm(club, SEASON, f, side="away", who=home)
    first = service.leagues.confirm(club, SEASON, f, who=home)
    assert first["sheet"] is None
    done = service.leagues.confirm(club, SEASON, f, who=away)
    sheet = done["sheet"]
    assert sheet["number"] == 1 and sheet["legs_won"] == {"home": 2, "away": 1}
    keys = read_keys(json.dumps(service.keys.listing(club)))
    assert documents.signature_problems(sheet, keys, "the sheet") == []
    assert [g["match"] for leg in sheet["legs"] for g in leg["games"]] == matches
    # a leaf of the club's transparency log, as an acta is, and the audit finds it sound
    leaves = service.transparency.leaves(club, 0)
    assert leaves[sheet["leaf_index"]] == sheet
    proof = service.transparency.inclusion(club, sheet["leaf_index"])
    assert proof["index"] == sheet["leaf_index"]

    table = service.leagues.table(club, SEASON, "one")
    crown = next(r for r in table["rows"] if r["team"] == "crown")
    assert (crown["played"], crown["won"], crown["legs_for"], crown["points"]) == (1, 1, 2, 3)
    assert crown["place"] == 1

    # a ruling on leg 3: the forfeit voided, the other side forfeits: anchor win 2-1
    service.recording.record_event(matches[2], {"type": "void", "target": 1, "reason": "wrong side"},
                                   expected_seq=1)
    win_game(service, matches[2], 1)
    assert service.leagues.fixture(club, SEASON, f)["legs_won"] == {"home": 1, "away": 2}
    table = service.leagues.table(club, SEASON, "one")
    anchor = next(r for r in table["rows"] if r["team"] == "anchor")
    assert (anchor["won"], anchor["points"], anchor["place"]) == (1, 3, 1)
    averages = {a["player"]: a for a in service.leagues.averages(club, SEASON)}
    assert (averages["Fede"]["legs_won"], averages["Carla"]["legs_won"]) == (1, 0)
    again = service.leagues.sheet(club, SEASON, f)
    # signed again once the leg the void reopened is decided again
    assert again["number"] == 2 and again["legs_won"] == {"home": 1, "away": 2}
    assert again["confirmed"] == sheet["confirmed"]  # a ruling needs no new confirmation
    assert documents.signature_problems(again, keys, "the sheet") == []
    assert service.transparency.leaves(club, again["leaf_index"])[0] == again
    assert service.audit.run().problems == []


def test_bad_input_changes_nothing(service: Service, club: str) -> None:
    set_up(service, club)
    f = fixture_id(service, club, "crown", "anchor")
    before = snapshot(service, club)
    refused = [
        (Invalid, lambda: service.leagues.add_players(club, SEASON, "bell", ["Ana", "Zoe"])),
        (Invalid, lambda: service.leagues.record_leg(club, SEASON, f, 1, home=["Gabi"],
                                                     away=["Dani"])),
        (Invalid, lambda: service.leagues.record_leg(club, SEASON, f, 1, home=["Dani"],
                                                     away=["Ana"])),
        (Invalid, lambda: service.leagues.record_leg(club, SEASON, f, 3, home=["Ana"],
                                                     away=["Dani", "Eva"])),
        (Invalid, lambda: service.leagues.record_leg(club, SEASON, f, 4, home=["Ana"],
                                                     away=["Dani"])),
        (Invalid, lambda: service.leagues.postpone(club, SEASON, f, "2026-12-31",
                                                   reason="rain")),
        (Invalid, lambda: service.leagues.confirm(club, SEASON, f, side="home")),
        (Duplicate, lambda: service.leagues.create_season(club, SEASON, "Again",
                                                          format={"singles": 1},
                                                          first_day="2027-01-07")),
        (Invalid, lambda: service.leagues.create_season(club, "2028", "Bad",
                                                        format={"singles": 1},
                                                        first_day="2027-02-30")),
        (NotFound, lambda: service.leagues.fixture(club, SEASON, 99999)),
    ]
    for error, call in refused:
        with pytest.raises(error):
            call()
    assert snapshot(service, club) == before


def test_squads_postponements_concessions_and_walkovers(service: Service, club: str) -> None:
    set_up(service, club)
    moved = service.leagues.transfer(club, SEASON, "carla", "bell", reason="moved house",
                                     on="2027-02-01")
    assert (moved["from"], moved["to"]) == ("crown", "bell")
    season = service.leagues.season(club, SEASON)
    teams = {t["slug"]: t["squad"] for d in season["divisions"] for t in d["teams"]}
    assert "Carla" in teams["bell"] and "Carla" not in teams["crown"]
    assert season["transfers"] == [{"player": "Carla", "to": "bell", "on": "2027-02-01",
                                    "reason": "moved house"}]

    f = fixture_id(service, club, "oak", "elm")
    service.leagues.postpone(club, SEASON, f, "2027-03-02", reason="the pub flooded")
    shown = service.leagues.fixture(club, SEASON, f)
    assert shown["date"] == "2027-03-02" and shown["history"][0]["was"] == shown["scheduled"]
    service.leagues.concede(club, SEASON, f, 1, "home", reason="no player")
    service.leagues.concede(club, SEASON, f, 2, "home", reason="no player")
    service.leagues.concede(club, SEASON, f, 2, "away", reason="no player either")
    play_leg = service.leagues.record_leg(club, SEASON, f, 3, home=["Mara", "Nico"],
                                          away=["Olga", "Pepe"])
    win_game(service, play_leg["match"], 0)
    shown = service.leagues.fixture(club, SEASON, f)
    assert [leg["status"] for leg in shown["legs"]] == ["conceded", "void", "won"]
    assert shown["legs_won"] == {"home": 1, "away": 1} and shown["complete"]
    averages = {a["player"]: a for a in service.leagues.averages(club, SEASON, division="two")}
    assert set(averages) == {"Mara", "Nico", "Olga", "Pepe"}  # a conceded leg counts for none
    assert averages["Mara"]["pairs_won"] == 1

    w = fixture_id(service, club, "elm", "ash")
    service.leagues.walkover(club, SEASON, w, "away", reason="did not turn up")
    table = {r["team"]: r for r in service.leagues.table(club, SEASON, "two")["rows"]}
    # elm: drawn 1-1 at oak (1 point), then the walkover 2-1 (3 points)
    elm = table["elm"]
    assert (elm["won"], elm["drawn"], elm["legs_for"], elm["points"]) == (1, 1, 3, 4)
    assert (table["ash"]["lost"], table["ash"]["points"]) == (1, 0)
    service.leagues.deduct(club, SEASON, "elm", 1, reason="late result sheet")
    assert service.leagues.table(club, SEASON, "two")["rows"][0]["deducted"] == 1
    page = service.leagues.team(club, SEASON, "elm")
    assert page["table"]["points"] == 3 and len(page["fixtures"]) == 4


def test_a_match_recorded_already_tagged_as_a_leg(service: Service, club: str) -> None:
    set_up(service, club)
    f = fixture_id(service, club, "crown", "anchor")
    wrong = service.recording.create_match(club, "mano-a-mano", ["Gabi", "Dani"])["id"]
    with pytest.raises(Invalid, match="not a leg of fixture"):
        service.leagues.attach_leg(club, SEASON, f, 1, wrong)
    pairs = service.recording.create_match(club, "parejas", ["Ana", "Dani", "Beto", "Eva"])
    with pytest.raises(Invalid, match="singles leg"):
        service.leagues.attach_leg(club, SEASON, f, 1, pairs["id"])
    right = service.recording.create_match(club, "mano-a-mano", ["Beto", "Eva"])["id"]
    assert service.leagues.attach_leg(club, SEASON, f, 1, right)["game"] == 1
    with pytest.raises(Invalid, match="game of a leg already"):
        service.leagues.attach_leg(club, SEASON, f, 2, right)
    win_game(service, right, 1)
    shown = service.leagues.fixture(club, SEASON, f)
    assert shown["legs"][0]["winner"] == "away" and shown["legs"][0]["home"] == ["Beto"]


# A leg's refusals name the team in the reader's language: "home"/"away" inside a sentence
# stayed English in es/it ("la plantilla del equipo home"), and a match's sides were numbered
# from 0 ("su bando 0"); one sentence a team now.
TEAMS_SAID = {"en": ("home team", "away team"), "es": ("equipo local", "equipo visitante"),
              "it": ("squadra di casa", "squadra in trasferta")}


@pytest.mark.parametrize("lang", sorted(TEAMS_SAID))
def test_a_legs_refusals_name_the_team_in_the_readers_language(service: Service, club: str,
                                                                lang: str) -> None:
    import words

    set_up(service, club)
    f = fixture_id(service, club, "crown", "anchor")
    refusals = []
    for home, away in ((["Zoe"], ["Eva"]), (["Beto"], ["Zoe"])):
        with pytest.raises(Invalid) as refused:
            service.leagues.record_leg(club, SEASON, f, 1, home=home, away=away)
        refusals.append(refused.value)
    for players in (["Gabi", "Dani"], ["Beto", "Ana"]):
        match_id = service.recording.create_match(club, "mano-a-mano", players)["id"]
        with pytest.raises(Invalid) as refused:
            service.leagues.attach_leg(club, SEASON, f, 1, match_id)
        refusals.append(refused.value)
    token = words.use(lang)
    try:
        said = [words.message(refusal) for refusal in refusals]
    finally:
        words.reset(token)
    home, away = TEAMS_SAID[lang]
    assert [home in s for s in said] == [True, False, True, False], said
    assert [away in s for s in said] == [False, True, False, True], said
    if lang != "en":  # neither the English key nor a side counted from 0 ("bando 0", "parte 0")
        assert not any(word in s for s in said for word in ("home", "away", "bando", "parte")), said
