"""One-time sign-in codes (referee.service.signin), on both databases: a code gives its token
once, within ten minutes; a used, expired, unknown or revoked one signs nobody in; only hashes
are stored."""

from __future__ import annotations

import datetime as dt
import sqlite3
from concurrent.futures import ThreadPoolExecutor

import pytest
from clock_helpers import T0, Clock
from sqlalchemy import select

from referee.service import Caller, Forbidden, Invalid, NotFound, Service, Unauthorized
from referee.service.signin import CODE_LIFETIME, token_of
from referee.service.tokens import digest
from referee.store import iso
from referee.store.db import reading
from referee.store.schema import signin_codes, tokens


def test_a_code_gives_its_token_once(svc: Service) -> None:
    issued = svc.signin.issue("casino", "scorekeeper", label="Mesa 3")
    assert issued["role"] == "scorekeeper" and issued["label"] == "Mesa 3"
    assert issued["token"] == token_of(issued["code"]) and issued["token"].startswith("dr_")
    assert issued["expires_at"] == iso(T0 + CODE_LIFETIME)
    got = svc.signin.exchange(issued["code"])
    assert got == {"token": issued["token"], "club": "casino", "role": "scorekeeper",
                   "label": "Mesa 3"}
    who = svc.tokens.authenticate(got["token"])
    assert (who.club, who.role, who.token_id) == ("casino", "scorekeeper", issued["id"])
    with pytest.raises(Unauthorized, match="used already"):
        svc.signin.exchange(issued["code"])
    # The token itself keeps working: only the code is spent.
    assert svc.tokens.authenticate(issued["token"]).role == "scorekeeper"


def test_only_hashes_are_stored(svc: Service) -> None:
    issued = svc.signin.issue("casino", "viewer")
    with reading(svc.engine) as conn:
        code_row = conn.execute(select(signin_codes)).one()
        token_row = conn.execute(select(tokens).where(tokens.c.id == issued["id"])).one()
    assert code_row.hash == digest(issued["code"]) and code_row.token_id == issued["id"]
    assert token_row.hash == digest(issued["token"])
    stored = " ".join(str(v) for v in (*code_row, *token_row))
    assert issued["code"] not in stored and issued["token"] not in stored


def test_an_expired_code_signs_nobody_in(svc: Service, clock: Clock) -> None:
    issued = svc.signin.issue("casino", "scorekeeper")
    clock.now = T0 + CODE_LIFETIME - dt.timedelta(seconds=1)
    later = svc.signin.issue("casino", "scorekeeper")
    clock.now = T0 + CODE_LIFETIME
    with pytest.raises(Unauthorized, match="expired"):
        svc.signin.exchange(issued["code"])
    assert svc.signin.exchange(later["code"])["token"] == later["token"]  # one second left


@pytest.mark.parametrize("code", ["", "x" * 201, "nope", 42, None])
def test_a_wrong_code_signs_nobody_in(svc: Service, code: object) -> None:
    svc.signin.issue("casino", "scorekeeper")
    with pytest.raises(Unauthorized, match="not known"):
        svc.signin.exchange(code)  # type: ignore[arg-type]


def test_a_guessed_code_takes_no_write_lock(svc: Service) -> None:
    """SQLite: with another writer holding the write lock, a guess is refused at once (a
    read), where a write transaction would queue behind it until the busy timeout."""
    if svc.engine.dialect.name != "sqlite":
        pytest.skip("the write lock is SQLite's")
    issued = svc.signin.issue("casino", "viewer")
    writer = sqlite3.connect(svc.engine.url.database, isolation_level=None, timeout=0)
    try:
        writer.execute("BEGIN IMMEDIATE")
        for _ in range(3):
            with pytest.raises(Unauthorized, match="not known"):
                svc.signin.exchange("dr-guess-" + issued["code"][:8])
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert svc.signin.exchange(issued["code"])["token"] == issued["token"]


def test_a_revoked_tokens_code_signs_nobody_in(svc: Service) -> None:
    issued = svc.signin.issue("casino", "scorekeeper")
    svc.tokens.revoke_token("casino", issued["id"])
    with pytest.raises(Unauthorized, match="revoked"):
        svc.signin.exchange(issued["code"])


def test_two_phones_racing_for_one_code_one_wins(svc: Service) -> None:
    issued = svc.signin.issue("casino", "scorekeeper")

    def attempt(_: int) -> str:
        try:
            return svc.signin.exchange(issued["code"])["token"]
        except Unauthorized:
            return "refused"

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(attempt, range(4)))
    assert results.count(issued["token"]) == 1 and results.count("refused") == 3


def test_issuing_is_the_admins(svc: Service) -> None:
    admin = svc.tokens.authenticate(svc.tokens.create_token("casino", "admin"))
    issued = svc.signin.issue("casino", "viewer", who=admin)
    listed = svc.tokens.list_tokens("casino")[0]
    assert [t["issued_by"] for t in listed if t["id"] == issued["id"]] == [admin.token_id]
    for role in ("referee", "scorekeeper", "viewer"):
        with pytest.raises(Forbidden):
            svc.signin.issue("casino", "viewer", who=Caller("casino", role))
    with pytest.raises(Forbidden):
        svc.signin.issue("other", "viewer", who=admin)
    with pytest.raises(Invalid):
        svc.signin.issue("casino", "owner")
    with reading(svc.engine) as conn:
        assert conn.execute(select(signin_codes)).all().__len__() == 1  # nothing else written


def test_the_qr_code_is_drawn_only_for_a_live_code_of_the_club(svc: Service, clock: Clock) -> None:
    """Where a code's QR code opens (the desk for a referee's or an admin's token, /score for
    the others), asked by the club's admin: a code expired, revoked, used or of another club
    is NotFound in one sentence; a caller below admin, or of another club, Forbidden."""
    admin = Caller("casino", "admin", token_id=None)
    referee = svc.signin.issue("casino", "referee")
    assert svc.signin.qr_page("casino", referee["code"], who=admin) == "desk"
    assert svc.signin.qr_page("casino", svc.signin.issue("casino", "viewer")["code"],
                              who=admin) == "score"
    for who in (Caller("casino", "referee"), Caller("other", "admin")):
        with pytest.raises(Forbidden):
            svc.signin.qr_page("casino", referee["code"], who=who)
    theirs = svc.signin.issue("other", "scorekeeper")
    revoked = svc.signin.issue("casino", "scorekeeper")
    svc.tokens.revoke_token("casino", revoked["id"])
    used = svc.signin.issue("casino", "scorekeeper")
    svc.signin.exchange(used["code"])
    said = set()
    for code in (theirs["code"], revoked["code"], used["code"], "unknown", 7):
        with pytest.raises(NotFound) as refused:
            svc.signin.qr_page("casino", code, who=admin)
        said.add(str(refused.value))
    clock.now = T0 + CODE_LIFETIME
    with pytest.raises(NotFound) as refused:
        svc.signin.qr_page("casino", referee["code"], who=admin)
    said.add(str(refused.value))
    assert len(said) == 1  # the same words whichever it is
