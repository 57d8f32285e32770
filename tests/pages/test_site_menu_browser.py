"""The site's header in a real browser (Debian's chromium under playwright; skipped as
test_pages_browser.py says), in English, Spanish and Italian: on a 360 px phone the club's menu
and the languages fold under one Menu at the end of the club's name's row (their five rows of
44 px links made the header 226 px tall, a quarter of the screen before the page's heading);
opened by a tap or the keyboard, every link shows, 44 px each way, nothing cut or sideways.
At 1280 px the menus show without Menu, beside the club's name, as before. axe-core
finds nothing either way. The focus ring of each control in the header (and the phone's bar)
stands 3:1 against its green. Screenshots: tests/pages/artifacts/menu-{lang}-{state}-{width}.png."""

from __future__ import annotations

import re
from typing import Any, Iterator

import pytest
from api_helpers import make_api, served
from browser_helpers import SMALL_TARGETS, WHOLE, axe_findings
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)

CLUB = "/clubs/villaverde"
MENU = {"en": "Menu", "es": "Menú", "it": "Menu"}
LINKS = 10  # the club's seven and the three languages
ONE_ROW = 60  # px: a 44 px target and the header's padding; two rows would be 94
VISIBLE_LINKS = "() => [...document.querySelectorAll('header.site nav a')].filter(a => a.checkVisibility()).length"
HEADER = "() => document.querySelector('header.site').getBoundingClientRect().height"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A public club whose name takes most of a phone's row."""
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('menu') / 'domino.db'}", ACCESS_LOG="0")
    api.service.clubs.create_club("villaverde", "Círculo de Dominó de Villaverde")
    api.service.clubs.set_public("villaverde", True)
    with served(api.app) as url:
        yield url
    api.service.close()


def opened(browser: Any, base: str, lang: str, width: int) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": 800})
    context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    page = context.new_page()
    said: list[str] = []
    page.on("pageerror", lambda error: said.append(str(error)))
    page.on("console", lambda m: said.append(m.text) if m.type == "error" else None)
    page.goto(base + CLUB)
    return context, page, said


def problems(page: Any) -> list[str]:
    return page.evaluate(WHOLE) + [f"small to tap: {p}" for p in page.evaluate(SMALL_TARGETS)] + \
        axe_findings(page, impacts=None)


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_a_phone_s_header_is_one_row_with_its_menus_a_tap_away(browser: Any, base: str,
                                                                lang: str) -> None:
    context, page, said = opened(browser, base, lang, 360)
    try:
        menu = page.locator("header.site summary")
        assert menu.inner_text().strip() == MENU[lang]
        assert page.evaluate(HEADER) <= ONE_ROW
        assert page.evaluate(VISIBLE_LINKS) == 0
        assert problems(page) == []
        page.screenshot(path=str(ARTIFACTS / f"menu-{lang}-folded-360.png"))

        menu.click()
        assert page.evaluate(VISIBLE_LINKS) == LINKS
        assert problems(page) == []
        page.screenshot(path=str(ARTIFACTS / f"menu-{lang}-open-360.png"))
        menu.click()
        assert page.evaluate(VISIBLE_LINKS) == 0

        # By the keyboard, on the page opened again: the skip link, then the club's name,
        # then Menu, opened by Enter, and the next Tab lands on the club's first link.
        page.goto(base + CLUB)
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.closest('nav.club-nav') !== null")
        assert said == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_a_desktop_shows_the_menus_without_menu(browser: Any, base: str, lang: str) -> None:
    context, page, said = opened(browser, base, lang, 1280)
    try:
        assert not page.locator("header.site summary").is_visible()
        assert page.evaluate(VISIBLE_LINKS) == LINKS
        assert problems(page) == []
        page.screenshot(path=str(ARTIFACTS / f"menu-{lang}-open-1280.png"))
        assert said == []
    finally:
        context.close()


# Each control of the header as the keyboard reaches it (Tab from the page's top): its focus
# ring's colour and style, and the header's background behind it.
RINGS = """() => {
  const el = document.activeElement;
  const header = el && el.closest('header');
  if (!header) { return null; }
  const style = getComputedStyle(el);
  return {what: el.tagName + ' ' + el.textContent.trim().slice(0, 30), ring: style.outlineColor,
          style: style.outlineStyle, width: parseFloat(style.outlineWidth),
          behind: getComputedStyle(header).backgroundColor};
}"""


def luminance(rgb: str) -> float:
    channels = [int(c) / 255 for c in re.findall(r"\d+", rgb)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("path", [CLUB, "/score"])
def test_the_focus_ring_shows_on_the_header_s_green(browser: Any, base: str, path: str) -> None:
    """The focus ring is 3 px of --focus, 5:1 on the page's white but 2.2:1 on the header's
    green (the club pages' header, the phone's bar): every control there is ringed 3:1 or
    more against the header, as a ring must be (WCAG 1.4.11)."""
    context = browser.new_context(viewport={"width": 360, "height": 800})
    page = context.new_page()
    try:
        page.goto(base + path)
        rings: list[dict[str, Any]] = []
        for _ in range(8):  # the skip link first, then the header's two or three
            page.keyboard.press("Tab")
            ring = page.evaluate(RINGS)
            if ring is None and rings:
                break
            if ring is not None:
                rings.append(ring)
        assert rings, "nothing in the header took the focus"
        for ring in rings:
            assert ring["style"] == "solid" and ring["width"] >= 3, ring
            assert contrast(ring["ring"], ring["behind"]) >= 3, ring
    finally:
        context.close()
