"""The words of a match's sides and of its undealt tiles, in a real browser (as
test_totals_words_browser.py), in English, Spanish and Italian, each page whole at 360 px and at
1280 px:

- the phone's phase line says the phase mid-line after the round ("Mano 1: in corso", not "In
  corso");
- a singles match's dispute sheet names its score's column *Player* (es/it said "Equipo" /
  "Squadra", a team), and its acta's rounds are *by player*;
- the disputes desk says a singles dispute's rulings by the players' names (the penalty's points
  to the other player, the player at fault forfeits, the sheet for both) and its preview's
  totals by player;
- the live scoreboard's cards say the undealt tiles as the server decides (the row's
  ``shows_undealt``; none in parejas), Fives and Threes' as sleeping tiles, in a card the
  script fills from the stream (a table dealt while the page is open) as in one the server drew;
  who may lead in the page's language; every card's time in the club's zone, UTC said.

Screenshots: tests/pages/artifacts/score-phase-{lang}-*.png, sheet-{lang}-*.png,
acta-{lang}-*.png, desk-sides-{lang}-*.png and board-{lang}-*.png."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import Api
from browser_helpers import ARTIFACTS, SIZES, WHOLE, desk_wired, resized
from desk_disputes_site import passed_holding_a_five
from test_pages_browser import pytestmark  # noqa: F401 (pytestmark marks the browser tests)
from test_score_browser import Phone, new_match, phone_server

WAIT_MS = 15_000  # what a step may wait for the page (a stream's row comes well under a second)
PHASE = {"en": "Round 1: in progress", "es": "Ronda 1: en juego", "it": "Mano 1: in corso"}
SHEET = {"en": ("Player", "Each round's points by player, then the rulings and the totals"),
         "es": ("Jugador", "Los puntos de cada ronda por jugador, luego las resoluciones y los totales"),
         "it": ("Giocatore", "I punti di ogni mano per giocatore, poi le decisioni e i totali")}
# the desk's singles rulings by name, beside the menu: the penalty's points to the other
# player, the player at fault forfeits, the sheet for both (one sentence for singles and pairs)
DESK = {"en": ("The points you give go to Marco Rossi.",
               "The match is lost by Lucía Gómez, at fault.",
               "(printable, for Marco Rossi and Lucía Gómez)", "Player"),
        "es": ("Los puntos que dé van para Marco Rossi.",
               "Partida perdida por Lucía Gómez, por su falta.",
               "(para imprimir, para Marco Rossi y Lucía Gómez)", "Jugador"),
        "it": ("I punti che assegna vanno a Marco Rossi.",
               "La partita è persa da Lucía Gómez, in fallo.",
               "(da stampare, per Marco Rossi e Lucía Gómez)", "Giocatore")}
UNDEALT = {"en": ("sleeping tiles", "boneyard"), "es": ("dormidas", "pozo"),
           "it": ("dormienti", "dormiente")}
LEADS = {"en": "Carla or Dani", "es": "Carla o Dani", "it": "Carla o Dani"}  # the script's " or "


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    for served in phone_server(tmp_path_factory):
        served[0].service.clubs.set_public("casino", True)  # the sheet, the acta, the board
        yield served


def whole(page: Any, name: str, ready: str) -> None:
    """The page at each size: nothing past its edges; a screenshot of it whole."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        resized(page, width, height)
        page.wait_for_selector(ready, state="attached")
        assert page.evaluate(WHOLE) == [], (name, width)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}x{height}.png"), full_page=True)


@pytest.mark.parametrize("lang", sorted(PHASE))
def test_the_phone_says_the_phase_mid_line(browser: Any, server: tuple[Api, str],
                                           lang: str) -> None:
    api, base = server
    match_id = new_match(api, "mano-a-mano", ["Ana", "Beto"])
    api.service.recording.record_event(match_id, {"type": "deal"}, expected_seq=None)
    phone = Phone(browser, base, api.tokens["casino", "scorekeeper"], lang).open(match_id)
    try:
        assert phone.page.locator("#phase").text_content() == PHASE[lang]
        phone.check_layout()
        phone.shot(f"phase-{lang}", wide=True)
    finally:
        phone.close()


@pytest.mark.parametrize("lang", sorted(SHEET))
def test_a_singles_sheet_and_acta_say_player(browser: Any, server: tuple[Api, str],
                                             lang: str) -> None:
    api, base = server
    match_id = passed_holding_a_five(api)  # mano a mano, finished, a renege disputed at 3
    column, caption = SHEET[lang]
    context = browser.new_context(locale=lang, extra_http_headers={"Accept-Language": lang})
    try:
        page = context.new_page()
        page.goto(f"{base}/clubs/casino/matches/{match_id}/disputes/3")
        assert page.locator("table").last.locator("thead th").first.text_content() == column
        whole(page, f"sheet-{lang}", "table")
        page.goto(f"{base}/clubs/casino/matches/{match_id}/acta")
        assert page.locator("#acta-rounds-caption").text_content() == caption
        whole(page, f"acta-{lang}", "#acta-rounds-caption")
    finally:
        context.close()


@pytest.mark.parametrize("lang", sorted(DESK))
def test_the_desk_offers_a_singles_rulings_by_player(browser: Any, server: tuple[Api, str],
                                                    lang: str) -> None:
    api, base = server
    match_id = passed_holding_a_five(api)
    penalty, forfeit, printable, column = DESK[lang]
    context = browser.new_context(locale=lang, extra_http_headers={"Accept-Language": lang})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{base}/clubs/casino/desk/disputes")
        page.fill("input[name=token]", api.tokens["casino", "referee"])
        page.click("button[data-action=sign-in]")
        dispute = page.locator(f'[data-dispute="{match_id}:3"]')
        dispute.wait_for(timeout=WAIT_MS * 2)
        desk_wired(page)
        menu, said = dispute.locator("select[name=ruling]"), dispute.locator("[data-ruling-help]")
        menu.select_option("penalty")
        assert said.inner_text().strip() == penalty
        menu.select_option("forfeit")
        assert said.inner_text().strip() == forfeit
        menu.select_option("standard")
        assert printable in (dispute.text_content() or "")
        dispute.locator("input[name=reason]").fill("renege")
        dispute.locator("[data-action=preview]").click()
        dispute.locator("[data-preview] table").wait_for(timeout=WAIT_MS * 2)
        assert dispute.locator("[data-preview] thead th").first.text_content() == column
        whole(page, f"desk-sides-{lang}", f'[data-dispute="{match_id}:3"] [data-preview] table')
    finally:
        context.close()
    assert errors == []


@pytest.mark.parametrize("lang", sorted(UNDEALT))
def test_the_boards_cards_say_the_undealt_tiles_as_the_server_decides(
        browser: Any, server: tuple[Api, str], lang: str) -> None:
    api, base = server
    svc = api.service
    sleeping, boneyard = UNDEALT[lang]
    drawn = svc.recording.create_match("casino", "mano-a-mano", ["Ana", "Beto"], table="21")["id"]
    svc.recording.record_event(drawn, {"type": "deal"}, expected_seq=None)  # drawn by the server
    context = browser.new_context(locale=lang, extra_http_headers={"Accept-Language": lang})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{base}/clubs/casino/scoreboard")
        page.wait_for_selector('#live-state[data-state="live"]', timeout=WAIT_MS)
        # dealt while the page is open: its card is the script's, filled from the stream
        filled = svc.recording.create_match("casino", "fives-and-threes", ["Carla", "Dani"],
                                            table="22")["id"]
        svc.recording.record_event(filled, {"type": "deal"}, expected_seq=None)
        page.wait_for_selector(f"#table-{filled}[data-seq='1']", timeout=WAIT_MS)
        rows = {r["match"]: r for r in api.client.get("/api/v1/clubs/casino/scoreboard")
                .get_json()["rows"]}

        def counts(match_id: int) -> str:
            return page.locator(f"#table-{match_id} [data-field=counts]").text_content() or ""

        assert counts(filled).endswith(f"; {sleeping} {rows[filled]['boneyard']}"), counts(filled)
        assert counts(drawn).endswith(f"; {boneyard} {rows[drawn]['boneyard']}"), counts(drawn)
        pairs = api.matches["casino"]  # parejas, dealt: every tile in a hand, nothing said
        assert rows[pairs]["shows_undealt"] is False and counts(pairs) and ";" not in counts(pairs)
        # who may lead, in the page's language in a card the script fills too (its " or " was
        # never embedded: "Carla or Dani" in Italian)
        detail = page.locator(f"#table-{filled} [data-field=detail]").text_content() or ""
        assert LEADS[lang] in detail, detail
        # every card's time in the club's zone, UTC said (the club has none), the server's cards
        # as the script's (those read before the zone was set said the reader's clock, unsaid)
        times = page.locator("[data-field=time]").all_text_contents()
        assert times and all(t.endswith(" UTC") for t in times if t), times
        whole(page, f"board-{lang}", f"#table-{filled}")
    finally:
        context.close()
    assert errors == []
