"""The club pages through the flask client, on both databases: every page and its JSON twin
answer, a public club reads without a token and a private one asks for sign-in, the numbers on
the pages are the API's, a live match shows no tile the table has not seen, and the markup is
accessible (lang, skip link, labels, captions, scoped headers, contrast of the stylesheet)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from pages_site import APRIL, FINISHED, Site, build_site, live_hidden_tiles, parse

from referee.core.rules import Rules
from referee.service import Forbidden, NotFound, Unauthorized
from referee.service.access import PUBLIC, public_reader, sees_hands
from words import formats

STYLESHEET = Path(__file__).resolve().parents[2] / "api" / "static" / "pages.css"


@pytest.fixture
def site(database_url: str) -> Iterator[Site]:
    built = build_site(database_url, reuse=True)
    yield built
    built.api.service.close()


def get(site: Site, url: str, role: str | None = None, club: str = "casino", status: int = 200):
    headers = site.api.auth(role, club) if role else {}
    response = site.api.client.get(url, headers=headers)
    assert response.status_code == status, (url, response.status_code, response.get_data(as_text=True)[:500])
    return response


def standings_api(site: Site, **query: str) -> list[dict[str, Any]]:
    """GET /api/v1/clubs/casino/standings with a viewer's token."""
    response = site.api.client.get("/api/v1/clubs/casino/standings", query_string=query,
                                   headers=site.api.auth("viewer"))
    assert response.status_code == 200, response.json
    return response.json


def shown(row: dict[str, Any]) -> list[str]:
    """A standings row as the page writes it, cell by cell."""
    difference = f"{row['difference']:+d}" if row["difference"] else "0"
    rating = f"{row['rating_points']:,}" + (" provisional" if row["provisional"] else "")
    rank = str(row["rank"]) if row["ranked"] else "–not ranked"
    return [rank, row["player"], *(str(row[k]) for k in (
        "played", "won", "lost", "rounds_won", "points_for", "points_against")),
        difference, f"{row['win_rate'] * 100:.1f}%", rating, str(row["flagged"])]


def page_rows(html: str) -> list[list[str]]:
    """The standings' rows, the heading of those not ranked left out."""
    return [row for row in parse(html).table("standings")["rows"] if len(row) > 1]


# ------------------------------------------------------------------ public and private


def test_an_admin_makes_a_club_public_and_only_an_admin(site: Site) -> None:
    client, api = site.api.client, site.api
    assert client.get("/api/v1/clubs/other", headers=api.auth("viewer", "other")).json["public"] is False
    for role, status in (("viewer", 403), ("referee", 403)):
        assert client.patch("/api/v1/clubs/other", json={"public": True},
                            headers=api.auth(role, "other")).status_code == status
    for body in ({"public": 1}, {"public": "true"}, {}):
        assert client.patch("/api/v1/clubs/other", json=body,
                            headers=api.auth("admin", "other")).status_code == 422
    get(site, "/clubs/other", status=401)
    answer = client.patch("/api/v1/clubs/other", json={"public": True}, headers=api.auth("admin", "other"))
    assert answer.status_code == 200 and answer.json["public"] is True
    assert answer.json["tie_breakers"]  # the other setting is left as it was
    get(site, "/clubs/other")
    client.patch("/api/v1/clubs/other", json={"public": False}, headers=api.auth("admin", "other"))
    get(site, "/clubs/other", status=401)


def test_the_public_reader_reads_that_club_and_does_nothing_else(site: Site) -> None:
    svc = site.api.service
    who = svc.clubs.public_reader("casino")
    assert who == public_reader("casino") and who.role == PUBLIC and who.token_id is None
    assert not sees_hands(who, "casino")
    assert svc.reading.get_match(site.live, who=who)["club"] == "casino"
    with pytest.raises(Forbidden):
        svc.recording.record_event(site.live, {"type": "note", "text": "hi"}, expected_seq=None, who=who)
    with pytest.raises(NotFound):  # another club's match is none, to this reader
        svc.reading.get_match(site.api.matches["other"], who=who)
    with pytest.raises(Forbidden):
        svc.clubs.set_public("casino", False, who=who)
    for club in ("other", "no-such-club"):  # private, or none: nobody learns which
        with pytest.raises(Unauthorized):
            svc.clubs.public_reader(club)


def test_a_private_club_asks_for_sign_in_on_every_page(site: Site) -> None:
    other = site.api.matches["other"]
    for url in ("/clubs/other", f"/clubs/other/matches/{other}", "/clubs/other/players/1",
                "/clubs/no-such-club"):
        response = get(site, url, status=401)
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
        assert response.headers["Cache-Control"] == "private, no-store"
        html = response.get_data(as_text=True)
        assert '<form id="sign-in"' in html and 'method="dialog"' in html  # never posted, never in a URL
        assert '<label for="token">' in html and 'id="token"' in html and 'type="password"' in html
        assert parse(html).tables == []
        twin = site.api.client.get("/api/v1/pages" + url)
        assert twin.status_code == 401 and twin.mimetype == "application/problem+json"


def test_a_token_of_the_club_reads_its_pages_and_another_clubs_does_not(site: Site) -> None:
    response = get(site, "/clubs/other", "viewer", club="other")
    assert response.headers["Cache-Control"] == "private, no-store"
    assert response.headers["Vary"] == "Authorization, Accept-Language, Cookie"
    assert "Sign out" in response.get_data(as_text=True)
    get(site, "/clubs/other", "viewer", club="casino", status=403)
    bad = site.api.client.get("/clubs/casino", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401  # a refused token is never read as no token, even here
    assert site.api.client.get("/api/v1/pages/clubs/casino",
                               headers={"Authorization": "Bearer nope"}).status_code == 401


def test_a_public_club_reads_without_a_token(site: Site) -> None:
    players = site.players()
    urls = ["/clubs/casino", f"/clubs/casino/players/{players['Ana']}",
            f"/clubs/casino/matches/{site.finished[0]}", f"/clubs/casino/matches/{site.live}",
            f"/clubs/casino/matches/{site.disputed}", f"/clubs/casino/matches/{site.disputed}/disputes/3"]
    for url in urls:
        response = get(site, url)
        assert response.mimetype == "text/html"
        assert response.headers["Cache-Control"] == "no-cache"
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
        twin = "/api/v1/pages" + url
        assert response.headers["Link"] == f'<{twin}>; rel="alternate"; type="application/json"'
        assert get(site, twin).mimetype == "application/json"
        if "/disputes/" not in url:
            assert parse(response.get_data(as_text=True)).alternate == twin


# ------------------------------------------------------------------ the club's home


def test_the_standings_page_shows_the_apis_numbers(site: Site) -> None:
    api_rows = standings_api(site)
    html = get(site, "/clubs/casino").get_data(as_text=True)
    assert page_rows(html) == [shown(r) for r in api_rows]
    assert {r["player"] for r in api_rows} >= {"Ana", "Beto", "Carla", "Dani", "Elena", "Fede"}
    twin = get(site, "/api/v1/pages/clubs/casino").json
    assert [{k: v for k, v in r.items() if k != "player_id"} for r in twin["standings"]] == api_rows
    ids = site.players()
    assert all(r["player_id"] == ids[r["player"]] for r in twin["standings"])
    assert twin["club"]["public"] is True and twin["filters"] == {"from": None, "to": None, "event": None}
    assert {site.live, site.disputed, *site.finished} == {m["id"] for m in twin["matches"]}
    assert set(twin["events"]) == {"Spring cup", "League"}


@pytest.mark.parametrize("query", [APRIL, {"from": "2026-03-15"}, {"to": "2026-03-31"},
                                   {"event": "League"}, {**APRIL, "event": "Spring cup"}])
def test_the_filters_give_the_apis_numbers_for_that_period_and_event(site: Site, query: dict) -> None:
    api_rows = standings_api(site, **query)
    html = site.api.client.get("/clubs/casino", query_string=query).get_data(as_text=True)
    assert page_rows(html) == [shown(r) for r in api_rows]
    assert standings_api(site) != api_rows  # the filter changed the numbers
    twin = site.api.client.get("/api/v1/pages/clubs/casino", query_string=query).json
    assert twin["filters"] == {"from": None, "to": None, "event": None, **query}
    tables = parse(html)
    assert tables.alternate.startswith("/api/v1/pages/clubs/casino?")
    for key, value in query.items():  # days as the page's language writes them: "Apr 1, 2026"
        said = formats.date(value, lang="en") if key in ("from", "to") else value
        assert said in tables.table("standings")["caption"]
        assert f'value="{value}"' in html  # the form shows the filter it applied


def test_april_counts_only_aprils_matches(site: Site) -> None:
    rows = {r["player"]: r for r in standings_api(site, **APRIL)}
    april = [p for date, _, players, _ in FINISHED if date.startswith("2026-04") for p in players]
    for name, row in rows.items():
        assert row["played"] == april.count(name)


def test_empty_filter_fields_mean_no_filter(site: Site) -> None:
    response = site.api.client.get("/clubs/casino?from=&to=&event=")
    assert response.status_code == 200
    assert page_rows(response.get_data(as_text=True)) == [shown(r) for r in standings_api(site)]
    assert parse(response.get_data(as_text=True)).alternate == "/api/v1/pages/clubs/casino"


def test_a_bad_date_is_a_page_saying_so(site: Site) -> None:
    response = get(site, "/clubs/casino?from=yesterday", status=422)
    assert "from must be an iso 8601 date" in response.get_data(as_text=True).lower()
    assert site.api.client.get("/api/v1/pages/clubs/casino?from=yesterday").status_code == 422


# ------------------------------------------------------------------ a player's page


def test_a_players_page_agrees_with_his_standings_row(site: Site) -> None:
    ids = site.players()
    rows = {r["player"]: r for r in standings_api(site)}
    for name in ("Ana", "Beto", "Elena"):
        data = get(site, f"/api/v1/pages/clubs/casino/players/{ids[name]}").json
        record, row = data["record"], rows[name]
        assert (record["played"], record["won"], record["lost"]) == (row["played"], row["won"], row["lost"])
        assert (record["points_for"], record["points_against"]) == (row["points_for"], row["points_against"])
        assert record["drawn"] == row["played"] - row["won"] - row["lost"]
        assert data["rating"] == site.api.service.standings.rating_history("casino", ids[name])
        assert len(data["rating"]) == row["rating_games"]
        # head to head adds up: each match counts once for each opponent in it
        for key in ("won", "lost", "drawn"):
            assert sum(h[key] for h in data["head_to_head"]) == sum(
                len(x["opponents"]) for x in data["history"] if x["result"] == key)
        for key in ("played", "points_for", "points_against"):
            assert sum(h[key] for h in data["head_to_head"]) == sum(
                len(x["opponents"]) * (1 if key == "played" else x[key]) for x in data["history"])


def test_a_players_page_lists_his_matches_with_result_and_score(site: Site) -> None:
    ana = site.players()["Ana"]
    response = get(site, f"/clubs/casino/players/{ana}")
    html = response.get_data(as_text=True)
    data = get(site, f"/api/v1/pages/clubs/casino/players/{ana}").json
    svc = site.api.service
    played = [m for m in (*site.finished, site.disputed) if "Ana" in svc.reading.get_match(m)["players"]]
    assert sorted(h["match"] for h in data["history"]) == sorted(played)
    for h in data["history"]:
        summary = svc.reading.get_match(h["match"])
        side = Rules(**summary["rules"]).side_of(summary["players"].index("Ana"))
        assert h["points_for"] == summary["totals"][side]
        assert h["result"] == ("won" if summary["winner"] == side else "lost")
    tables = parse(html)
    history = next(t for t in tables.tables if "finished matches" in t["caption"])
    assert [row[1].split(" ")[1][:len(str(h["match"]))] for row, h in zip(history["rows"], data["history"])] \
        == [str(h["match"]) for h in data["history"]]
    assert [row[4] for row in history["rows"]] == [h["result"].title() for h in data["history"]]
    h2h = next(t for t in tables.tables if "against each opponent" in t["caption"])
    assert [row[0] for row in h2h["rows"]] == [h["opponent"]["name"] for h in data["head_to_head"]]
    # the rating chart, drawn on the server: a point per rated match, and its table
    assert html.count("<circle ") == len(data["rating"]) > 1
    assert '<svg viewBox="0 0 640 240" role="img" aria-labelledby="chart-title chart-desc"' in html


def test_a_player_with_no_finished_match_has_no_chart(site: Site) -> None:
    site.api.service.players.create("casino", "Zoe")
    html = get(site, f"/clubs/casino/players/{site.players()['Zoe']}").get_data(as_text=True)
    assert "<svg" not in html and "No finished match yet" in html


def test_unknown_players_and_matches_are_not_found(site: Site) -> None:
    get(site, "/clubs/casino/players/9999", status=404)
    get(site, "/clubs/casino/matches/9999", status=404)
    # a match of another club is not found at this club's address (for its public reader, and
    # for a token of this club)
    other = site.api.matches["other"]
    get(site, f"/clubs/casino/matches/{other}", status=404)
    get(site, f"/clubs/casino/matches/{other}", "referee", status=404)
    get(site, f"/clubs/casino/matches/{site.disputed}/disputes/2", status=404)  # not a dispute
    assert site.api.client.get(f"/api/v1/pages/clubs/casino/matches/{other}").status_code == 404


# ------------------------------------------------------------------ a match's page


def test_a_match_page_shows_its_rounds_totals_and_lines(site: Site) -> None:
    svc = site.api.service
    for match_id in site.finished:
        report = svc.reading.report(match_id)
        data = get(site, f"/api/v1/pages/clubs/casino/matches/{match_id}").json
        assert data["totals"] == report["totals"] and data["winner"] == report["winner"]
        assert [r["round"] for r in data["rounds"]] == [r["round"] for r in report["rounds"]]
        # each round's line is the table's line just before the next deal (the core's state)
        events = svc.reading.list_events(match_id)
        deals = [e["seq"] for e in events if e["event"]["type"] == "deal"]
        ends = [d - 1 for d in deals[1:]] + [events[-1]["seq"]]
        for r, at in zip(data["rounds"], ends):
            assert r["line"] == list(svc.reading.state(match_id, at=at).line)
            assert len(r["line"]) == sum(1 for e in events if e["event"]["type"] == "play"
                                         and deals[r["round"] - 1] < e["seq"] <= at)
        html = get(site, f"/clubs/casino/matches/{match_id}").get_data(as_text=True)
        tables = parse(html)
        rounds = next(t for t in tables.tables if "outcome and points" in t["caption"])
        sides = len(report["totals"])
        assert len(rounds["rows"]) == len(report["rounds"]) + sides  # and a totals row a side
        assert [row[4] for row in rounds["rows"][:-sides]] == [str(r["points"]) for r in report["rounds"]]
        assert [row[1] for row in rounds["rows"][-sides:]] == [str(t) for t in report["totals"]]
        assert tables.tiles == [t for r in data["rounds"] for t in r["line"]]
        totals = next(t for t in tables.tables if t["caption"].startswith("Totals by partnership"))
        assert [row[-1] for row in totals["rows"]] == [str(t) for t in report["totals"]]


# The totals' caption and first column by the match's sides: a player each in singles, a
# partnership each in pairs (es/it said "per team" for both).
TOTALS_WORDS = {"en": {False: ("Totals by player, playing to", "Player"),
                       True: ("Totals by partnership, playing to", "Partnership")},
                "es": {False: ("Puntos por jugador, a", "Jugador"),
                       True: ("Puntos por pareja, a", "Pareja")},
                "it": {False: ("Punti per giocatore, ai", "Giocatore"),
                       True: ("Punti per coppia, ai", "Coppia")}}


def test_a_match_pages_totals_say_player_or_partnership(site: Site) -> None:
    kinds = set()
    for match_id in (site.finished[0], site.disputed):  # parejas, mano a mano
        rules = get(site, f"/api/v1/pages/clubs/casino/matches/{match_id}").json["match"]["rules"]
        kinds.add(rules["partnerships"])
        for lang, words in TOTALS_WORDS.items():
            html = site.api.client.get(f"/clubs/casino/matches/{match_id}",
                                       headers={"Accept-Language": lang}).get_data(as_text=True)
            caption, column = words[rules["partnerships"]]
            totals = next(t for t in parse(html).tables if t["caption"].startswith(caption))
            assert totals["caption"] == f"{caption} {rules['target']}", (lang, match_id)
            assert totals["head"][0][0] == column, (lang, match_id)
    assert kinds == {True, False}


# A partnership wins together (the badge said "Winner", "Vincitore" beside "Ana & Carla"); a
# side's seats are listed as the language lists names ("Ana (seat 1), Carla (seat 3)" before).
WINNERS = {"en": ("Winners", "Winner", "and"), "es": ("Ganadores", "Ganador", "y"),
           "it": ("Vincitori", "Vincitore", "e")}


@pytest.mark.parametrize("lang", sorted(WINNERS))
def test_a_match_pages_winners_and_seats_as_the_language_says_them(site: Site, lang: str) -> None:
    pairs, single = site.finished[0], site.disputed  # parejas, mano a mano
    plural, singular, conjunction = WINNERS[lang]
    for match_id, badge in ((pairs, plural), (single, singular)):
        html = site.api.client.get(f"/clubs/casino/matches/{match_id}",
                                   headers={"Accept-Language": lang}).get_data(as_text=True)
        totals = next(t for t in parse(html).tables if t["head"] and len(t["head"][0]) == 3)
        won = [row for row in totals["rows"] if row[0].endswith(badge)]
        if match_id == pairs:
            assert len(won) == 1, (lang, totals["rows"])
            for row in totals["rows"]:  # two seats each, listed: "Ana (seat 1) and Carla (seat 3)"
                assert f") {conjunction} " in row[1] and "), " not in row[1], (lang, row)
        else:
            assert all(not row[0].endswith(plural) for row in totals["rows"]), (lang, totals["rows"])


# The acta's rounds by the match's sides, as the totals (es/it said "por equipo" / "per squadra"
# for one against one).
ACTA_CAPTIONS = {"en": {False: "Each round's points by player, then the rulings and the totals",
                        True: "Each round's points by partnership, then the rulings and the totals"},
                 "es": {False: "Los puntos de cada ronda por jugador, luego las resoluciones y los totales",
                        True: "Los puntos de cada ronda por pareja, luego las resoluciones y los totales"},
                 "it": {False: "I punti di ogni mano per giocatore, poi le decisioni e i totali",
                        True: "I punti di ogni mano per coppia, poi le decisioni e i totali"}}


def test_an_actas_rounds_say_player_or_partnership(site: Site) -> None:
    kinds = set()
    for match_id in (site.finished[0], site.disputed):  # parejas, mano a mano
        pair = get(site, f"/api/v1/pages/clubs/casino/matches/{match_id}").json["match"]["rules"]["partnerships"]
        kinds.add(pair)
        for lang, captions in ACTA_CAPTIONS.items():
            html = site.api.client.get(f"/clubs/casino/matches/{match_id}/acta",
                                       headers={"Accept-Language": lang}).get_data(as_text=True)
            assert [t["caption"] for t in parse(html).tables][0] == captions[pair], (lang, match_id)
            # the players, seat by seat, as the language lists names (joined with ", " before)
            players = re.search(r"<dd>([^<]*\(\w+ 1\)[^<]*)</dd>", html)
            assert players is not None and f" {WINNERS[lang][2]} " in players.group(1), (lang, html)
    assert kinds == {True, False}


def test_a_match_page_lists_disputes_with_rulings_and_sheets(site: Site) -> None:
    url = f"/clubs/casino/matches/{site.disputed}"
    data = get(site, "/api/v1/pages" + url).json
    [dispute] = data["disputes"]
    assert (dispute["seq"], dispute["code"], dispute["ruling"]["type"]) == (3, "renege", "stands")
    html = get(site, url).get_data(as_text=True)
    assert f'href="{url}/disputes/3"' in html
    assert "both sides agreed to play on" in html
    sheet = get(site, f"{url}/disputes/3").get_data(as_text=True)
    assert "<h1>Dispute sheet</h1>" in sheet and "renege" in sheet and "stands" in sheet
    twin = get(site, f"/api/v1/pages{url}/disputes/3").json
    assert twin["dispute"]["code"] == "renege"
    assert twin == site.api.client.get(f"/api/v1/matches/{site.disputed}/disputes/3",
                                       headers=site.api.auth("viewer")).json


def test_a_live_match_shows_no_tile_the_table_has_not_seen(site: Site) -> None:
    hidden = live_hidden_tiles(site)
    url = f"/clubs/casino/matches/{site.live}"
    # the referee's own API view holds those tiles: there is something to hide
    state = site.api.client.get(f"/api/v1/matches/{site.live}", headers=site.api.auth("referee")).json
    assert hidden <= {t for hand in state["hands"] if hand for t in hand}
    for role in (None, "viewer", "referee"):  # the page shows hands to nobody
        html = get(site, url, role).get_data(as_text=True)
        tiles = parse(html).tiles
        assert tiles and not set(tiles) & hidden
        for tile in hidden:
            a, b = tile.split("-")
            assert f'data-tile="{tile}"' not in html and f">{a}–{b}<" not in html
            assert f'data-tile="{b}-{a}"' not in html
        twin = get(site, "/api/v1/pages" + url, role).get_data(as_text=True)
        assert not any(f'"{t}"' in twin or f'"{t[::-1]}"' in twin for t in hidden)
        assert '"hands":' not in twin  # no hand, though the rules may say "scoring": "hands"
    data = get(site, "/api/v1/pages" + url).json
    assert data["live"]["counts"] == [7 - sum(1 for e in site.api.events[1:5] if e.get("seat") == s)
                                      for s in range(4)]


def test_a_live_game_without_a_boneyard_shows_none(site: Site) -> None:
    """The live match is parejas: four hands of seven, nothing drawn: no boneyard at all, so
    its hands' table has no column for one (it said "Boneyard 0"); a game that draws (All
    Fives) keeps it (test_pages_points)."""
    for lang in ("en", "es", "it"):
        html = site.api.client.get(f"/clubs/casino/matches/{site.live}",
                                   headers={"Accept-Language": lang}).get_data(as_text=True)
        hands = html.split('id="hands-caption"', 1)[1].split("</table>", 1)[0]
        assert hands.count('<th scope="col"') == 4, lang  # the four players, nothing else
        assert hands.count("<td") == 4, lang
    assert get(site, f"/api/v1/pages/clubs/casino/matches/{site.live}").json["live"][
        "boneyard"] == 0  # the twin keeps the figure


# ------------------------------------------------------------------ accessibility


def test_every_page_is_accessible_markup(site: Site) -> None:
    ids = site.players()
    urls = ["/clubs/casino", "/clubs/casino?event=League", f"/clubs/casino/players/{ids['Ana']}",
            f"/clubs/casino/matches/{site.finished[1]}", f"/clubs/casino/matches/{site.live}",
            f"/clubs/casino/matches/{site.disputed}", "/clubs/other"]
    for url in urls:
        response = site.api.client.get(url)
        html = response.get_data(as_text=True)
        tables = parse(html)
        assert tables.lang == "en", url
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
        assert html.index('class="skip" href="#main"') < html.index('<main id="main"')
        assert re.search(r"<h1>[^<]+</h1>", html), url
        for table in tables.tables:
            assert table["caption"].strip(), (url, table)
            assert all(scope in ("col", "row") for scope in table["scopes"]), (url, table)
        for field_id in re.findall(r'<input[^>]* id="([^"]+)"', html):
            assert f'<label for="{field_id}">' in html, (url, field_id)
        assert not re.search(r"<input(?![^>]* id=)[^>]*>", html), url
        # each wrapper that scrolls a table sideways is a labelled, focusable region
        for labelled in re.findall(r'<div class="table-wrap" role="region" aria-labelledby="([^"]+)" tabindex="0">', html):
            assert f'id="{labelled}"' in html
        assert html.count('class="table-wrap"') == html.count('class="table-wrap" role="region"')


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_stylesheets_colours_contrast_at_least_4_5_to_1() -> None:
    css = STYLESHEET.read_text(encoding="utf-8")
    root = css[css.index(":root {"):css.index("}", css.index(":root {"))]
    colours = dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-f]{6});", root))
    white = "#ffffff"
    pairs = [("ink", "paper"), ("muted", "paper"), ("link", "paper"), ("ink", "stripe"),
             ("muted", "stripe"), ("link", "stripe"), ("ink", "head"), ("brand-ink", "brand"),
             ("won", "paper"), ("lost", "paper"), ("won", "stripe"), ("lost", "stripe"),
             ("ink", "tile"), ("link", "head")]
    for fg, bg in pairs:
        assert contrast(colours[fg], colours[bg]) >= 4.5, (fg, bg)
    for badge in ("won", "lost", "brand"):  # white text on the badges and buttons
        assert contrast(white, colours[badge]) >= 4.5, badge
    assert contrast(colours["focus"], colours["paper"]) >= 3  # a focus ring: non-text, 3:1


def test_the_twins_are_in_the_api_document(site: Site) -> None:
    document = site.api.client.get("/api/openapi.json").json
    for path in ("/api/v1/pages/clubs/{club}", "/api/v1/pages/clubs/{club}/players/{player_id}",
                 "/api/v1/pages/clubs/{club}/matches/{match_id}",
                 "/api/v1/pages/clubs/{club}/matches/{match_id}/disputes/{seq}"):
        operation = document["paths"][path]["get"]
        assert operation["security"] == [{}, {"bearer": []}]  # a token, or none for a public club
    assert json.dumps(document)  # serialisable


# ------------------------------------------------------------------ the record to check


def test_a_finished_matchs_log_and_acta_without_a_token(site: Site) -> None:
    from referee.core.log import read_log

    match = site.finished[0]
    html = get(site, f"/clubs/casino/matches/{match}").get_data(as_text=True)
    twin = f"/api/v1/pages/clubs/casino/matches/{match}"
    for href in (f"{twin}/acta", f"{twin}/log", "/api/v1/clubs/casino/keys",
                 f"/clubs/casino/matches/{match}/acta"):
        assert f'href="{href}"' in html
    log = get(site, f"{twin}/log")
    assert log.mimetype == "application/x-ndjson"
    assert read_log(log.get_data(as_text=True)).header.fields["club"] == "casino"
    acta = get(site, f"{twin}/acta").json
    assert acta["match"] == match and acta["format"] == "domino-acta/2"
    assert f'data-head="{acta["chain"]["head"]}"' in html
    assert "Chain head of the record" not in html  # the hex is in the record's section only
    assert get(site, twin).json["record"] == {"head": acta["chain"]["head"],
                                              "acta_leaf": acta["leaf_index"], "public": True}
    printable = get(site, f"/clubs/casino/matches/{match}/acta").get_data(as_text=True)
    assert acta["signature"] in printable and acta["key_id"] in printable


def test_no_record_of_a_live_match_nor_of_a_private_club_without_a_token(site: Site) -> None:
    live = f"/api/v1/pages/clubs/casino/matches/{site.live}"
    assert "data-download" not in get(site, f"/clubs/casino/matches/{site.live}").get_data(as_text=True)
    for url in (f"{live}/log", f"{live}/acta"):
        assert get(site, url, status=403).json["detail"].startswith("without a token")
    get(site, f"/clubs/casino/matches/{site.live}/acta", status=403)
    other = site.api.service.reading.list_matches("other")[0][0]["id"]
    for url in (f"/api/v1/pages/clubs/other/matches/{other}/log",
                f"/api/v1/pages/clubs/other/matches/{other}/acta"):
        get(site, url, status=401)
    # with a token of the club, the log of its live match is the API's
    answer = get(site, f"/api/v1/pages/clubs/other/matches/{other}/log", role="viewer", club="other")
    assert answer.get_data(as_text=True) == site.api.client.get(
        f"/api/v1/matches/{other}/log", headers=site.api.auth("viewer", "other")).get_data(as_text=True)


def test_the_disputed_matchs_rounds_show_its_ruling_and_add_up(site: Site) -> None:
    page = get(site, f"/api/v1/pages/clubs/casino/matches/{site.disputed}").json
    rulings = [g for r in page["rounds"] for g in r["rulings"]]
    assert [g["type"] for g in rulings] == ["stands"]
    assert [sum(r["side_points"][s] for r in page["rounds"]) for s in range(2)] == page["totals"]
    html = get(site, f"/clubs/casino/matches/{site.disputed}").get_data(as_text=True)
    assert 'class="ruling"' in html and "both sides agreed to play on" in html


def test_a_pages_twin_is_quoted_into_latin_1(api: Any) -> None:
    """The twin goes into the Link header, which carries Latin-1 only: flask's request.path
    is decoded, so an address with an RTL mark or a CJK character in it, put there as it was,
    failed the answer."""
    from flask import request

    from api.pages.common import twin_of

    with api.app.test_request_context("/clubs/caf%C3%A9/seasons/%E2%80%AE%E4%B8%AD?player=%C3%91"):
        twin = twin_of(request.path)
    assert twin == "/api/v1/pages/clubs/caf%C3%A9/seasons/%E2%80%AE%E4%B8%AD?player=%C3%91"
