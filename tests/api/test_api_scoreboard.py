"""The scoreboard over HTTP: its JSON (access as the club pages), and its stream read from a
real server (waitress, as ``domino serve`` runs it) while another client appends through the
API: the snapshot, a row event for the append, resuming with Last-Event-ID, heartbeats, the
per-process limit (503), and never a hand in anything sent."""

from __future__ import annotations

import http.client
import json
import time
import urllib.request
from contextlib import contextmanager
from typing import Any, Iterator
from urllib.parse import urlsplit

import pytest
from api_helpers import Api, assert_problem, make_api, served
from stream_helpers import Stream
from tournament_helpers import NINE, RULES, finish, finished_events

from api.scoreboard import EXTENSION as SCOREBOARD
from referee.service import OPERATOR

READ_TIMEOUT = 60.0  # seconds a read of the stream may wait (events come in < 1 s, unloaded)
FAST = {"SCOREBOARD_HEARTBEAT_SECONDS": 0.2, "SCOREBOARD_POLL_SECONDS": 0.05, "ACCESS_LOG": "0"}


@pytest.fixture
def fast_api(database_url: str) -> Iterator[Api]:
    built = make_api(database_url, **FAST)
    yield built
    built.service.close()


@contextmanager
def stream(api: Api, base: str, club: str = "casino", path: str = "",
           **headers: str) -> Iterator[tuple[int, Stream, Any]]:
    """A stream of ``api``'s app served at ``base``; once closed, the server has let it go (its
    next heartbeat finds the client gone), so that the server can stop at once."""
    where = urlsplit(base)
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=READ_TIMEOUT)
    open_before = streams_open(api)
    response = None
    try:
        conn.request("GET", f"/api/v1/clubs/{club}{path}/scoreboard/stream", headers=headers)
        response = conn.getresponse()
        yield response.status, Stream(response), response
    finally:
        if response is not None:
            response.close()  # the socket closes only once its reader is closed too
        conn.close()
        deadline = time.monotonic() + READ_TIMEOUT
        while streams_open(api) > open_before and time.monotonic() < deadline:
            time.sleep(0.05)


def streams_open(api: Api) -> int:
    board = api.app.extensions.get(SCOREBOARD)
    return board.hub.subscribed if board is not None else 0


def append_over_http(base: str, api: Api, match_id: int, event: dict[str, Any], seq: int) -> int:
    """An append by another client: a plain HTTP request to the same server."""
    request = urllib.request.Request(
        f"{base}/api/v1/matches/{match_id}/events", data=json.dumps(event).encode(), method="POST",
        headers={**api.auth("scorekeeper"), "Content-Type": "application/json",
                 "If-Match": f'"{seq}"'})
    with urllib.request.urlopen(request, timeout=READ_TIMEOUT) as response:
        assert response.status == 201
        return int(response.headers["ETag"].strip('"'))


def hidden_tiles(api: Api) -> set[str]:
    """The tiles of the first deal's hands: the record holds them, no board may show one."""
    return {tile for hand in api.events[0]["hands"] for tile in hand}


# ------------------------------------------------------------------------------ the JSON


def test_the_json_is_read_as_the_club_pages_are(api: Api) -> None:
    assert_problem(api.client.get("/api/v1/clubs/casino/scoreboard"), 401)
    assert_problem(api.client.get("/api/v1/clubs/casino/scoreboard",
                                  headers=api.auth("viewer", "other")), 403)
    assert_problem(api.client.get("/api/v1/clubs/casino/scoreboard",
                                  headers={"Authorization": "Bearer nonsense"}), 401)
    response = api.client.get("/api/v1/clubs/casino/scoreboard", headers=api.auth("viewer"))
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    body = response.get_json()
    assert [r["match"] for r in body["rows"]] == [api.matches["casino"]]
    assert body["cursor"] == body["rows"][0]["cursor"]
    api.service.clubs.set_public("casino", True)
    twin = api.client.get("/api/v1/pages/clubs/casino/scoreboard").get_json()
    assert twin["rows"] == api.client.get("/api/v1/clubs/casino/scoreboard").get_json()["rows"]


@pytest.mark.parametrize("role", ["viewer", "referee", "admin"])
def test_no_hand_in_the_json(api: Api, role: str) -> None:
    text = api.client.get("/api/v1/clubs/casino/scoreboard",
                          headers=api.auth(role)).get_data(as_text=True)
    assert [t for t in hidden_tiles(api) if f'"{t}"' in text] == []  # a tile is a JSON string
    assert json.loads(text)["rows"][0]["counts"] == [7, 7, 7, 7]


def test_the_page_asks_a_private_club_for_a_token(api: Api) -> None:
    response = api.client.get("/clubs/casino/scoreboard")
    assert response.status_code == 401 and "Sign in" in response.get_data(as_text=True)
    page = api.client.get("/clubs/casino/scoreboard", headers=api.auth("viewer"))
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and f'id="table-{api.matches["casino"]}"' in html
    assert 'data-stream="/api/v1/clubs/casino/scoreboard/stream"' in html
    assert [t for t in hidden_tiles(api) if f">{t}<" in html or f'"{t}"' in html] == []
    assert_problem(api.client.get("/api/v1/clubs/nowhere/scoreboard", headers=api.auth("viewer")),
                   403)


# What a card says of the undealt tiles, by the word's kind the server sends (undealt, null
# where shows_undealt is false): Fives and Threes' tiles sleep (never "boneyard"), parejas deals them all (nothing
# said), a game that draws has a boneyard. Each game just dealt.
UNDEALT = {"en": ("sleeping tiles", "boneyard"), "es": ("dormidas", "pozo"),
           "it": ("dormienti", "dormiente")}


@pytest.mark.parametrize("lang", sorted(UNDEALT))
def test_a_card_says_the_undealt_tiles_as_the_server_decides(api: Api, lang: str) -> None:
    import re

    svc = api.service
    made = {}
    for table, (preset, players) in enumerate((("fives-and-threes", ["Ana", "Beto"]),
                                               ("mano-a-mano", ["Ana", "Beto"])), start=11):
        made[preset] = svc.recording.create_match("casino", preset, players, table=str(table))["id"]
        svc.recording.record_event(made[preset], {"type": "deal"}, expected_seq=None)
    rows = {r["match"]: r for r in api.client.get("/api/v1/clubs/casino/scoreboard",
                                                  headers=api.auth("viewer")).get_json()["rows"]}
    pairs = api.matches["casino"]  # the club's parejas match, dealt: nothing left undealt
    assert {m: rows[m]["shows_undealt"] for m in (*made.values(), pairs)} == {
        made["fives-and-threes"]: True, made["mano-a-mano"]: True, pairs: False}
    # the word's kind, chosen by the server for the page's script to render (api/scoreboard.py)
    assert {m: rows[m]["undealt"] for m in (*made.values(), pairs)} == {
        made["fives-and-threes"]: "sleeping_tiles", made["mano-a-mano"]: "boneyard", pairs: None}
    html = api.client.get("/clubs/casino/scoreboard", headers=api.auth(
        "viewer", **{"Accept-Language": lang})).get_data(as_text=True)

    def counts(match_id: int) -> str:
        card = html[html.index(f'id="table-{match_id}"'):]
        found = re.search(r'data-field="counts">([^<]*)</p>', card)
        assert found is not None
        return found.group(1)

    sleeping, boneyard = UNDEALT[lang]
    for preset, word in (("fives-and-threes", sleeping), ("mano-a-mano", boneyard)):
        row = rows[made[preset]]
        assert row["boneyard"] > 0 and counts(row["match"]).endswith(f"; {word} {row['boneyard']}")
    assert ";" not in counts(pairs) and counts(pairs)


# ------------------------------------------------------------------------------ the stream


def test_an_append_from_another_client_reaches_the_stream(fast_api: Api) -> None:
    api, match_id = fast_api, fast_api.matches["casino"]
    with served(api.app) as base, stream(api, base, **api.auth("viewer")) as (status, events, response):
        assert status == 200
        assert response.getheader("Content-Type").startswith("text/event-stream")
        snapshot = events.event("snapshot")
        assert [r["seq"] for r in snapshot["data"]["rows"]] == [1]
        assert int(snapshot["id"]) == snapshot["data"]["cursor"]
        seq = append_over_http(base, api, match_id, api.events[1], 1)
        row = events.event("row")
        assert (row["data"]["match"], row["data"]["seq"]) == (match_id, seq)
        assert sum(row["data"]["counts"]) == 27  # a tile played: counts, never which tiles
        assert int(row["id"]) >= int(snapshot["id"])
        seq = append_over_http(base, api, match_id, api.events[2], seq)
        assert events.event("row")["data"]["seq"] == seq
        assert [t for t in hidden_tiles(api) - {api.events[1]["tile"], api.events[2]["tile"]}
                if f'"{t}"'.encode() in events.seen] == []


def test_a_stream_resumes_from_its_last_event_id(fast_api: Api) -> None:
    api, match_id = fast_api, fast_api.matches["casino"]
    with served(api.app) as base:
        with stream(api, base, **api.auth("viewer")) as (_, events, _response):
            cursor = events.event("snapshot")["id"]
        seq = append_over_http(base, api, match_id, api.events[1], 1)
        with stream(api, base, **api.auth("viewer"), **{"Last-Event-ID": cursor}) as (_, events, _r):
            first = events.next()
            while "retry" in first:
                first = events.next()
            assert first["event"] == "row" and first["data"]["seq"] == seq  # no snapshot
            assert int(first["id"]) > int(cursor)


def test_heartbeats_keep_a_quiet_stream_alive(fast_api: Api) -> None:
    with served(fast_api.app) as base, stream(fast_api, base, **fast_api.auth("viewer")) as (_, events, _r):
        events.event("snapshot")
        assert events.next() == {"comment": "still here"}


def test_what_a_stream_refuses(database_url: str) -> None:
    api = make_api(database_url, SCOREBOARD_STREAMS=1, **FAST)
    try:
        with served(api.app) as base:
            with stream(api, base) as (status, _, _r):
                assert status == 401  # a private club, no token
            with stream(api, base, **api.auth("viewer"), **{"Last-Event-ID": "soon"}) as (status, _, _r):
                assert status == 422
            with stream(api, base, **api.auth("viewer")) as (status, events, _r):
                events.event("snapshot")
                with stream(api, base, **api.auth("viewer")) as (busy, _, response):
                    assert busy == 503 and response.getheader("Retry-After")
    finally:
        api.service.close()


@pytest.mark.parametrize("lang, words", [("en", "is not a field of this request"),
                                         ("es", "no es un campo de esta petición"),
                                         ("it", "non è un campo di questa richiesta")])
def test_a_query_parameter_is_refused_as_by_the_other_views(api: Api, lang: str, words: str) -> None:
    # the scoreboard defines none: a misspelt or hopeful one is a 422 naming it, as the lists'
    # and the twins' (it was ignored: ?club=other showed this club's tables without a word)
    headers = {**api.auth("viewer"), "Accept-Language": lang}
    for path in ("/api/v1/clubs/casino/scoreboard", "/api/v1/pages/clubs/casino/scoreboard",
                 "/api/v1/clubs/casino/scoreboard/stream",
                 "/api/v1/clubs/casino/tournaments/open/scoreboard/stream"):
        problem = assert_problem(api.client.get(path + "?club=other&round=2", headers=headers), 422)
        assert problem["errors"]["query"] == {"club": [words], "round": [words]}, problem
        other = api.client.get("/api/v1/clubs/casino/players?club=other", headers=headers)
        assert assert_problem(other, 422)["errors"] == {"query": {"club": [words]}}
    assert api.client.get("/api/v1/clubs/casino/scoreboard", headers=headers).status_code == 200
    # the page is a page: like the other pages it reads what it knows and lets the rest be
    assert api.client.get("/clubs/casino/scoreboard?utm_source=x", headers=headers).status_code == 200


def test_a_last_event_id_is_ascii_digits(api: Api) -> None:
    for cursor in ("１７", "²", "-5"):
        response = api.client.get("/api/v1/clubs/casino/scoreboard/stream",
                                  headers={**api.auth("viewer"), "Last-Event-ID": cursor})
        assert_problem(response, 422)


# ------------------------------------------------------------------------------ a tournament


def test_a_tournaments_stream_follows_its_round(database_url: str) -> None:
    """Only the round's tables; a row of another of the club's tables is not sent; once the
    next round is paired, a new snapshot of its tables."""
    api = make_api(database_url, SCOREBOARD_ROUND_CHECK_SECONDS=0, **FAST)
    svc = api.service
    try:
        svc.tournaments.create("casino", "noche", "Noche", rules=RULES, format="rotating",
                               rounds=2, entrants=NINE[:8])
        svc.tournaments.pair("casino", "noche")
        first = [t["match"] for t in svc.tournaments.round_tables("casino", "noche", 1, who=OPERATOR)]
        page = api.client.get("/clubs/casino/tournaments/noche/scoreboard",
                              headers=api.auth("viewer"))
        assert page.status_code == 200 and "Noche, round 1: scoreboard" in page.get_data(as_text=True)
        twin = api.client.get("/api/v1/clubs/casino/tournaments/noche/scoreboard",
                              headers=api.auth("viewer")).get_json()
        assert [r["match"] for r in twin["rows"]] == first
        path = "/tournaments/noche"
        with served(api.app) as base, stream(api, base, path=path,
                                             **api.auth("viewer")) as (status, events, _r):
            assert status == 200
            assert [r["match"] for r in events.event("snapshot")["data"]["rows"]] == first
            # the club night's match (not the tournament's), then a table of the round
            append_over_http(base, api, api.matches["casino"], api.events[1], 1)
            tables = svc.tournaments.round_tables("casino", "noche", 1, who=OPERATOR)
            played = finished_events(tables[0]["players"], 1)
            append_over_http(base, api, first[0], played[0], 0)
            row = events.event("row")
            assert row["data"]["match"] == first[0]  # the other table's row was left out
            for seq, event in enumerate(played[1:], start=1):
                svc.recording.record_event(first[0], event, expected_seq=seq)
            for table in tables[1:]:
                finish(svc, table, seed=table["table"])
            svc.tournaments.pair("casino", "noche")
            second = [t["match"] for t in svc.tournaments.round_tables("casino", "noche", 2, who=OPERATOR)]
            opening = svc.tournaments.round_tables("casino", "noche", 2, who=OPERATOR)[0]
            append_over_http(base, api, second[0], finished_events(opening["players"], 2)[0], 0)
            # The round's matches are made one by one: a snapshot may come for each.
            for _ in range(len(second)):
                shown = [r["match"] for r in events.event("snapshot")["data"]["rows"]]
                if shown == second:
                    break
            assert shown == second
    finally:
        svc.close()


class _Subscription:
    """A subscription handing the feed one row of a table its round does not show."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = [{"match": 2, "cursor": 7}]
        self.closed = False

    def take(self, timeout: float | None = None) -> list[dict[str, Any]]:
        rows, self.rows = self.rows, []
        return rows

    def close(self) -> None:
        self.closed = True

    def on_ready(self, callback: Any) -> None:
        self.ready = callback


def test_a_stream_whose_round_lookup_meets_the_database_gone_ends_whole(
        caplog: pytest.LogCaptureFixture) -> None:
    """A tournament's stream looks its round up again when a table it does not show changes:
    the database gone then (stopped, cut) raised out of the stream, both ways it is served,
    so the response was cut short with a traceback in the log. It ends, a whole response, and
    says why in one line; its client reconnects and is answered as any request is then."""
    import asyncio

    from sqlalchemy import exc

    from api.scoreboard import Feed

    def load() -> dict[str, Any]:
        raise exc.OperationalError("SELECT", {}, Exception("server closed the connection"))

    def feed(subscription: _Subscription) -> Feed:
        return Feed(None, subscription, load, {1},  # type: ignore[arg-type]
                    heartbeat=600, lifetime=600, recheck=0)

    threaded = _Subscription()
    lines = feed(threaded).lines("retry: 2000\n\n")
    assert next(lines) == "retry: 2000\n\n"
    assert list(lines) == [] and threaded.closed

    async def served_on_a_loop() -> list[str]:
        written: list[str] = []

        async def write(text: str) -> bool:
            written.append(text)
            return True

        looped = _Subscription()
        stream = asyncio.create_task(feed(looped).serve(write, asyncio.Event()))
        while not hasattr(looped, "ready"):
            await asyncio.sleep(0)
        looped.ready()  # the row arrives
        await stream
        assert looped.closed
        return written

    assert asyncio.run(served_on_a_loop()) == []
    ended = [r for r in caplog.records if "scoreboard stream ended" in r.getMessage()]
    assert len(ended) == 2 and all(r.exc_info is None for r in ended)
