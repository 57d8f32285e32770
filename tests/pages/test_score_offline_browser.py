"""The phone's page with no network (api/static/score/sw.js, offline.js) in Chromium: visited
once online, ``/score`` and a match's page open with the network down (playwright's offline
mode set BEFORE the page is opened, the server hearing nothing of it), the match's page shows
the last screen this phone saw, a tap waits in the outbox, and once back online it is stored
exactly once. The worker keeps the shells and their assets and never an answer of the API; a
screen kept is another token's to nobody; the pages' policy allows the worker."""

from __future__ import annotations

import json
import threading
import time
from typing import Any, Iterator

import pytest
from api_helpers import PLAYERS, Api, make_api, served
from flask import request
from test_pages_browser import ARTIFACTS, pytestmark, sync_api  # noqa: F401 (pytestmark marks the browser tests)
from test_score_browser import Phone

DEAL = {"type": "deal"}
# Paths whose answer the server holds until their gate opens (a slow network, made to order),
# and the paths that have come to a gate.
HELD: dict[str, threading.Event] = {}
WAITING: set[str] = set()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str, list[str]]]:
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('offline') / 'domino.db'}",
                   ACCESS_LOG="0")
    heard: list[str] = []  # every path the server answered, to tell what came from the phone

    @api.app.before_request
    def _held() -> None:
        gate = HELD.get(request.path)
        if gate is not None:
            WAITING.add(request.path)
            gate.wait(timeout=60)

    @api.app.after_request
    def _heard(response: Any) -> Any:
        heard.append(request.path)
        return response

    with served(api.app) as base:
        yield api, base, heard
    api.service.close()


def cached_urls(page: Any) -> list[str]:
    return page.evaluate("""async () => {
      const urls = [];
      for (const name of await caches.keys()) {
        for (const r of await (await caches.open(name)).keys()) urls.push(r.url);
      }
      return urls;
    }""")


def visited(phone: Phone, match_id: int) -> None:
    """The match's page opened online, and its worker in charge with the page kept."""
    phone.open(match_id)
    page = phone.page
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
    # Kept as the listing of the caches shows them (what the test reads next): the worker
    # takes charge before its activation keeps the open page. Polled from here, because
    # playwright's wait_for_function takes a predicate's promise as its truthy answer and
    # never awaits it.
    wanted = {f"{phone.base}/score/matches/{match_id}", f"{phone.base}/score"}
    deadline = time.monotonic() + 30
    while not wanted <= set(cached_urls(page)):
        assert time.monotonic() < deadline, f"the worker kept {cached_urls(page)}"
        page.wait_for_timeout(100)


def test_the_page_opens_offline_shows_the_last_screen_and_keeps_a_tap(
        server: tuple[Api, str, list[str]], browser: Any) -> None:
    api, base, heard = server
    match_id = api.service.recording.create_match("casino", "parejas", PLAYERS, table="7")["id"]
    phone = Phone(browser, base, api.tokens["casino", "scorekeeper"])
    try:
        visited(phone, match_id)
        urls = cached_urls(phone.page)
        assert f"{base}/score/matches/{match_id}" in urls and f"{base}/score" in urls
        assert f"{base}/static/score/match.js" in urls and f"{base}/static/score.css" in urls
        assert not [u for u in urls if "/api/" in u or u.endswith("/score/me")]
        phone.page.close()

        phone.context.set_offline(True)  # the Wi-Fi down before the page is opened
        heard.clear()
        phone.page = phone.context.new_page()
        phone._listen()
        page = phone.page
        opened = page.goto(f"{base}/score/matches/{match_id}")
        assert opened is not None and opened.ok and opened.from_service_worker
        page.wait_for_selector("#state[aria-busy=false]")
        page.wait_for_selector("#message:has-text('No network')")
        assert phone.seq == 0 and page.get_attribute("#net", "data-net") == "offline"
        phone.check_layout()
        phone.shot("offline-opened", wide=True)

        phone.button(DEAL).click()  # a tap with no network: into the outbox
        page.wait_for_selector("#message:has-text('kept on this phone')")
        kept = page.evaluate(f"localStorage.getItem('domino-referee.score.pending.{match_id}')")
        assert json.loads(kept)["body"] == DEAL
        assert heard == []  # the server heard nothing of it all
        assert api.service.reading.list_events(match_id) == []

        phone.context.set_offline(False)
        page.wait_for_selector("#state[data-seq='1']")
        page.wait_for_selector("#net[data-net=online]")
        assert [r["event"] for r in api.service.reading.list_events(match_id)] == [DEAL]
        assert page.evaluate(
            f"localStorage.getItem('domino-referee.score.pending.{match_id}')") is None
        assert heard.count(f"/api/v1/matches/{match_id}/events") == 1  # stored exactly once
    finally:
        phone.close()


def test_score_opens_offline_and_a_kept_screen_is_no_other_tokens(
        server: tuple[Api, str, list[str]], browser: Any) -> None:
    api, base, _heard = server
    match_id = api.service.recording.create_match("casino", "parejas", PLAYERS, table="8")["id"]
    phone = Phone(browser, base, None)  # the token set here, so that it may be changed
    try:
        phone.page.goto(f"{base}/score")
        token = json.dumps(api.tokens["casino", "scorekeeper"])
        phone.page.evaluate(f"localStorage.setItem('domino-referee.score.token', {token})")
        visited(phone, match_id)
        phone.context.set_offline(True)
        page = phone.page
        opened = page.goto(f"{base}/score")
        assert opened is not None and opened.ok and opened.from_service_worker
        page.wait_for_selector("body[data-score-page=start]")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "score-offline-start-360x800.png"), full_page=True)
        # another token on this phone: the screen kept is not its own, nothing is shown
        other = api.service.tokens.create_token("casino", "scorekeeper", label="table 9")
        page.evaluate(f"localStorage.setItem('domino-referee.score.token', {json.dumps(other)})")
        page.goto(f"{base}/score/matches/{match_id}")
        page.wait_for_selector("#net[data-net=offline]")
        assert page.locator("#loading").count() == 1  # still waiting for the server
        assert "No network" not in (page.text_content("#message") or "")
        phone.context.set_offline(False)
        page.wait_for_selector("#state[aria-busy=false]", timeout=30000)
    finally:
        phone.context.set_offline(False)
        phone.close()


def test_a_page_loading_as_the_worker_takes_over_is_claimed_once_loaded(
        server: tuple[Api, str, list[str]], browser: Any) -> None:
    """A tap to a match while the worker was still being installed: the match's page was
    loading as the worker took over, so the worker's claim passed it by; once loaded, the page
    asks and is claimed, and its shell is kept for a visit with no network."""
    api, base, _heard = server
    match_id = api.service.recording.create_match("casino", "parejas", PLAYERS, table="10")["id"]
    shell = f"/score/matches/{match_id}"
    installing, loading = threading.Event(), threading.Event()
    HELD.update({"/static/score/match.js": installing, shell: loading})
    phone = Phone(browser, base, api.tokens["casino", "scorekeeper"])
    try:
        phone.page.goto(f"{base}/score")  # the worker registered; its install waits on match.js
        phone.page.evaluate(f"location.href = {json.dumps(shell)}")  # the tap, its page held
        deadline = time.monotonic() + 30
        while not {"/static/score/match.js", shell} <= WAITING:
            assert time.monotonic() < deadline, f"the server was asked for {WAITING}"
            time.sleep(0.05)
        installing.set()
        watcher = phone.context.new_page()  # another tab sees the worker take over
        watcher.goto(f"{base}/score")
        watcher.wait_for_function("() => navigator.serviceWorker.controller !== null &&"
                                  " navigator.serviceWorker.controller.state === 'activated'",
                                  timeout=30000)
        watcher.close()
        loading.set()
        phone.page.wait_for_selector("#state[aria-busy=false]")
        phone.page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                                     timeout=30000)
        deadline = time.monotonic() + 30
        while f"{base}{shell}" not in cached_urls(phone.page):
            assert time.monotonic() < deadline, f"the worker kept {cached_urls(phone.page)}"
            phone.page.wait_for_timeout(100)
    finally:
        installing.set()
        loading.set()
        HELD.clear()
        phone.close()


def test_the_worker_is_served_for_the_pages_scope(server: tuple[Api, str, list[str]]) -> None:
    api, _base, _heard = server
    answer = api.client.get("/score/sw.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Service-Worker-Allowed"] == "/score"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert "connect-src" not in answer.headers["Content-Security-Policy"]  # 'self' by default
    text = answer.get_data(as_text=True)
    assert '"assets": []' not in text and "/static/score/match.js" in text
    assert "/static/score/sw.js" not in text  # the worker keeps no copy of itself
    page = api.client.get("/score")
    assert "worker-src 'self'" in page.headers["Content-Security-Policy"]
