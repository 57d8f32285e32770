"""Migration 0012 on SQLite and PostgreSQL: the tokens issued before it keep working, the new
``signin_codes`` table takes a code for a token, and going down drops only that table.

Today's service reads the columns of every later migration too, so it runs only at the head:
the data is made there, and the database taken down past 0012 and up again around it."""

from __future__ import annotations

from db_helpers import upgrade_and_seal
from sqlalchemy import Engine, inspect

from migrations import runner
from referee.service import Service


def test_down_past_0012_and_up_again(engine: Engine) -> None:
    upgrade_and_seal(engine)
    service = Service(engine)
    service.clubs.create_club("casino", "Casino")
    kept = service.tokens.create_token("casino", "admin", label="before")

    runner.downgrade(engine, "0011")
    assert "signin_codes" not in inspect(engine).get_table_names()
    upgrade_and_seal(engine)
    assert service.tokens.authenticate(kept).label == "before"
    issued = service.signin.issue("casino", "scorekeeper", label="Mesa 1")
    assert service.signin.exchange(issued["code"])["token"] == issued["token"]
    columns = {c["name"] for c in inspect(engine).get_columns("signin_codes")}
    assert columns == {"id", "token_id", "hash", "expires_at", "used_at", "purpose"}  # 0017

    runner.downgrade(engine, "0011")
    assert "signin_codes" not in inspect(engine).get_table_names()
    upgrade_and_seal(engine)
    assert service.tokens.authenticate(issued["token"]).role == "scorekeeper"  # tokens stay
