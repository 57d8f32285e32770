"""The totals said by a match's sides, in a real browser (as test_score_browser.py), in English,
Spanish and Italian: a side is a player in singles (mano a mano) and a partnership in pairs
(parejas), so the phone's totals table and the match page's caption say "by player" or "by
partnership" (es/it said "per team" for both: Spanish and Italian have no word for a side that
is either); each page whole at 360 px and at 1280 px. Screenshots:
tests/pages/artifacts/score-totals-{lang}-{preset}-*.png and totals-{lang}-{preset}-*.png."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import Api
from browser_helpers import ARTIFACTS, SIZES, WHOLE, resized
from test_pages_browser import pytestmark  # noqa: F401 (pytestmark marks the browser tests)
from test_score_browser import Phone, new_match, phone_server

GAMES = {"mano-a-mano": ["Ana", "Beto"], "parejas": ["Ana", "Beto", "Carla", "Dani"]}
# the catalogs' words (words/locale), by whether the sides are partnerships
CAPTION = {"en": {False: "Totals by player, playing to {target}",
                  True: "Totals by partnership, playing to {target}"},
           "es": {False: "Puntos por jugador, a {target}", True: "Puntos por pareja, a {target}"},
           "it": {False: "Punti per giocatore, ai {target}", True: "Punti per coppia, ai {target}"}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    yield from phone_server(tmp_path_factory)


@pytest.fixture(scope="module")
def dealt(server: tuple[Api, str]) -> dict[str, int]:
    """A match of each game, its first deal recorded; the club public, for the match page."""
    api, _ = server
    api.service.clubs.set_public("casino", True)
    found = {}
    for preset, players in GAMES.items():
        found[preset] = new_match(api, preset, players)
        api.service.recording.record_event(found[preset], {"type": "deal"}, expected_seq=None)
    return found


@pytest.mark.parametrize("lang", ["en", "es", "it"])
@pytest.mark.parametrize("preset", list(GAMES))
def test_the_totals_say_player_or_partnership(browser: Any, server: tuple[Api, str],
                                              dealt: dict[str, int], lang: str,
                                              preset: str) -> None:
    api, base = server
    match_id = dealt[preset]
    rules = api.service.reading.get_match(match_id)["rules"]
    said = CAPTION[lang][rules["partnerships"]].format(target=rules["target"])
    phone = Phone(browser, base, api.tokens["casino", "scorekeeper"], lang).open(match_id)
    try:
        assert phone.page.locator("#totals caption").text_content() == said
        assert phone.page.locator("#totals tr").count() == len(GAMES[preset]) // (
            2 if rules["partnerships"] else 1)
        phone.check_layout()
        phone.shot(f"totals-{lang}-{preset}", wide=True)
        page = phone.page
        page.goto(f"{base}/clubs/casino/matches/{match_id}")
        assert page.evaluate("document.documentElement.lang") == lang
        for width, height in SIZES:
            resized(page, width, height)
            assert page.locator("#totals-caption").text_content() == said
            assert page.evaluate(WHOLE) == [], (width, lang, preset)
            page.screenshot(path=str(ARTIFACTS / f"totals-{lang}-{preset}-{width}x{height}.png"),
                            full_page=True)
    finally:
        phone.close()
