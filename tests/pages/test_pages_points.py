"""The pages on the points family (Fives and Threes, All Fives, Muggins), through the flask
client on both databases: a match's page draws each round's layout (the spinner's arms too) and
lists each scoring play (who, tile, count, points, busts) as the report has them; the standings
add up the matches' totals; the presets are offered where the desk picks rules."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from api_helpers import Api

from api.pages.common import TWIN_PREFIX
from referee.core import build_report, read_log
from referee.core.replay import replay

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ALL_FIVES = EXAMPLES / "all-fives.jsonl"
FIVES_AND_THREES = EXAMPLES / "fives-and-threes-pairs.jsonl"
# Fives and Threes to an exact 4: 6-6 leads (12: 4 points, but no winning on the down), 6-3
# makes 15, 8 points past 4: a bust.
BUST = [{"format": "domino-log/1", "rules": {"preset": "fives-and-threes", "target": 4},
         "players": ["Ana", "Beto"], "date": "2026-11-28"},
        {"type": "deal", "hands": [["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0", "5-0", "4-0"],
                                   ["6-3", "6-5", "6-4", "5-4", "5-3", "4-3", "2-1", "1-0", "3-0"]]},
        {"type": "play", "seat": 0, "tile": "6-6"}, {"type": "play", "seat": 1, "tile": "6-3"}]


def listed(items: list[str]) -> str:
    """Items as English lists them (CLDR: "a and b", "a, b, and c"): the open ends of a
    moment are a list in a sentence (they were joined with ", ")."""
    return " and ".join(items) if len(items) < 3 else ", ".join(items[:-1]) + ", and " + items[-1]


def shipped(path: Path) -> str:
    """An example as shipped, its header naming this club (the examples are la-ceiba's)."""
    return path.read_text().replace('"club": "la-ceiba"', '"club": "casino"', 1)


def imported(api: Api, text: str) -> int:
    api.service.clubs.set_public("casino", True)
    return api.service.recording.import_log("casino", text, confirm_new=True)["id"]


def report_of(text: str) -> dict[str, Any]:
    log = read_log(text.encode())
    return build_report(replay(log.header.rules, log.header.players, log.events))


def page(api: Api, url: str, lang: str | None = None) -> str:
    if lang:
        api.client.set_cookie("lang", lang)
    response = api.client.get(url)
    if lang:
        api.client.delete_cookie("lang")
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return response.get_data(as_text=True)


def section(html: str, attribute: str, value: Any, tag: str) -> str:
    """The markup of the first ``<tag ... attribute="value">`` up to its end tag."""
    start = html.index(f'{attribute}="{value}"')
    start = html.rindex(f"<{tag}", 0, start)
    return html[start:html.index(f"</{tag}>", start)]


def rows(table: str) -> list[list[str]]:
    """Each body row's cells as text (tags dropped, spaces folded)."""
    body = table[table.index("<tbody>"):]
    found = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        found.append([" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in cells])
    return found


def test_the_match_page_lists_each_scoring_play_as_the_report_has_it(api: Api) -> None:
    text = shipped(ALL_FIVES)
    match_id = imported(api, text)
    report = report_of(text)
    players = read_log(text.encode()).header.players
    events = [json.loads(line) for line in text.splitlines()[1:]]
    html = page(api, f"/clubs/casino/matches/{match_id}")
    for r in report["rounds"]:
        assert r["scored"], "every round of the example scores during play"
        table = section(html, "data-scored", r["round"], "table")
        expected = []
        for e in r["scored"]:
            a, b = events[e["seq"] - 1]["tile"].split("-")
            expected.append([str(e["seq"]), players[e["seat"]], f"{a}–{b} [{a}|{b}]",
                             str(e["count"]), f"+{e['points']}"])
        assert rows(table) == expected
        heading = section(html, "id", f"round-{r['round']}-heading", "h4")
        said = " ".join(re.sub(r"<[^>]+>", "", heading).split())
        assert said.endswith(f"· {players[0]} {r['scores'][0]}, {players[1]} {r['scores'][1]}")
    # the page's numbers are the report's: each side's points add up to its total
    twin = api.client.get(f"{TWIN_PREFIX}/clubs/casino/matches/{match_id}").json
    assert [sum(r["side_points"][s] for r in twin["rounds"]) for s in (0, 1)] == report["totals"]
    assert [r["scored"][0]["tile"] for r in twin["rounds"]] == [
        events[r["scored"][0]["seq"] - 1]["tile"] for r in report["rounds"]]


def test_the_layout_is_drawn_with_the_spinners_arms(api: Api) -> None:
    text = shipped(ALL_FIVES)
    match_id = imported(api, text)
    html = page(api, f"/clubs/casino/matches/{match_id}")
    lines = api.service.reading.lines(match_id)
    assert any(line["arms"] for line in lines), "the example opens the spinner's arms"
    for line in lines:
        if line["spinner"] is None:  # a line alone: its list of tiles is the drawing
            assert f'data-layout="{line["round"]}"' not in html
            continue
        figure = section(html, "data-layout", line["round"], "figure")
        drawn = figure[:figure.index("</svg>")].count("<g class=\"domino")  # the whole layout
        arms = line["arms"] or {"up": [], "down": []}
        assert drawn == len(line["line"]) + len(arms["up"]) + len(arms["down"])
        assert ("data-spinner" in figure) == (line["spinner"] is not None)
        if line["arms"]:
            assert "up arm: " in figure and "down arm: " in figure
        if 'class="layout-near"' in figure:  # a phone's: the line's ends, the spinner's
            near = figure[figure.index('class="layout-near"'):]
            shown = near[:near.index("</svg>")].count('<g class="domino')
            assert shown < drawn and near.count('class="gap"') >= 1
    es = page(api, f"/clubs/casino/matches/{match_id}", lang="es")
    assert "Jugadas que puntúan, ronda 1" in es and "brazo de arriba: " in es
    it = page(api, f"/clubs/casino/matches/{match_id}", lang="it")
    assert "Giocate che fanno punti, mano 1" in it and "braccio in alto: " in it


def test_a_bust_is_listed_and_said_not_added(api: Api) -> None:
    text = "".join(json.dumps(x) + "\n" for x in BUST)
    match_id = imported(api, text)
    html = page(api, f"/clubs/casino/matches/{match_id}")
    table = section(html, "data-scored", 1, "table")
    assert 'class="bust"' in table
    assert rows(table) == [["3", "Beto", "6–3 [6|3]", "15", "bust: 8 not added, past 4"]]
    assert "se pasa: 8 no cuentan, pasaría de 4" in page(api, f"/clubs/casino/matches/{match_id}",
                                                          lang="es")


def test_a_game_scored_from_hands_draws_no_layout(api: Api) -> None:
    html = page(api, f"/clubs/casino/matches/{imported(api, shipped(EXAMPLES / 'parejas.jsonl'))}")
    assert "data-layout" not in html and "data-scored" not in html


def test_standings_add_up_the_points_games_totals(api: Api) -> None:
    """Standings take a match's totals from the report: play points, bonuses and end points
    after busts, never pips."""
    ids = [imported(api, shipped(path)) for path in (ALL_FIVES, FIVES_AND_THREES)]
    reports = [report_of(shipped(path)) for path in (ALL_FIVES, FIVES_AND_THREES)]
    rows_ = api.client.get("/api/v1/clubs/casino/standings", query_string={"event": "Torneo de otoño"},
                           headers=api.auth("viewer")).json
    assert ids
    names = {r["player"]: r for r in rows_}
    all_fives = read_log(ALL_FIVES.read_bytes()).header
    for seat, name in enumerate(all_fives.players):
        assert names[name]["points_for"] == reports[0]["totals"][seat]
        assert names[name]["points_against"] == reports[0]["totals"][1 - seat]
        assert names[name]["won"] == int(reports[0]["winner"] == seat)
    html = page(api, "/clubs/casino")
    assert all(name in html for name in all_fives.players)


# ---------------------------------------------------------------- the presets where rules are picked

def test_the_desk_offers_the_points_presets_with_their_words(api: Api) -> None:
    """The settings' "Rules of a new match" offers every preset, each with what it plays in
    the reader's language; the tournament form offers Fives and Threes, a pairs game with four,
    and not All Fives or Muggins (partners only if the match says so)."""
    home = api.client.get("/clubs/casino/desk", headers=api.auth("admin")).get_data(as_text=True)
    for preset, words in (("fives-and-threes", "Fives and Threes · points during play for fives "
                           "and threes, to 61 exactly"),
                          ("all-fives", "All Fives · points during play for fives, with a "
                           "spinner, to 100"),
                          ("muggins", "Muggins · points during play for fives, no spinner, to 100")):
        assert re.search(f'<option value="{preset}"[^>]*>{re.escape(words)}</option>', home), preset
    api.client.set_cookie("lang", "es")
    es = api.client.get("/clubs/casino/desk/tournaments",
                        headers=api.auth("referee")).get_data(as_text=True)
    api.client.delete_cookie("lang")
    assert re.search(r'<option value="fives-and-threes"[^>]*>Fives and Threes · puntos durante el '
                     r"juego por cincos y treses, a 61 exactos</option>", es)
    assert '<option value="all-fives"' not in es and '<option value="muggins"' not in es
    assert '<option value="parejas"' in es


def test_a_fives_and_threes_pairs_tournament_is_made_and_its_tables_play_the_preset(api: Api) -> None:
    answer = api.client.post("/api/v1/clubs/casino/tournaments", headers=api.auth("referee"), json={
        "slug": "fives", "name": "Fives night", "format": "pairs", "rules": "fives-and-threes",
        "rounds": 1, "entrants": [["Ana", "Beto"], ["Carla", "Dani"]]})
    assert answer.status_code == 201, answer.json
    paired = api.client.post("/api/v1/clubs/casino/tournaments/fives/rounds",
                             headers=api.auth("referee"), json={})
    assert paired.status_code in (200, 201), paired.json
    match_id = paired.json["tables"][0]["match"]
    rules = api.service.reading.get_match(match_id)["rules"]
    assert rules["scoring"] == "ends" and rules["partnerships"] and rules["target"] == 61
    refused = api.client.post("/api/v1/clubs/casino/tournaments", headers=api.auth("referee"), json={
        "slug": "fives2", "name": "All fives night", "format": "pairs", "rules": "all-fives",
        "rounds": 1})
    assert refused.status_code == 422


def test_a_live_points_match_says_its_open_ends_and_count(api: Api) -> None:
    """While in play: every open end by side (the spinner's arms too) and the count, as the
    table's position has them; each scoring play so far listed with its tile."""
    from referee.core.position import position

    text = shipped(ALL_FIVES)
    log = read_log(text.encode())
    events = [json.loads(line) for line in text.splitlines()[1:]]
    at = next(seq for seq, e in enumerate(events, start=1) if e.get("end") == "down") + 2
    api.service.clubs.set_public("casino", True)
    match_id = api.service.recording.create_match("casino", "all-fives", list(log.header.players))["id"]
    for event in events[:at]:
        api.service.recording.record_event(match_id, event, expected_seq=None)
    pos = position(replay(log.header.rules, log.header.players, log.events[:at]).match)
    assert pos.arms and pos.count is not None
    html = page(api, f"/clubs/casino/matches/{match_id}")
    ends = listed([f"{side} {pip}" for side, pip, _ in pos.open_ends])
    assert f'data-count="{pos.count}"' in html
    assert f"Open ends: {ends}; the count is {pos.count}." in html
    es = page(api, f"/clubs/casino/matches/{match_id}", lang="es")
    assert f"la cuenta es {pos.count}." in es and "de arriba" in es
    assert 'data-scored="1"' in html
    assert ">Boneyard</th>" in html and "Sleeping tiles" not in html  # All Fives draws


def test_a_live_fives_and_threes_page_says_the_sleeping_tiles(api: Api) -> None:
    """Nobody draws Fives and Threes' undealt tiles: the live page calls them sleeping tiles
    (docs/glossary.md), in en, es and it."""
    api.service.clubs.set_public("casino", True)
    match_id = knocked_while_able(api)
    for lang, word in (("en", "Sleeping tiles"), ("es", "Fichas dormidas"),
                       ("it", "Tessere dormienti")):
        html = page(api, f"/clubs/casino/matches/{match_id}", lang=lang)
        assert f">{word}</th>" in html, lang


def test_a_fives_and_threes_event_standing_takes_the_matches_totals(api: Api) -> None:
    """A pairs tournament of Fives and Threes: its one table plays the shipped example's
    match; the event standing gives each pair its side's total (play points, chip-out points,
    no pips) and the win to the pair that reached 61, and so does its page."""
    svc = api.service
    text = shipped(FIVES_AND_THREES)
    events = [json.loads(line) for line in text.splitlines()[1:]]
    report = report_of(text)
    svc.clubs.set_public("casino", True)
    svc.tournaments.create("casino", "cincos", "Noche de cincos", rules="fives-and-threes",
                           format="pairs", rounds=1,
                           entrants=[["Nacho", "Pepe"], ["Olga", "Quique"]], confirm_new=True)
    tables = svc.tournaments.pair("casino", "cincos")["tables"]
    match_id = tables[0]["match"]
    players = svc.reading.get_match(match_id)["players"]
    for event in events:
        svc.recording.record_event(match_id, event, expected_seq=None)
    assert svc.reading.report(match_id)["totals"] == report["totals"]
    rows_ = svc.tournaments.standings("casino", "cincos")
    for row in rows_:
        names = {p["name"] if isinstance(p, dict) else p for p in row["partners"]}
        side = next(seat % 2 for seat, name in enumerate(players) if name in names)
        assert row["points_for"] == report["totals"][side], row
        assert row["points_against"] == report["totals"][1 - side]
        assert row["won"] == int(report["winner"] == side)
    html = page(api, "/clubs/casino/tournaments/cincos")
    assert "Noche de cincos" in html and str(max(report["totals"])) in html


# Fives and Threes between two, open: Ana leads 6-6, Beto knocks holding 6-3, 6-5 and 6-4
# (recorded as disputed: a renege, proven at once), then plays on.
KNOCK_HANDS = BUST[1]["hands"]
KNOCKED = {"en": ("Event 3: Beto knocked", "Beto knocked holding 6-3, 6-4"),
           "es": ("3: Beto tocó", "Beto tocó teniendo 6-3, 6-4"),
           "it": ("3: Beto ha bussato", "Beto ha bussato avendo 6-3, 6-4")}


def knocked_while_able(api: Api) -> int:
    svc = api.service
    svc.clubs.set_public("casino", True)
    match_id = svc.recording.create_match("casino", "fives-and-threes", ["Ana", "Beto"])["id"]
    for event in [{"type": "deal", "hands": KNOCK_HANDS}, {"type": "play", "seat": 0, "tile": "6-6"},
                  {"type": "pass", "seat": 1, "disputed": True}]:
        svc.recording.record_event(match_id, event, expected_seq=None)
    return match_id


def words_of(html: str) -> str:
    """The page's text as a reader sees it: a block's tag parts words, an inline one (a tile
    kept on one line, api.language.unbroken) does not."""
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"</?(span|strong|em|b|i|a)\b[^>]*>", "", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


def test_a_knock_is_said_as_one_on_the_dispute_sheet_and_the_desk(api: Api) -> None:
    """A game scoring during play says a pass as a knock wherever the pages say an event or
    the referee's finding (docs/glossary.md): the dispute sheet, in en/es/it, and the disputes
    desk; a seeds' game still says "passed" (tests/pages/test_desk_disputes.py)."""
    match_id = knocked_while_able(api)
    [foul] = api.service.reading.report(match_id)["violations"]
    assert foul["code"] == "renege" and "knocked holding" in foul["message"]
    for lang, said in KNOCKED.items():
        sheet = api.client.get(f"/clubs/casino/matches/{match_id}/disputes/3",
                               headers=api.auth("referee", **{"Accept-Language": lang}))
        assert sheet.status_code == 200
        text = words_of(sheet.get_data(as_text=True))
        for words in said:
            assert words in text, (lang, words)
        assert "passed" not in text and "pasó" not in text and "passato" not in text
    desk = api.client.get("/clubs/casino/desk/disputes", headers=api.auth("referee"))
    text = words_of(desk.get_data(as_text=True))
    assert "3: Beto knocked" in text and "Beto passed" not in text


def test_the_screen_offers_a_draw_only_from_a_boneyard(api: Api) -> None:
    """Fives and Threes has no boneyard (draw: none; the undealt tiles sleep): its screen never
    offers a draw, though tiles are left undealt; All Fives' does while its boneyard holds a
    tile (the phone draws the button from offers_draw, api/static/score/pickers.js)."""
    svc = api.service
    match_id = svc.recording.create_match("casino", "fives-and-threes", ["Ana", "Beto"])["id"]
    for event in [{"type": "deal"}, {"type": "play", "seat": 0, "tile": "6-6"}]:
        svc.recording.record_event(match_id, event, expected_seq=None)
    screen = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("scorekeeper")).get_json()
    assert screen["boneyard"] == 10 and screen["turn"] == 1
    assert screen["offers_draw"] is False
    match_id = svc.recording.create_match("casino", "all-fives", ["Ana", "Beto"])["id"]
    for event in [{"type": "deal"}, {"type": "play", "seat": 0, "tile": "6-6"}]:
        svc.recording.record_event(match_id, event, expected_seq=None)
    screen = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("scorekeeper")).get_json()
    assert screen["boneyard"] == 14 and screen["offers_draw"] is True


def test_the_screen_decides_whether_the_undealt_tiles_are_shown(api: Api) -> None:
    """Whether the table shows its undealt tiles is the screen's shows_undealt, and the match
    page's twin carries the same: none in parejas (nothing drawn, four hands of seven), Fives
    and Threes' sleeping tiles and All Fives' boneyard shown; the page's column follows it."""
    svc = api.service
    svc.clubs.set_public("casino", True)
    games = {"parejas": ["Ana", "Beto", "Carla", "Dani"], "fives-and-threes": ["Ana", "Beto"],
             "all-fives": ["Ana", "Beto"]}
    shown = {}
    for preset, players in games.items():
        match_id = svc.recording.create_match("casino", preset, players)["id"]
        svc.recording.record_event(match_id, {"type": "deal"}, expected_seq=None)
        screen = api.client.get(f"/api/v1/matches/{match_id}",
                                headers=api.auth("scorekeeper")).get_json()
        twin = api.client.get(f"{TWIN_PREFIX}/clubs/casino/matches/{match_id}").get_json()
        assert twin["live"]["shows_undealt"] is screen["shows_undealt"], preset
        hands = page(api, f"/clubs/casino/matches/{match_id}").split('id="hands-caption"', 1)[1]
        columns = hands.split("</thead>", 1)[0].count('<th scope="col"')
        assert columns == len(players) + screen["shows_undealt"], preset
        shown[preset] = screen["shows_undealt"]
        assert screen["shows_undealt"] is (screen["boneyard"] > 0), preset  # just dealt
    assert shown == {"parejas": False, "fives-and-threes": True, "all-fives": True}


def test_a_dispute_sheet_says_every_open_end_and_the_count(api: Api) -> None:
    """All Fives, the spinner's arms open: Ana knocks holding the 2-2, which fits the arm
    showing 2 (recorded as disputed: a renege). The sheet's moment gives every open end by side,
    the arms too, and the count, as the table saw them; the page and the desk say them all."""
    svc = api.service
    svc.clubs.set_public("casino", True)
    rules = {"preset": "all-fives", "hand_size": 4, "draw": "none", "first_opener": "free"}
    match_id = svc.recording.create_match("casino", rules, ["Ana", "Beto"])["id"]
    for event in [{"type": "deal", "hands": [["5-5", "5-3", "2-2", "6-6"], ["5-0", "5-2", "3-0", "6-5"]]},
                  {"type": "play", "seat": 0, "tile": "5-5"}, {"type": "play", "seat": 1, "tile": "5-0"},
                  {"type": "play", "seat": 0, "tile": "5-3"}, {"type": "play", "seat": 1, "tile": "5-2"},
                  {"type": "pass", "seat": 0, "disputed": True}]:
        svc.recording.record_event(match_id, event, expected_seq=None)
    moment = svc.disputes.sheet(match_id, 6)["moment"]
    assert len(moment["open_ends"]) == 4 and moment["count"] is not None  # the arms are open
    ends = listed([f"{e['side']} {e['pip']}" for e in moment["open_ends"]])
    said = f"Open ends: {ends}; the count is {moment['count']}."
    sheet = api.client.get(f"/clubs/casino/matches/{match_id}/disputes/6", headers=api.auth("referee"))
    assert said in words_of(sheet.get_data(as_text=True))
    desk = api.client.get("/clubs/casino/desk/disputes", headers=api.auth("referee"))
    assert said in words_of(desk.get_data(as_text=True))
    es = api.client.get(f"/clubs/casino/matches/{match_id}/disputes/6",
                        headers=api.auth("referee", **{"Accept-Language": "es"}))
    assert f"la cuenta es {moment['count']}." in words_of(es.get_data(as_text=True))
    assert "de arriba" in words_of(es.get_data(as_text=True))
