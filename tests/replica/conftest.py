"""The replica tests' standby: one a session (a worker's, under -n 2), started when a test first
asks for it, on PostgreSQL only (tests/standby_helpers.py)."""

from __future__ import annotations

from typing import Iterator

import pytest
from db_helpers import PG_URL
from standby_helpers import Standby, Unavailable
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
