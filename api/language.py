"""The language of each request, and the pages' words (docs/i18n.md).

- A page (anything outside ``/api/``): the language picked in the menu (the ``lang`` cookie),
  else the club's ``language`` setting (once the service has answered the page's club, so that a
  private club's sign-in page tells nobody the club exists), else ``Accept-Language``, else
  English. An unknown cookie or header is passed over quietly.
- The API (``/api/...``): ``Accept-Language``, else English; ``detail`` of its problems follows.

The language is :func:`words.use`'s for the request (the catalogs are :mod:`words`', shared with
the CLI); Flask-Babel serves it to the templates (jinja2.ext.i18n: ``_()``, ``ngettext()``) and
the views (``flask_babel.gettext``, ``lazy_gettext``) through a domain that reads those catalogs.
The menu (``/language/<lang>?next=...``) is plain links: it works without JavaScript.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from flask import (
    Blueprint,
    Flask,
    Request,
    Response,
    before_render_template,
    current_app,
    redirect,
    request,
)
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel, Domain, refresh
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup, escape
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

import words
from referee.service.clubs import FIRST_ADMIN
from words import events, formats, scripts
from words.terms import term, terms

from .context import request_globals, this_app, this_request

COOKIE = "lang"
COOKIE_SECONDS = 365 * 24 * 3600
API_PREFIX = "/api/"

blp = Blueprint("language", __name__)


class Catalogs(Domain):
    """Flask-Babel's domain over :mod:`words`' catalogs, in the request's language (which may
    be the pseudo-locale, a language Babel's CLDR data does not know)."""

    def get_translations(self) -> Any:
        return words.catalog(words.current())


class WordsBabel(Babel):
    domain_instance = Catalogs(domain=words.DOMAIN)  # type: ignore[assignment]


def _pseudo() -> bool:
    return bool(this_app().config.get("PSEUDO_LOCALE"))


def _known(value: Any) -> str | None:
    return words.known(value, pseudo=_pseudo())


def _accepted(asked: Request) -> str | None:
    return best_accepted(asked.headers.get("Accept-Language"), _pseudo())


@lru_cache(maxsize=256)
def best_accepted(header: str | None, pseudo: bool) -> str | None:
    """The language an ``Accept-Language`` value asks for among ours, as werkzeug's
    ``request.accept_languages.best_match`` says (tests/api/test_api_views.py holds the two
    equal). Kept by value: a phone sends the same header on every request, and parsing it was
    2.2 % of the app's time an append (cProfile; docs/performance.md, "Over HTTP, 7
    December"). The values kept are few (256), each a header bounded by the edge's limits."""
    offered = list(words.LANGUAGES) + ([words.PSEUDO] if pseudo else [])
    return parse_accept_header(header, LanguageAccept).best_match(offered)


def request_language(club_language: str | None = None) -> str:
    """The language this request is answered in (the module's docstring says in what order)."""
    asked = this_request()  # every request asks: not through the proxy (api.context)
    if asked.path.startswith(API_PREFIX):
        return _accepted(asked) or words.DEFAULT
    return (_known(asked.cookies.get(COOKIE)) or _known(club_language) or _accepted(asked)
            or words.DEFAULT)


def _begin() -> None:
    request_globals().words_token = words.use(request_language())


def _end(_error: BaseException | None) -> None:
    token = request_globals().pop("words_token", None)
    if token is not None:
        words.reset(token)


def use_club(club: Any) -> None:
    """A page about ``club`` (the service's answer) speaks the club's language, unless the
    reader picked one. Known only once the service has answered, so that a page that is not
    read (a private club's sign-in) tells nothing of the club."""
    language = club.get("language") if isinstance(club, dict) else None
    if language and not request.path.startswith(API_PREFIX):
        chosen = request_language(language)
        if chosen != words.current():
            words.use(chosen)  # the request's own token (g.words_token) puts it back at the end
            refresh()  # Flask-Babel's cached locale (its formats) follows


def _club_language(sender: Flask, template: Any, context: dict[str, Any], **extra: Any) -> None:
    """Every template drawn about a club: its language (:func:`use_club`), whichever view drew
    it (a page of this package's, the scoreboard's, a tournament's)."""
    use_club(context.get("club"))


def js_messages(*names: str, events: bool = False) -> Markup:
    """``<script type="application/json" id="messages">``: the translations of the msgids the
    named scripts (paths under the static folder, globs allowed) show (words.scripts); with
    ``events``, the sentences of an event too (the phone's)."""
    static = Path(current_app.static_folder or "")
    paths = sorted({p for name in names for p in static.glob(name)})
    body = htmlsafe_json_dumps(scripts.messages(words.current(), paths, events=events),
                               ensure_ascii=False)
    return Markup(f'<script type="application/json" id="messages">{body}</script>')


def menu() -> list[dict[str, Any]]:
    """The language menu: each language in its own name, the one in use marked."""
    here = request.full_path if request.query_string else request.path
    return [{"code": code, "name": words.NAMES[code], "current": code == words.current(),
             "href": f"/language/{code}?" + _query(next=here)} for code in words.LANGUAGES]


def _query(**values: str) -> str:
    from urllib.parse import urlencode

    return urlencode(values)


def _safe_next(value: str | None) -> str:
    """Where the menu goes back to: a path of this site, never another site's address. A
    browser drops every tab and line break from an address before reading it (the WHATWG URL
    standard), so "/<tab>/evil.example" is "//evil.example", another site: no control character
    is taken either."""
    if (not value or not value.startswith("/") or value.startswith("//") or "\\" in value
            or any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in value)):
        return "/"
    return value


@blp.route("/language/<string:lang>")
def choose(lang: str) -> Response:
    """The menu's link: keep the choice in the ``lang`` cookie and go back to the page (an
    unknown language forgets the choice, quietly)."""
    response = redirect(_safe_next(request.args.get("next")), code=303)
    code = _known(lang)
    if code is None:
        response.delete_cookie(COOKIE, path="/")
    else:
        response.set_cookie(COOKIE, code, max_age=COOKIE_SECONDS, path="/", samesite="Lax",
                            secure=request.is_secure, httponly=True)
    response.headers["Cache-Control"] = "no-store"
    return response


def seat_words(seat: Any, players: Sequence[str]) -> str:
    """A seat by its player, numbered from 1 as the table cards number it: "Lucía (seat 2)"."""
    if type(seat) is int and 0 <= seat < len(players):
        return words.gettext("%(name)s (seat %(seat)s)", name=players[seat],
                             seat=events.seat_number(seat))
    return words.gettext("no seat")


def seats_words(seats: Iterable[Any], players: Sequence[str]) -> str:
    """Seats by their players, listed as the language lists names: "Ana (seat 1) and Carla
    (seat 3)", "Ana (posto 1) e Carla (posto 3)"."""
    return formats.names([seat_words(seat, players) for seat in seats])


def ends_words(open_ends: Iterable[Mapping[str, Any]]) -> str:
    """A line's open ends, each by its name and pip, listed as the language lists them:
    "left 5, right 3 and up 2" ("izquierda 5, derecha 3 y arriba 2")."""
    return formats.names([f"{term('open_end', end['side'])} {end['pip']}" for end in open_ends])


# A tile as the words write it ("5-2", "12-0"): the hyphen is where a browser may break a line,
# which a tile must never be (a dispute sheet at 360 px split "5-" from "2").
_TILE_TEXT = re.compile(r"(?<![\w.&#-])\d{1,2}-\d{1,2}(?![\w-])")
_TAG = re.compile(r"(<[^>]*>)")


def unbroken(text: Any) -> Markup:
    """``text`` (a sentence, of the core or the catalog, said in the page's language; escaped
    unless it is markup) with each tile in it kept on one line: a span of class ``nowrap``
    (every stylesheet of the pages, the desk and the dispute sheet keeps one). Text inside a
    tag (an attribute) is left as it is."""
    html = str(escape(words.say(text)))
    return Markup("".join(
        part if part.startswith("<") else _TILE_TEXT.sub(r'<span class="nowrap">\g<0></span>', part)
        for part in _TAG.split(html)))


def won_by(name: Any, pair: Any) -> Markup:
    """words.events.won_by for the templates, whose name may be markup (<strong>): the
    catalog's sentence is trusted as the templates' own _() trusts it, the name escaped."""
    return Markup(events.won_by(Markup("%(name)s"), bool(pair))) % {"name": name}


class SpokenJSON(DefaultJSONProvider):
    """The app's JSON: the rules core's sentences in it (a violation's ``message``, a fact,
    a log's error) said in the request's language (``words.localize``; English as written).
    Keys stay in the order they were written (events, reports)."""

    sort_keys = False
    # The encoder of response()'s compact JSON (every answer out of debug mode), made once for
    # the settings it was made with: json.dumps makes one a call, some 4 % of encoding an
    # append's answer.
    _compact: tuple[tuple[Any, ...], json.JSONEncoder] | None = None

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        obj = words.localize(obj)
        if kwargs == _COMPACT:
            settings = (self.default, self.ensure_ascii, self.sort_keys)
            kept = self._compact
            if kept is None or kept[0] != settings:
                kept = self._compact = settings, json.JSONEncoder(
                    default=self.default, ensure_ascii=self.ensure_ascii,
                    sort_keys=self.sort_keys, check_circular=False, **_COMPACT)
            return kept[1].encode(obj)
        # An answer is a tree of JSON values the app built, never a cycle: json's check for
        # one (each list and dict's id put in a dict and taken out again) was some 15 % of
        # encoding an append's answer (437 values), for the same text.
        kwargs.setdefault("check_circular", False)
        return super().dumps(obj, **kwargs)


_COMPACT = {"separators": (",", ":")}  # what DefaultJSONProvider.response() asks dumps for


def init_language(app: Flask) -> None:
    """Read every catalog now (one that cannot be read stops the start, naming its file), and
    give the app its language per request, the templates their words and formats."""
    pseudo = [words.PSEUDO] if app.config.get("PSEUDO_LOCALE") else []
    words.check_catalogs((*words.LANGUAGES, *pseudo))
    WordsBabel(app, locale_selector=lambda: formats.babel_locale(words.current()),
               default_domain=words.DOMAIN)
    app.before_request(_begin)
    app.teardown_request(_end)
    before_render_template.connect(_club_language, app)
    app.json = SpokenJSON(app)
    env = app.jinja_env
    env.finalize = words.say  # a core sentence printed by a template, in the page's language
    env.filters.update(day=lambda value, form="medium": formats.date(value, form=form),
                       number=lambda value: formats.number(value),
                       names=lambda items: formats.names(items),
                       decimal=lambda value, digits=2: formats.decimal(value, digits),
                       percent=lambda value, digits=1: formats.percent(value, digits),
                       # a moment in the club's time zone (none: UTC, said so)
                       moment=lambda value, zone=None: formats.moment(value, zone),
                       clock=lambda value, zone=None: formats.moment(value, zone, day=False),
                       unbroken=unbroken)  # each tile in a sentence on one line
    env.globals.update(js_messages=js_messages, language_menu=menu, language=words.current,
                       term=term, terms=terms, event_words=events.event_words,
                       undealt_word=events.undealt_word,
                       side_word=events.side_word,
                       tournament_table=events.TOURNAMENT_TABLE,
                       seat_words=seat_words, seats_words=seats_words, ends_words=ends_words,
                       reason=events.reason, won_by=won_by,
                       table_words=events.table_words, token_label=token_label)
    app.register_blueprint(blp)


def token_label(label: str | None) -> str | None:
    """A token's label as the desk shows it: the one a club is made with (the service's
    FIRST_ADMIN, which nobody typed) in the page's language, any other as it was typed."""
    return words.gettext(FIRST_ADMIN) if label == FIRST_ADMIN else label
