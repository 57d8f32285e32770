"""The first club, without a terminal (referee.service.setup), on both databases: a setup code
while the database has no club; the club made once with it (name, slug, language, the
secretary's token, its signing key); a used, expired, unknown or outdone code makes nothing;
two links used at once make one club; only the code's hash is stored."""

from __future__ import annotations

import datetime as dt
from concurrent.futures import ThreadPoolExecutor

import pytest
from clock_helpers import T0, Clock
from sqlalchemy import Engine, select
from template_helpers import migrate

from referee.service import Caller, Forbidden, Invalid, Service, Unauthorized
from referee.service.setup import SETUP_LIFETIME, slug_for
from referee.service.tokens import digest
from referee.store.db import reading
from referee.store.schema import clubs, signin_codes


@pytest.fixture
def fresh(engine: Engine, clock: Clock) -> Service:
    """A database with no club."""
    service = Service(engine, clock=clock)
    migrate(service.engine)
    return service


def test_a_setup_code_makes_the_first_club_once(fresh: Service) -> None:
    issued = fresh.setup.issue()
    assert issued["expires_at"] == (T0 + SETUP_LIFETIME).isoformat()
    assert fresh.setup.check(issued["code"]) == {"expires_at": issued["expires_at"]}
    made = fresh.setup.create_club(issued["code"], "Casino Dominó", "es")
    club = made["club"]
    assert (club["slug"], club["name"], club["language"]) == ("casino-domino", "Casino Dominó", "es")
    assert (made["role"], made["label"]) == ("admin", "first admin")
    who = fresh.tokens.authenticate(made["token"])
    assert (who.club, who.role) == ("casino-domino", "admin")
    assert made["signing_key"] == fresh.keys.listing("casino-domino")["keys"][0]["key_id"]
    for attempt in (lambda: fresh.setup.check(issued["code"]),
                    lambda: fresh.setup.create_club(issued["code"], "Another", "en")):
        with pytest.raises(Unauthorized, match="used already"):
            attempt()
    assert fresh.setup.issue() is None  # a club exists: no more links
    with reading(fresh.engine) as conn:
        assert conn.execute(select(clubs.c.slug)).scalars().all() == ["casino-domino"]


def test_making_the_club_spends_every_link(fresh: Service) -> None:
    first, second = fresh.setup.issue(), fresh.setup.issue()  # the server started twice
    fresh.setup.create_club(second["code"], "Casino", None)
    with pytest.raises(Unauthorized, match="used already"):
        fresh.setup.create_club(first["code"], "Casino Two", None)


def test_a_club_made_another_way_spends_the_link(fresh: Service) -> None:
    issued = fresh.setup.issue()
    fresh.clubs.create_club("casino", "Casino")  # domino club create, meanwhile
    with pytest.raises(Unauthorized, match="used already"):
        fresh.setup.check(issued["code"])


def test_an_expired_link_makes_nothing(fresh: Service, clock: Clock) -> None:
    issued = fresh.setup.issue()
    clock.now = T0 + SETUP_LIFETIME - dt.timedelta(seconds=1)
    assert fresh.setup.check(issued["code"])
    clock.now = T0 + SETUP_LIFETIME
    with pytest.raises(Unauthorized, match="expired"):
        fresh.setup.create_club(issued["code"], "Casino", "it")
    with reading(fresh.engine) as conn:
        assert conn.execute(select(clubs)).first() is None


@pytest.mark.parametrize("code", ["", "x" * 201, "nope", 42, None])
def test_an_unknown_link_makes_nothing(fresh: Service, code: object) -> None:
    fresh.setup.issue()
    with pytest.raises(Unauthorized, match="not known"):
        fresh.setup.create_club(code, "Casino", "es")


def test_a_phones_sign_in_code_is_no_setup_code_nor_the_reverse(fresh: Service) -> None:
    issued = fresh.setup.issue()
    with pytest.raises(Unauthorized, match="not known"):
        fresh.signin.exchange(issued["code"])
    fresh.clubs.create_club("casino", "Casino")
    phone = fresh.signin.issue("casino", "scorekeeper")
    with pytest.raises(Unauthorized, match="not known"):
        fresh.setup.check(phone["code"])


def test_a_bad_name_or_language_spends_nothing(fresh: Service) -> None:
    issued = fresh.setup.issue()
    for name, language in (("   ", "es"), ("Casino", "fr"), (7, None), ("Casino", 3)):
        with pytest.raises(Invalid):
            fresh.setup.create_club(issued["code"], name, language)
    assert fresh.setup.create_club(issued["code"], "Casino", None)["club"]["language"] is None


def test_the_link_is_the_operators(fresh: Service) -> None:
    for who in (Caller("casino", "admin"), Caller(None, "server")):
        with pytest.raises(Forbidden):
            fresh.setup.issue(who=who)


def test_two_links_used_at_once_make_one_club(fresh: Service) -> None:
    codes = [fresh.setup.issue()["code"] for _ in range(4)]

    def attempt(n: int) -> str:
        try:
            return fresh.setup.create_club(codes[n], f"Club {n}", None)["club"]["slug"]
        except Unauthorized:
            return "refused"

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(attempt, range(4)))
    assert results.count("refused") == 3
    with reading(fresh.engine) as conn:
        assert len(conn.execute(select(clubs)).all()) == 1


def test_only_the_codes_hash_is_stored(fresh: Service) -> None:
    issued = fresh.setup.issue()
    with reading(fresh.engine) as conn:
        row = conn.execute(select(signin_codes)).one()
    assert (row.purpose, row.token_id, row.hash) == ("setup", None, digest(issued["code"]))
    assert issued["code"] not in " ".join(map(str, row))


@pytest.mark.parametrize("name,slug", [("Casino Dominó de Peñalara", "casino-domino-de-penalara"),
                                       ("  La  Ceiba!! ", "la-ceiba"), ("Club 2026", "club-2026"),
                                       ("ドミノ", "club"), ("x" * 80, "x" * 64)])
def test_a_clubs_slug_is_made_from_its_name(name: str, slug: str) -> None:
    assert slug_for(name) == slug
