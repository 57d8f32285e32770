"""Listing and revoking tokens, and what authenticating records of a token's use, on both
databases."""

from __future__ import annotations

import datetime as dt

import pytest
from clock_helpers import T0, Clock
from sqlalchemy import Engine, event, select

from referee.service import Caller, Forbidden, Invalid, NotFound, Service, Unauthorized
from referee.store.db import reading
from referee.store.schema import tokens

FIELDS = {"id", "label", "role", "created_at", "last_used_at", "revoked_at", "issued_by"}


def writes(engine: Engine) -> list[str]:
    """The UPDATE statements run on ``engine`` from now on."""
    seen: list[str] = []

    @event.listens_for(engine, "before_cursor_execute")
    def _record(conn, cursor, statement, *args) -> None:  # type: ignore[no-untyped-def]
        if statement.lstrip().upper().startswith("UPDATE"):
            seen.append(statement)

    return seen


def test_list_tokens(svc: Service, clock: Clock) -> None:
    for n, role in enumerate(("admin", "referee", "viewer")):
        svc.tokens.create_token("casino", role, label=f"t{n}")
        clock.advance(1)
    svc.tokens.create_token("other", "viewer", label="elsewhere")
    page, total = svc.tokens.list_tokens("casino")
    assert total == 3
    assert [(t["label"], t["role"]) for t in page] == [("t0", "admin"), ("t1", "referee"),
                                                       ("t2", "viewer")]
    assert all(set(t) == FIELDS for t in page)  # never the hash
    assert page[0]["created_at"] == T0.isoformat()
    assert page[0]["last_used_at"] is None and page[0]["revoked_at"] is None
    page, total = svc.tokens.list_tokens("casino", limit=1, offset=1)
    assert total == 3 and [t["label"] for t in page] == ["t1"]
    with pytest.raises(NotFound):
        svc.tokens.list_tokens("nowhere")
    with pytest.raises(Invalid):
        svc.tokens.list_tokens("casino", limit=-1)


@pytest.mark.parametrize("role", ["viewer", "scorekeeper", "referee"])
def test_listing_and_revoking_take_an_admin(svc: Service, role: str) -> None:
    who = svc.tokens.authenticate(svc.tokens.create_token("casino", role))
    target = svc.tokens.list_tokens("casino")[0][0]["id"]
    with pytest.raises(Forbidden):
        svc.tokens.list_tokens("casino", who=who)
    with pytest.raises(Forbidden):
        svc.tokens.revoke_token("casino", target, who=who)


def test_another_clubs_admin_may_not(svc: Service) -> None:
    other = svc.tokens.authenticate(svc.tokens.create_token("other", "admin"))
    target = svc.tokens.authenticate(svc.tokens.create_token("casino", "viewer")).token_id
    with pytest.raises(Forbidden):
        svc.tokens.list_tokens("casino", who=other)
    with pytest.raises(Forbidden):
        svc.tokens.revoke_token("casino", target, who=other)


def test_revoke_token(svc: Service, clock: Clock) -> None:
    admin = svc.tokens.authenticate(svc.tokens.create_token("casino", "admin", label="boss"))
    secret = svc.tokens.create_token("casino", "scorekeeper", label="table 3")
    holder = svc.tokens.authenticate(secret)
    assert holder == Caller("casino", "scorekeeper", holder.token_id, "table 3")
    clock.advance(5)
    revoked = svc.tokens.revoke_token("casino", holder.token_id, who=admin)
    assert set(revoked) == FIELDS | {"revoked_with"} and revoked["revoked_with"] == []
    assert revoked["id"] == holder.token_id and revoked["label"] == "table 3"
    assert revoked["revoked_at"] == (T0 + dt.timedelta(seconds=5)).isoformat()
    with pytest.raises(Unauthorized):
        svc.tokens.authenticate(secret)
    clock.advance(5)
    assert svc.tokens.revoke_token("casino", holder.token_id) == revoked  # twice: no change
    listed = {t["id"]: t for t in svc.tokens.list_tokens("casino")[0]}
    assert {**listed[holder.token_id], "revoked_with": []} == revoked
    assert listed[admin.token_id]["revoked_at"] is None
    assert svc.tokens.authenticate(svc.tokens.create_token("casino", "viewer")).role == "viewer"


def test_revoking_a_token_of_another_club_or_none_is_not_found(svc: Service) -> None:
    theirs = svc.tokens.authenticate(svc.tokens.create_token("other", "viewer"))
    for token_id in (theirs.token_id, 9999, 0, -1, 2**40, "1", None):
        with pytest.raises(NotFound):
            svc.tokens.revoke_token("casino", token_id)  # type: ignore[arg-type]
    with pytest.raises(NotFound):
        svc.tokens.revoke_token("nowhere", theirs.token_id)
    assert svc.tokens.authenticate(svc.tokens.create_token("other", "admin")).club == "other"
    with reading(svc.engine) as conn:
        assert conn.execute(select(tokens.c.revoked_at)).scalars().all() == [None, None]


def test_authenticating_records_the_last_use_at_most_once_a_minute(svc: Service,
                                                                   clock: Clock) -> None:
    secret = svc.tokens.create_token("casino", "viewer", label="screen")

    def last_used() -> str | None:
        return svc.tokens.list_tokens("casino")[0][0]["last_used_at"]

    updates = writes(svc.engine)
    svc.tokens.authenticate(secret)
    assert last_used() == T0.isoformat() and len(updates) == 1
    for _ in range(5):
        clock.advance(10)
        svc.tokens.authenticate(secret)
    assert last_used() == T0.isoformat() and len(updates) == 1  # 50 s later: no write
    clock.advance(11)
    svc.tokens.authenticate(secret)
    assert last_used() == (T0 + dt.timedelta(seconds=61)).isoformat() and len(updates) == 2


def test_the_last_use_is_written_once_when_two_workers_race(svc: Service, clock: Clock) -> None:
    """Both read a stale last use; the second UPDATE finds it fresh and changes nothing."""
    from referee import store
    from referee.service.tokens import LAST_USE_EVERY
    from referee.store.db import writing

    svc.tokens.create_token("casino", "viewer")
    token_id = svc.tokens.list_tokens("casino")[0][0]["id"]
    with writing(svc.engine) as conn:
        store.touch_token(conn, token_id, T0, LAST_USE_EVERY)
    with writing(svc.engine) as conn:
        store.touch_token(conn, token_id, T0 + dt.timedelta(seconds=30), LAST_USE_EVERY)
    assert svc.tokens.list_tokens("casino")[0][0]["last_used_at"] == T0.isoformat()
