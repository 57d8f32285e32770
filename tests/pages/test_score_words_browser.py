"""What the scorekeeper's page tells the table in words, in a real browser (chromium through
playwright, as tests/pages/test_score_browser.py), in English and Spanish, at 360 px (a phone)
and 1280 px (a tablet): a round's result as a sentence with the score after it, the match's end
scrolled into view, "Who has the 6-6?" with the players as answers, the Time button and the
clock of a match with a time limit, and the start form with its target, time limit, event, date
and table, whose close names are asked about (a known player, or a new one), never taken
silently. Screenshots: tests/pages/artifacts/score-words-*.png."""

from __future__ import annotations

import random
import re
from typing import Any, Iterator

import pytest
from api_helpers import Api
from test_pages_browser import pytestmark, sync_api  # noqa: F401 (pytestmark marks the browser tests)
from test_score_browser import Phone, first_round, hook, phone_server

from referee.core.match import Match
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match
from referee.service import Duplicate

LANGS = ("en", "es")
WIDE = {"width": 1280, "height": 900}
SHORT = {"preset": "mano-a-mano", "hand_size": 4, "target": 30}  # a few quick rounds

# What the page says, in each language (the catalogs' words: words/locale).
SAY = {
    "en": {"domino": "Round {round}: {winner} won by domino, {points} points.",
           "blocked": "Round {round} was blocked by {blocker}: {winner} won on pips, {points} points.",
           "score": "Score now: {score}.", "who": "Who has the 6-6?", "time": "Time",
           "limit": "(limit 30 minutes)", "called": "time called",
           "seated": "Seated: 1. Jose, 2. {new}, 3. Luis, 4. Zoe",
           "over": "Match over: {winner} won"},
    "es": {"domino": "Ronda {round}: {winner} ganó con dominó, {points} puntos.",
           "blocked": "La ronda {round} se trancó (trancó {blocker}): {winner} ganó por puntos, "
                      "{points} puntos.",
           "score": "Tanteo: {score}.", "who": "¿Quién tiene el 6-6?", "time": "Tiempo",
           "limit": "(límite 30 minutos)", "called": "se pidió tiempo",
           "seated": "Sentados: 1. Jose, 2. {new}, 3. Luis, 4. Zoe",
           "over": None},  # the catalog's own sentence: checked to name the winner
}



@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    yield from phone_server(tmp_path_factory)

@pytest.fixture
def phone_in(browser: Any, server: tuple[Api, str]) -> Iterator[Any]:
    api, base = server
    opened: list[Phone] = []

    def phone(lang: str) -> Phone:
        opened.append(Phone(browser, base, api.tokens["casino", "scorekeeper"], lang))
        return opened[-1]

    yield phone
    for p in opened:
        p.close()


def shots(phone: Phone, name: str) -> None:
    """The page as it stands at 360 px (its layout checked) and at 1280 px."""
    phone.check_layout()
    phone.shot(f"words-{name}", wide=True)
    phone.page.set_viewport_size(WIDE)
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= WIDE["width"]
    phone.page.set_viewport_size({"width": 360, "height": 800})


def first_round_ending(outcome: str) -> list[dict[str, Any]]:
    """The first round of a short simulated mano-a-mano match (open deals) that ends in
    ``outcome``, as its buttons send it."""
    players = ["Ana", "Beto"]
    for seed in range(500):
        events = first_round(SHORT, players, random_match(SHORT, players, random.Random(seed))[1])
        match = Match(resolve_rules(SHORT, 2), players)
        for event in events:
            match.push(event)
        if match.results()[0].outcome == outcome and match.results()[0].points != 1:
            return events
    raise AssertionError(f"no simulated round ends {outcome}")


def in_view(phone: Phone, selector: str) -> bool:
    return phone.page.evaluate("""(selector) => {
        const box = document.querySelector(selector).getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight; }""", selector)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("outcome", ("domino", "blocked"))
def test_a_rounds_result_is_told_in_a_sentence(server: tuple[Api, str], phone_in: Any,
                                               lang: str, outcome: str) -> None:
    api, _ = server
    events = first_round_ending(outcome)
    match_id = api.service.recording.create_match("casino", SHORT, ["Ana", "Beto"])["id"]
    api.record(match_id, events[:-1], start=0)
    phone = phone_in(lang).open(match_id)
    phone.tap(events[-1])  # the round's last play, tapped
    screen = api.service.reading.screen(match_id).as_dict()
    (result,) = screen["rounds"]
    assert result["outcome"] == outcome
    said = SAY[lang][outcome].format(round=1, winner=result["winner_name"],
                                     blocker=result["blocked_by_name"], points=result["points"])
    score = ", ".join(f"{side} {points}" for side, points in zip(screen["sides"], screen["totals"]))
    text = phone.page.locator("#result").text_content()
    assert text == said + " " + SAY[lang]["score"].format(score=score)
    assert phone.page.locator("#phase").count() == 0  # the sentence says it, not "Round 1: Blocked"
    assert "seat" not in phone.page.locator("#state").text_content().lower()
    shots(phone, f"{outcome}-{lang}")


@pytest.mark.parametrize("lang", LANGS)
def test_the_matchs_end_is_scrolled_into_view(server: tuple[Api, str], phone_in: Any,
                                              lang: str) -> None:
    api, _ = server
    players = ["Ana", "Beto"]
    events = first_round(SHORT, players, random_match(SHORT, players, random.Random(0))[1],
                         whole=True)
    match_id = api.service.recording.create_match("casino", SHORT, players)["id"]
    api.record(match_id, events[:-1], start=0)
    phone = phone_in(lang).open(match_id)
    phone.page.set_viewport_size({"width": 360, "height": 480})  # a short phone: the end is off it
    phone.page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    assert not in_view(phone, "#phase")
    phone.tap(events[-1])
    winner = api.service.reading.screen(match_id).winner_name
    phase = phone.page.locator("#phase").text_content()
    assert winner in phase and (SAY[lang]["over"] is None or phase == SAY[lang]["over"].format(winner=winner))
    assert in_view(phone, "#phase")  # scrolled up to the end

    phone.page.screenshot(path=str(phone_shot_path(f"words-match-over-{lang}")))


def phone_shot_path(name: str) -> Any:
    from test_pages_browser import ARTIFACTS

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / f"score-{name}-360x800.png"


@pytest.mark.parametrize("lang", LANGS)
def test_a_closed_deal_asks_who_has_the_double_six(server: tuple[Api, str], phone_in: Any,
                                                   lang: str) -> None:
    api, _ = server
    players = ["Ana", "Beto", "Carla", "Dani"]
    match_id = api.service.recording.create_match("casino", "parejas", players)["id"]
    api.record(match_id, [{"type": "deal"}], start=0)
    phone = phone_in(lang).open(match_id)
    question = phone.page.locator("#who-leads")
    assert question.locator("h2").text_content() == SAY[lang]["who"]
    assert question.locator("button").all_text_contents() == players  # the players answer
    assert phone.page.locator("text=/leads 6-6|sale con 6-6/").count() == 0
    shots(phone, f"who-has-6-6-{lang}")
    phone.tap({"type": "play", "seat": 2, "tile": "6-6"})  # Carla has it
    assert phone.page.locator("#turn strong").text_content() == "Dani"
    assert "seat" not in (phone.page.locator("#turn").text_content() or "").lower()


@pytest.mark.parametrize("lang", LANGS)
def test_a_timed_match_shows_its_clock_and_calls_time(server: tuple[Api, str], phone_in: Any,
                                                      lang: str) -> None:
    api, _ = server
    rules = {"preset": "mano-a-mano", "time_limit": 30}
    match_id = api.service.recording.create_match("casino", rules, ["Ana", "Beto"])["id"]
    api.record(match_id, [{"type": "deal"}], start=0)
    phone = phone_in(lang).open(match_id)
    page = phone.page
    clock = page.locator("#clock")
    assert re.fullmatch(r"\d+:\d\d", clock.locator(".elapsed").text_content())
    assert SAY[lang]["limit"] in clock.text_content()
    assert page.locator("#time").text_content() == SAY[lang]["time"]
    first = clock.locator(".elapsed").text_content()
    page.wait_for_function(  # the clock runs (from the screen's started_at)
        "(first) => document.querySelector('#clock .elapsed').textContent !== first", arg=first,
        timeout=15_000)
    shots(phone, f"time-{lang}")
    phone.tap({"type": "time"})
    assert api.service.reading.screen(match_id).as_dict()["time_called"] == 2
    assert page.locator("#time").count() == 0  # called once
    assert SAY[lang]["called"] in clock.text_content()
    # Rules without a limit: no clock, no button.
    plain = api.service.recording.create_match("casino", "mano-a-mano", ["Ana", "Beto"])["id"]
    api.record(plain, [{"type": "deal"}], start=0)
    phone.open(plain)
    assert page.locator("#clock").count() == 0 and page.locator("#time").count() == 0


@pytest.mark.parametrize("lang", LANGS)
def test_the_start_form_seats_and_confirms_close_names(server: tuple[Api, str], phone_in: Any,
                                                       lang: str) -> None:
    api, base = server
    for name in ("José", "María", "Luis"):
        try:
            api.service.players.create("casino", name, confirm_new=True)
        except Duplicate:
            pass  # the other language's run made it
    new = {"en": "Marta", "es": "Mario"}[lang]  # close to María, and someone new
    phone = phone_in(lang)
    page = phone.page
    page.goto(f"{base}/score")
    page.wait_for_selector("#club:not([hidden])")
    page.wait_for_selector("#club-players option[value=José]", state="attached")
    page.select_option("#preset", "parejas")
    assert page.get_attribute("#target", "placeholder") == "50"
    assert page.locator("label[for=player-0]").text_content() == (
        "Player 1" if lang == "en" else "Jugador 1")
    assert "Seat 0" not in page.locator("#new-match").text_content()
    page.fill("#target", "100")
    page.fill("#time-limit", "45")
    for seat, name in enumerate(("Jose", new, "Luis", "Zoe")):
        page.fill(f"#player-{seat}", name)
    page.fill("#event", "Noche de club")
    page.fill("#date", "2026-11-30")
    page.fill("#table", "5")
    assert page.locator("#seated").text_content() == SAY[lang]["seated"].format(new=new)
    before = api.service.reading.list_matches("casino", limit=500)[1]
    page.click("#new-match button[type=submit]")
    page.wait_for_selector("#did-you-mean:not([hidden])")
    questions = page.locator("#did-you-mean .question")
    assert questions.count() == 2
    assert page.locator(".question[data-typed=Jose] button[data-known]").all_text_contents() == ["José"]
    assert page.locator(f".question[data-typed={new}] button[data-known]").all_text_contents() == ["María"]
    assert api.service.reading.list_matches("casino", limit=500)[1] == before  # nothing taken
    shots(phone, f"start-did-you-mean-{lang}")
    page.click(".question[data-typed=Jose] button[data-known='José']")  # Jose is José
    assert page.input_value("#player-0") == "José"
    assert page.locator("#did-you-mean").is_visible()  # one name still asked
    page.click(f"button[data-new={new}]")  # and this one is new: the start goes again
    page.wait_for_url("**/score/matches/*")
    page.wait_for_selector("#state[aria-busy=false]")
    match = api.service.reading.get_match(int(page.url.rsplit("/", 1)[1]))
    assert match["players"] == ["José", new, "Luis", "Zoe"]
    assert (match["rules"]["target"], match["rules"]["time_limit"]) == (100, 45)
    assert (match["event"], match["date"], match["table"]) == ("Noche de club", "2026-11-30", "5")
    # a time limit: the button is there; the clock waits for the first event
    assert page.locator("#time").is_visible() and page.locator("#clock").count() == 0
    assert page.locator(f"button[data-event='{hook({'type': 'deal'})}']").is_visible()



# The help on who sits where, by preset: partners opposite only where four play in partnerships.
SEATING = {"mano-a-mano": "luego el jugador 2.", "parejas": "1 y 3 contra 2 y 4.",
           "veracruz": "cada uno por su cuenta", "fives-and-threes": "cuatro, por parejas"}


def test_the_help_on_seats_follows_the_preset(server: tuple[Api, str], phone_in: Any) -> None:
    """Mano-a-mano's two are not told of partners sitting opposite (the help said so for every
    preset); each preset chosen shows its own help, and that one alone."""
    _, base = server
    phone = phone_in("es")
    page = phone.page
    page.goto(f"{base}/score")
    page.wait_for_selector("#club:not([hidden])")
    for preset, words in SEATING.items():
        page.select_option("#preset", preset)
        shown = page.locator("#seats-help p:visible")
        assert shown.count() == 1, preset
        text = shown.text_content() or ""
        assert words in text, (preset, text)
        assert ("compañeros" in text) == (preset in ("parejas", "fives-and-threes")), (preset, text)
        if preset == "mano-a-mano":
            shots(phone, "start-seating-es")


# What the page says of an open dispute: it waits for a referee, and play goes on (issue 31).
WAITS = {"en": "It waits for a referee's ruling; play goes on as the table played.",
         "es": "Espera el fallo de un árbitro; el juego sigue como se jugó en la mesa.",
         "it": "Attende la decisione di un arbitro; il gioco prosegue come al tavolo."}


@pytest.mark.parametrize("lang", ("en", "es", "it"))
def test_a_disputed_pass_waits_for_the_referee_and_play_goes_on(
        server: tuple[Api, str], phone_in: Any, lang: str) -> None:
    api, _ = server
    hands = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
             ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"]]
    match_id = api.service.recording.create_match("casino", "mano-a-mano", ["Ana", "Beto"])["id"]
    api.record(match_id, [{"type": "deal", "hands": hands},
                          {"type": "play", "seat": 0, "tile": "6-6"}], start=0)
    phone = phone_in(lang).open(match_id)
    phone.tap({"type": "pass", "seat": 1}, stored=False)  # Beto holds 6-4 and 6-3: refused
    phone.tap({"type": "pass", "seat": 1, "disputed": True})
    assert phone.page.locator("#disputes-help").text_content() == WAITS[lang]
    assert phone.page.locator("#turn strong").text_content() == "Ana"  # the next seat
    assert phone.button({"type": "play", "seat": 0, "tile": "6-5"}).count() == 1
    shots(phone, f"disputed-{lang}")


@pytest.mark.parametrize("lang, said", [("es", "Extremos abiertos ninguno"),
                                        ("it", "Estremità libere nessuna")])
def test_no_open_end_agrees_with_its_noun(server: tuple[Api, str], phone_in: Any, lang: str,
                                          said: str) -> None:
    """Before the first tile the open ends are none, in the noun's gender (Italian estremità is
    feminine: nessuna, not nessuno)."""
    api, _ = server
    match_id = api.service.recording.create_match("casino", "mano-a-mano", ["Ana", "Beto"])["id"]
    phone = phone_in(lang).open(match_id)
    first = phone.page.locator(".facts div").first
    assert f"{first.locator('dt').text_content()} {first.locator('dd').text_content()}" == said
