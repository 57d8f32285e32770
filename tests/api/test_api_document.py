"""Every operation of the OpenAPI document, called once for real and its answer held to the
document: one scripted evening (a tournament with a round in play, a finished match and its
acta, a dispute, players renamed and merged, tokens and sign-in codes), each answer a success
checked by schemathesis against its documented schema (``additionalProperties: false``: a field
the document does not declare fails). Deterministic, on both databases: a gap like the
scoreboard rows' ``tournament_round`` (sent only for a tournament's table, so the fuzzing of
test_api_schemathesis.py met it only when it made one) fails here every run. An operation added
to the document without a call here fails the coverage check at the end. The streams answer for
minutes: test_api_scoreboard.py and test_api_asgi.py hold them to their document."""

from __future__ import annotations

from typing import Any

import schemathesis
from api_helpers import SERVER_TOKEN, Api, parejas
from flask import Flask
from template_helpers import migrate
from tournament_helpers import finished_events

from api import create_app
from api.context import EXTENSION
from referee.core.log import make_log, write_log
from referee.service import OPERATOR

RULES = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none", "target": 5, "foul_points": 10}
RENEGE = [{"type": "deal"}, {"type": "play", "seat": 0, "tile": "6-6"},
          {"type": "pass", "seat": 1}, {"type": "play", "seat": 0, "tile": "6-5"},
          {"type": "play", "seat": 1, "tile": "6-4"}, {"type": "play", "seat": 0, "tile": "5-5"},
          {"type": "reveal", "seat": 1, "tiles": ["3-3", "2-1"]}]
EIGHT = ["Ana", "Beto", "Carla", "Dani", "Eva", "Fede", "Gabi", "Hugo"]


class Caller:
    """Calls operations by their document's path, checks each answer against the document."""

    def __init__(self, app: Flask, schema: Any, **known: Any) -> None:
        self.client, self.schema, self.known = app.test_client(), schema, known
        self.called: set[tuple[str, str]] = set()

    def __call__(self, method: str, path: str, token: str | None, json: Any = None,
                 status: int | None = None, **params: Any) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        headers.update(params.pop("headers", {}))
        query = params.pop("query", None)
        url = path.format(**{**self.known, **params})
        kwargs: dict[str, Any] = {"headers": headers, "query_string": query}
        if isinstance(json, bytes):
            kwargs.update(data=json, content_type="application/x-ndjson")
        elif json is not None:
            kwargs["json"] = json
        response = self.client.open(url, method=method, **kwargs)
        assert response.status_code < 300 and (status is None or response.status_code == status), (
            method, url, response.status_code, response.get_data(as_text=True)[:500])
        self.schema[path][method].validate_response(response)  # raises, saying what differs
        self.called.add((method, path))
        return response.get_json(silent=True)


def _first_club(tmp_path: Any) -> tuple[Flask, str]:
    """An app over a database with no club yet (where the setup link works), and its code."""
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'first.db'}"})
    service = app.extensions[EXTENSION]
    migrate(service.engine)
    return app, service.setup.issue()["code"]


def test_every_operation_answers_as_its_document_says(api: Api, tmp_path: Any) -> None:
    svc, casino = api.service, "casino"
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", api.app)
    operations = {(o.method.upper(), o.path) for o in (r.ok() for r in schema.get_all_operations())}
    admin, referee = api.tokens[casino, "admin"], api.tokens[casino, "referee"]
    viewer = api.tokens[casino, "viewer"]
    call = Caller(api.app, schema, club=casino, match_id=api.matches[casino])

    # A tournament of eight, its first round paired and started, one table in play (its rows
    # on the scoreboards carry the round), one finished (its acta signed).
    call("POST", "/api/v1/clubs/{club}/tournaments", admin, {
        "slug": "noche", "name": "Noche", "format": "rotating", "rules": {"preset": "parejas",
        "target": 30}, "rounds": 2, "entrants": EIGHT}, status=201)
    call("POST", "/api/v1/clubs/{club}/tournaments/{slug}/entrants", admin, {"players": ["Ines"]},
         slug="noche", status=201)
    made = call("POST", "/api/v1/clubs/{club}/tournaments/{slug}/constraints", referee,
                {"kind": "bye", "entrant": 9, "round": 1}, slug="noche", status=201)
    call("GET", "/api/v1/clubs/{club}/tournaments/{slug}/constraints", viewer, slug="noche")
    call("DELETE", "/api/v1/clubs/{club}/tournaments/{slug}/constraints/{constraint_id}",
         referee, slug="noche", constraint_id=made["id"])
    call("POST", "/api/v1/clubs/{club}/tournaments/{slug}/entrants/{number}/withdraw", admin,
         slug="noche", number=9)
    call("POST", "/api/v1/clubs/{club}/tournaments/{slug}/rounds", referee, slug="noche",
         status=201)
    call("POST", "/api/v1/clubs/{club}/tournaments/{slug}/rounds/{number}/repair", referee,
         slug="noche", number=1)
    call("POST", "/api/v1/clubs/{club}/tournaments/{slug}/rounds/{number}/start", referee,
         slug="noche", number=1)
    tables = svc.tournaments.round_tables(casino, "noche", 1, who=OPERATOR)
    played = finished_events(tables[0]["players"], 1)
    for seq, event in enumerate(played):
        svc.recording.record_event(tables[0]["match"], event, expected_seq=seq)
    live = finished_events(tables[1]["players"], 2)
    for seq, event in enumerate(live[:3]):
        svc.recording.record_event(tables[1]["match"], event, expected_seq=seq)
    finished = tables[0]["match"]

    # A match with a renege (a dispute), recorded and ruled over HTTP.
    created = call("POST", "/api/v1/clubs/{club}/matches", api.tokens[casino, "scorekeeper"],
                   {"rules": RULES, "players": ["Ana", "Beto"]}, status=201)
    disputed = created["id"]
    for seq, event in enumerate(RENEGE):
        call("POST", "/api/v1/matches/{match_id}/events", referee, event, match_id=disputed,
             headers={"If-Match": f'"{seq}"'}, status=201)
    call("POST", "/api/v1/matches/{match_id}/disputes/{seq}/penalty", referee, match_id=disputed,
         seq=3, query={"dry_run": "true"})
    header, events = parejas(2)
    call("POST", "/api/v1/clubs/{club}/matches/import", referee,
         write_log(make_log(header, events)).encode(), status=201)

    # Players: one made, renamed, merged into another.
    zoe = call("POST", "/api/v1/clubs/{club}/players", admin, {"name": "Zoe", "new": True},
               status=201)
    call("POST", "/api/v1/clubs/{club}/players/{player_id}/rename", admin,
         {"name": "Zoe Ruiz", "reason": "her full name"}, player_id=zoe["id"])
    players = call("GET", "/api/v1/clubs/{club}/players", viewer)
    ana_id = next(p["id"] for p in players if p["name"] == "Ana")
    call("GET", "/api/v1/clubs/{club}/players/{player_id}", viewer, player_id=ana_id)
    call("POST", "/api/v1/clubs/{club}/players/{player_id}/merge", admin,
         {"into": ana_id, "reason": "the same person"}, player_id=zoe["id"])

    # Tokens and sign-in codes.
    token = call("POST", "/api/v1/clubs/{club}/tokens", admin, {"role": "viewer", "label": "x"},
                 status=201)
    listed = call("GET", "/api/v1/clubs/{club}/tokens", admin)
    doomed = next(t["id"] for t in listed if t["label"] == "x")
    call("DELETE", "/api/v1/clubs/{club}/tokens/{token_id}", admin, token_id=doomed)
    assert token["token"]
    code = call("POST", "/api/v1/clubs/{club}/signin-codes", admin,
                {"role": "viewer", "label": "phone"}, status=201)
    call("POST", "/api/v1/signin-codes/exchange", None, {"code": code["code"]})

    # The club.
    call("POST", "/api/v1/clubs", SERVER_TOKEN, {"slug": "nueva", "name": "Nueva"}, status=201)
    call("PATCH", "/api/v1/clubs/{club}", admin, {"tie_breakers": ["won", "head_to_head"]})

    # Every read, now that there is something to read.
    for path, params in [
            ("/api/v1/clubs/{club}", {}), ("/api/v1/clubs/{club}/disputes", {}),
            ("/api/v1/clubs/{club}/keys", {}), ("/api/v1/clubs/{club}/matches", {}),
            ("/api/v1/clubs/{club}/scoreboard", {}), ("/api/v1/clubs/{club}/standings", {}),
            ("/api/v1/clubs/{club}/tournaments", {}),
            ("/api/v1/clubs/{club}/tournaments/{slug}", {"slug": "noche"}),
            ("/api/v1/clubs/{club}/tournaments/{slug}/entrants", {"slug": "noche"}),
            ("/api/v1/clubs/{club}/tournaments/{slug}/rounds/{number}", {"slug": "noche",
                                                                        "number": 1}),
            ("/api/v1/clubs/{club}/tournaments/{slug}/standings", {"slug": "noche"}),
            ("/api/v1/clubs/{club}/tournaments/{tournament}/scoreboard", {"tournament": "noche"}),
            ("/api/v1/clubs/{club}/transparency/head", {}),
            ("/api/v1/clubs/{club}/transparency/leaves", {}),
            ("/api/v1/clubs/{club}/transparency/inclusion", {"query": {"index": 0}}),
            ("/api/v1/clubs/{club}/transparency/consistency", {"query": {"from": 1}}),
            ("/api/v1/matches/{match_id}", {"match_id": finished}),
            ("/api/v1/matches/{match_id}/acta", {"match_id": finished}),
            ("/api/v1/matches/{match_id}/disputes", {"match_id": disputed}),
            ("/api/v1/matches/{match_id}/disputes/{seq}", {"match_id": disputed, "seq": 3}),
            ("/api/v1/matches/{match_id}/events", {"match_id": finished}),
            ("/api/v1/matches/{match_id}/log", {"match_id": finished}),
            ("/api/v1/matches/{match_id}/report", {"match_id": disputed}),
            ("/api/v1/pages/", {}), ("/api/v1/pages/clubs/{club}", {}),
            ("/api/v1/pages/clubs/{club}/matches", {}),
            ("/api/v1/pages/clubs/{club}/matches/{match_id}", {"match_id": finished}),
            ("/api/v1/pages/clubs/{club}/matches/{match_id}/acta", {"match_id": finished}),
            ("/api/v1/pages/clubs/{club}/matches/{match_id}/disputes/{seq}",
             {"match_id": disputed, "seq": 3}),
            ("/api/v1/pages/clubs/{club}/matches/{match_id}/log", {"match_id": finished}),
            ("/api/v1/pages/clubs/{club}/players", {}),
            ("/api/v1/pages/clubs/{club}/players/{player_id}", {"player_id": ana_id}),
            ("/api/v1/pages/clubs/{club}/scoreboard", {}),
            ("/api/v1/pages/clubs/{club}/tournaments", {}),
            ("/api/v1/pages/clubs/{club}/tournaments/{slug}", {"slug": "noche"}),
            ("/api/v1/pages/clubs/{club}/tournaments/{tournament}/scoreboard",
             {"tournament": "noche"})]:
        call("GET", path, admin, **params)
    board = call("GET", "/api/v1/clubs/{club}/tournaments/{tournament}/scoreboard", viewer,
                 tournament="noche")
    assert any(row.get("tournament_round") == 1 for row in board["rows"]), board["rows"]

    # A league season: set up, fixtures generated, one played, confirmed by both captains and
    # signed, one postponed, a leg conceded, a walkover, one's home and away swapped.
    base = "/api/v1/clubs/{club}/seasons"
    season = base + "/{season}"
    fixture_path = season + "/fixtures/{fixture}"
    call("POST", base, admin, {"slug": "liga", "name": "Liga", "format": {"singles": 1,
         "pairs": 1}, "first_day": "2027-01-07"}, status=201)
    call("GET", base, viewer)
    call("POST", season + "/divisions", admin, {"slug": "one", "name": "One"}, season="liga",
         status=201)
    for team, squad in (("crown", ["Lia", "Max", "Noa"]), ("bell", ["Oto", "Pia", "Quim"]),
                        ("swan", ["Rui", "Sol"])):
        call("POST", season + "/teams", admin, {"division": "one", "slug": team,
                                                "name": team.title()}, season="liga", status=201)
        call("POST", season + "/teams/{team}/players", admin, {"players": squad},
             season="liga", team=team, status=201)
    # The set-up corrected: a division renamed, one added and removed, a team changed, one
    # added and removed.
    call("PATCH", season + "/divisions/{division}", admin, {"name": "First"}, season="liga",
         division="one")
    call("POST", season + "/divisions", admin, {"slug": "spare", "name": "Spare"},
         season="liga", status=201)
    call("POST", season + "/teams", admin, {"division": "spare", "slug": "oak", "name": "Oak"},
         season="liga", status=201)
    call("PATCH", season + "/teams/{team}", admin, {"name": "Crown Inn", "venue": "Quay",
                                                    "division": "one"}, season="liga",
         team="crown")
    call("DELETE", season + "/teams/{team}", admin, season="liga", team="oak")
    call("DELETE", season + "/divisions/{division}", admin, season="liga", division="spare")
    call("POST", season + "/transfers", admin, {"player": "Noa", "to": "swan",
                                                "reason": "moved"}, season="liga", status=201)
    captains = {team: call("POST", season + "/teams/{team}/captains", admin, {},
                           season="liga", team=team, status=201)["token"]
                for team in ("crown", "bell")}
    call("POST", season + "/fixtures", admin, season="liga", status=201)
    listed = call("GET", season + "/fixtures", viewer, season="liga", query={"team": "crown"})
    played, moved, given = [f["id"] for f in listed[:3]]
    for leg, (home, away) in enumerate(((["Lia"], ["Oto"]), (["Lia", "Max"], ["Oto", "Pia"])),
                                       start=1):
        game = call("POST", fixture_path + "/legs/{leg}/games", referee,
                    {"home": home, "away": away}, season="liga", fixture=played, leg=leg,
                    status=201)
        svc.recording.record_event(game["match"], {"type": "forfeit", "side": 1,
                                                   "reason": "test"}, expected_seq=0)
    teams = svc.leagues.fixture(casino, "liga", played)
    for team in (teams["home"], teams["away"]):
        call("POST", fixture_path + "/confirm", captains[team], {}, season="liga",
             fixture=played)
    call("GET", fixture_path + "/sheet", viewer, season="liga", fixture=played)
    call("POST", fixture_path + "/postpone", admin, {"to": "2027-06-01", "reason": "rain"},
         season="liga", fixture=moved)
    call("POST", fixture_path + "/legs/{leg}/concede", admin, {"side": "home",
         "reason": "short"}, season="liga", fixture=moved, leg=1)
    call("POST", fixture_path + "/walkover", admin, {"by": "away", "reason": "absent"},
         season="liga", fixture=given)
    untouched = next(f["id"] for f in call("GET", season + "/fixtures", viewer, season="liga",
                                           query={"team": "bell"})
                     if {f["home"], f["away"]} == {"bell", "swan"})
    call("POST", fixture_path + "/swap", admin, {"reason": "the bar is shut"}, season="liga",
         fixture=untouched)
    call("POST", season + "/teams/{team}/deductions", admin, {"points": 1, "reason": "late"},
         season="liga", team="crown", status=201)
    call("GET", fixture_path, viewer, season="liga", fixture=moved)
    call("GET", season, viewer, season="liga")
    call("GET", season + "/teams/{team}", viewer, season="liga", team="crown")
    call("GET", season + "/divisions/{division}/table", viewer, season="liga", division="one")
    call("GET", season + "/averages", viewer, season="liga")
    # A cup of the season's teams: made, drawn, a tie made a fixture of the season.
    cups = "/api/v1/clubs/{club}/cups"
    tie_path = cups + "/{cup}/ties/{tie}"
    call("POST", cups, admin, {"slug": "copa", "name": "Copa", "season": "liga",
                               "entrants": ["crown", "bell", "swan"]}, status=201)
    call("POST", cups + "/{cup}/draw", admin, {"seeded": 3}, cup="copa")
    call("POST", tie_path + "/fixture", admin, {"on": "2027-03-04"}, cup="copa", tie="W1-2",
         status=201)
    # a cup of players: a tie's match started, another's result, one tie conceded, another
    # given as a walkover, the cup read with them
    call("POST", cups, admin, {"slug": "abierto", "name": "Abierto", "kind": "players",
                               "entrants": ["Lia", "Pia", "Sol", "Ana", "Bea", "Cruz", "Dora",
                                            "Eli"]}, status=201)
    call("POST", cups + "/{cup}/draw", admin, {"seeded": 8}, cup="abierto")
    game = call("POST", tie_path + "/games", referee, {}, cup="abierto", tie="W1-1",
                status=201)
    svc.recording.record_event(game["match"], {"type": "forfeit", "side": 1,
                                               "reason": "test"}, expected_seq=0)
    second = next(t for t in svc.leagues.cup(casino, "abierto")["ties"] if t["id"] == "W1-2")
    played = svc.recording.create_match(casino, "mano-a-mano",
                                        [second["home"], second["away"]])["id"]
    call("POST", tie_path + "/result", referee, {"matches": [played]}, cup="abierto",
         tie="W1-2")
    call("POST", tie_path + "/concede", admin, {"by": "away", "reason": "ill"}, cup="abierto",
         tie="W1-3")
    call("POST", tie_path + "/walkover", admin, {"by": "home", "reason": "late"},
         cup="abierto", tie="W1-4")
    call("GET", cups + "/{cup}", viewer, cup="abierto")
    call("GET", cups, viewer)
    call("GET", cups + "/{cup}", viewer, cup="copa")
    call("GET", "/api/v1/pages/clubs/{club}/cups", viewer)  # the cups' pages' twins
    call("GET", "/api/v1/pages/clubs/{club}/cups/{cup}", viewer, cup="copa")
    pages = "/api/v1/pages/clubs/{club}/seasons"  # the league pages' twins and feeds
    call("GET", pages, viewer)
    for path, params in ((pages + "/{season}", {}), (pages + "/{season}/fixtures", {}),
                         (pages + "/{season}/divisions/{division}", {"division": "one"}),
                         (pages + "/{season}/teams/{team}", {"team": "crown"}),
                         (pages + "/{season}/averages", {}),
                         (pages + "/{season}/calendar.ics", {}),
                         (pages + "/{season}/teams/{team}/calendar.ics", {"team": "crown"})):
        call("GET", path, viewer, season="liga", **params)

    # The first club of a database with none: the setup link.
    first, setup_code = _first_club(tmp_path)
    setup = Caller(first, schema)
    setup("POST", "/api/v1/setup/check", None, {"code": setup_code})
    setup("POST", "/api/v1/setup", None, {"code": setup_code, "name": "La Ceiba", "language": "es"},
          status=201)
    first.extensions[EXTENSION].close()

    streams = {op for op in operations if op[1].endswith("/stream")}
    assert operations - streams - call.called - setup.called == set()
