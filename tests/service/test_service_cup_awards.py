"""svc.leagues' ties decided without a match, on SQLite and PostgreSQL: a tie conceded (before a
match or after some) or given as a walkover moves the bracket at once, its reason kept; each
refusal (a tie decided, not known yet, a bye, a match in play, a walkover after a match, a bad
side or reason, no such tie) changes nothing; a ruling on an earlier tie that changes who plays
a conceded one leaves the concession counting for nothing; the award's row carries a MAC."""

from __future__ import annotations

import json

import pytest
from league_helpers import set_up, win_game
from sqlalchemy import text

from referee.service import Invalid, NotFound, Service
from referee.service.access import OPERATOR
from referee.service.errors import RowForged

NAMES = ["Ana", "Beto", "Carla", "Dani"]


def snapshot(service: Service, club: str, cup: str) -> str:
    return json.dumps(service.leagues.cup(club, cup), sort_keys=True, default=str)


def ties(service: Service, club: str, cup: str) -> dict[str, dict]:
    return {t["id"]: t for t in service.leagues.cup(club, cup)["ties"]}


def players_cup(service: Service, club: str, slug: str = "open", **more) -> None:
    service.leagues.create_cup(club, slug, "Open", kind="players", entrants=NAMES, **more)
    service.leagues.draw(club, slug, seeded=4)  # 1-4 (W1-1), 2-3 (W1-2)


def test_a_concession_and_a_walkover_move_the_bracket(service: Service, club: str) -> None:
    players_cup(service, club)
    made = service.leagues.concede_tie(club, "open", "W1-1", "away", reason="injured")
    assert made == {"cup": "open", "tie": "W1-1", "kind": "conceded", "by": "away",
                    "entrant": "Dani", "winner": "Ana", "reason": "injured"}
    given = service.leagues.walkover_tie(club, "open", "W1-2", "home", reason="no show")
    assert given["winner"] == "Carla" and given["entrant"] == "Beto"
    now = ties(service, club, "open")
    assert (now["W1-1"]["status"], now["W1-1"]["winner"], now["W1-1"]["loser"]) == (
        "played", "Ana", "Dani")
    assert now["W1-1"]["won"] == {"home": 0, "away": 0} and now["W1-1"]["matches"] == []
    award = now["W1-2"]["awards"][0]
    assert (award["kind"], award["by"], award["entrant"], award["winner"], award["reason"],
            award["counts"]) == ("walkover", "home", "Beto", "Carla", "no show", True)
    assert (now["W2-1"]["status"], now["W2-1"]["home"], now["W2-1"]["away"]) == (
        "ready", "Ana", "Carla")
    service.leagues.concede_tie(club, "open", "W2-1", "home", reason="withdrew")
    assert service.leagues.cup(club, "open")["champion"] == "Carla"
    assert service.leagues.cups(club)[0]["champion"] == "Carla"
    assert service.audit.run().problems == []


def test_a_concession_after_a_match_of_best_of_three(service: Service, club: str) -> None:
    players_cup(service, club, best_of=3)
    match = service.leagues.play_tie(club, "open", "W1-1")["match"]
    win_game(service, match, 1)  # Dani leads 1-0
    with pytest.raises(Invalid, match="no walkover"):
        service.leagues.walkover_tie(club, "open", "W1-1", "home", reason="late")
    service.leagues.concede_tie(club, "open", "W1-1", "away", reason="a train to catch")
    done = ties(service, club, "open")["W1-1"]
    assert (done["winner"], done["won"]) == ("Ana", {"home": 0, "away": 1})
    with pytest.raises(Invalid, match="decided already"):
        service.leagues.play_tie(club, "open", "W1-1")


def test_every_refusal_changes_nothing(service: Service, club: str) -> None:
    service.leagues.create_cup(club, "open", "Open", kind="players", entrants=NAMES[:3])
    with pytest.raises(Invalid, match="not drawn"):
        service.leagues.concede_tie(club, "open", "W1-1", "home", reason="x")
    service.leagues.draw(club, "open", seeded=3)  # Ana has a bye (W1-1); Beto-Carla W1-2
    before = snapshot(service, club, "open")
    refusals = [
        (NotFound, "no tie", dict(tie="W9-9", by="home", reason="x")),
        (Invalid, "bye", dict(tie="W1-1", by="home", reason="x")),
        (Invalid, "not decided", dict(tie="W2-1", by="home", reason="x")),
        (Invalid, "by", dict(tie="W1-2", by="neither", reason="x")),
        (Invalid, "reason", dict(tie="W1-2", by="home", reason="")),
    ]
    for error, words, args in refusals:
        for use in (service.leagues.concede_tie, service.leagues.walkover_tie):
            with pytest.raises(error, match=words):
                use(club, "open", args["tie"], args["by"], reason=args["reason"])
    with pytest.raises(NotFound):
        service.leagues.concede_tie(club, "nope", "W1-2", "home", reason="x")
    match = service.leagues.play_tie(club, "open", "W1-2")["match"]  # in play
    with pytest.raises(Invalid, match="in play"):
        service.leagues.concede_tie(club, "open", "W1-2", "home", reason="x")
    win_game(service, match, 0)
    before = snapshot(service, club, "open")
    for use in (service.leagues.concede_tie, service.leagues.walkover_tie):
        with pytest.raises(Invalid, match="decided already"):
            use(club, "open", "W1-2", "away", reason="x")
    assert snapshot(service, club, "open") == before


def test_a_ruling_that_changes_who_plays_leaves_the_concession_void(service: Service,
                                                                     club: str) -> None:
    players_cup(service, club)
    first = service.leagues.play_tie(club, "open", "W1-1")["match"]
    win_game(service, first, 0)  # Ana
    service.leagues.walkover_tie(club, "open", "W1-2", "away", reason="no show")  # Beto
    service.leagues.concede_tie(club, "open", "W2-1", "away", reason="ill")  # Beto concedes
    assert service.leagues.cup(club, "open")["champion"] == "Ana"
    # a ruling: Dani won W1-1; the final is Dani v Beto now, Beto's concession was to Ana
    service.recording.record_event(first, {"type": "void", "target": 1, "reason": "wrong"},
                                   expected_seq=1)
    win_game(service, first, 1)
    now = ties(service, club, "open")
    assert (now["W2-1"]["status"], now["W2-1"]["home"], now["W2-1"]["away"]) == (
        "ready", "Beto", "Dani")
    assert [a["counts"] for a in now["W2-1"]["awards"]] == [False]
    assert service.leagues.cup(club, "open")["champion"] is None
    service.leagues.concede_tie(club, "open", "W2-1", "away", reason="the bus")
    assert service.leagues.cup(club, "open")["champion"] == "Beto"


def test_a_concession_fixes_the_draw(service: Service, club: str) -> None:
    service.leagues.create_cup(club, "open", "Open", kind="players", entrants=NAMES)
    drawn = service.leagues.draw(club, "open", seed=7)
    service.leagues.concede_tie(club, "open", "W1-1", "home", reason="x")
    assert service.leagues.desk_cup(club, "open", who=OPERATOR)["drawable"] is False
    assert service.leagues.draw(club, "open", seed=7) == drawn
    with pytest.raises(Invalid, match="cannot be made again"):
        service.leagues.draw(club, "open", seed=8)


def test_an_award_changed_behind_the_service_is_refused(service: Service, club: str) -> None:
    players_cup(service, club)
    service.leagues.concede_tie(club, "open", "W1-1", "away", reason="injured")
    with service.engine.begin() as conn:
        conn.execute(text("UPDATE league_cup_awards SET conceded_by = 'home'"))
    with pytest.raises(RowForged, match="cup open"):
        service.leagues.cup(club, "open")
    found = [p.line() for p in service.audit.run().problems]
    assert any("tie W1-1 given without a match" in line for line in found), found


def test_a_team_cup_tie_given_as_a_walkover(service: Service, club: str) -> None:
    set_up(service, club)
    service.leagues.create_cup(club, "ko", "Knockout", season="2027",
                               entrants=["crown", "anchor", "bell", "swan"],
                               format="double_elimination")
    service.leagues.draw(club, "ko", seeded=4)  # crown-swan, anchor-bell
    given = service.leagues.walkover_tie(club, "ko", "W1-1", "away", reason="no team")
    assert (given["entrant"], given["winner"]) == ("swan", "crown")
    now = ties(service, club, "ko")
    assert now["L1-1"]["home"] == "swan"  # the loser drops to the losers' bracket
    assert now["W2-1"]["home"] == "crown"
