"""What a view costs a request beyond its work: the problem responses a view documents
(``Blueprint.errors``, api/openapi.py) are in the OpenAPI document and wrap nothing around the
view, where each code was a wrapper run on every request (bench/api_bench.py). The append reads
an ordinary request itself, webargs' reading (the documented one) only the others. The security
headers are added as werkzeug's ``setdefault`` would add them, and the language a request asks
for is werkzeug's ``accept_languages.best_match``, kept by the header's value. The app's own code
an append runs reads the request, the app and ``g`` themselves, not through flask's proxies."""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
import werkzeug.local
from api_helpers import Api
from flask import Flask, Response

import api as api_package
import words
from api import create_app
from api.events import _append_read_by_webargs
from api.headers import NO_CONTENT, SECURITY_HEADERS, secure
from api.language import SpokenJSON, best_accepted
from api.openapi import _STRICT, MAX_DEPTH, Blueprint, UnreadableJSON, strict_json
from referee.core.log import json_problem


def test_documented_errors_are_documented_and_wrap_nothing(tmp_path: Path) -> None:
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}", "ACCESS_LOG": "0"})
    layers = []
    view = app.view_functions["events.append_event"]
    while view is not None:
        layers.append(view.__code__.co_qualname)
        view = getattr(view, "__wrapped__", None)
    # one connection for the request, the token's check, then the view reading an ordinary
    # append itself: nothing of webargs
    assert layers[0] == "_one_connection.<locals>.shared", layers
    assert layers[-1] == "append_event" and len(layers) == 3, layers
    layers, view = [], _append_read_by_webargs
    while view is not None:
        layers.append(view.__code__.co_qualname)
        view = getattr(view, "__wrapped__", None)
    # the one alt_response left is the view's own (its ?dry_run=true 200), not an error's
    assert sum("alt_response" in layer for layer in layers) == 1, layers
    assert layers[-1] == "_append_read_by_webargs"
    document = app.test_client().get("/api/openapi.json").get_json()
    responses = document["paths"]["/api/v1/matches/{match_id}/events"]["post"]["responses"]
    assert {"200", "201", "400", "401", "403", "404", "412", "413", "415", "422", "428"} \
        <= set(responses)
    assert responses["412"] == {"$ref": "#/components/responses/PRECONDITION_FAILED"}


def _setdefaults(response: Response) -> Response:
    """What secure() did, header by header, and must still do."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    response.headers.setdefault("Content-Security-Policy", NO_CONTENT)
    return response


@pytest.mark.parametrize("given", [
    [], [("ETag", '"3"'), ("Vary", "Authorization")],
    [("content-security-policy", "default-src 'self'")],  # a page's own, in any case
    [("Referrer-Policy", "no-referrer"), ("X-Content-Type-Options", "nosniff")],
    [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin"),
     ("Content-Security-Policy", NO_CONTENT)],
    [("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"), ("referrer-policy", "origin")],
])
def test_the_security_headers_are_added_as_setdefault_adds_them(given: list[tuple[str, str]]) -> None:
    ours, werkzeugs = Response("{}", headers=given), Response("{}", headers=given)
    assert list(secure(ours).headers.items()) == list(_setdefaults(werkzeugs).headers.items())


@pytest.mark.parametrize("header", [
    None, "", "*", "es", "es-MX", "it-IT,it;q=0.9,en;q=0.5", "fr-FR,fr;q=0.9", "de, es;q=0.5",
    "en;q=0, es;q=0", "ES", "xx", "xx, es;q=0.1", "es;q=abc, it", ",,;", "it;q=0.5, es;q=0.5",
    "zz-ZZ, *;q=0.1", "en-US,en;q=0.9,es;q=0.8",
])
@pytest.mark.parametrize("pseudo", [False, True])
def test_the_language_asked_for_is_werkzeugs_best_match(header: str | None, pseudo: bool) -> None:
    headers = {} if header is None else {"Accept-Language": header}
    offered = list(words.LANGUAGES) + ([words.PSEUDO] if pseudo else [])
    with Flask(__name__).test_request_context("/api/v1/clubs", headers=headers) as context:
        assert best_accepted(header, pseudo) == context.request.accept_languages.best_match(offered)


def _nested(depth: int, text: str = "x") -> str:
    """An event whose deepest value is ``depth`` containers deep (the event itself is 1)."""
    return '{"type": "note", "text": "' + text + '", "extra": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"


@pytest.mark.parametrize("body, refused", [
    (_nested(MAX_DEPTH), False), (_nested(MAX_DEPTH + 1), True), (_nested(3), False),
    (_nested(3, text="[{" * 200), False),  # many brackets, in a string: walked, not deep
    (_nested(MAX_DEPTH + 1, text="]}" * 10), True), ("[" * 40 + "]" * 40, False),
])
def test_a_body_is_refused_past_max_depth_whether_or_not_it_is_walked(body: str, refused: bool) -> None:
    parser = Blueprint.ARGUMENTS_PARSER
    with Flask(__name__).test_request_context("/", method="POST", data=body.encode(),
                                              content_type="application/json") as context:
        if refused:
            with pytest.raises(ValueError, match=f"the JSON is nested more than {MAX_DEPTH} deep"):
                parser._raw_load_json(context.request)
        else:
            assert parser._raw_load_json(context.request) == json.loads(body)


def _as_read(read: Callable[[str], object], text: str) -> tuple[str, object]:
    """What ``read`` makes of ``text``: its value, or the words of its refusal."""
    try:
        return "value", read(text)
    except UnreadableJSON as error:
        return "refused", error.problem
    except (ValueError, RecursionError) as error:
        return "refused", json_problem(error, lines=True)


@pytest.mark.parametrize("text", [
    '{"type": "play", "seat": 2, "tile": "3-5", "end": "left"}', '{"a": 1, "a": 2}', "[]",
    '\ufeff{"type": "pass"}', "\ufeff", "", " ", '{"a": NaN}', '{"a": 1e999}', '{"a": 1.5}',
    '{"a": {"b": {"b": 1, "b": 2}}}', '{"a": 1} x', '{"a": 1, "a": 2} x', "[" * 5000,
    '"\u2028"', "1", '{"a":1,}', "\n\t{}\r ",
])
def test_a_body_is_read_as_json_loads_reads_it_with_the_same_checks(text: str) -> None:
    # strict_json keeps one decoder (api.openapi._DECODER): the same values, and the same
    # refusals in the same words, as json.loads given the same checks on each call.
    ours = _as_read(lambda t: strict_json(t.encode()), text)
    assert ours == _as_read(lambda t: json.loads(t, **_STRICT), text)


def test_the_apps_json_is_json_dumps_text() -> None:
    # SpokenJSON keeps response()'s compact encoder (and checks for no cycle): the same text as
    # json.dumps with Flask's settings, and again once the provider's settings change.
    app = Flask(__name__)
    app.json = SpokenJSON(app)
    answer = {"seq": 3, "b": [1, 2.5, None, True, "ñ\n\u2028", {"z": [], "a": {}}],
              "a": "Ana & Carla", "when": datetime.date(2026, 12, 7)}
    with app.app_context():
        for _ in range(2):  # the encoder made, then kept
            for kwargs in ({"separators": (",", ":")}, {}, {"indent": 2}):
                expected = json.dumps(answer, default=app.json.default, ensure_ascii=True,
                                      sort_keys=False, **kwargs)
                assert app.json.dumps(answer, **kwargs) == expected
        assert app.json.response(answer).get_data(as_text=True) == json.dumps(
            answer, default=app.json.default, separators=(",", ":")) + "\n"
        app.json.ensure_ascii = False
        app.json.sort_keys = True
        assert app.json.dumps(answer, separators=(",", ":")) == json.dumps(
            answer, default=app.json.default, ensure_ascii=False, sort_keys=True,
            separators=(",", ":"))


def test_an_append_reads_no_flask_proxy_in_the_apps_own_code(
        api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each attribute read through ``current_app``, ``request`` or ``g`` (werkzeug's LocalProxy)
    is some 8,500 instructions; the object itself, taken once (api.context), some 1,700: api/'s
    16 such reads an append were some 3 % of it in process (docs/performance.md, "Over HTTP,
    7 December (night), 23:30"). flask's and flask-httpauth's own reads are theirs."""
    package = Path(api_package.__file__).resolve().parent
    reads: list[str] = []
    lookup = werkzeug.local._ProxyLookup.__get__

    def counted(self: Any, instance: Any, owner: Any = None) -> Any:
        where = sys._getframe(1).f_code
        if instance is not None and Path(where.co_filename).resolve().is_relative_to(package):
            reads.append(f"{where.co_filename}: {where.co_qualname} ({self.name})")
        return lookup(self, instance, owner)

    monkeypatch.setattr(werkzeug.local._ProxyLookup, "__get__", counted)
    answer = api.append(api.matches["casino"], api.events[1], 1, **{"Accept-Language": "es"})
    assert answer.status_code == 201, answer.json
    assert answer.json["seq"] == 2 and answer.headers["ETag"] == '"2"'
    assert reads == []
