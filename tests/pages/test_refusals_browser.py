"""A refusal is shown beside the control that caused it, and said to a screen reader, on a
360-pixel phone (issue 31: a refused duplicate player was announced 1,148 px above the button
pressed, so the press seemed to do nothing). In a real browser (Debian's chromium under
playwright, as test_pages_browser.py drives it), in Spanish: the tournament desk's entry of
names, the club desk's settings and its new player, and the phone's start form. Each time the
page's status line (one live region: role alert for a refusal) is in sight, right under the
button pressed, and says the server's words. Screenshots: tests/pages/artifacts/refusal-*.png."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import Api, make_api, served
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)

WAIT = 30_000  # ms: a generous bound on each wait for a condition, never a timing assertion
PHONE = {"width": 360, "height": 800}
CLOSE = 160  # px: the most from the button's foot to the line's top (a line or two between)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('refusals') / 'domino.db'}", ACCESS_LOG="0")
    api.service.tournaments.create("casino", "copa", "Copa de otoño", rules="parejas",
                                   format="pairs", rounds=3)
    with served(api.app) as base:
        yield api, base
    api.service.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, has_touch=True, locale="es",
                                  extra_http_headers={"Accept-Language": "es"})
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


def sign_in(page: Any, base: str, path: str, token: str) -> None:
    page.goto(base + path)
    page.fill("input[name=token]", token)
    page.click("button[data-action=sign-in]")
    page.wait_for_function("() => !document.querySelector('input[name=token]')", timeout=WAIT)


def said_beside(page: Any, button: Any, line: str, words: str, name: str) -> None:
    """The status line ``line`` says ``words`` (a refusal: role alert, in a live region),
    in the window, its top at most CLOSE px under the foot of ``button``."""
    status = page.locator(line)
    # the refusal, not the line's "Adding Ana…" before the answer: a refusal is role alert
    page.wait_for_function("([s, t]) => { const l = document.querySelector(s); return l && "
                           "l.getAttribute('role') === 'alert' && l.textContent.includes(t); }",
                           arg=[line, words], timeout=WAIT)
    assert status.evaluate("s => s.closest('[aria-live]') !== null || s.getAttribute('role') === 'alert'")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"refusal-{name}-360.png"))
    pressed, box = button.bounding_box(), status.bounding_box()
    assert pressed and box, (pressed, box)
    gap = box["y"] - (pressed["y"] + pressed["height"])
    assert -1 <= gap <= CLOSE, f"{name}: the refusal is {gap:.0f} px from the button pressed"
    assert -1 <= box["y"] and box["y"] + box["height"] <= PHONE["height"] + 1, \
        f"{name}: the refusal is out of the window ({box})"


def test_a_refused_entrant_is_said_under_the_enter_button(server: tuple[Api, str], phone: Any) -> None:
    api, base = server
    sign_in(phone, base, "/clubs/casino/desk/tournaments/copa", api.tokens["casino", "referee"])
    phone.fill("textarea[name=players]", "Ana & Ana\n")
    button = phone.locator("button[data-action=enter]")
    button.scroll_into_view_if_needed()
    button.click()
    said_beside(phone, button, "#desk-status", "Ana", "tournament-entrant")
    assert api.service.tournaments.show("casino", "copa")["entrants"] == []


def test_a_refused_setting_and_a_refused_player_are_said_under_their_buttons(
        server: tuple[Api, str], phone: Any) -> None:
    api, base = server
    sign_in(phone, base, "/clubs/casino/desk", api.tokens["casino", "admin"])
    form = phone.locator("form[data-form=settings]")
    form.locator("input[name=default_target]").evaluate(
        "e => { e.removeAttribute('max'); e.value = '99999'; }")
    button = form.locator("button[data-action=save-settings]")
    button.scroll_into_view_if_needed()
    button.click()
    said_beside(phone, button, "#desk-status",
                "Meta de una partida nueva (puntos): debe estar entre 1 y 10000", "desk-settings")

    form = phone.locator("form[data-form=player-add]")
    form.locator("input[name=name]").fill("Ana")  # a player of the club already
    button = form.locator("button[data-action=player-add]")
    button.scroll_into_view_if_needed()
    button.click()
    said_beside(phone, button, "#desk-status", "Ana", "desk-player")


def test_a_refused_start_is_said_under_the_start_button(server: tuple[Api, str], phone: Any) -> None:
    api, base = server
    phone.add_init_script("localStorage.setItem('domino-referee.score.token', "
                          f"'{api.tokens['casino', 'scorekeeper']}');")
    phone.goto(base + "/score")
    phone.wait_for_selector("#club:not([hidden])", timeout=WAIT)
    phone.select_option("#preset", "mano-a-mano")
    phone.fill("#player-0", "Ana")
    phone.fill("#player-1", "Ana")
    button = phone.locator("#new-match button[type=submit]")
    button.scroll_into_view_if_needed()
    button.click()
    said_beside(phone, button, "#message", "Ana", "phone-start")
