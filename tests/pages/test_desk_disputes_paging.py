"""The disputes desk's pages over HTTP (no browser): with more open disputes than a page
holds, the heading counts them all, each page shows its share, the oldest match first, and
links to the earlier and later ones; a page that is not a number is a 422 page."""

from __future__ import annotations

import re

from api_helpers import Api
from desk_disputes_site import PASSED_HOLDING_A_FIVE, PLAYERS, RULES
from dispute_helpers import import_disputed

from referee.service.disputes import DESK_PAGE

DESK = "/clubs/casino/desk/disputes"


def shown(html: str) -> list[str]:
    return re.findall(r'data-dispute="(\d+:\d+)"', html)


def test_many_open_disputes_are_paged(api: Api) -> None:
    first = import_disputed(api.service, "casino", RULES, PLAYERS, PASSED_HOLDING_A_FIVE, 14)
    second = import_disputed(api.service, "casino", RULES, PLAYERS, PASSED_HOLDING_A_FIVE, 9)
    total = 25  # 15 + 10
    one = api.client.get(DESK, headers=api.auth("referee")).get_data(as_text=True)
    two = api.client.get(DESK + "?page=2", headers=api.auth("referee")).get_data(as_text=True)
    assert f"{total} open disputes" in one and f"{total} open disputes" in two
    assert len(shown(one)) == DESK_PAGE and len(shown(two)) == total - DESK_PAGE
    assert shown(one)[0] == f"{first}:2" and shown(two)[-1] == f"{second}:12"
    assert not set(shown(one)) & set(shown(two))
    assert f"Open disputes 1 to {DESK_PAGE} of {total}" in one
    assert f'<a rel="next" href="{DESK}?page=2">Later disputes</a>' in one
    assert 'rel="prev"' not in one and 'rel="next"' not in two
    assert f'<a rel="prev" href="{DESK}?page=1">Earlier disputes</a>' in two
    refused = api.client.get(DESK + "?page=two", headers=api.auth("referee"))
    assert refused.status_code == 422 and "Page must be a whole number" in refused.get_data(as_text=True)
