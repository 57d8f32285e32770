"""The language of an answer: the API's problems follow Accept-Language (default en; an
unknown one passed over), codes and keys never change; a page follows the menu's ``lang``
cookie, then the club's ``language`` setting, then Accept-Language, then en, and ``<html lang>``
says which; the club's setting (PATCH /clubs/{club}); a catalog that cannot be read stops the
start (docs/i18n.md)."""

from __future__ import annotations

import io
import re

import pytest
from api_helpers import Api, assert_problem, make_api

import words


def lang_of(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html)[1]


@pytest.mark.parametrize("accept, detail", [
    (None, "no match 999999"), ("es", "no existe la partida 999999"),
    ("it-IT,it;q=0.9,en;q=0.5", "non esiste la partita 999999"), ("fr-FR,fr;q=0.9", "no match 999999"),
    ("de, es;q=0.5", "no existe la partida 999999"), ("*", "no match 999999"), ("", "no match 999999"),
])
def test_a_refusals_detail_follows_accept_language(api: Api, accept: str | None, detail: str) -> None:
    headers = api.auth("viewer")
    if accept is not None:
        headers["Accept-Language"] = accept
    body = assert_problem(api.client.get("/api/v1/matches/999999", headers=headers), 404, "not-found")
    assert body["detail"] == detail


def test_an_access_refusal_in_spanish(api: Api) -> None:
    body = assert_problem(api.client.get("/api/v1/clubs/other", headers=api.auth(
        "viewer", **{"Accept-Language": "es-MX"})), 403, "forbidden")
    assert body["detail"] == "esta clave es de otro club"


def test_a_missing_token_is_said_in_spanish(api: Api) -> None:
    body = assert_problem(api.client.get("/api/v1/clubs/casino",
                                         headers={"Accept-Language": "es"}), 401, "unauthorized")
    assert body["detail"] == "hace falta una clave de acceso válida (bearer)"


@pytest.mark.parametrize("if_match, status, kind, said", [
    (None, 428, "if-match-required", 'para añadir hace falta If-Match: "N"'),
    ("3", 400, "malformed-if-match", "If-Match debe citar números de secuencia"),
    ('W/"1"', 412, "stale-if-match", "If-Match no nombra el número de secuencia actual; "
                                   "el último evento es el 1"),
])
def test_an_if_match_refusal_is_said_in_spanish(api: Api, if_match: str | None, status: int,
                                                kind: str, said: str) -> None:
    headers = api.auth("scorekeeper", **{"Accept-Language": "es"})
    if if_match is not None:
        headers["If-Match"] = if_match
    body = assert_problem(api.client.post(f"/api/v1/matches/{api.matches['casino']}/events",
                                          json={"type": "deal"}, headers=headers), status, kind)
    assert body["detail"].startswith(said), body


def test_an_illegal_events_detail_is_spanish_and_its_codes_are_not(api: Api) -> None:
    match_id = api.matches["casino"]
    opener = api.events[1]["seat"]
    wrong = {"type": "play", "seat": (opener + 1) % 4, "tile": "6-6"}
    # A referee's record shows who holds the 6-6 (the deal was recorded open).
    body = assert_problem(api.append(match_id, wrong, 1, role="referee",
                                     **{"Accept-Language": "es"}), 422, "illegal-event")
    assert body["detail"].startswith("evento 2: wrong_opener: ")
    assert body["violation"]["code"] == "wrong_opener"  # a code: the same in every language
    assert set(body["violation"]) >= {"seq", "code", "seat", "message"}
    # the referee's own sentence, made at the edge from the core's code and values
    assert "no puede salir en esta ronda" in body["violation"]["message"], body
    assert "may not" not in body["detail"] and "(seat " not in body["detail"]


def test_a_reports_sentences_follow_accept_language(api: Api) -> None:
    match_id = api.matches["casino"]
    opener = api.events[1]["seat"]
    api.append(match_id, {"type": "pass", "seat": opener, "disputed": True}, 1, role="referee")
    reports = {lang: api.client.get(f"/api/v1/matches/{match_id}/report",
                                    headers=api.auth("referee", **{"Accept-Language": lang})).get_json()
               for lang in ("en", "es", "it")}
    messages = {lang: [v["message"] for v in report["violations"]] for lang, report in reports.items()}
    assert messages["en"] and all(messages.values())
    assert messages["es"] != messages["en"] and messages["it"] != messages["en"]
    assert [v["code"] for v in reports["es"]["violations"]] == [v["code"] for v in reports["en"]["violations"]]


def test_the_api_ignores_the_pages_cookie(api: Api) -> None:
    api.client.set_cookie("lang", "es")
    body = assert_problem(api.client.get("/api/v1/clubs/casino/players/999999",
                                         headers=api.auth("viewer")), 404)
    assert body["detail"].startswith("no player")


def test_a_malformed_request_is_said_in_italian(api: Api) -> None:
    body = assert_problem(api.client.patch("/api/v1/clubs/casino", json={"public": "yes"},
                                           headers=api.auth("admin", **{"Accept-Language": "it"})), 422)
    assert body["detail"] == "la richiesta non ha la forma attesa"


def test_a_merged_players_name_is_refused_in_spanish(api: Api) -> None:
    """A sentence the service once wrote as an f-string (players.py's "is the name of ...,
    merged into ..."), now said in the request's language, names and ids as they are."""
    base = "/api/v1/clubs/casino/players"
    admin = api.auth("admin")
    made = api.client.post(base, json={"name": "Ana Dos", "new": True}, headers=admin)
    assert made.status_code == 201, made.json
    ana = next(p for p in api.client.get(base, headers=admin).json if p["name"] == "Ana")
    merged = api.client.post(f"{base}/{made.json['id']}/merge",
                             json={"into": ana["id"], "reason": "one person"}, headers=admin)
    assert merged.status_code == 200, merged.json
    english = assert_problem(api.client.post(base, json={"name": "ana dos"}, headers=admin), 409)
    assert english["detail"] == (f"'ana dos' is the name of Ana Dos (id {made.json['id']}), merged "
                                 f"into Ana (id {ana['id']}): it finds that player")
    spanish = assert_problem(api.client.post(base, json={"name": "ana dos"}, headers=api.auth(
        "admin", **{"Accept-Language": "es"})), 409, "duplicate")
    assert spanish["detail"] == (f"'ana dos' es el nombre de Ana Dos (id {made.json['id']}), unido "
                                 f"a Ana (id {ana['id']}): lleva a ese jugador")
    assert spanish["title"] == english["title"] == "Already exists"  # titles stay English


@pytest.mark.parametrize("accept, detail", [
    (None, "there is nothing at /api/v1/no-such-thing"),
    ("es", "no hay nada en /api/v1/no-such-thing"),
    ("it", "non c'è niente in /api/v1/no-such-thing"),
])
def test_werkzeugs_404_is_said_in_the_requests_language(api: Api, accept: str | None,
                                                         detail: str) -> None:
    headers = {"Accept-Language": accept} if accept else {}
    body = assert_problem(api.client.get("/api/v1/no-such-thing", headers=headers), 404)
    assert body["detail"] == detail and body["title"] == "Not Found"
    assert "requested URL" not in body["detail"]


def test_werkzeugs_405_is_said_in_spanish_with_the_methods_allowed(api: Api) -> None:
    r = api.client.delete("/api/v1/clubs", headers={"Accept-Language": "es"})
    body = assert_problem(r, 405)
    allowed = ", ".join(sorted(m.strip() for m in r.headers["Allow"].split(",")))
    assert body["detail"] == f"DELETE no es un método de /api/v1/clubs: admite {allowed}"


def test_a_body_over_the_limit_is_refused_in_spanish(database_url: str) -> None:
    """werkzeug's 413 for a Content-Length over MAX_CONTENT_LENGTH, and api/body.py's for a
    chunked body read to it: the same sentence, naming the limit, in the request's language."""
    api = make_api(database_url, MAX_CONTENT_LENGTH=200)
    try:
        headers = api.auth("referee", **{"Accept-Language": "es"})
        url = "/api/v1/clubs/casino/matches/import"
        sized = assert_problem(api.client.post(url, data="x" * 300, headers=headers), 413)
        assert sized["detail"] == "el cuerpo de la petición ocupa más de 200 bytes"
        chunked = api.client.post(url, input_stream=io.BytesIO(b"x" * 300),
                                  headers={"Transfer-Encoding": "chunked", **headers},
                                  environ_overrides={"wsgi.input_terminated": True})
        assert assert_problem(chunked, 413)["detail"] == sized["detail"]
        english = assert_problem(api.client.post(url, data="x" * 300, headers=api.auth("referee")), 413)
        assert english["detail"] == "the body is larger than 200 bytes"
    finally:
        api.service.close()


def test_an_admin_sets_the_clubs_language(api: Api) -> None:
    url = "/api/v1/clubs/casino"
    assert api.client.get(url, headers=api.auth("viewer")).json["language"] is None
    changed = api.client.patch(url, json={"language": "es"}, headers=api.auth("admin"))
    assert changed.status_code == 200 and changed.json["language"] == "es"
    assert api.client.get(url, headers=api.auth("viewer")).json["language"] == "es"
    assert_problem(api.client.patch(url, json={"language": "es"}, headers=api.auth("referee")), 403)
    assert_problem(api.client.patch(url, json={"language": "fr"}, headers=api.auth("admin")), 422)
    cleared = api.client.patch(url, json={"language": None}, headers=api.auth("admin"))
    assert cleared.json["language"] is None


def page(api: Api, path: str = "/clubs/casino", **headers: str):
    response = api.client.get(path, headers=headers)
    assert response.status_code in (200, 401), response.status_code
    return response.get_data(as_text=True)


def test_a_page_follows_cookie_then_club_then_browser(api: Api) -> None:
    api.service.clubs.set_public("casino", True)
    assert lang_of(page(api)) == "en"
    assert lang_of(page(api, **{"Accept-Language": "it"})) == "it"
    api.service.clubs.set_language("casino", "es")
    html = page(api, **{"Accept-Language": "it"})
    assert lang_of(html) == "es" and "Clasificación" in html  # the club's, over the browser's
    api.client.set_cookie("lang", "it")
    html = page(api, **{"Accept-Language": "es"})
    assert lang_of(html) == "it" and "Classifica" in html  # the reader's pick, over both
    api.client.set_cookie("lang", "tlh")  # not one of ours: passed over quietly
    assert lang_of(page(api)) == "es"
    api.client.set_cookie("lang", "xx")  # the pseudo-locale is off here
    assert lang_of(page(api)) == "es"


def test_a_private_clubs_sign_in_page_does_not_tell_its_language(api: Api) -> None:
    api.service.clubs.set_language("other", "it")
    html = page(api, "/clubs/other", **{"Accept-Language": "es"})
    assert lang_of(html) == "es" and "Entrar" in html
    # as for a club that does not exist: nobody learns which slugs are private clubs
    assert lang_of(page(api, "/clubs/nope", **{"Accept-Language": "es"})) == "es"
    assert lang_of(page(api, "/clubs/other", **api.auth("viewer", "other"))) == "it"


def test_the_menu_keeps_the_choice_in_a_cookie(api: Api) -> None:
    api.service.clubs.set_public("casino", True)
    html = page(api)
    assert 'href="/language/es?next=%2Fclubs%2Fcasino"' in html
    answer = api.client.get("/language/es?next=/clubs/casino?from=2026-04-01")
    assert answer.status_code == 303 and answer.headers["Location"] == "/clubs/casino?from=2026-04-01"
    assert "lang=es" in answer.headers["Set-Cookie"] and "SameSite=Lax" in answer.headers["Set-Cookie"]
    assert lang_of(page(api)) == "es"
    # a tab or a line break a browser drops ("/\t/evil.example" is "//evil.example" to it)
    for elsewhere in ("//evil.example/x", "https://evil.example/", "/\\evil.example", "",
                      "/\t/evil.example", "/\n/evil.example", "/\r/evil.example", "/\x00/evil.example"):
        assert api.client.get("/language/it", query_string={"next": elsewhere}).headers["Location"] == "/"
    forgot = api.client.get("/language/tlh?next=/clubs/casino")
    assert forgot.status_code == 303 and "lang=;" in forgot.headers["Set-Cookie"]


def test_a_catalog_that_cannot_be_read_stops_the_start(database_url: str, tmp_path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    broken = tmp_path / "it" / "LC_MESSAGES"
    broken.mkdir(parents=True)
    (broken / "domino.mo").write_bytes(b"\x00" * 40)
    (tmp_path / "es" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "es" / "LC_MESSAGES" / "domino.mo").write_bytes(words.mo_path("es").read_bytes())
    monkeypatch.setattr(words, "LOCALE_DIR", tmp_path)
    words.catalog.cache_clear()
    try:
        with pytest.raises(words.CatalogError, match=re.escape(str(broken / "domino.mo"))):
            make_api(database_url)
    finally:
        words.catalog.cache_clear()


def test_the_standings_ties_are_in_the_languages_order_of_names(api: Api) -> None:
    svc = api.service
    svc.clubs.create_club("nueva", "Nueva")
    svc.clubs.set_public("nueva", True)
    for name in ("Zoe", "Ñico", "Nuria", "Oscar"):
        svc.players.create("nueva", name, confirm_new=True)

    def order(lang: str) -> list[str]:
        html = page(api, "/clubs/nueva", **{"Accept-Language": lang})
        return re.findall(r'<tr data-player="([^"]+)">', html)

    assert order("es") == ["Nuria", "Ñico", "Oscar", "Zoe"]  # Ñ is a letter after N
    assert order("en") == ["Ñico", "Nuria", "Oscar", "Zoe"]  # an N with a tilde


def test_no_template_says_english_outright(api: Api) -> None:
    # every page's <html lang> is the request's language, the API's documentation page too
    from pathlib import Path

    templates = Path(__file__).resolve().parents[2] / "api" / "templates"
    assert not [p.name for p in templates.rglob("*.html") if 'lang="en"' in p.read_text()]
    page = api.client.get("/api/docs", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert '<html lang="es">' in page
