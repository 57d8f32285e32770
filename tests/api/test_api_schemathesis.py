"""Schemathesis over the OpenAPI document, in process, on both databases: generated requests
(fitting the document and not) to every operation, with a valid token, the answers checked
against the document. Zero server errors is the point; the other checks keep the document honest.
The cases are the same every run (hypothesis's ``derandomize``).

Each operation gets a hypothesis run of its own from ``operation.as_strategy()`` (the lazy
``schemathesis.pytest.from_fixture`` loader does not run under pytest 9), and every failure is
collected before the test fails, so one run shows them all.
"""

from __future__ import annotations

import os
import uuid
from typing import Any, Iterator

import pytest
import schemathesis
from api_helpers import SERVER_TOKEN, Api, make_api
from hypothesis import HealthCheck, assume, given, settings
from hypothesis.errors import Unsatisfiable
from league_helpers import set_up
from schemathesis import GenerationMode
from schemathesis.checks import negative_data_rejection, positive_data_acceptance

# Per operation and generation mode; raise it for a longer hunt.
EXAMPLES = int(os.environ.get("DOMINO_SCHEMATHESIS_EXAMPLES", "40"))
pytestmark = pytest.mark.slow  # fuzzes the whole API (minutes)


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    """The API, its failed sign-ins limit out of reach: schemathesis sends wrong tokens on
    purpose (its checks of authentication), and past the limit each would be answered 429
    (api.auth), where those checks expect 401. The limit has tests of its own."""
    built = make_api(database_url, AUTH_FAILURES="1000000 per minute")
    yield built
    built.service.close()


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


def test_api_conforms_to_its_document(api: Api) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", api.app)
    failures = []
    operations = [result.ok() for result in schema.get_all_operations()]
    # 25, players: show, rename, merge; the acta; 14 of tournaments; the scoreboards' four JSON
    # and two streams; a club's keys, and its transparency log's head, leaves, inclusion and
    # consistency proofs; a token issued with a sign-in code, and the code exchanged (the desk);
    # the pages' twins of the site's home, a club's players, matches and tournaments; a finished
    # match's log and acta as a member downloads them; a round's tables started (the desk); the
    # first club's setup link checked and used
    # ; 24 of leagues (seasons, divisions and teams: added, changed, removed; squads,
    # transfers, captains, deductions,
    # fixtures, their swaps, legs, confirmations, sheets, tables, averages); the league pages' 6 JSON twins
    # and 2 iCalendar feeds (a season's, a team's); the cups' (listed, created, read, drawn, a
    # tie's match started, a tie's result, a tie conceded or given as a walkover, a team
    # cup tie's fixture made) and the cups'
    # pages' 2 JSON twins
    assert len(operations) == 110
    # A stream answers for ten minutes: tests/api/test_api_scoreboard.py and test_api_asgi.py
    # hold it to its document, over a real server.
    for operation in (o for o in operations if not o.path.endswith("/stream")):
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
                failures.append(f"{operation.method.upper()} {operation.path} ({mode}): {failure}")
    assert not failures, "\n\n".join(failures)
