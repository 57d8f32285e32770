"""The ways into the club pages, through the flask client, on both databases: the site's home
lists the public clubs only and says how to reach a private one; every club page links to the
club's players, matches, tournaments, live scoreboard and desk; the players page (in the
language's order), the matches page (filtered by event, day, player and status, each wrong
filter refused naming its field, through the service) and the tournaments page, each with
its JSON twin; a public page's share link and QR code (decoded with zbarimg when installed),
an address too long for a QR code shared without one; errors in the site's frame with a way
back."""

from __future__ import annotations

import shutil
import subprocess
from typing import Iterator

import pytest
from pages_site import FINISHED, Site, build_site, parse

from referee.service import Invalid
from referee.service.pages import Pages


@pytest.fixture
def site(database_url: str) -> Iterator[Site]:
    built = build_site(database_url, reuse=True)
    yield built
    built.api.service.close()


def html(site: Site, url: str, status: int = 200, **headers: str) -> str:
    response = site.api.client.get(url, headers={"Accept": "text/html", **headers})
    assert response.status_code == status, (url, response.status_code,
                                            response.get_data(as_text=True)[:400])
    assert response.mimetype == "text/html"
    return response.get_data(as_text=True)


def twin(site: Site, url: str, status: int = 200, **headers: str) -> dict:
    response = site.api.client.get("/api/v1/pages" + url, headers=headers)
    assert response.status_code == status, (url, response.get_data(as_text=True)[:400])
    return response.json


# ------------------------------------------------------------------ the site's home


def test_the_home_lists_the_public_clubs_and_says_how_to_reach_a_private_one(site: Site) -> None:
    page = html(site, "/")
    links = parse(page).links
    assert "/clubs/casino" in links
    assert "/clubs/other" not in links and "Other" not in page  # a private club is never named
    assert "Ask your club's secretary" in page
    assert "a token to sign in with" in page
    assert twin(site, "/") == {"clubs": [{"slug": "casino", "name": "Casino", "language": None}]}
    site.api.service.clubs.set_public("other", True)
    assert [c["slug"] for c in twin(site, "/")["clubs"]] == ["casino", "other"]


@pytest.mark.parametrize(("lang", "example"), [("en", "/clubs/club-name"), ("es", "/clubs/nombre-del-club"),
                                               ("it", "/clubs/nome-del-club")])
def test_the_homes_example_address_is_in_the_readers_language(site: Site, lang: str,
                                                               example: str) -> None:
    # it read /clubs/name, an English word, on the Spanish and Italian homes
    page = html(site, "/", **{"Accept-Language": lang})
    assert f'<code translate="no">{example}</code>' in page and "/clubs/name" not in page


def test_clubs_is_the_home_and_no_json_404(site: Site) -> None:
    response = site.api.client.get("/clubs")
    assert response.status_code == 308 and response.headers["Location"] == "/"
    assert site.api.client.get("/").status_code == 200


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_a_redirect_is_its_location_alone_in_every_language(site: Site, lang: str) -> None:
    # werkzeug wrote an English page under each ("Redirecting... You should be redirected
    # automatically"): a trailing slash's 308, flask.redirect's 308 and the language menu's 303
    client, said = site.api.client, {"Accept-Language": lang}
    for url, status, location in (("/api/v1/pages?x=1", 308, "/api/v1/pages/?x=1"),
                                  ("/clubs", 308, "/"),
                                  ("/language/es?next=/clubs/casino", 303, "/clubs/casino")):
        response = client.get(url, headers=said)
        assert response.status_code == status and response.headers["Location"].endswith(location)
        assert response.get_data() == b"" and "Content-Type" not in response.headers, url
        assert response.headers["X-Content-Type-Options"] == "nosniff"  # the headers still set


# ------------------------------------------------------------------ links from every club page


def test_every_club_page_links_to_the_ways_in(site: Site) -> None:
    player = site.players()["Ana"]
    wanted = {"/clubs/casino/players", "/clubs/casino/matches", "/clubs/casino/tournaments",
              "/clubs/casino/scoreboard", "/clubs/casino/desk", "/clubs/casino"}
    for url in ("/clubs/casino", f"/clubs/casino/players/{player}",
                f"/clubs/casino/matches/{site.live}", "/clubs/casino/players",
                "/clubs/casino/matches", "/clubs/casino/tournaments", "/clubs/casino/scoreboard"):
        assert wanted <= set(parse(html(site, url)).links), url


# ------------------------------------------------------------------ players


def test_the_players_page_lists_every_player_in_the_languages_order(site: Site) -> None:
    svc = site.api.service
    for name in ("Ñandú", "Nora", "Zoe"):
        svc.players.create("casino", name)
    data = twin(site, "/clubs/casino/players")
    names = {p["name"]: p for p in data["players"]}
    assert set(names) == {"Ana", "Beto", "Carla", "Dani", "Elena", "Fede", "Ñandú", "Nora", "Zoe"}
    # Ana sits in three of the parejas matches, the disputed one and the live one
    assert names["Ana"]["matches"] == sum("Ana" in seated for _, _, seated, _ in FINISHED) + 2
    assert names["Nora"]["matches"] == 0

    def shown(lang: str) -> list[str]:
        site.api.client.set_cookie("lang", lang)  # the language menu's pick
        page = html(site, "/clubs/casino/players")
        assert f'<html lang="{lang}">' in page
        return [row[0] for row in parse(page).table("players")["rows"]]

    # Spanish: Ñ is a letter of its own, after N; English: Ñ is an N
    assert shown("es") == ["Ana", "Beto", "Carla", "Dani", "Elena", "Fede", "Nora", "Ñandú", "Zoe"]
    assert shown("en") == ["Ana", "Beto", "Carla", "Dani", "Elena", "Fede", "Ñandú", "Nora", "Zoe"]
    links = parse(html(site, "/clubs/casino/players")).links
    assert f"/clubs/casino/players/{names['Ana']['id']}" in links
    assert "/clubs/casino/matches?player=Ana" in links


# ------------------------------------------------------------------ matches


def match_ids(data: dict) -> list[int]:
    return [m["id"] for m in data["matches"]]


def test_the_matches_page_filters_by_event_day_player_and_status(site: Site) -> None:
    everything = twin(site, "/clubs/casino/matches")
    assert match_ids(everything) == sorted([*site.finished, site.disputed, site.live], reverse=True)
    assert everything["total"] == 6 and everything["page"] == 1
    assert everything["events"] == ["League", "Spring cup"]
    league = twin(site, "/clubs/casino/matches?event=League")
    assert match_ids(league) == [site.finished[3], site.finished[2]] and league["total"] == 2
    assert twin(site, "/clubs/casino/matches?event=Leag")["matches"] == []  # exactly, not a part
    april = twin(site, "/clubs/casino/matches?from=2026-04-01&to=2026-04-30")
    assert match_ids(april) == [site.finished[3], site.finished[2]]
    may = twin(site, "/clubs/casino/matches?from=2026-05-01")  # the live one and the disputed
    assert match_ids(may) == [site.disputed, site.live]
    carla = twin(site, "/clubs/casino/matches?player=carla")  # a name he answers to
    assert match_ids(carla) == [site.finished[1], site.finished[0], site.live]
    live = twin(site, "/clubs/casino/matches?status=in_progress")
    assert match_ids(live) == [site.live]
    both = twin(site, "/clubs/casino/matches?event=Spring+cup&player=Beto&status=finished")
    assert match_ids(both) == [site.finished[0]]
    assert both["filters"] == {"event": "Spring cup", "from": None, "to": None,
                               "player": "Beto", "status": "finished"}
    # the page shows the same matches, and keeps the filters in its form
    page = html(site, "/clubs/casino/matches?event=League&from=&to=&player=&status=")
    rows = parse(page).table("matches")["rows"]
    assert [r[0] for r in rows] == [f"Match {i}League" for i in match_ids(league)]
    assert 'value="League"' in page


def test_an_event_with_letters_json_may_escape_is_found_too(site: Site) -> None:
    svc = site.api.service
    made = svc.recording.create_match("casino", "parejas", ["Ana", "Beto", "Carla", "Dani"],
                                      date="2026-06-01", event='Copa "Ñ" \\ 1')["id"]
    assert match_ids(twin(site, '/clubs/casino/matches?event=Copa+"Ñ"+\\+1')) == [made]
    percent = svc.recording.create_match("casino", "parejas", ["Ana", "Beto", "Carla", "Dani"],
                                         date="2026-06-02", event="100% _x_")["id"]
    assert match_ids(twin(site, "/clubs/casino/matches?event=100%25+_x_")) == [percent]
    assert twin(site, "/clubs/casino/matches?event=100%25+_y_")["matches"] == []


@pytest.mark.parametrize("query, field", [
    ("from=2026-13-01", "from"), ("to=yesterday", "to"), ("status=done", "status"),
    ("player=Nobody", "player"), ("page=0", "page"), ("event=" + "x" * 1001, "event"),
    ("from=2026-05-01&to=2026-04-01", "from"),
    # ASCII digits alone: not a fullwidth "２", a superscript "²" (int() refused it: a 500), "+2",
    # " 2" or "1_0", all of which int() or str.isdigit would take (docs/pages.md)
    ("page=%EF%BC%92", "page"), ("page=%C2%B2", "page"), ("page=%2B2", "page"), ("page=+2", "page"),
    ("page=1_0", "page"),
    # more digits than int reads (a ValueError: a 500)
    ("page=" + "9" * 5000, "page"),
])
def test_a_wrong_filter_is_refused_naming_its_field(site: Site, query: str, field: str) -> None:
    problem = twin(site, f"/clubs/casino/matches?{query}", status=422)
    assert problem["detail"].startswith(field), problem
    page = html(site, f"/clubs/casino/matches?{query}", status=422)
    assert "Not understood" in page and f"<p class=\"error-message\" data-status=\"422\">{field[0].upper()}" in page
    assert 'href="/clubs/casino"' in page and 'href="/"' in page  # the ways back
    with pytest.raises(Invalid):
        Pages(site.api.service).matches("casino", status="done")


def test_the_matches_page_goes_back_fifty_at_a_time(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    import referee.service.pages as service_pages

    monkeypatch.setattr(service_pages, "MATCHES_PER_PAGE", 4)
    first = twin(site, "/clubs/casino/matches")
    second = twin(site, "/clubs/casino/matches?page=2")
    assert len(first["matches"]) == 4 and len(second["matches"]) == 2
    assert match_ids(first) + match_ids(second) == sorted(
        [*site.finished, site.disputed, site.live], reverse=True)
    page = html(site, "/clubs/casino/matches")
    assert "/clubs/casino/matches?page=2" in parse(page).links
    assert "/clubs/casino/matches?page=1" in parse(html(site, "/clubs/casino/matches?page=2")).links


def test_a_private_clubs_new_pages_ask_for_sign_in_and_read_with_a_token(site: Site) -> None:
    for url in ("/clubs/other/players", "/clubs/other/matches", "/clubs/other/tournaments"):
        assert "Sign in" in html(site, url, status=401)
        twin(site, url, status=401)
        assert twin(site, url, **site.api.auth("viewer", "other"))["club"]["slug"] == "other"
        html(site, url, status=403, **site.api.auth("viewer", "casino"))
    assert match_ids(twin(site, "/clubs/other/matches", **site.api.auth("viewer", "other"))) == [
        site.api.matches["other"]]


# ------------------------------------------------------------------ tournaments


def test_the_tournaments_page_lists_the_clubs_tournaments(site: Site) -> None:
    assert "No tournaments yet." in html(site, "/clubs/casino/tournaments")
    svc = site.api.service
    svc.tournaments.create("casino", "copa", "Copa de otoño", rules="parejas", format="pairs",
                           rounds=3, entrants=[["Ana", "Beto"], ["Carla", "Dani"]],
                           starts_on="2026-11-28")
    data = twin(site, "/clubs/casino/tournaments")
    assert [(t["slug"], t["name"], t["status"]) for t in data["tournaments"]] == [
        ("copa", "Copa de otoño", "open")]
    page = html(site, "/clubs/casino/tournaments")
    assert "/clubs/casino/tournaments/copa" in parse(page).links
    assert "Not started" in page


# ------------------------------------------------------------------ sharing


def test_a_public_page_has_its_share_link_and_qr_code(site: Site, tmp_path) -> None:
    import segno

    page = html(site, "/clubs/casino/matches?event=League&player=")
    start = page.index('id="share-url"')
    assert 'value="http://localhost/clubs/casino/matches?event=League"' in page[start:start + 200]
    assert 'class="qr" src="data:image/svg+xml' in page
    # the code is of that address: segno's matrix for it, drawn as the page draws it
    expected = segno.make("http://localhost/clubs/casino/matches?event=League", error="m")
    assert expected.svg_data_uri(scale=4, border=2, dark="#1b1b1b") in page
    if shutil.which("zbarimg"):
        png = tmp_path / "qr.png"
        expected.save(str(png), scale=6, border=4)
        read = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True,
                              text=True, timeout=60)
        assert read.stdout.strip() == "http://localhost/clubs/casino/matches?event=League"
    # the site's home too; a private club's page (read with a token) and an error page have none
    assert 'id="share-url"' in html(site, "/")
    assert 'id="share-url"' not in html(site, "/clubs/other/players", **site.api.auth("viewer", "other"))
    assert 'id="share-url"' not in html(site, "/clubs/casino/players/999999", status=404)


def test_an_address_too_long_for_a_qr_code_is_shared_without_one(site: Site) -> None:
    # A query the page does not read (a link's tracking tag, say) is still the page's address:
    # 3,000 characters are more than a QR code holds, and the page was a 500 (segno's
    # DataOverflowError). It shares the address alone, saying why, in the reader's language.
    url = "/clubs/casino/players?ref=" + "x" * 3000
    page = html(site, url)
    start = page.index('id="share-url"')
    assert f'value="http://localhost{url}"' in page[start:start + 3200]
    assert 'class="qr"' not in page
    assert "Its address is too long for a QR code: copy it." in page
    assert "demasiado larga para un código QR" in html(site, url, **{"Accept-Language": "es"})
    assert "troppo lungo per un codice QR" in html(site, url, **{"Accept-Language": "it"})


# ------------------------------------------------------------------ errors in the site's frame


def test_errors_are_pages_in_the_sites_frame_with_a_way_back(site: Site) -> None:
    missing = html(site, "/clubs/casino/players/999999", status=404)
    assert 'class="skip"' in missing and "<header class=\"site\">" in missing
    assert 'href="/clubs/casino"' in missing and 'href="/"' in missing
    nowhere = html(site, "/clubs/casino/nowhere", status=404)
    assert "There is no page at this address." in nowhere and 'href="/clubs/casino"' in nowhere
    assert 'href="/"' in html(site, "/no/such/page", status=404)
    bad_date = html(site, "/clubs/casino?from=2026-02-30", status=422)
    assert "From must be an ISO 8601 date" in bad_date and 'href="/"' in bad_date
    # the club's own page does not send you back to itself
    assert 'href="/clubs/casino">' not in bad_date.split("<main", 1)[1].split("</main>")[0]
    forbidden = html(site, "/clubs/other", status=403, **site.api.auth("viewer", "casino"))
    assert "Not allowed" in forbidden and 'href="/"' in forbidden
    signin = html(site, "/clubs/other", status=401)
    assert 'href="/"' in signin
    # the API keeps problem+json, and so do clients that do not ask for HTML
    assert site.api.client.get("/api/v1/nowhere", headers={"Accept": "text/html"}).mimetype == "application/problem+json"
    assert site.api.client.get("/no/such/page").mimetype == "application/problem+json"
