"""The replica tests' standby: one a session (a worker's, under -n 2), started when a test first
asks for it, on PostgreSQL only (tests/standby_helpers.py)."""

from __future__ import annotations

from typing import Iterator

import pytest
from api_helpers import Api, make_api
from db_helpers import PG_URL
from standby_helpers import Standby, Unavailable, caught_up
from template_helpers import schema_pool


@pytest.fixture(scope="session")
def standby() -> Iterator[Standby]:
    if not PG_URL:
        pytest.skip("DOMINO_TEST_DATABASE_URL is not set: a standby is made of PostgreSQL")
    made = Standby(PG_URL)
    try:
        made.start()
    except Unavailable as why:
        made.remove()
        pytest.skip(f"no standby can be started here: {why}")
    yield made
    made.remove()


@pytest.fixture
def pg_url(standby: Standby) -> Iterator[str]:
    """An empty schema of the primary (the standby sees it through the same search_path)."""
    assert PG_URL
    with schema_pool(PG_URL).scratch(prefix="test") as url:
        yield url


@pytest.fixture
def app(standby: Standby, pg_url: str) -> Iterator[Api]:
    """The API's app as a deployment configures it: DOMINO_DATABASE_URL the primary,
    DOMINO_READ_DATABASE_URL the standby (the same schema); the club public."""
    built = make_api(pg_url, READ_DATABASE_URL=standby.url(pg_url), ACCESS_LOG="0")
    built.service.clubs.set_public("casino", True)
    caught_up(standby.url(pg_url), pg_url)
    yield built
    built.service.close()
