"""Migration 0012 from a 0011 database, on SQLite and PostgreSQL: the tokens issued before it
keep working, the new ``signin_codes`` table takes a code for a token, and going down drops
only that table."""

from __future__ import annotations

from sqlalchemy import Engine, inspect

from migrations import runner
from referee.service import Service


def test_upgrade_from_0011_and_back(engine: Engine) -> None:
    runner.upgrade(engine, "0011")
    old = Service(engine)
    old.clubs.create_club("casino", "Casino")
    kept = old.tokens.create_token("casino", "admin", label="before")
    assert "signin_codes" not in inspect(engine).get_table_names()

    runner.upgrade(engine, "0012")
    service = Service(engine)
    assert service.tokens.authenticate(kept).label == "before"
    issued = service.signin.issue("casino", "scorekeeper", label="Mesa 1")
    assert service.signin.exchange(issued["code"])["token"] == issued["token"]
    columns = {c["name"] for c in inspect(engine).get_columns("signin_codes")}
    assert columns == {"id", "token_id", "hash", "expires_at", "used_at"}

    runner.downgrade(engine, "0011")
    assert "signin_codes" not in inspect(engine).get_table_names()
    assert service.tokens.authenticate(issued["token"]).role == "scorekeeper"  # tokens stay
