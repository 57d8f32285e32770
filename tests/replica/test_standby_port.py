"""The replica tests' standby (tests/standby_helpers.py) on a port taken before it binds it:
PostgreSQL is given a port picked free, not port 0, and another process may take it first."""

from __future__ import annotations

import socket

import pytest
import standby_helpers
from db_helpers import PG_URL
from serve_helpers import free_port
from sqlalchemy import create_engine, text
from standby_helpers import Standby, Unavailable

pytestmark = pytest.mark.slow  # a standby of its own: a base backup and a server started


def test_a_standby_whose_port_was_taken_starts_on_another(monkeypatch: pytest.MonkeyPatch) -> None:
    if not PG_URL:
        pytest.skip("DOMINO_TEST_DATABASE_URL is not set: a standby is made of PostgreSQL")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        picks = iter([taken.getsockname()[1]])  # the first pick: a port someone took meanwhile
        monkeypatch.setattr(standby_helpers, "free_port", lambda: next(picks, None) or free_port())
        made = Standby(PG_URL)
        try:
            try:
                made.start()
            except Unavailable as why:
                pytest.skip(f"no standby can be started here: {why}")
            assert made.port != taken.getsockname()[1]
            engine = create_engine(made.url(PG_URL))
            try:
                with engine.connect() as conn:
                    assert conn.execute(text("SELECT pg_is_in_recovery()")).scalar() is True
            finally:
                engine.dispose()
        finally:
            made.remove()
