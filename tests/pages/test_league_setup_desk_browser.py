"""The secretary sets a season up from the league desk alone, in a real browser (Debian's
chromium under playwright), in Spanish at 360 px: a new season (two singles and a pairs leg,
Fives and Threes, a point a leg), a division, four teams with their squads, a player already in
another squad refused beside the team's form (in Spanish, nothing added), the fixtures
generated; the public league page then lists them. axe-core scans the set-up forms (no serious
or critical finding). Screenshots:
tests/pages/artifacts/league-setup-*.png."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import Api
from browser_helpers import axe_findings
from test_desk_qr_browser import in_language
from test_desk_secretary_browser import Lines, desk_server, new_club, watched
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)

WAIT = 30_000  # ms: a generous bound on each wait for a condition, never a timing assertion
TEAMS = {"crown": ("Crown", ["Ana", "Beto", "Carla"]), "anchor": ("Anchor", ["Dani", "Eva", "Fede"]),
         "bell": ("Bell", ["Gabi", "Hugo", "Inés"]), "swan": ("Swan", ["Juan", "Kike", "Lola"])}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str, Lines]]:
    yield from desk_server(tmp_path_factory)


def said(page: Any, text: str) -> None:
    page.wait_for_function("t => (document.getElementById('desk-status') || {}).textContent"
                           " && document.getElementById('desk-status').textContent.includes(t)",
                           arg=text, timeout=WAIT)


def test_a_season_set_up_from_the_desk_alone(server: tuple[Api, str, Lines], browser: Any) -> None:
    api, base, _ = server
    club = new_club(api, "setup-es")
    slug = club["slug"]
    api.service.clubs.set_public(slug, True)
    context = in_language(browser, base, "es", 360)
    try:
        page = context.new_page()
        errors = watched(page)
        page.goto(f"{base}/clubs/{slug}/desk/seasons")
        page.fill("input[name=token]", club["admin"])
        page.click("button[data-action=sign-in]")
        form = page.locator("form[data-league-setup=season]")
        form.wait_for(timeout=WAIT)
        assert axe_findings(page) == []
        form.locator("input[name=slug]").fill("2027")
        form.locator("input[name=name]").fill("Liga 2027")
        form.locator("input[name=first_day]").fill("2027-01-07")
        form.locator("input[name='format.singles']").fill("2")
        form.locator("input[name='format.pairs']").fill("1")
        form.locator("select[name='leg_rules.singles']").select_option("fives-and-threes")
        form.locator("select[name='leg_rules.pairs']").select_option("fives-and-threes")
        form.locator("input[name='points.per_leg']").fill("1")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "league-setup-new-season-es-360.png"), full_page=True)
        form.locator("button[type=submit]").click()
        said(page, "Temporada creada.")
        season = api.service.leagues.season(slug, "2027")
        assert season["leg_rules"] == {"singles": "fives-and-threes", "pairs": "fives-and-threes"}
        assert season["points"]["per_leg"] == 1
        page.click("li[data-season='2027'] a")

        form = page.locator("form[data-league-setup=division]")
        form.wait_for(timeout=WAIT)
        form.locator("input[name=slug]").fill("primera")
        form.locator("input[name=name]").fill("Primera")
        form.locator("button[type=submit]").click()
        said(page, "División añadida.")
        assert axe_findings(page) == []  # the team's and the fixtures' forms too
        for team, (name, players) in TEAMS.items():
            form = page.locator("form[data-league-setup=team]")
            form.locator("input[name=slug]").fill(team)
            form.locator("input[name=name]").fill(name)
            form.locator("textarea[name=players]").fill("\n".join(players))
            form.locator("button[type=submit]").click()
            page.wait_for_selector(f"li[data-team='{team}']", timeout=WAIT)
        said(page, "Equipo añadido.")

        # A player of another squad: refused beside the team's form, in Spanish; no team.
        form = page.locator("form[data-league-setup=team]")
        form.locator("input[name=slug]").fill("oak")
        form.locator("input[name=name]").fill("Oak")
        form.locator("textarea[name=players]").fill("Mara\nAna")
        form.locator("button[type=submit]").click()
        said(page, "ya está en la plantilla de Crown")
        assert form.locator("#desk-status[data-kind=error]").count() == 1  # beside the control
        page.locator("form[data-league-setup=team]").screenshot(
            path=str(ARTIFACTS / "league-setup-refused-es-360.png"))
        assert [t["slug"] for t in api.service.leagues.season(slug, "2027")["divisions"][0]
                ["teams"]] == list(TEAMS)

        page.click("form[data-league-setup=generate] button[type=submit]")
        said(page, "Encuentros generados.")
        page.wait_for_selector("section.week[data-round='6']", timeout=WAIT)
        assert page.locator("form[data-league-setup]").count() == 0  # set up: done
        page.screenshot(path=str(ARTIFACTS / "league-setup-generated-es-360.png"), full_page=True)
        assert errors == []
    finally:
        context.close()

    reader = in_language(browser, base, "es", 360)
    try:
        public = reader.new_page()
        public.goto(f"{base}/clubs/{slug}/seasons/2027/fixtures")
        text = public.locator("main").inner_text()
        for name, _players in TEAMS.values():
            assert name in text
        assert public.locator("text=Jornada 6").count() >= 1
        assert len(api.service.leagues.fixtures(slug, "2027")) == 12  # 4 teams, home and away
        public.screenshot(path=str(ARTIFACTS / "league-setup-public-es-360.png"), full_page=True)
    finally:
        reader.close()
