"""Schemathesis over the OpenAPI document, in process, on both databases: generated requests
(fitting the document and not) to every operation, with a valid token, the answers checked
against the document. Zero server errors is the point; the other checks keep the document honest.
The cases are the same every run (hypothesis's ``derandomize``).

Each operation is a test of its own (OPERATIONS; under pytest-xdist they spread over the
workers, where the one test of every operation kept a worker busy alone for most of the slow
tests' time), each generation mode a hypothesis run of its own from
``operation.as_strategy()`` (the lazy ``schemathesis.pytest.from_fixture`` loader does not run
under pytest 9); both modes' failures are collected before the test fails.
"""

from __future__ import annotations

import os
import uuid
from typing import Any, Iterator

import pytest
import schemathesis
from api_helpers import SERVER_TOKEN, Api, reused_api
from flask import Flask
from hypothesis import HealthCheck, assume, given, settings
from hypothesis.errors import Unsatisfiable
from league_helpers import set_up
from schemathesis import GenerationMode
from schemathesis.checks import negative_data_rejection, positive_data_acceptance

# Per operation and generation mode; raise it for a longer hunt.
EXAMPLES = int(os.environ.get("DOMINO_SCHEMATHESIS_EXAMPLES", "40"))
pytestmark = pytest.mark.slow  # fuzzes the whole API (minutes)


# Every operation of the OpenAPI document, as schemathesis lists them, written out so that
# collecting these tests builds no app: that is some seconds of each process's collection, the
# quick loop's too, which leaves these tests out. test_the_operations_are_the_documents holds
# the list to the document.
OPERATIONS = [
    ("POST", "/api/v1/clubs"),
    ("GET", "/api/v1/clubs/{club}"),
    ("PATCH", "/api/v1/clubs/{club}"),
    ("GET", "/api/v1/clubs/{club}/standings"),
    ("GET", "/api/v1/clubs/{club}/tokens"),
    ("POST", "/api/v1/clubs/{club}/tokens"),
    ("DELETE", "/api/v1/clubs/{club}/tokens/{token_id}"),
    ("GET", "/api/v1/clubs/{club}/matches"),
    ("POST", "/api/v1/clubs/{club}/matches"),
    ("POST", "/api/v1/clubs/{club}/matches/import"),
    ("GET", "/api/v1/matches/{match_id}"),
    ("GET", "/api/v1/matches/{match_id}/report"),
    ("GET", "/api/v1/matches/{match_id}/log"),
    ("GET", "/api/v1/matches/{match_id}/acta"),
    ("GET", "/api/v1/matches/{match_id}/events"),
    ("POST", "/api/v1/matches/{match_id}/events"),
    ("GET", "/api/v1/clubs/{club}/disputes"),
    ("GET", "/api/v1/matches/{match_id}/disputes"),
    ("GET", "/api/v1/matches/{match_id}/disputes/{seq}"),
    ("POST", "/api/v1/matches/{match_id}/disputes/{seq}/penalty"),
    ("GET", "/api/v1/clubs/{club}/players"),
    ("POST", "/api/v1/clubs/{club}/players"),
    ("GET", "/api/v1/clubs/{club}/players/{player_id}"),
    ("POST", "/api/v1/clubs/{club}/players/{player_id}/rename"),
    ("POST", "/api/v1/clubs/{club}/players/{player_id}/merge"),
    ("GET", "/api/v1/clubs/{club}/keys"),
    ("GET", "/api/v1/clubs/{club}/transparency/head"),
    ("GET", "/api/v1/clubs/{club}/transparency/leaves"),
    ("GET", "/api/v1/clubs/{club}/transparency/inclusion"),
    ("GET", "/api/v1/clubs/{club}/transparency/consistency"),
    ("GET", "/api/v1/pages/"),
    ("GET", "/api/v1/pages/clubs/{club}/players"),
    ("GET", "/api/v1/pages/clubs/{club}/matches"),
    ("GET", "/api/v1/pages/clubs/{club}/tournaments"),
    ("GET", "/api/v1/pages/clubs/{club}"),
    ("GET", "/api/v1/pages/clubs/{club}/players/{player_id}"),
    ("GET", "/api/v1/pages/clubs/{club}/matches/{match_id}"),
    ("GET", "/api/v1/pages/clubs/{club}/matches/{match_id}/disputes/{seq}"),
    ("GET", "/api/v1/pages/clubs/{club}/matches/{match_id}/log"),
    ("GET", "/api/v1/pages/clubs/{club}/matches/{match_id}/acta"),
    ("POST", "/api/v1/clubs/{club}/signin-codes"),
    ("POST", "/api/v1/signin-codes/exchange"),
    ("POST", "/api/v1/setup/check"),
    ("POST", "/api/v1/setup"),
    ("GET", "/api/v1/clubs/{club}/tournaments"),
    ("POST", "/api/v1/clubs/{club}/tournaments"),
    ("GET", "/api/v1/clubs/{club}/tournaments/{slug}"),
    ("GET", "/api/v1/clubs/{club}/tournaments/{slug}/entrants"),
    ("POST", "/api/v1/clubs/{club}/tournaments/{slug}/entrants"),
    ("POST", "/api/v1/clubs/{club}/tournaments/{slug}/entrants/{number}/withdraw"),
    ("POST", "/api/v1/clubs/{club}/tournaments/{slug}/rounds"),
    ("POST", "/api/v1/clubs/{club}/tournaments/{slug}/rounds/{number}/repair"),
    ("POST", "/api/v1/clubs/{club}/tournaments/{slug}/rounds/{number}/start"),
    ("GET", "/api/v1/clubs/{club}/tournaments/{slug}/constraints"),
    ("POST", "/api/v1/clubs/{club}/tournaments/{slug}/constraints"),
    ("DELETE", "/api/v1/clubs/{club}/tournaments/{slug}/constraints/{constraint_id}"),
    ("GET", "/api/v1/clubs/{club}/tournaments/{slug}/rounds/{number}"),
    ("GET", "/api/v1/clubs/{club}/tournaments/{slug}/standings"),
    ("GET", "/api/v1/pages/clubs/{club}/tournaments/{slug}"),
    ("GET", "/api/v1/clubs/{club}/seasons"),
    ("POST", "/api/v1/clubs/{club}/seasons"),
    ("GET", "/api/v1/clubs/{club}/seasons/{season}"),
    ("POST", "/api/v1/clubs/{club}/seasons/{season}/divisions"),
    ("PATCH", "/api/v1/clubs/{club}/seasons/{season}/divisions/{division}"),
    ("DELETE", "/api/v1/clubs/{club}/seasons/{season}/divisions/{division}"),
    ("POST", "/api/v1/clubs/{club}/seasons/{season}/teams"),
    ("GET", "/api/v1/clubs/{club}/seasons/{season}/teams/{team}"),
    ("PATCH", "/api/v1/clubs/{club}/seasons/{season}/teams/{team}"),
    ("DELETE", "/api/v1/clubs/{club}/seasons/{season}/teams/{team}"),
    ("POST", "/api/v1/clubs/{club}/seasons/{season}/teams/{team}/players"),
    ("POST", "/api/v1/clubs/{club}/seasons/{season}/transfers"),
    ("POST", "/api/v1/clubs/{club}/seasons/{season}/teams/{team}/captains"),
    ("POST", "/api/v1/clubs/{club}/seasons/{season}/teams/{team}/deductions"),
    ("POST", "/api/v1/clubs/{club}/seasons/{season}/fixtures"),
    ("GET", "/api/v1/clubs/{club}/seasons/{season}/fixtures"),
    ("GET", "/api/v1/clubs/{club}/seasons/{season}/fixtures/{fixture}"),
    ("POST", "/api/v1/clubs/{club}/seasons/{season}/fixtures/{fixture}/postpone"),
    ("POST", "/api/v1/clubs/{club}/seasons/{season}/fixtures/{fixture}/swap"),
    ("POST", "/api/v1/clubs/{club}/seasons/{season}/fixtures/{fixture}/walkover"),
    ("POST", "/api/v1/clubs/{club}/seasons/{season}/fixtures/{fixture}/legs/{leg}/concede"),
    ("POST", "/api/v1/clubs/{club}/seasons/{season}/fixtures/{fixture}/legs/{leg}/games"),
    ("POST", "/api/v1/clubs/{club}/seasons/{season}/fixtures/{fixture}/confirm"),
    ("GET", "/api/v1/clubs/{club}/seasons/{season}/fixtures/{fixture}/sheet"),
    ("GET", "/api/v1/clubs/{club}/seasons/{season}/divisions/{division}/table"),
    ("GET", "/api/v1/clubs/{club}/seasons/{season}/averages"),
    ("GET", "/api/v1/clubs/{club}/cups"),
    ("POST", "/api/v1/clubs/{club}/cups"),
    ("GET", "/api/v1/clubs/{club}/cups/{cup}"),
    ("POST", "/api/v1/clubs/{club}/cups/{cup}/draw"),
    ("POST", "/api/v1/clubs/{club}/cups/{cup}/ties/{tie}/games"),
    ("POST", "/api/v1/clubs/{club}/cups/{cup}/ties/{tie}/result"),
    ("POST", "/api/v1/clubs/{club}/cups/{cup}/ties/{tie}/fixture"),
    ("POST", "/api/v1/clubs/{club}/cups/{cup}/ties/{tie}/concede"),
    ("POST", "/api/v1/clubs/{club}/cups/{cup}/ties/{tie}/walkover"),
    ("GET", "/api/v1/pages/clubs/{club}/cups"),
    ("GET", "/api/v1/pages/clubs/{club}/cups/{cup}"),
    ("GET", "/api/v1/pages/clubs/{club}/seasons"),
    ("GET", "/api/v1/pages/clubs/{club}/seasons/{season}"),
    ("GET", "/api/v1/pages/clubs/{club}/seasons/{season}/divisions/{division}"),
    ("GET", "/api/v1/pages/clubs/{club}/seasons/{season}/fixtures"),
    ("GET", "/api/v1/pages/clubs/{club}/seasons/{season}/teams/{team}"),
    ("GET", "/api/v1/pages/clubs/{club}/seasons/{season}/averages"),
    ("GET", "/api/v1/pages/clubs/{club}/seasons/{season}/calendar.ics"),
    ("GET", "/api/v1/pages/clubs/{club}/seasons/{season}/teams/{team}/calendar.ics"),
    ("GET", "/api/v1/clubs/{club}/scoreboard"),
    ("GET", "/api/v1/clubs/{club}/tournaments/{tournament}/scoreboard"),
    ("GET", "/api/v1/pages/clubs/{club}/scoreboard"),
    ("GET", "/api/v1/pages/clubs/{club}/tournaments/{tournament}/scoreboard"),
    ("GET", "/api/v1/clubs/{club}/scoreboard/stream"),
    ("GET", "/api/v1/clubs/{club}/tournaments/{tournament}/scoreboard/stream"),
]
# A stream answers for ten minutes: tests/api/test_api_scoreboard.py and test_api_asgi.py hold
# it to its document, over a real server.
FUZZED = [(method, path) for method, path in OPERATIONS if not path.endswith("/stream")]


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    """The API, its failed sign-ins limit out of reach: schemathesis sends wrong tokens on
    purpose (its checks of authentication), and past the limit each would be answered 429
    (api.auth), where those checks expect 401. The limit has tests of its own. The session's
    app for this configuration (tests/api_helpers.py: ``reused_api``), over this test's own
    database: its counts of failed sign-ins start again."""
    built = reused_api(database_url, AUTH_FAILURES="1000000 per minute")
    yield built
    built.service.close()


_SCHEMAS: dict[Flask, dict[tuple[str, str], Any]] = {}


def _operations(app: Flask) -> dict[tuple[str, str], Any]:
    """The document's operations, by method and path, as schemathesis reads them from ``app``:
    read once a process (the app is the session's one, each test's database bound to it)."""
    if app not in _SCHEMAS:
        schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
        _SCHEMAS[app] = {(o.method.upper(), o.path): o for o in (
            result.ok() for result in schema.get_all_operations())}
    return _SCHEMAS[app]


def _token(api: Api, method: str, path: str) -> str:
    """A token that may do what the operation does, so that requests reach its view."""
    if path == "/api/v1/clubs":
        return SERVER_TOKEN
    if "/seasons" in path:  # the league's secretary may do all of it
        return api.tokens["casino", "admin"]
    if path.endswith(("/rename", "/merge", "/withdraw")) or (
            method == "POST" and path.endswith(("/tournaments", "/entrants"))):
        return api.tokens["casino", "admin"]
    if ((method == "POST" and path.endswith("/players")) or "/tokens" in path
            or (method == "PATCH" and path == "/api/v1/clubs/{club}")):
        return api.tokens["casino", "admin"]
    return api.tokens["casino", "referee"]


def _run(api: Api, operation: Any, mode: GenerationMode) -> None:
    token = _token(api, operation.method.upper(), operation.path)
    # Aim at resources that exist (a random club slug or match id only meets 403 or 404);
    # given to the strategy, these are left out of negative generation.
    # A DELETE of a token revokes one nobody uses, not the tokens the runs go on using.
    doomed = api.service.tokens.authenticate(api.service.tokens.create_token("casino", "viewer"))
    known = {"club": "casino", "match_id": api.matches["casino"], "token_id": doomed.token_id,
             "seq": 1}
    if operation.path.startswith("/api/v1/clubs/{club}/players/{player_id}"):
        # A player of its own to rename and merge (the runs before may have renamed the others).
        known["player_id"] = api.service.players.create(
            "casino", f"Doomed {uuid.uuid4().hex}", confirm_new=True)["id"]
    if "{slug}" in operation.path:  # a tournament of its own, with a round paired
        known["slug"] = f"t-{uuid.uuid4().hex[:12]}"
        api.service.tournaments.create("casino", known["slug"], "Fuzz", rules="parejas",
                                       format="rotating", rounds=3,
                                       entrants=["Ana", "Beto", "Carla", "Dani"])
        api.service.tournaments.pair("casino", known["slug"])
        known["number"] = 1
    if "/seasons" in operation.path:  # a season of its own, its fixtures generated
        known.update(season=f"s-{uuid.uuid4().hex[:12]}", division="one", team="crown", leg=1)
        set_up(api.service, "casino", known["season"])
        known["fixture"] = api.service.leagues.fixtures("casino", known["season"])[0]["id"]
    fixed = {p.name: known[p.name] for p in operation.path_parameters if p.name in known}
    # Fitting the document is not being legal: a well-formed event may still break a rule (422)
    # and an If-Match may be stale (412); those refusals are the API working. And an event's
    # fields are documented with their types but judged by the referee, after If-Match: an
    # ill-typed one is refused as bad_event (422), or first as stale (412).
    excluded = [positive_data_acceptance]
    if operation.path.endswith("/events") and operation.method.upper() == "POST":
        excluded.append(negative_data_rejection)

    @given(case=operation.as_strategy(generation_mode=mode, path_parameters=fixed))
    # The same cases every run (derandomize): this suite must not go red by chance. The hunt
    # with new random cases each run is the resilience suite's (tests/resilience/test_bad_input.py);
    # an answer's fit to the document is held every run by test_api_document.py.
    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    def check(case: Any) -> None:
        # A query argument whose value is an empty list is not sent at all, so the request the
        # server gets is not the schema-violating one schemathesis thinks it sent.
        assume(not any(v == [] for v in (case.query or {}).values()))
        case.call_and_validate(headers={"Authorization": f"Bearer {token}"}, excluded_checks=excluded)

    check()


def test_the_operations_are_the_documents(api: Api) -> None:
    """OPERATIONS are the document's, all of them (an operation added to the API is fuzzed only
    once it is listed there), and there are 110."""
    operations = list(_operations(api.app))
    assert len(operations) == 110
    assert sorted(operations) == sorted(OPERATIONS)


@pytest.mark.parametrize(("method", "path"), FUZZED, ids=[f"{m} {p}" for m, p in FUZZED])
def test_api_conforms_to_its_document(api: Api, method: str, path: str) -> None:
    operation = _operations(api.app)[method, path]
    failures = []
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
        try:
            _run(api, operation, mode)
        except Unsatisfiable:
            # Every input of the operation is fixed (its path parameters name real
            # resources, and it takes no query or body): there is nothing that does not fit
            # the document left to send. Only the negative run can meet this.
            if mode is not GenerationMode.NEGATIVE:
                raise
        except (Exception, BaseExceptionGroup) as failure:  # noqa: BLE001 - reported below
            failures.append(f"{method} {path} ({mode}): {failure}")
    assert not failures, "\n\n".join(failures)
