"""The club pages in another language, in a real browser (Debian's chromium; test_pages_browser's
fixtures, skipped as it is): in the pseudo-locale every visible text of every page (and the words
the scripts write in, the scoreboard's) is inside the catalog's marks, names and numbers
aside; in Spanish and Italian at 360 px the longer words still fit (no page wider than the
phone, no button, heading or cell cut off), and ``<html lang>`` says the language. Screenshots:
tests/pages/artifacts/i18n-{es,it,xx}-*.png (DOMINO_PAGES_ARTIFACTS names another folder)."""

from __future__ import annotations

import os
import re
from typing import Any, Iterator

import pytest
from api_helpers import served
from pages_site import FINISHED, Site, build_site
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)

# Every text node people may be shown or read out (visually hidden ones too), in document
# order as one text (a message may hold a name in <strong>), and the attributes read out, but
# not what is marked translate="no" (names of languages, JSON, codes), nor what says it is in
# another language than the page's (the rules core's sentences: lang="en", for now), nor scripts.
TEXTS = """() => {
  const out = [];
  const page = document.documentElement.lang;
  const skip = el => el.closest('script, style, template, noscript, [translate="no"]')
    || (el.closest('[lang]') && el.closest('[lang]').getAttribute('lang') !== page);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let body = "";
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!skip(node.parentElement)) { body += node.textContent; }
  }
  out.push(body);
  document.querySelectorAll('[aria-label], [title], [alt]').forEach(el => {
    if (skip(el)) { return; }
    ['aria-label', 'title', 'alt'].forEach(name => { const v = el.getAttribute(name); if (v) out.push(v); });
  });
  out.push(document.title);
  return out;
}"""
MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
DATA = re.compile(r"\d+|[^\w\s]|\b[a-z]+(?:_[a-z]+)+\b")


def names_of(site: Site) -> list[str]:
    players = {p for _, _, seated, _ in FINISHED for p in seated} | {"Ana", "Beto"}
    events = {event for _, event, _, _ in FINISHED}
    people = [*players, *(" & ".join(pair) for pair in (("Ana", "Carla"), ("Beto", "Dani")))]
    return sorted({*people, *events, "Casino", "Other", "casino", "other", "domino-referee",
                   "μ", "σ", "stands", "both sides agreed to play on"}, key=len, reverse=True)


def unmarked(texts: list[str], known: list[str]) -> list[str]:
    left = []
    for text in texts:
        while MARKED.search(text):
            text = MARKED.sub(" ", text)
        for name in known:
            text = text.replace(name, " ")
        left += [w for w in DATA.sub(" ", text).split() if w]
    return left


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, str]]:
    before = os.environ.get("DOMINO_PSEUDO_LOCALE")
    os.environ["DOMINO_PSEUDO_LOCALE"] = "1"  # the app reads it as it is made
    try:
        site = build_site(f"sqlite:///{tmp_path_factory.mktemp('i18n') / 'domino.db'}")
    finally:
        if before is None:
            del os.environ["DOMINO_PSEUDO_LOCALE"]
        else:
            os.environ["DOMINO_PSEUDO_LOCALE"] = before
    with served(site.api.app) as base:
        yield site, base
    site.api.service.close()


def pages_of(site: Site) -> list[tuple[str, str]]:
    player = site.players()["Ana"]
    return [("club", "/clubs/casino"),
            ("club-april", "/clubs/casino?from=2026-04-01&to=2026-04-30&event=League"),
            ("player", f"/clubs/casino/players/{player}"),
            ("match-live", f"/clubs/casino/matches/{site.live}"),
            ("match-disputed", f"/clubs/casino/matches/{site.disputed}"),
            ("sheet", f"/clubs/casino/matches/{site.disputed}/disputes/3"),
            ("scoreboard", "/clubs/casino/scoreboard"),
            ("sign-in", "/clubs/other"),
            ("not-found", "/clubs/casino/players/999999")]


def open_in(browser: Any, base: str, lang: str, width: int = 360) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": 800})
    context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and "401" not in m.text and "404" not in m.text else None)
    return context, page, errors


def test_no_text_of_the_club_pages_escapes_the_catalogs(server: tuple[Site, str], browser: Any) -> None:
    site, base = server
    known = names_of(site)
    context, page, errors = open_in(browser, base, "xx", width=1280)
    try:
        for name, path in pages_of(site):
            page.goto(base + path)
            if name == "scoreboard":  # the script's words: the indicator once the stream is read
                page.wait_for_selector("#live-state[data-state=live]")
            assert page.evaluate("document.documentElement.lang") == "xx", path
            left = unmarked(page.evaluate(TEXTS), known)
            assert left == [], f"{path}: text not through the catalogs: {left}"
            if name in ("club", "scoreboard", "sheet"):
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"i18n-xx-{name}-1280x800.png"), full_page=True)
        # the sort announcement is the script's too
        page.goto(base + "/clubs/casino")
        page.locator("#standings thead th button").nth(2).click()
        assert unmarked([page.locator("#sort-status").text_content()], known) == []
    finally:
        context.close()
    assert not errors, errors


FITS = """() => {
  const cut = [];
  document.querySelectorAll('button, h1, h2, h3, h4, th, td, label, legend, .badge, a').forEach(el => {
    if (el.closest('.table-wrap') && (el.tagName === 'TD' || el.tagName === 'TH')) { return; }
    if (el.offsetParent === null) { return; }
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible') { cut.push(el.outerHTML.slice(0, 80)); }
  });
  return {width: document.documentElement.scrollWidth, cut: cut};
}"""


@pytest.mark.parametrize("lang, words", [
    ("es", ("Clasificación", "Partidas", "Entrar", "Hoja de disputa", "Marcador en vivo")),
    ("it", ("Classifica", "Partite", "Accedi", "Verbale di contestazione", "Tabellone")),
])
def test_the_pages_in_spanish_and_italian_fit_a_phone(server: tuple[Site, str], browser: Any,
                                                      lang: str, words: tuple[str, ...]) -> None:
    site, base = server
    context, page, errors = open_in(browser, base, lang)
    seen = ""
    try:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for name, path in pages_of(site):
            page.goto(base + path)
            if name == "scoreboard":
                page.wait_for_selector("#live-state[data-state=live]")
            assert page.evaluate("document.documentElement.lang") == lang, path
            fit = page.evaluate(FITS)
            assert fit["width"] <= 360, (path, fit)
            assert fit["cut"] == [], (path, fit["cut"])
            seen += page.locator("body").inner_text() + page.title()
            page.screenshot(path=str(ARTIFACTS / f"i18n-{lang}-{name}-360x800.png"), full_page=True)
        for word in words:
            assert word in seen, word
        # the menu: plain links (under the phone's Menu), and the pick kept in the cookie
        page.goto(base + "/clubs/casino")
        page.locator("header.site summary").click()
        page.locator('nav.languages a[hreflang="en"]').click()
        page.wait_for_load_state()
        assert page.evaluate("document.documentElement.lang") == "en"
        assert page.url == base + "/clubs/casino"
    finally:
        context.close()
    assert not errors, errors


def test_no_text_of_the_scorekeepers_page_escapes_the_catalogs(server: tuple[Site, str],
                                                              browser: Any) -> None:
    """The phone's start page and a live match, signed in, in the pseudo-locale: the templates'
    words and every word its modules write (the embedded dictionary, words.scripts) marked."""
    import json

    site, base = server
    known = [*names_of(site), "casino scorekeeper", "scorekeeper", "parejas", "mano-a-mano",
             "veracruz", "sircle", "puerto-rico"]
    context, page, errors = open_in(browser, base, "xx")
    token = site.api.tokens["casino", "scorekeeper"]
    context.add_init_script("localStorage.setItem('domino-referee.score.poll', '0');"
                            f"localStorage.setItem('domino-referee.score.token', {json.dumps(token)});")
    try:
        for name, path, ready in (("score-start", "/score", "#club:not([hidden]) #live li"),
                                  ("score-match", f"/score/matches/{site.live}",
                                   "#state[aria-busy=false] #turn")):
            page.goto(base + path)
            page.wait_for_selector(ready)
            assert page.evaluate("document.documentElement.lang") == "xx", path
            left = unmarked(page.evaluate(TEXTS), known)
            assert left == [], f"{path}: text not through the catalogs: {left}"
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"i18n-xx-{name}-360x800.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors
