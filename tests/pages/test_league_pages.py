"""A league's pages and their JSON twins through the flask client, on both databases: each page
answers a public club without a token and a private one with the sign-in page; the numbers on
the division table, the team page, the fixtures by week and the averages are the league API's;
promotion and relegation are marked; a postponed fixture says so; the iCalendar feeds parse back
(icalendar) with a UID a fixture keeps and a SEQUENCE its postponement raises."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from api_helpers import Api, api_over, score_me
from league_helpers import fixture_id, play, set_up, win_game
from pages_site import parse
from sqlalchemy import Engine
from template_helpers import seeded

from referee.service import Service

BASE = "/clubs/casino/seasons/2027"
API = "/api/v1/clubs/casino/seasons/2027"
PAGES = [BASE, f"{BASE}/divisions/one", f"{BASE}/divisions/two", f"{BASE}/fixtures",
         f"{BASE}/fixtures?division=two", f"{BASE}/teams/crown", f"{BASE}/averages",
         f"{BASE}/averages?division=one", "/clubs/casino/seasons"]


@pytest.fixture
def league(api: Api) -> Api:
    """casino public, its 2027 season set up, Crown 2–1 Anchor played, Bell v Swan postponed:
    built once a session over the API tests' database, then copied into each test's
    (template_helpers.seeded; some 0.4 s of CPU a test before)."""
    seeded(api.service.engine, "league pages' season", _season)
    return api


def _season(engine: Engine) -> None:
    """(The template's build.) The API tests' clubs (api_helpers), then the league."""
    service = Service(engine)
    api_over(service)
    set_up(service, "casino")
    service.clubs.set_public("casino", True)
    crown = fixture_id(service, "casino", "crown", "anchor")
    play(service, "casino", crown, [(["Ana"], ["Dani"], 0), (["Beto"], ["Eva"], 1),
                                    (["Ana", "Carla"], ["Dani", "Fede"], 0)])
    bell = fixture_id(service, "casino", "bell", "swan")
    day = dt.date.fromisoformat(service.leagues.fixture("casino", "2027", bell)["date"])
    service.leagues.postpone("casino", "2027", bell, (day + dt.timedelta(days=3)).isoformat(),
                             reason="the pub flooded")
    service.notifier.close()


def test_every_page_and_its_twin_answer_without_a_token(league: Api) -> None:
    client = league.client
    for path in PAGES:
        page = client.get(path)
        assert page.status_code == 200, (path, page.get_data(as_text=True)[:400])
        twin = page.headers["Link"].split(">")[0][1:]
        assert client.get(twin).status_code == 200, twin
        html = page.get_data(as_text=True)
        assert 'lang="en"' in html and "Traceback" not in html


def test_the_table_is_the_apis(league: Api) -> None:
    html = league.client.get(f"{BASE}/divisions/one").get_data(as_text=True)
    rows = league.client.get(f"{API}/divisions/one/table").json["rows"]
    shown = parse(html).table("league-table")["rows"]
    assert [r[1] for r in shown] == [r["name"] for r in rows]
    crown = next(r for r in shown if r[1] == "Crown")
    line = next(r for r in rows if r["team"] == "crown")
    assert crown[2:10] == [str(line[k]) for k in ("played", "won", "drawn", "lost", "legs_for",
                                                   "legs_against")] + ["+1", str(line["points"])]
    assert 'data-zone="promotion"' in html and 'data-zone="relegation"' in html
    assert 'data-form="won"' in html


def test_fixtures_by_week_team_and_averages(league: Api) -> None:
    client = league.client
    weeks = client.get(f"/api/v1/pages{BASE}/fixtures").json["weeks"]
    assert [w["round"] for w in weeks] == sorted(w["round"] for w in weeks)
    html = client.get(f"{BASE}/fixtures").get_data(as_text=True)
    assert 'data-legs="2-1"' in html and "data-postponed" in html
    team = client.get(f"{BASE}/teams/crown").get_data(as_text=True)
    assert "Ana" in team and 'data-legs="2-1"' in team
    averages = client.get(f"{API}/averages").json
    shown = parse(client.get(f"{BASE}/averages").get_data(as_text=True)).table("averages")["rows"]
    assert [r[1] for r in shown] == [a["player"] for a in averages]


def _section(html: str, heading: str) -> str:
    """The home page's section under the heading of id ``heading`` ('' where there is none)."""
    if f'id="{heading}"' not in html:
        return ""
    return html.split(f'id="{heading}"', 1)[1].split("</section>", 1)[0]


def test_the_home_lists_a_played_fixture_as_awaiting_confirmation_then_as_a_result(
        league: Api) -> None:
    """Crown 2–1 Anchor is played (every leg decided) on a day still to come, unconfirmed: it is
    under "Played, awaiting confirmation", not among the fixtures to play (it was listed there,
    the first day's) nor the results; once both captains confirm, among the latest results."""
    svc, client = league.service, league.client
    crown = fixture_id(svc, "casino", "crown", "anchor")

    def listed() -> dict[str, list[int]]:
        home = client.get(f"/api/v1/pages{BASE}").json
        assert not any(f["complete"] for f in home["this_week"])
        return {key: [f["id"] for f in home[key]] for key in ("this_week", "awaiting", "latest")}

    def sections(lang: str = "en") -> dict[str, str]:
        html = client.get(BASE, headers={"Accept-Language": lang}).get_data(as_text=True)
        return {key: _section(html, f"{key}-heading") for key in ("week", "awaiting", "latest")}

    day = svc.leagues.fixture("casino", "2027", crown)["date"]
    assert listed() == {"this_week": [f["id"] for f in svc.leagues.fixtures("casino", "2027")
                                      if f["date"] == day and f["id"] != crown],
                        "awaiting": [crown], "latest": []}
    for lang, heading in (("en", "Played, awaiting confirmation"),
                          ("es", "Jugados, pendientes de confirmación"),
                          ("it", "Giocati, in attesa di conferma")):
        shown = sections(lang)
        assert shown["awaiting"].startswith(f">{heading}</h2>"), lang
        assert f'data-fixture="{crown}"' in shown["awaiting"], lang
        assert f'data-fixture="{crown}"' not in shown["week"] + shown["latest"], lang
    svc.leagues.confirm("casino", "2027", crown, side="home")
    assert listed()["awaiting"] == [crown]  # one captain is not both
    svc.leagues.confirm("casino", "2027", crown, side="away")
    assert (listed()["awaiting"], listed()["latest"]) == ([], [crown])
    shown = sections()
    assert shown["awaiting"] == "" and f'data-fixture="{crown}"' in shown["latest"]


def test_in_spanish_and_italian(league: Api) -> None:
    for language, word in (("es", "Jornada"), ("it", "Giornata")):
        html = league.client.get(f"{BASE}/fixtures",
                                 headers={"Accept-Language": language}).get_data(as_text=True)
        assert f'lang="{language}"' in html and word in html


def test_a_private_club_asks_for_a_token(league: Api) -> None:
    league.service.clubs.set_public("casino", False)
    assert league.client.get(f"{BASE}/divisions/one").status_code == 401
    assert league.client.get(f"/api/v1/pages{BASE}").status_code == 401
    assert league.client.get(f"/api/v1/pages{BASE}/calendar.ics").status_code == 401
    signed = league.client.get(f"{BASE}/divisions/one", headers=league.auth("viewer"))
    assert signed.status_code == 200
    assert league.client.get(f"{BASE}/teams/nobody",
                             headers=league.auth("viewer")).status_code == 404


def test_the_calendar_feeds_parse_back(league: Api) -> None:
    from icalendar import Calendar

    client = league.client
    season = Calendar.from_ical(client.get(f"/api/v1/pages{BASE}/calendar.ics").data)
    fixtures = {f["id"]: f for f in client.get(f"{API}/fixtures").json}
    events = season.walk("VEVENT")
    assert len(events) == len(fixtures) and len({str(e["UID"]) for e in events}) == len(events)
    bell = fixture_id(league.service, "casino", "bell", "swan")
    moved = next(e for e in events if str(e["UID"]).startswith(f"fixture-{bell}."))
    assert moved["SEQUENCE"] == 1
    assert moved.decoded("DTSTART") == dt.date.fromisoformat(fixtures[bell]["date"])
    assert str(moved["SUMMARY"]) == "Bell – Swan"
    team = Calendar.from_ical(client.get(f"/api/v1/pages{BASE}/teams/bell/calendar.ics").data)
    mine = {str(e["UID"]) for e in team.walk("VEVENT")}
    assert str(moved["UID"]) in mine and len(mine) == 6  # four teams: three home, three away
    crown = fixture_id(league.service, "casino", "crown", "anchor")
    played = next(e for e in events if str(e["UID"]).startswith(f"fixture-{crown}."))
    assert str(played["SUMMARY"]) == "Crown 2–1 Anchor" and played["SEQUENCE"] == 0


def test_the_calendar_feeds_list_the_cups_ties_played_as_fixtures(league: Api) -> None:
    """A team cup's tie made a fixture of the season is in the season's feed and its teams'
    (it was in none), after the league's, with a fixture's stable UID and SEQUENCE, its cup
    and tie named as the cup's page names them (a single elimination's last tie: its final),
    in the reader's language."""
    from icalendar import Calendar

    svc, client = league.service, league.client
    svc.leagues.create_cup("casino", "ko", "KO", season="2027",
                           entrants=["crown", "anchor", "bell", "swan"])
    svc.leagues.draw("casino", "ko", seeded=4)  # crown v swan, anchor v bell
    svc.leagues.create_cup("casino", "plate", "Plate", season="2027", entrants=["oak", "elm"])
    svc.leagues.draw("casino", "plate", seeded=2)
    tie = svc.leagues.fixture_tie("casino", "ko", "W1-1", on="2027-03-04")["fixture"]
    final = svc.leagues.fixture_tie("casino", "plate", "W1-1", on="2027-03-05")["fixture"]
    svc.leagues.postpone("casino", "2027", tie, "2027-03-06", reason="snow")

    def events(path: str, lang: str = "en") -> dict[str, object]:
        feed = client.get(f"/api/v1/pages{BASE}{path}", headers={"Accept-Language": lang})
        return {str(e["UID"]): e for e in Calendar.from_ical(feed.data).walk("VEVENT")}

    season = events("/calendar.ics")
    league_fixtures = len(client.get(f"{API}/fixtures").json)
    assert len(season) == league_fixtures + 2
    ko = season[f"fixture-{tie}.2027.casino@domino-referee"]
    assert ko["SEQUENCE"] == 1 and ko.decoded("DTSTART") == dt.date(2027, 3, 6)
    assert str(ko["SUMMARY"]) == "Crown – Swan · KO"
    assert str(ko["DESCRIPTION"]) == "KO, Round 1, tie 1"
    plate = season[f"fixture-{final}.2027.casino@domino-referee"]
    assert str(plate["DESCRIPTION"]) == "Plate, Final" and plate["SEQUENCE"] == 0
    assert str(plate["SUMMARY"]) == "Oak – Elm · Plate"
    assert f"fixture-{tie}.2027.casino@domino-referee" in events("/teams/swan/calendar.ics")
    assert f"fixture-{tie}.2027.casino@domino-referee" not in events(
        "/teams/bell/calendar.ics")
    said = {"es": ("KO, Ronda 1, eliminatoria 1", "Plate, Final"),
            "it": ("KO, Turno 1, sfida 1", "Plate, Finale")}
    for lang, (first, last) in said.items():
        spoken = events("/calendar.ics", lang)
        assert str(spoken[f"fixture-{tie}.2027.casino@domino-referee"]["DESCRIPTION"]) == first
        assert str(spoken[f"fixture-{final}.2027.casino@domino-referee"]["DESCRIPTION"]) == last


def test_the_phone_says_a_captain_is_one(league: Api) -> None:
    """/score/me, the phone's footer: a captain's token is a scorekeeper's bound to its team,
    and is said as the team's captain (it said "(scorekeeper)"), in every language."""
    token = league.service.leagues.captain("casino", "2027", "anchor")
    said = {"en": "Signed in to Casino as the captain of Anchor.",
            "es": "Sesión iniciada en Casino como capitán de Anchor.",
            "it": "Accesso a Casino come capitano di Anchor."}
    for lang, words in said.items():
        me = score_me(league, token, lang)
        assert me["said"] == words, lang
    assert me["role"] == "scorekeeper"  # the ladder's role, as the API says it
    assert me["captain"] == {"season": "2027", "team": "anchor", "name": "Anchor"}
    named = league.service.leagues.captain("casino", "2027", "crown", label="Ana's phone")
    me = league.client.get("/score/me", headers={"Authorization": f"Bearer {named}"})
    assert me.json["said"] == "Signed in to Casino as Ana's phone (captain of Crown)."
    plain = league.client.get("/score/me", headers=league.auth("scorekeeper")).json
    assert plain["captain"] is None and plain["said"].endswith("(scorekeeper).")


def test_the_club_desk_lists_a_captains_token_as_the_captain(league: Api) -> None:
    """The club desk's token list says whose captain a captain's token is (it said
    "scorekeeper", the role it has on the ladder), as the captain's phone does, in every
    language; a plain scorekeeper's token is still said as one."""
    token = league.service.leagues.captain("casino", "2027", "anchor")
    captain = league.service.tokens.authenticate(token).token_id
    plain = league.service.tokens.authenticate(league.tokens["casino", "scorekeeper"]).token_id
    said = {"en": ("captain of Anchor (League 2027)", "scorekeeper"),
            "es": ("capitán de Anchor (League 2027)", "anotador"),
            "it": ("capitano di Anchor (League 2027)", "segnapunti")}
    for lang, (as_captain, as_scorekeeper) in said.items():
        page = league.client.get("/clubs/casino/desk", headers={**league.auth("admin"),
                                                                "Accept-Language": lang})
        assert page.status_code == 200, lang
        html = page.get_data(as_text=True)
        rows = {int(m[0]): m[1] for m in
                re.findall(r'<tr data-token-id="(\d+)">\s*<th scope="row">[^<]*</th>\s*'
                           r'<td>([^<]*)</td>', html)}
        assert rows[captain] == as_captain, lang
        assert rows[plain] == as_scorekeeper, lang


def test_the_league_desk_is_the_secretarys(league: Api) -> None:
    client = league.client
    desk = "/clubs/casino/desk/seasons/2027"
    assert client.get(desk).status_code == 401  # a public club's desk still asks for a token
    assert client.get("/clubs/casino/desk/seasons").status_code == 401
    for role in ("viewer", "scorekeeper", "referee"):
        assert client.get(desk, headers=league.auth(role)).status_code == 403, role
    page = client.get(desk, headers=league.auth("admin"))
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    bell = fixture_id(league.service, "casino", "bell", "swan")
    for action in ("postpone", "walkover"):
        assert f'data-api="{API}/fixtures/{bell}/{action}"' in html
    assert f'data-api="{API}/fixtures/{bell}/legs/{{leg}}/concede"' in html
    listed = client.get("/clubs/casino/desk/seasons", headers=league.auth("admin"))
    assert 'href="/clubs/casino/desk/seasons/2027"' in listed.get_data(as_text=True)
    assert client.get("/clubs/casino/desk/seasons/nope",
                      headers=league.auth("admin")).status_code == 404


def test_a_captains_desk_confirms_the_teams_results(league: Api) -> None:
    client = league.client
    desk = "/clubs/casino/desk/seasons/2027/captain"
    crown = league.service.leagues.captain("casino", "2027", "crown")
    anchor = league.service.leagues.captain("casino", "2027", "anchor")
    assert client.get(desk).status_code == 401
    assert client.get(desk, headers=league.auth("admin")).status_code == 403  # no captain
    played = fixture_id(league.service, "casino", "crown", "anchor")
    confirm = f'data-api="{API}/fixtures/{played}/confirm"'
    html = client.get(desk, headers={"Authorization": f"Bearer {crown}"}).get_data(as_text=True)
    assert confirm in html and html.count('data-league-action="confirm"') == 1  # one complete
    assert f'data-api="{API}/fixtures/{played}/legs/1/games"' not in html  # its sheet done
    done = client.post(f"{API}/fixtures/{played}/confirm", json={},
                       headers={"Authorization": f"Bearer {crown}"})
    assert done.status_code == 200, done.json
    html = client.get(desk, headers={"Authorization": f"Bearer {crown}"}).get_data(as_text=True)
    assert confirm not in html and "data-confirmed" in html
    other = client.get(desk, headers={"Authorization": f"Bearer {anchor}"}).get_data(as_text=True)
    assert confirm in other


def test_a_captains_desk_links_each_game_in_play_to_the_phones_page(league: Api) -> None:
    """A leg's game the captain's team sheet started is listed with a link to the scorekeeper's
    page of its match (the captain scores it there); once finished, it is not. The team sheet
    offers only the legs whose next game is to be named (not one in play, not one decided)."""
    client = league.client
    desk = "/clubs/casino/desk/seasons/2027/captain"
    crown = {"Authorization": "Bearer " + league.service.leagues.captain("casino", "2027",
                                                                         "crown")}
    fixture = fixture_id(league.service, "casino", "anchor", "crown")
    assert "data-score-link" not in client.get(desk, headers=crown).get_data(as_text=True)
    game = client.post(f"{API}/fixtures/{fixture}/legs/2/games", headers=crown,
                       json={"home": ["Eva"], "away": ["Beto"]})
    assert game.status_code == 201, game.json
    html = client.get(desk, headers=crown).get_data(as_text=True)
    match = game.json["match"]
    assert html.count("data-score-link") == 1
    assert f'href="/score/matches/{match}" data-score-link data-match="{match}"' in html
    assert "Score leg 2: Eva – Beto" in html
    sheet = f'data-api="{API}/fixtures/{fixture}/legs/{{leg}}/games"'
    assert sheet.format(leg=1) in html and sheet.format(leg=2) not in html  # its game is on
    win_game(league.service, match, 0)
    html = client.get(desk, headers=crown).get_data(as_text=True)
    assert "data-score-link" not in html
    assert sheet.format(leg=1) in html and sheet.format(leg=2) not in html  # decided


def test_the_desk_home_links_the_league_and_cups_desks_for_the_secretary(league: Api) -> None:
    admin = league.client.get("/clubs/casino/desk", headers=league.auth("admin"))
    referee = league.client.get("/clubs/casino/desk", headers=league.auth("referee"))
    for link in ('href="/clubs/casino/desk/seasons"', 'href="/clubs/casino/desk/cups"'):
        assert link in admin.get_data(as_text=True) and link not in referee.get_data(as_text=True)
    assert league.client.get("/clubs/casino/desk/cups",
                             headers=league.auth("admin")).status_code == 200
