"""The phone's "Abandon this match" (api/static/score/abandon.js) in Chromium, at 360 px and
1280 px: offered on a match with no deal to the token that created it and to a referee, not to
another scorekeeper nor once a deal stands; a first tap asks to confirm (with a reason), "Keep
the match" takes the question back, and the confirmation records the abandon: the match is
withdrawn, and the button is gone."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import PLAYERS, Api, make_api, served
from test_pages_browser import pytestmark, sync_api  # noqa: F401 (pytestmark marks the browser tests)
from test_score_browser import Phone


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('abandon') / 'domino.db'}",
                   ACCESS_LOG="0")
    with served(api.app) as base:
        yield api, base
    api.service.close()


@pytest.fixture
def phones(browser: Any, server: tuple[Api, str]) -> Iterator[Any]:
    api, base = server
    opened: list[Phone] = []

    def phone(token: str) -> Phone:
        opened.append(Phone(browser, base, token))
        return opened[-1]

    yield phone
    for p in opened:
        p.close()


def created_by(api: Api, token: str) -> int:
    answer = api.client.post("/api/v1/clubs/casino/matches",
                             headers={"Authorization": f"Bearer {token}"},
                             json={"rules": "parejas", "players": PLAYERS, "table": "5"})
    assert answer.status_code == 201, answer.json
    return answer.json["id"]


def test_the_creator_abandons_a_match_it_started_by_mistake(server: tuple[Api, str],
                                                            phones: Any) -> None:
    api, _ = server
    mine = api.tokens["casino", "scorekeeper"]
    match_id = created_by(api, mine)
    other = phones(api.service.tokens.create_token("casino", "scorekeeper", label="table 6"))
    other.open(match_id)
    assert other.page.locator("[data-action=abandon]").count() == 0  # not its match
    referee = phones(api.tokens["casino", "referee"]).open(match_id)
    assert referee.page.locator("[data-action=abandon]").count() == 1

    phone = phones(mine).open(match_id)
    page = phone.page
    page.click("[data-action=abandon]")
    page.wait_for_selector("#abandon-confirm:not([hidden])")
    assert page.get_attribute("[data-action=abandon]", "aria-expanded") == "true"
    phone.check_layout()
    phone.shot("abandon-confirm", wide=True)
    page.click("[data-abandon-cancel]")  # kept after all
    page.wait_for_selector("#abandon-confirm", state="hidden")
    assert api.service.reading.get_match(match_id)["last_seq"] == 0

    page.click("[data-action=abandon]")
    page.fill("[data-abandon-reason]", "")
    assert page.is_disabled("[data-abandon-confirm]")  # a reason is needed
    page.fill("[data-abandon-reason]", "the wrong player was seated")
    page.click("[data-abandon-confirm]")
    page.wait_for_selector("#state[data-seq='1']")
    page.wait_for_selector("[data-action=abandon]", state="detached")
    assert page.locator("button[data-event*='\"void\"']").count() == 0  # no undo of it
    summary = api.service.reading.get_match(match_id)
    assert summary["status"] == "abandoned"
    assert [e["event"] for e in api.service.reading.list_events(match_id)] == [
        {"type": "abandon", "reason": "the wrong player was seated"}]
    phone.check_layout()
    phone.shot("abandoned", wide=True)


def test_no_abandon_once_a_deal_stands(server: tuple[Api, str], phones: Any) -> None:
    api, _ = server
    match_id = api.matches["casino"]  # its first deal is recorded
    phone = phones(api.tokens["casino", "referee"]).open(match_id)
    assert phone.page.locator("[data-action=abandon]").count() == 0
