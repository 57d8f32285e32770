"""What people read, in Spanish and Italian, in a real browser (Debian's chromium; fixtures of
test_pages_browser.py, skipped as it is): every page of a club whose pages have something to
say (words_site.py: disputes ruled and open, a standard penalty, an undo, time called, a
withdrawn match, a tournament with its tables), the desk's pages, the sheets (dispute sheet,
acta, pairing sheet, table cards), the phone's screens, and the setup page (the first club's
link: its form, the club made, the link used again).

- No code in the visible text: no violation, status, role, tie-breaker, rule parameter, event,
  preset or tournament code, no slug (docs/glossary.md: what people read never shows a code or
  an internal number). The commands a page gives to type (``.command``,
  ``[data-command]``) are left out.
- Seats counted from 1 beside names; the reasons the system wrote in the reader's language;
  times in the club's time zone; a partnership's verb agreeing; tied names in the language's
  order; the tie-breakers in words; the phone's footer by the club's name and the role's word;
  the tournament desk's script in the page's language.

Screenshots: tests/pages/artifacts/words-{es,it}-*.png."""

from __future__ import annotations

import re
from typing import Any, Iterator

import pytest
from api_helpers import served
from browser_helpers import desk_wired
from test_pages_browser import ARTIFACTS, pytestmark  # noqa: F401 (pytestmark marks the browser tests)
from words_site import CLUB, LABELS, NAME, TOURNAMENT, ZONE, WordsSite, build_words_site

from api import create_app
from api.context import EXTENSION
from migrations.runner import upgrade
from referee.core import outcomes, vocab
from referee.core.rules import CHOICES, PARAMETERS, PRESETS
from words import formats

# Every code a page could leak (the slugs are added by the test).
CODES = {*vocab.VIOLATION_CODES, *vocab.EVENT_TYPES, *vocab.MATCH_STATUSES, *vocab.LIVE_STATUSES,
         *vocab.DISPUTE_FILTERS, *vocab.TOURNAMENT_STATUSES, *vocab.ROUND_STATUSES, *vocab.ROLES,
         *vocab.TIE_BREAKERS, *vocab.TOURNAMENT_FORMATS, *vocab.CONSTRAINT_KINDS,
         *vocab.CONSTRAINT_SCOPES, *vocab.UNRANKED, *vocab.STANDING_GROUPS, *PARAMETERS,
         *(str(v) for values in CHOICES.values() for v in values if not str(v).isdigit()), *PRESETS,
         outcomes.IN_PROGRESS, outcomes.DOMINO, outcomes.BLOCKED, outcomes.ANNULLED,
         outcomes.AWAITING, "proven", "possible", CLUB, TOURNAMENT}
# Codes that are also a word of the language: Spanish "mano" (hand), "note" (notar: "sin que se
# note"), "parejas" (pairs); Italian "domino" (going out), "note" (notes), "mano" (a round);
# and "spinner", the players' own word in both (docs/glossary.md: "el spinner", "lo spinner").
# A number among the choices (a hand's size, a round's rounding) is no code: pages show numbers.
WORDS = {"es": {"mano", "note", "parejas", "spinner"},
         "it": {"domino", "note", "mano", "spinner"}}

TEXTS = """() => {
  const skip = el => el.closest('script, style, template, .command, [data-command]');
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let body = "";
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!skip(el) && el.getClientRects().length) { body += " " + node.textContent; }
  }
  out.push(body);
  document.querySelectorAll('[aria-label], [title], [alt], option').forEach(el => {
    if (skip(el)) { return; }
    ['aria-label', 'title', 'alt'].forEach(name => { const v = el.getAttribute(name); if (v) out.push(v); });
    if (el.tagName === 'OPTION') { out.push(el.textContent); }
  });
  out.push(document.title);
  return out.join(" \\n ");
}"""


def leaked(text: str, lang: str) -> list[str]:
    """Each code found as a whole token (not inside a word, nor a hyphenated name such as
    domino-referee), with the words around it."""
    found = []
    for code in sorted(CODES - WORDS[lang]):
        for hit in re.finditer(r"(?<![\w-])" + re.escape(code) + r"(?![\w'’-])", text):
            found.append(f"{code}: …{text[max(0, hit.start() - 40):hit.end() + 40]}…".replace("\n", " "))
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[WordsSite, str]]:
    site = build_words_site(f"sqlite:///{tmp_path_factory.mktemp('words') / 'domino.db'}")
    with served(site.app) as base:
        yield site, base
    site.service.close()


def club_pages(site: WordsSite) -> list[tuple[str, str]]:
    m, players = site.matches, site.players()
    club = f"/clubs/{CLUB}"
    return [("club", club), ("players", f"{club}/players"),
            ("player", f"{club}/players/{players[site.names[0]]}"), ("matches", f"{club}/matches"),
            ("match-finished", f"{club}/matches/{m['finished']}"),
            ("match-ruled", f"{club}/matches/{m['ruled']}"),
            ("match-open", f"{club}/matches/{m['open']}"),
            ("match-live", f"{club}/matches/{m['live']}"),
            ("match-withdrawn", f"{club}/matches/{m['withdrawn']}"),
            ("acta", f"{club}/matches/{m['ruled']}/acta"),
            ("sheet-ruled", f"{club}/matches/{m['ruled']}/disputes/3"),
            ("sheet-open", f"{club}/matches/{m['open']}/disputes/3"),
            ("sheet-live", f"{club}/matches/{m['live']}/disputes/6"),
            ("tournaments", f"{club}/tournaments"), ("tournament", f"{club}/tournaments/{TOURNAMENT}"),
            ("scoreboard", f"{club}/scoreboard")]


def desk_pages() -> list[tuple[str, str]]:
    desk = f"/clubs/{CLUB}/desk"
    return [("desk", desk), ("desk-disputes", f"{desk}/disputes"),
            ("desk-tournaments", f"{desk}/tournaments"),
            ("desk-tournament", f"{desk}/tournaments/{TOURNAMENT}"),
            ("desk-pairings", f"{desk}/tournaments/{TOURNAMENT}/rounds/1/pairings"),
            ("desk-cards", f"{desk}/tournaments/{TOURNAMENT}/rounds/1/cards")]


def context_for(browser: Any, base: str, site: WordsSite, lang: str, width: int) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    context.add_init_script(
        f"sessionStorage.setItem('domino-referee.token', {site.tokens['admin']!r});"
        f"localStorage.setItem('domino-referee.score.token', {site.tokens['scorekeeper']!r});"
        "localStorage.setItem('domino-referee.score.poll', '0');")
    return context


def drawn(page: Any, path: str) -> None:
    """Wait until the page at ``path``, just loaded, is as people see it: what it fetched after
    it loaded drawn (a desk page signed in with the kept token, shown in place and its module
    run; a scoreboard's stream connected; the phone's lists or match read and who is signed
    in), its tables laid out by pages.js. Each is a condition met once: waiting instead for the
    network to be still (playwright's 'networkidle') cost 500 ms a page."""
    if "/desk" in path:  # the sign-in page first, then the desk's, shown in place
        page.wait_for_function("() => !document.querySelector('input[name=token]') && "
                               "document.querySelector('h1') !== null")
        desk_wired(page)  # and its module run: what it draws is looked at too
    elif path.endswith("/scoreboard"):
        page.wait_for_selector("#live-state[data-state=live]")
    elif path == "/score":
        page.wait_for_selector("#live li, #no-live:not([hidden])", state="attached")
        page.wait_for_selector("#club-players option", state="attached")
    elif path.startswith("/score/"):
        page.wait_for_selector("#state[aria-busy=false]", state="attached")
    if path.startswith("/score"):
        page.locator("#who:not(:empty)").wait_for()
    if page.locator(".table-wrap > table").count():
        page.wait_for_selector(".table-wrap > table.reflow", state="attached")


def read(page: Any, base: str, path: str) -> str:
    page.goto(base + path)
    drawn(page, path)
    return page.evaluate(TEXTS)


@pytest.mark.parametrize("lang", ["es", "it"])
def test_no_code_in_what_people_read(server: tuple[WordsSite, str], browser: Any, lang: str) -> None:
    site, base = server
    context = context_for(browser, base, site, lang, 360)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    seen: dict[str, str] = {}
    try:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for name, path in [*club_pages(site), *desk_pages()]:
            seen[name] = read(page, base, path)
            assert page.evaluate("document.documentElement.lang") == lang, path
            page.screenshot(path=str(ARTIFACTS / f"words-{lang}-{name}-360.png"), full_page=True)
        for name, path, ready in (("phone-start", "/score", "#club:not([hidden]) #live li"),
                                  ("phone-match", f"/score/matches/{site.matches['live']}",
                                   "#state[aria-busy=false] #disputes")):
            page.goto(base + path)
            page.wait_for_selector(ready)
            page.locator("#who:not(:empty)").wait_for()
            seen[name] = page.evaluate(TEXTS)
            page.screenshot(path=str(ARTIFACTS / f"words-{lang}-{name}-360.png"), full_page=True)
    finally:
        context.close()
    found = {name: leaked(text, lang) for name, text in seen.items()}
    shown = [name for name, text in seen.items() if re.search(r"</?[a-z]+[ >]", text)]
    assert shown == [], "markup shown as text"
    assert {name: codes for name, codes in found.items() if codes} == {}, \
        "\n".join(f"{name}: {hit}" for name, hits in found.items() for hit in hits)
    assert not errors, errors


@pytest.mark.parametrize("lang", ["es", "it"])
def test_no_code_on_the_setup_page(browser: Any, lang: str, tmp_path: Any) -> None:
    """The first club's link on a database with no club: its form, the club made (the
    secretary's token shown once) and the same link opened again."""
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'first.db'}"})
    service = app.extensions[EXTENSION]
    upgrade(service.engine)
    code = service.setup.issue()["code"]
    seen: dict[str, str] = {}
    try:
        with served(app) as base:
            context = browser.new_context(viewport={"width": 360, "height": 900}, locale=lang)
            context.add_cookies([{"name": "lang", "value": lang, "url": base}])
            page = context.new_page()
            try:
                page.goto(f"{base}/setup#code={code}")
                form = page.locator("form[data-form=setup]")
                form.wait_for()
                seen["setup-form"] = page.evaluate(TEXTS)
                form.locator("input[name=name]").fill("Peña La Ceiba")
                form.locator("button[data-action=setup]").click()
                page.wait_for_selector("[data-made]:not([hidden]) [data-token]")
                seen["setup-made"] = page.evaluate(TEXTS)
                page.screenshot(path=str(ARTIFACTS / f"words-{lang}-setup-made-360.png"), full_page=True)
                page.goto(f"{base}/setup#code={code}")
                page.wait_for_function("() => document.getElementById('setup-status').textContent")
                seen["setup-used"] = page.evaluate(TEXTS)
                assert page.evaluate("document.documentElement.lang") == lang
            finally:
                context.close()
    finally:
        service.close()
    found = {name: leaked(text, lang) for name, text in seen.items()}
    assert {name: codes for name, codes in found.items() if codes} == {}, found
    assert not [name for name, text in seen.items() if re.search(r"\bthe\b|\bclub is\b", text)], seen


SAID = {
    "es": {"seat": "Ñico (asiento 1)", "second": "Íñigo (asiento 2)", "penalty":
           "la penalización del reglamento por renuncio en el evento 3", "undo": "deshecho por el anotador",
           "won": "ganaron", "breakers": ["Partidas ganadas", "Cara a cara", "Menos puntos en contra",
                                          "Valoración"],
           "footer": f"Sesión iniciada en {NAME} como {LABELS['scorekeeper']} (anotador).",
           "cards": "Asiento 1", "entered": "Inscritos: 1.", "pair": "Gala Ruiz & Hugo Paz", "foul": "Evento 6, la ficha no encaja",
           "sides": "asientos 1 y 3"},
    "it": {"seat": "Ñico (posto 1)", "second": "Íñigo (posto 2)", "penalty":
           "la penalità del regolamento per rinuncia all'evento 3", "undo": "annullato dal segnapunti",
           "won": "vinta da", "breakers": ["Partite vinte", "Scontri diretti", "Meno punti subiti",
                                              "Valutazione"],
           "footer": f"Accesso a {NAME} come {LABELS['scorekeeper']} (segnapunti).",
           "cards": "Posto 1", "entered": "Iscritti: 1.", "pair": "Irma Neri & Luca Sala", "foul": "Evento 6, la tessera non si attacca",
           "sides": "posti 1 e 3"},
}


@pytest.mark.parametrize("lang", ["es", "it"])
def test_what_people_read_is_said_as_they_say_it(server: tuple[WordsSite, str], browser: Any,
                                                 lang: str) -> None:
    site, base = server
    said, m, club = SAID[lang], site.matches, f"/clubs/{CLUB}"
    context = context_for(browser, base, site, lang, 1280)
    page = context.new_page()
    try:
        live = read(page, base, f"{club}/matches/{m['live']}")
        assert said["seat"] in live and "(asiento 0)" not in live and "(posto 0)" not in live
        assert said["undo"] in live  # the phone's undo, stored in English
        ruled = read(page, base, f"{club}/matches/{m['ruled']}")
        assert said["penalty"] in ruled
        sheet = read(page, base, f"{club}/matches/{m['ruled']}/disputes/3")
        assert said["second"] in sheet and said["penalty"] in sheet
        assert said["won"] in read(page, base, f"{club}/matches/{m['finished']}")

        # the acta's signature and a token's last use, in the club's time zone
        acta_json = site.service.actas.acta(m["ruled"])
        acta = read(page, base, f"{club}/matches/{m['ruled']}/acta")
        assert formats.moment(acta_json["signed_at"], ZONE, lang) in acta and "UTC" not in acta
        tokens, _ = site.service.tokens.list_tokens(CLUB, limit=10)
        used = next(t["last_used_at"] for t in tokens if t["label"] == LABELS["scorekeeper"])
        read(page, base, f"{club}/desk")
        page.wait_for_selector("[data-tie-breakers]")
        assert formats.moment(used, ZONE, lang) in page.evaluate(TEXTS)
        assert page.locator("[data-chosen] li .breaker").all_inner_texts() == said["breakers"]

        # tied names in the language's order, on the players page and the tournament's
        read(page, base, f"{club}/players")
        players = page.locator("main").inner_text()
        assert players.index("Íñigo") < players.index("Raúl") and players.index("Álvaro") < players.index("Beatriz")
        read(page, base, f"{club}/tournaments/{TOURNAMENT}")
        standing = page.locator("#event-standings tbody th").all_inner_texts()
        # each pair as it was entered (and is named on every page), the pairs in Spanish order
        expected = ["Ñoño & Nadia", "Óscar & Olga", "Úrsula & Ulises", "Zacarías & Ángel"]
        assert [name for name in standing if name in expected] == expected

        # the pairing explanation and the table cards count seats from 1
        read(page, base, f"/clubs/{CLUB}/desk/tournaments/{TOURNAMENT}")
        page.wait_for_selector("#desk")
        assert said["sides"] in page.evaluate(TEXTS)
        read(page, base, f"/clubs/{CLUB}/desk/tournaments/{TOURNAMENT}/rounds/1/cards")
        page.wait_for_selector(".seats")
        assert said["cards"] in page.evaluate(TEXTS)

        # the tournament desk's script speaks the page's language (a page shown in place)
        read(page, base, f"/clubs/{CLUB}/desk/tournaments/{TOURNAMENT}")
        page.wait_for_selector("form[data-form=enter]")
        page.fill("textarea[name=players]", said["pair"])
        page.click("button[data-action=enter]")
        page.locator("#desk-status", has_text=said["entered"]).wait_for()
        page.screenshot(path=str(ARTIFACTS / f"words-{lang}-desk-entered-1280.png"), full_page=True)

        # the phone: its footer and its disputes, in words
        page.goto(f"{base}/score/matches/{m['live']}")
        page.wait_for_selector("#state[aria-busy=false] #disputes")
        page.locator("#who:not(:empty)").wait_for()
        assert page.locator("#who").inner_text() == said["footer"]
        assert said["foul"] in page.locator("#disputes").inner_text()
        page.screenshot(path=str(ARTIFACTS / f"words-{lang}-phone-match-1280.png"), full_page=True)
    finally:
        context.close()
