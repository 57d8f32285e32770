"""A league's season from the browser alone (issue 35's first "Done when"), in Debian's chromium
under playwright, in Spanish at 360 px and in English at 1280 px: every step is a click or a
key in a page. The service makes only the club, its admin's token and its signing key (the
server operator's steps), and is read to check, and to know which fixture is the first.

The secretary, on the league desk, makes a Fives and Threes season (two singles legs and a
pairs leg, each game to 10: the form's target) with two divisions of three teams with their
squads (a division and a team too many, a team renamed, then removed, the removal of a
division with a team refused in words, then done), generates the fixtures and issues the
captains' QR codes of the first fixture's two teams. The home captain's phone, signed in by
its QR code (read back with zbarimg), names each leg's players on the captain's desk and
scores each leg's game on the scorekeeper's page (/score) by taps, the tiles dealt closed and
the hands revealed; both captains confirm, and the result sheet is signed. A fixture of the
other division is a walkover given at the desk. The club's pages, private until then, are
published on the club desk's settings; the public pages (the league's home, the table, the
fixtures by week, a team's page, the averages) show the result. Then the league's cup of its
six teams, made and drawn on the cups desk, its first tie given as a walkover there and the
next ready tie PLAYED: the secretary makes its fixture (the season's format) on the cups desk
and issues its two captains' QR codes, the home captain names and scores its legs on the
phone as the league fixture's, both captains confirm, and the public bracket shows the
winner, by its name, going through. The cup is a test of its own, over the same season made
by the service (its desk steps are the first test's), so that the two halves, the longest of
the browser tests whole (64 to 85 s at load 14 to 18), run side by side on two workers. Then
a parejas season the same way, shorter: one division, one pairs leg. Screenshots of each
step: tests/pages/artifacts/league-season-*.png."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest
from api_helpers import Api
from browser_helpers import axe_findings
from test_desk_qr_browser import in_language
from test_desk_secretary_browser import Lines, decode_qr, desk_server, new_club, watched
from test_league_setup_desk_browser import WAIT, said
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)
from test_score_browser import Phone, first_round
from test_score_points_browser import record

from referee.core.match import Match
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match

FIVES = {"preset": "fives-and-threes", "target": 10}
PAREJAS = {"preset": "parejas", "target": 10}
DIVISIONS = {
    "premier": ("Premier", {"crown": ("Crown", ["Ana", "Beto", "Carla"]),
                            "anchor": ("Anchor", ["Dani", "Eva", "Fede"]),
                            "bell": ("Bell", ["Gabi", "Hugo", "Inés"])}),
    "first": ("First", {"swan": ("Swan", ["Juan", "Kike", "Lola"]),
                        "oak": ("Oak", ["Mara", "Nico", "Olga"]),
                        "mill": ("Mill", ["Pepe", "Quima", "Rosa"])}),
}
PAIRS_TEAMS = {"rey": ("Rey", ["Sara", "Tomás", "Úrsula"]),
               "sol": ("Sol", ["Víctor", "Wanda", "Ximena"]),
               "luna": ("Luna", ["Yago", "Zoe", "Álvaro"])}
SAID = {  # what the desk says after each step, in the reader's language
    "es": {"season": "Temporada creada.", "division": "División añadida.",
           "team": "Equipo añadido.", "generated": "Encuentros generados.",
           "issued": "Clave emitida", "sheet": "Jugadores de la manga registrados",
           "confirmed": "Resultado confirmado.", "walkover": "Incomparecencia concedida.",
           "no_teams": "Aún no hay equipos", "week": "Jornada {n}",
           "has_teams": "Spare tiene equipos", "team_saved": "Equipo guardado.",
           "team_removed": "Equipo eliminado.", "division_removed": "División eliminada.",
           "division_renamed": "División renombrada.", "cup": "Copa creada.",
           "drawn": "Sorteo hecho.", "tie": "Eliminatoria decidida.", "fixture": "Encuentro creado.",
           "saved": "Los ajustes están guardados."},
    "en": {"season": "Season created.", "division": "Division added.", "team": "Team added.",
           "generated": "Fixtures generated.", "issued": "Token issued",
           "sheet": "The leg's players recorded", "confirmed": "Result confirmed.",
           "walkover": "Walkover awarded.", "no_teams": "No teams yet",
           "week": "Week {n}", "has_teams": "Spare has teams", "team_saved": "Team saved.",
           "team_removed": "Team removed.", "division_removed": "Division removed.",
           "division_renamed": "Division renamed.", "cup": "Cup created.",
           "drawn": "Draw made.", "tie": "Tie decided.", "fixture": "Fixture made.",
           "saved": "The settings are saved."},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str, Lines]]:
    yield from desk_server(tmp_path_factory)


def league_club(api: Api, name: str) -> dict[str, Any]:
    """A club of its own (test_desk_secretary_browser's, private), with its signing key: the
    server's operator's step (domino keys init), no desk's."""
    club = new_club(api, name)
    api.service.keys.init(club["slug"])
    return club


def publish(browser: Any, base: str, club: dict[str, Any], say: dict[str, str], lang: str,
            width: int) -> None:
    """The club's pages made public by the secretary on the club desk's settings."""
    desk = in_language(browser, base, lang, width)
    try:
        page, errors = league_desk(desk, base, club, "")
        form = page.locator("form[data-form=settings]")
        form.wait_for(timeout=WAIT)
        form.locator("input[name=public]").check()
        form.locator("button[data-action=save-settings]").click()
        said(page, say["saved"])
        assert errors == []
    finally:
        desk.close()


def league_desk(context: Any, base: str, club: dict[str, Any],
                desk: str = "seasons") -> tuple[Any, list[str]]:
    """The league desk (or the cups desk, or the club desk: ``desk`` empty) open in
    ``context``, the secretary signed in: the page, its errors."""
    page = context.new_page()
    errors = watched(page)
    page.goto(f"{base}/clubs/{club['slug']}/desk" + (f"/{desk}" if desk else ""))
    page.fill("input[name=token]", club["admin"])
    page.click("button[data-action=sign-in]")
    return page, errors


def away_scans(browser: Any, base: str, lang: str, url: str, fixture: int) -> Any:
    """The away captain's phone signed in by its QR code as it is issued, as a captain at the
    table does: a code lives ten minutes (referee.service.signin), and the legs played before
    the away captain confirms may take longer than that on a loaded machine. Its page: the
    captain's desk, the token kept in its tab."""
    page = in_language(browser, base, lang, 360).new_page()
    page.goto(url)
    page.wait_for_selector(f"[data-fixture='{fixture}']", timeout=WAIT)
    return page


def away_confirms(page: Any, fixture: int, say: dict[str, str], lang: str, name: str) -> None:
    """The away captain's phone (away_scans), its desk read again, confirms the fixture."""
    try:
        page.reload()  # signed in again at once with the token kept in the tab
        page.wait_for_selector(f"[data-fixture='{fixture}'] form[data-league-action=confirm]",
                               timeout=WAIT)
        confirm(page, say, fixture)
        # the second confirmation: the sheet signed, its number said
        assert "1" in page.locator(f"[data-fixture='{fixture}'] [data-sheet-signed]").inner_text()
        shot(page, name, lang, 360)
    finally:
        page.context.close()


def shot(page: Any, step: str, lang: str, width: int, target: Any = None) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = str(ARTIFACTS / f"league-season-{step}-{lang}-{width}.png")
    if target is None:
        # A whole page's screenshot resizes the window to the page and back. With a field
        # still focused, the next click's mouse down scrolled the page back to that field
        # (seen at 1280 px: 1,453 -> 985), its mouse up landed on a label, and the form's
        # button was never clicked. The field typed in last is left first.
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
    (target or page).screenshot(path=path, **({} if target is not None else {"full_page": True}))


def short_game(rules: dict[str, Any], seats: int, winner: int) -> list[dict[str, Any]]:
    """A simulated game of ``rules`` (an open record) that side ``winner`` wins in few events:
    the first of the simulator's seeds that gives one (the same every run)."""
    names = [f"p{i}" for i in range(seats)]
    for seed in range(500):
        events = random_match(rules, names, random.Random(seed))[1]
        match = Match(resolve_rules(rules, seats), names)
        for event in events:
            assert match.push(event) is None
        if match.finished and match.winner == winner and len(events) <= 40:
            return events
    raise AssertionError("no short game")


def new_season(page: Any, say: dict[str, str], slug: str, name: str, singles: int, pairs: int,
               rules: dict[str, Any], lang: str, width: int) -> None:
    """The league desk's New season form filled and sent (the secretary, signed in)."""
    form = page.locator("form[data-league-setup=season]")
    form.wait_for(timeout=WAIT)
    form.locator("input[name=slug]").fill(slug)
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=first_day]").fill("2027-01-07")
    form.locator("input[name='format.singles']").fill(str(singles))
    form.locator("input[name='format.pairs']").fill(str(pairs))
    for kind in ("singles", "pairs"):
        form.locator(f"select[name='leg_rules.{kind}']").select_option(rules[kind]["preset"])
        form.locator(f"input[name='leg_target.{kind}']").fill(str(rules[kind]["target"]))
    form.locator("input[name='points.bonus']").fill("1")  # 3 a win, 1 for losing by a leg
    form.locator("input[name='points.bonus_margin']").fill("1")
    shot(page, f"{slug}-new-season", lang, width)
    form.locator("button[type=submit]").click()
    said(page, say["season"])
    page.click(f"li[data-season='{slug}'] a")
    page.wait_for_selector("form[data-league-setup=division]", timeout=WAIT)


def add_teams(page: Any, say: dict[str, str], divisions: dict[str, Any]) -> None:
    """Each division added, then each of its teams with its squad (the season's desk)."""
    for division, (name, _teams) in divisions.items():
        form = page.locator("form[data-league-setup=division]")
        form.locator("input[name=slug]").fill(division)
        form.locator("input[name=name]").fill(name)
        form.locator("button[type=submit]").click()
        page.wait_for_selector(f"h3[data-division='{division}']", timeout=WAIT)
        said(page, say["division"])
    for division, (_name, teams) in divisions.items():
        for team, (name, players) in teams.items():
            form = page.locator("form[data-league-setup=team]")
            form.locator("select[name=division]").select_option(division)
            form.locator("input[name=slug]").fill(team)
            form.locator("input[name=name]").fill(name)
            form.locator("input[name=venue]").fill(f"The {name}")
            form.locator("textarea[name=players]").fill("\n".join(players))
            form.locator("button[type=submit]").click()
            page.wait_for_selector(f"li[data-team='{team}']", timeout=WAIT)
            said(page, say["team"])


def corrections(page: Any, say: dict[str, str], lang: str, width: int) -> None:
    """The secretary's mistakes put right at the season's desk: a division too many with a
    team in it (removing the division refused while it has the team, said beside its form),
    the team renamed, then removed, then the division; the second division renamed."""
    form = page.locator("form[data-league-setup=division]")
    form.locator("input[name=slug]").fill("spare")
    form.locator("input[name=name]").fill("Spare")
    form.locator("button[type=submit]").click()
    said(page, say["division"])
    form = page.locator("form[data-league-setup=team]")
    form.locator("select[name=division]").select_option("spare")
    form.locator("input[name=slug]").fill("typo")
    form.locator("input[name=name]").fill("Tpyo")
    form.locator("textarea[name=players]").fill("Zed")
    form.locator("button[type=submit]").click()
    said(page, say["team"])

    division = page.locator("details[data-edit-division='spare']")
    division.locator("summary").click()
    division.locator("form[data-league-edit=division-removed] button").click()
    said(page, say["has_teams"])
    removing = division.locator("form[data-league-edit=division-removed]")
    assert removing.locator("#desk-status[data-kind=error]").count() == 1  # beside the form
    assert axe_findings(page) == []  # the edit forms, open
    shot(page, "f3-division-refused", lang, width, division)

    team = page.locator("details[data-edit-team='typo']")
    team.locator("summary").click()
    edit = team.locator("form[data-league-edit=team]")
    edit.locator("input[name=name]").fill("Typo Arms")
    edit.locator("input[name=venue]").fill("Quay St")
    edit.locator("button[type=submit]").click()
    said(page, say["team_saved"])
    assert page.locator("li[data-team='typo']").inner_text().startswith("Typo Arms")
    team = page.locator("details[data-edit-team='typo']")
    team.locator("summary").click()
    shot(page, "f3-team-edit", lang, width, team)
    team.locator("form[data-league-edit=team-removed] button").click()
    said(page, say["team_removed"])
    assert page.locator("li[data-team='typo']").count() == 0
    division = page.locator("details[data-edit-division='spare']")
    division.locator("summary").click()
    division.locator("form[data-league-edit=division-removed] button").click()
    said(page, say["division_removed"])
    assert page.locator("h3[data-division='spare']").count() == 0

    division = page.locator("details[data-edit-division='first']")
    division.locator("summary").click()
    division.locator("input[name=name]").fill("First Division")
    division.locator("form[data-league-edit=division] button").click()
    said(page, say["division_renamed"])
    assert page.locator("h3[data-division='first']").inner_text() == "First Division"


def captain_qr(page: Any, team: str, name: str) -> str:
    """The captain's QR code of ``team`` issued at the season's desk: the address it holds."""
    form = page.locator("form[data-league-captain]")
    form.locator("select[name=team]").select_option(team)
    page.evaluate("document.querySelector('[data-captain-issued] [data-qr]').removeAttribute('src')")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("[data-qr][src^='data:image/svg+xml']", timeout=WAIT)
    return decode_qr(page, name)


def play_fixture(phone: Phone, say: dict[str, str], url: str, fixture: int,
                 legs: list[tuple[str, list[int], list[int], dict[str, Any], int]],
                 squads: tuple[list[str], list[str]], lang: str, width: int,
                 slug: str) -> None:
    """The home captain's phone, signed in by its QR code, plays ``fixture``: each leg's
    players named on the captain's desk, then its game scored on /score by taps, to a win by
    the side the leg names."""
    page = phone.page
    page.goto(url)
    page.wait_for_selector("details[data-sheet]", timeout=WAIT)
    shot(page, f"{slug}-captain-desk", lang, width)
    desk = page.url
    home_squad, away_squad = squads
    for number, (kind, home, away, rules, winner) in enumerate(legs, start=1):
        box = page.locator(f"[data-fixture='{fixture}'] details[data-sheet]")
        if box.get_attribute("open") is None:
            box.locator("summary").click()
        form = box.locator(f"form[data-api$='/legs/{number}/games']")
        for side, picked, squad in (("home", home, home_squad), ("away", away, away_squad)):
            for i, index in enumerate(picked):
                form.locator(f"select[id$='-{number}-{side}-{i}']").select_option(squad[index])
        form.locator("button[type=submit]").click()
        said(page, say["sheet"])
        link = page.locator(f"[data-fixture='{fixture}'] a[data-score-link]")
        link.wait_for(timeout=WAIT)
        if number == 1:
            assert axe_findings(page) == []  # the captain's desk with its game to score
            shot(page, f"{slug}-game-in-play", lang, width)
        link.click()
        page.wait_for_selector("#state[aria-busy=false]", timeout=WAIT)
        seats = 2 if kind == "singles" else 4
        names = [home_squad[home[0]], away_squad[away[0]]] if kind == "singles" else \
            [home_squad[home[0]], away_squad[away[0]], home_squad[home[1]], away_squad[away[1]]]
        events = short_game(rules, seats, winner)
        if rules["preset"] == "fives-and-threes":
            record(phone, rules, names, events, lang, f"league-{slug}-{number}",
                   {len(events): "end"})
        else:
            tap_open(phone, rules, names, events)
        assert page.locator("#phase").text_content()  # the game's end said
        if number == 1:
            phone.shot(f"league-{slug}-leg-over-{lang}")
        page.goto(desk)
        page.wait_for_selector(f"[data-fixture='{fixture}']", timeout=WAIT)


def tap_open(phone: Phone, rules: dict[str, Any], players: list[str],
             events: list[dict[str, Any]]) -> None:
    """A game recorded open by taps: each deal's hands typed, then every play, draw and pass
    by its button (as test_score_browser's whole match)."""
    page = phone.page
    for event in first_round(rules, players, events, whole=True):
        if event["type"] == "deal":
            page.click("#deal-open-form > summary")
            for seat, hand in enumerate(event["hands"]):
                page.fill(f"input[data-hand='{seat}']", " ".join(hand))
        phone.tap(event)


def confirm(page: Any, say: dict[str, str], fixture: int) -> None:
    page.click(f"[data-fixture='{fixture}'] form[data-league-action=confirm] button")
    said(page, say["confirmed"])
    page.wait_for_selector(f"[data-fixture='{fixture}'] [data-confirmed], "
                           f"[data-fixture='{fixture}'] [data-sheet-signed]", timeout=WAIT)


def public_pages(browser: Any, base: str, slug: str, season: str, division: str, team: str,
                 lang: str, width: int, expect: list[str], extra: dict[str, list[str]]) -> None:
    """The league's public pages, each showing the played fixture (``expect``: words each
    page says; ``extra``: words a page says besides)."""
    reader = in_language(browser, base, lang, width)
    try:
        page = reader.new_page()
        errors = watched(page)
        root = f"{base}/clubs/{slug}/seasons/{season}"
        for step, path in (("home", ""), ("table", f"/divisions/{division}"),
                           ("fixtures", "/fixtures"), ("team", f"/teams/{team}"),
                           ("averages", "/averages")):
            page.goto(root + path)
            text = page.locator("main").inner_text()
            for word in expect + extra.get(step, []):
                assert word in text, (step, word)
            shot(page, f"{season}-public-{step}", lang, width)
        assert errors == []
    finally:
        reader.close()


def league_cup(browser: Any, base: str, club: dict[str, Any], say: dict[str, str], lang: str,
               width: int, entrants: list[str]) -> tuple[str, str]:
    """The league's cup on the cups desk: created with the season's teams (the pot in the
    order given), drawn from a seed typed in, its first tie given as a walkover, then the
    first ready tie left made a fixture of the season. The two ties' ids."""
    desk = in_language(browser, base, lang, width)
    try:
        page, errors = league_desk(desk, base, club, "cups")
        form = page.locator("form[data-cup-action=create]")
        form.wait_for(timeout=WAIT)
        form.locator("input[name=name]").fill("League Cup")
        form.locator("input[name=slug]").fill("league-cup")
        form.locator("select[name=kind]").select_option("teams")
        form.locator("select[name=season]").select_option("f3")
        form.locator("textarea[name=entrants]").fill("\n".join(entrants))
        shot(page, "cup-new", lang, width)
        form.locator("button[type=submit]").click()
        said(page, say["cup"])
        draw = page.locator("form[data-cup-action=draw]")
        draw.locator("input[name=seed]").fill("2027")
        draw.locator("button[type=submit]").click()
        said(page, say["drawn"])
        award = page.locator("form[data-cup-action=award]")
        award.wait_for(timeout=WAIT)
        tie = award.locator("select[name=tie] option").first.get_attribute("value") or ""
        award.locator("select[name=tie]").select_option(tie)
        award.locator("select[name=kind]").select_option("walkover")
        award.locator("select[name=by]").select_option("away")
        award.locator("input[name=reason]").fill("no show")
        shot(page, "cup-drawn", lang, width)
        award.locator("button[type=submit]").click()
        said(page, say["tie"])
        shot(page, "cup-tie-given", lang, width)
        # The next ready tie made a fixture of the season (a date inside it).
        fixture = page.locator("form[data-cup-action=fixture]")
        fixture.wait_for(timeout=WAIT)
        played = fixture.locator("select[name=tie] option").first.get_attribute("value") or ""
        assert played and played != tie
        fixture.locator("select[name=tie]").select_option(played)
        fixture.locator("input[name=on]").fill("2027-01-28")
        fixture.locator("button[type=submit]").click()
        said(page, say["fixture"])
        page.wait_for_selector(f"li[data-tie-fixture='{played}']", timeout=WAIT)
        assert "0–0" in page.locator(f"li[data-tie-fixture='{played}']").inner_text()
        shot(page, "cup-fixture-made", lang, width)
        assert errors == []
    finally:
        desk.close()
    return tie, played


def cup_captains(browser: Any, base: str, club: dict[str, Any], lang: str, width: int,
                 teams: tuple[str, str]) -> tuple[str, str]:
    """The two captains' QR codes of a cup tie's teams, issued at the season's desk: the
    addresses they hold (home, away)."""
    desk = in_language(browser, base, lang, width)
    try:
        page, errors = league_desk(desk, base, club)
        page.click("li[data-season='f3'] a")
        page.wait_for_selector("form[data-league-captain]", timeout=WAIT)
        urls = tuple(captain_qr(page, team, f"league-season-qr-cup-{side}-{lang}-{width}")
                     for side, team in zip(("home", "away"), teams))
        assert errors == []
    finally:
        desk.close()
    return urls[0], urls[1]


def public_bracket(browser: Any, base: str, slug: str, lang: str, width: int, given: str,
                   played: str, after: str, winner: str) -> None:
    """The cup's public page: the walkover and the played tie decided, the played tie's
    winner named (not by its slug) in its box and in the next round's."""
    reader = in_language(browser, base, lang, width)
    try:
        page = reader.new_page()
        errors = watched(page)
        page.goto(f"{base}/clubs/{slug}/cups/league-cup")
        page.wait_for_selector(f"g.tie.played[data-tie='{given}']", timeout=WAIT)
        page.wait_for_selector(f"g.tie.played[data-tie='{played}']", timeout=WAIT)
        assert page.locator(f"g.tie[data-tie='{played}'] text.won").first.text_content() == winner
        going = page.locator(f"g.tie[data-tie='{after}'] > text").all_text_contents()
        assert winner in going, going
        shot(page, "cup-public", lang, width)
        assert errors == []
    finally:
        reader.close()


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="no zbarimg: apt-get install zbar-tools")
@pytest.mark.parametrize("lang,width", [("es", 360), ("en", 1280)])
def test_a_fives_and_threes_season_from_the_browser_alone(
        server: tuple[Api, str, Lines], browser: Any, lang: str, width: int,
        tmp_path: Path) -> None:
    api, base, log = server
    say = SAID[lang]
    club = league_club(api, f"season-{lang}")
    slug = club["slug"]
    desk = in_language(browser, base, lang, width)
    try:
        page, errors = league_desk(desk, base, club)
        new_season(page, say, "f3", "Fives and Threes 2027", 2, 1,
                   {"singles": FIVES, "pairs": FIVES}, lang, width)
        # Before any team: the captains' section says what to do, no empty list of teams.
        assert say["no_teams"] in page.locator("[data-no-captains]").inner_text()
        assert page.locator("form[data-league-captain]").count() == 0
        add_teams(page, say, DIVISIONS)
        assert axe_findings(page) == []
        corrections(page, say, lang, width)
        shot(page, "f3-teams", lang, width)
        page.click("form[data-league-setup=generate] button[type=submit]")
        said(page, say["generated"])
        page.wait_for_selector("section.week[data-round='6']", timeout=WAIT)
        shot(page, "f3-generated", lang, width)
        # Set up: a team is still renamed at the desk, but no longer moved or removed.
        assert page.locator("form[data-league-edit=team]").count() == 6
        assert page.locator("form[data-league-edit=team] select[name=division]").count() == 0
        assert page.locator("form[data-league-edit$='-removed']").count() == 0

        fixtures = api.service.leagues.fixtures(slug, "f3")  # read: which fixture is first
        first = next(f for f in fixtures if f["division"] == "premier")
        other = next(f for f in fixtures if f["division"] == "first")
        home, away = first["home"], first["away"]
        url_home = captain_qr(page, home, f"league-season-qr-home-{lang}-{width}")
        url_away = captain_qr(page, away, f"league-season-qr-away-{lang}-{width}")
        away_phone = away_scans(browser, base, lang, url_away, first["id"])
        shot(page, "f3-captain-qr", lang, width, page.locator("section.captains"))
        assert url_home.startswith(f"{base}/clubs/{slug}/desk/seasons/f3/captain#code=")

        # The other division's first fixture: a walkover, given at the desk.
        box = page.locator(f".desk-fixture[data-fixture='{other['id']}'] details")
        box.locator("summary").click()
        walkover = box.locator("form[data-league-action=walkover]")
        walkover.locator("select[name=by]").select_option("away")
        walkover.locator("input[name=reason]").fill("no show")
        walkover.locator("button[type=submit]").click()
        said(page, say["walkover"])
        assert errors == []
    finally:
        desk.close()

    teams = {t: v for _d, (_n, ts) in DIVISIONS.items() for t, v in ts.items()}
    squads = (teams[home][1], teams[away][1])
    phone = Phone(browser, base, None, lang)
    try:
        play_fixture(phone, say, url_home, first["id"], [
            ("singles", [0], [0], FIVES, 0), ("singles", [1], [1], FIVES, 1),
            ("pairs", [1, 2], [0, 2], FIVES, 0)], squads, lang, width, "f3")
        confirm(phone.page, say, first["id"])
        shot(phone.page, "f3-confirmed-home", lang, 360)
    finally:
        phone.close()
    away_confirms(away_phone, first["id"], say, lang, "f3-confirmed-away")

    # Read afterwards: the corrections made (Zed, of the team removed, in no squad); the
    # form's target kept; the fixture 2-1 to the home team, both
    # confirmed, its sheet signed.
    season = api.service.leagues.season(slug, "f3")
    assert [(d["slug"], d["name"]) for d in season["divisions"]] == [
        ("premier", "Premier"), ("first", "First Division")]
    assert "Zed" not in {p for d in season["divisions"] for t in d["teams"] for p in t["squad"]}
    assert season["leg_rules"] == {"singles": FIVES, "pairs": FIVES}
    played = api.service.leagues.fixture(slug, "f3", first["id"])
    assert played["complete"] and played["legs_won"] == {"home": 2, "away": 1}
    assert played["confirmed"] == {"home": True, "away": True}
    sheet = api.service.leagues.sheet(slug, "f3", first["id"])
    assert sheet["legs_won"] == {"home": 2, "away": 1} and sheet["signature"]
    table = {r["team"]: r for r in api.service.leagues.table(slug, "f3", "premier")["rows"]}
    assert table[home]["points"] == 3 and table[away]["points"] == 1  # a loss by one leg
    assert api.service.leagues.fixture(slug, "f3", other["id"])["walkover_by"] == "away"
    home_name = teams[home][0]
    private = in_language(browser, base, lang, width).new_page()
    assert private.goto(f"{base}/clubs/{slug}/seasons/f3").status == 401  # not published yet
    private.context.close()
    publish(browser, base, club, say, lang, width)
    public_pages(browser, base, slug, "f3", "premier", home, lang, width,
                 [home_name, teams[away][0]],
                 {"fixtures": ["2–1"], "home": ["2–1"], "team": ["2–1"],
                  "averages": [squads[0][0], squads[1][1]]})
    assert not any("code=" in line for line in log.lines)


def fives_season(api: Api, slug: str) -> None:
    """The Fives and Threes season as the first test leaves it made at the league desk (its
    divisions, teams and squads, the fixtures generated), made by the service: the desk's
    forms for it are that test's; this one's steps are the cup's."""
    leagues = api.service.leagues
    leagues.create_season(slug, "f3", "Fives and Threes 2027", format={"singles": 2, "pairs": 1},
                          first_day="2027-01-07", leg_rules={"singles": FIVES, "pairs": FIVES},
                          points={"bonus": 1, "bonus_margin": 1})
    for division, (name, teams) in DIVISIONS.items():
        leagues.add_division(slug, "f3", division, name)
        for team, (team_name, players) in teams.items():
            leagues.add_team(slug, "f3", division, team, team_name, venue=f"The {team_name}",
                             players=players)
    leagues.generate(slug, "f3")


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="no zbarimg: apt-get install zbar-tools")
@pytest.mark.parametrize("lang,width", [("es", 360), ("en", 1280)])
def test_a_fives_and_threes_league_cup_from_the_browser(
        server: tuple[Api, str, Lines], browser: Any, lang: str, width: int) -> None:
    """The season's second half, a test of its own so that the two halves run side by side
    on two workers: the league's cup drawn on the cups desk, its first tie given as a
    walkover, the next played as a fixture of the season; read to know the tie's teams and
    its fixture's number."""
    api, base, _ = server
    say = SAID[lang]
    club = league_club(api, f"cup-{lang}")
    slug = club["slug"]
    fives_season(api, slug)
    teams = {t: v for _d, (_n, ts) in DIVISIONS.items() for t, v in ts.items()}
    first = next(f for f in api.service.leagues.fixtures(slug, "f3")
                 if f["division"] == "premier")
    home, away = first["home"], first["away"]
    publish(browser, base, club, say, lang, width)  # the bracket is read as the public reads it
    given_id, tie_id = league_cup(browser, base, club, say, lang, width, [home, away, *sorted(
        t for t in teams if t not in (home, away))])
    tie = next(t for t in api.service.leagues.cup(slug, "league-cup")["ties"]
               if t["id"] == tie_id)
    cup_home, cup_away, number = tie["home"], tie["away"], tie["fixture"]["id"]
    url_cup_home, url_cup_away = cup_captains(browser, base, club, lang, width,
                                              (cup_home, cup_away))
    away_phone = away_scans(browser, base, lang, url_cup_away, number)
    phone = Phone(browser, base, None, lang)
    try:
        play_fixture(phone, say, url_cup_home, number, [
            ("singles", [0], [0], FIVES, 0), ("singles", [1], [1], FIVES, 1),
            ("pairs", [1, 2], [0, 2], FIVES, 0)],
            (teams[cup_home][1], teams[cup_away][1]), lang, width, "cup")
        page = phone.page
        assert page.locator(f"[data-fixture='{number}'] "  # listed as the cup's tie
                            f"[data-cup-tie='league-cup/{tie_id}']").count() == 1
        confirm(page, say, number)
        shot(page, "cup-confirmed-home", lang, 360)
    finally:
        phone.close()
    away_confirms(away_phone, number, say, lang, "cup-confirmed-away")

    # Read afterwards: the walkover and the tie decided, the fixture 2-1 to the draw's home
    # team, confirmed by both and signed, and its winner in the next round's tie.
    cup = api.service.leagues.cup(slug, "league-cup")
    assert cup["seed"] is not None and int(cup["seed"]) == 2027
    given = next(t for t in cup["ties"] if t["id"] == given_id)
    assert given["status"] == "played" and given["winner"] == given["home"]
    tie = next(t for t in cup["ties"] if t["id"] == tie_id)
    assert tie["status"] == "played" and tie["winner"] == cup_home
    assert tie["fixture"]["complete"] and tie["fixture"]["legs_won"] == {"home": 2, "away": 1}
    fixture = api.service.leagues.fixture(slug, "f3", number)
    assert fixture["confirmed"] == {"home": True, "away": True}
    assert api.service.leagues.sheet(slug, "f3", number)["signature"]
    after = next(t for t in cup["ties"] if t["round"] == tie["round"] + 1
                 and cup_home in (t["home"], t["away"]))
    # the cup counts in no table: the premier table's points as the league left them (none
    # of its fixtures played)
    table = api.service.leagues.table(slug, "f3", "premier")["rows"]
    assert len(table) == 3 and all(r["points"] == 0 for r in table)
    public_bracket(browser, base, slug, lang, width, given_id, tie_id, after["id"],
                   teams[cup_home][0])


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="no zbarimg: apt-get install zbar-tools")
@pytest.mark.parametrize("lang,width", [("es", 360), ("en", 1280)])
def test_a_parejas_season_from_the_browser_alone(
        server: tuple[Api, str, Lines], browser: Any, lang: str, width: int) -> None:
    api, base, _ = server
    say = SAID[lang]
    club = league_club(api, f"parejas-{lang}")
    slug = club["slug"]
    desk = in_language(browser, base, lang, width)
    try:
        page, errors = league_desk(desk, base, club)
        new_season(page, say, "liga", "Liga de parejas", 0, 1,
                   {"singles": {"preset": "mano-a-mano", "target": 10}, "pairs": PAREJAS},
                   lang, width)
        add_teams(page, say, {"unica": ("Única", PAIRS_TEAMS)})
        page.click("form[data-league-setup=generate] button[type=submit]")
        said(page, say["generated"])
        fixtures = api.service.leagues.fixtures(slug, "liga")
        first = fixtures[0]
        home, away = first["home"], first["away"]
        url_home = captain_qr(page, home, f"league-season-qr-parejas-home-{lang}-{width}")
        url_away = captain_qr(page, away, f"league-season-qr-parejas-away-{lang}-{width}")
        away_phone = away_scans(browser, base, lang, url_away, first["id"])
        assert errors == []
    finally:
        desk.close()

    squads = (PAIRS_TEAMS[home][1], PAIRS_TEAMS[away][1])
    phone = Phone(browser, base, None, lang)
    try:
        play_fixture(phone, say, url_home, first["id"], [("pairs", [0, 1], [0, 1], PAREJAS, 1)],
                     squads, lang, width, "liga")
        confirm(phone.page, say, first["id"])
    finally:
        phone.close()
    away_confirms(away_phone, first["id"], say, lang, "liga-confirmed-away")

    played = api.service.leagues.fixture(slug, "liga", first["id"])
    assert played["legs_won"] == {"home": 0, "away": 1}
    assert api.service.leagues.sheet(slug, "liga", first["id"])["signature"]
    table = {r["team"]: r for r in api.service.leagues.table(slug, "liga", "unica")["rows"]}
    assert table[away]["points"] == 3 and table[away]["place"] == 1
    publish(browser, base, club, say, lang, width)
    public_pages(browser, base, slug, "liga", "unica", away, lang, width,
                 [PAIRS_TEAMS[home][0], PAIRS_TEAMS[away][0]],
                 {"fixtures": ["0–1"], "averages": squads[1][:2]})
