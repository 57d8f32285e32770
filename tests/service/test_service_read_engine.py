"""The read engine, on SQLite and PostgreSQL: a service over two engines sends the reads that
may be a moment late (the pages, the standings, the listings, the exports: :class:`Kind` READ)
to the read engine and every other use case (recording, the scorekeeper's screen, the desks)
to the primary, and which is which is written once, at each use case, and in
docs/service.md. On SQLite the read engine is a copy of the database taken before the last
match was recorded, a replica behind its primary: the pages do not know of it yet, the
recording screens do. On PostgreSQL it is a second engine on the same schema (a replica by
configuration is a later engineer's test): each statement is seen on the engine that ran it."""

from __future__ import annotations

import logging
import re
import shutil
import socket
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from db_helpers import PG_URL, lending, record_all, sample_match, statements
from sqlalchemy import event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from template_helpers import at_revision, schema_pool

from migrations.runner import upgrade
from referee.service import Caller, Service
from referee.service.desk import Desk
from referee.service.errors import schema_behind
from referee.service.live import Scoreboard
from referee.service.pages import Pages
from referee.service.uow import READ, USE_CASES, Kind
from referee.store.db import make_engine

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "service.md"


def _finished(service: Service, club: str, seed: int) -> int:
    _, events = sample_match("parejas", seed=seed)
    match_id = service.recording.create_match(club, "parejas", PLAYERS)["id"]
    record_all(service, match_id, events)
    return match_id


@pytest.fixture
def two(service: Service, club: str, database_url: str,
        tmp_path: Path) -> Iterator[tuple[Service, int, int]]:
    """A service over the primary and a read engine, the club public with one finished match
    both know (``seen``) and one the read engine has not been told of (``late``, on SQLite)."""
    service.clubs.set_public(club, True)
    service.keys.init(club)
    seen = _finished(service, club, 4)
    if service.engine.dialect.name == "sqlite":
        service.engine.dispose()  # the WAL checkpointed into the file that is copied
        copy = tmp_path / "replica.db"
        shutil.copyfile(service.engine.url.database, copy)
        read = make_engine(f"sqlite:///{copy}")
    else:
        read = make_engine(database_url)
    late = _finished(service, club, 6)
    service.notifier.flush()  # its scoreboard notices sent now, not during the reads below
    both = Service(service.engine, read_engine=read, keys=service.keys.ring)
    yield both, seen, late
    both.notifier.close()
    read.dispose()


def _checkouts(service: Service) -> Any:
    """Which engines lent a connection inside the block: "read" and/or "primary"."""
    return lending({"primary": service.engine, "read": service.read_engine})


def _ran(service: Service, work: Callable[[], Any]) -> tuple[Any, set[str]]:
    """What ``work`` answers, and which engines it used: "read" and/or "primary"."""
    with _checkouts(service) as used:
        answer = work()
    return answer, used


def test_pages_and_listings_read_the_read_engine(two: tuple[Service, int, int],
                                                 club: str) -> None:
    svc, seen, late = two
    pages = Pages(svc)
    reads: list[Callable[[], Any]] = [
        lambda: pages.home(club), lambda: pages.clubs(), lambda: pages.players(club),
        lambda: pages.matches(club), lambda: pages.match(club, seen),
        lambda: pages.player(club, svc.players.find(club, "Ana")["id"]),
        lambda: pages.tournaments(club), lambda: pages.log(club, seen),
        lambda: pages.acta_page(club, seen),
        lambda: svc.standings.table(club), lambda: svc.standings.csv(club),
        lambda: svc.standings.rating_history(club, "Ana"),
        lambda: svc.reading.list_matches(club), lambda: svc.reading.export_log(seen),
        lambda: svc.players.list(club), lambda: svc.transparency.head(club),
        lambda: svc.transparency.leaves(club), lambda: svc.keys.listing(club),
        lambda: svc.actas.acta(seen)]
    for read in reads:
        _, engines = _ran(svc, read)
        assert engines == {"read"}, read
    listed, _ = _ran(svc, lambda: svc.reading.list_matches(club)[0])
    if svc.engine.dialect.name == "sqlite":  # the copy was taken before the late match
        assert [m["id"] for m in listed] == [seen]
    else:
        assert {m["id"] for m in listed} == {seen, late}


def test_recording_and_its_screens_read_the_primary(two: tuple[Service, int, int],
                                                    club: str) -> None:
    svc, seen, late = two
    referee = Caller(club, "referee", 9, "desk")
    scoreboard = Scoreboard(svc)
    try:
        work: list[Callable[[], Any]] = [
            lambda: svc.reading.screen(late), lambda: svc.reading.get_match(late),
            lambda: svc.reading.events_page(late), lambda: svc.reading.report(late),
            lambda: svc.disputes.for_match(late), lambda: svc.disputes.desk(club, who=referee),
            lambda: Desk(svc).home(club, who=referee), lambda: scoreboard.board(club),
            lambda: svc.tokens.list_tokens(club), lambda: svc.audit.run(),
            lambda: svc.recording.create_match(club, "parejas", PLAYERS),
            lambda: svc.players.create(club, "Zoe", confirm_new=True)]
        for job in work:
            _, engines = _ran(svc, job)
            assert engines == {"primary"}, job
    finally:
        scoreboard.hub.close()
    m = svc.recording.create_match(club, "parejas", PLAYERS)["id"]
    _, events = sample_match("parejas", seed=5)
    _, engines = _ran(svc, lambda: record_all(svc, m, events[:3]))
    assert engines == {"primary"}
    assert svc.reading.screen(m).summary["last_seq"] == 3  # its own writes, read back at once


def test_the_kinds_are_the_docs() -> None:
    """docs/service.md's table of which use case reads where is the declarations', to the
    letter: a use case added or moved without the docs fails here."""
    import referee.service.desk  # noqa: F401 - every use case declared
    import referee.service.live  # noqa: F401
    import referee.service.pages  # noqa: F401

    Service(make_engine("sqlite://")).ready().close()  # each concern's module imported
    text = DOCS.read_text(encoding="utf-8")
    documented: dict[str, Kind] = {}
    for kind in Kind:
        found = re.search(rf"^\| `{kind.value}` \|[^|]*\|(.*)\|$", text, re.MULTILINE)
        assert found, f"docs/service.md has no row for {kind.value}"
        for name in re.findall(r"`([A-Za-z]+\.[a-z_]+)`", found.group(1)):
            documented[name] = kind
    assert documented == USE_CASES
    assert {name for name, kind in USE_CASES.items() if kind is READ} >= {
        "Pages.home", "Standings.table", "Reading.list_matches"}


def test_a_read_engine_by_configuration(database_url: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The API's service reads DOMINO_READ_DATABASE_URL (the CLI, the operator's, does not:
    it acts on the primary)."""
    from api import create_app
    from api.context import EXTENSION

    monkeypatch.setenv("DOMINO_READ_DATABASE_URL", database_url)
    app = create_app({"DATABASE_URL": database_url, "ACCESS_LOG": False})
    svc: Service = app.extensions[EXTENSION]
    try:
        assert svc.read_engine is not svc.engine
        assert str(svc.read_engine.url) == str(make_engine(database_url).url)
    finally:
        svc.close()
    monkeypatch.delenv("DOMINO_READ_DATABASE_URL")
    app = create_app({"DATABASE_URL": database_url, "ACCESS_LOG": False})
    svc = app.extensions[EXTENSION]
    try:
        assert svc.read_engine is svc.engine
    finally:
        svc.close()


@pytest.fixture
def unreachable(database_url: str, tmp_path: Path) -> Iterator[str]:
    """A read engine's URL that no connection can be made to: on PostgreSQL a port this test
    holds bound and never listens on (a port found free and let go could be taken by another
    process's server meanwhile), on SQLite a file in a folder that does not exist."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'no-such-folder' / 'replica.db'}"
        return
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield str(make_url(database_url).set(host="127.0.0.1", port=held.getsockname()[1])
                  .render_as_string(hide_password=False))


def test_a_replica_that_cannot_be_reached_is_passed_over(service: Service, club: str,
                                                         unreachable: str) -> None:
    """Its reads are the primary's, that one's and the next few seconds' (the replica not
    tried meanwhile), then it is tried again; nothing the caller sees fails."""
    service.clubs.set_public(club, True)
    read = make_engine(unreachable)
    tries: list[int] = []
    event.listen(read, "do_connect", lambda *args: tries.append(1))
    svc = Service(service.engine, read_engine=read, keys=service.keys.ring)
    try:
        pages = Pages(svc)
        assert not svc.units.replica_passed_over
        home, engines = _ran(svc, lambda: pages.home(club))
        assert home["club"]["slug"] == club and engines == {"primary"}
        assert svc.units.replica_passed_over and len(tries) == 1
        _, engines = _ran(svc, lambda: svc.standings.table(club))
        assert engines == {"primary"} and len(tries) == 1  # not tried again meanwhile
        svc.units._replica_down_until = 0.0  # the pause over
        _, engines = _ran(svc, lambda: pages.clubs())
        assert engines == {"primary"} and len(tries) == 2  # tried again, still down
        assert svc.freshness.behind() is None  # read on the primary: nothing behind
    finally:
        svc.notifier.close()
        read.dispose()


def test_how_far_behind_the_primary_is_never_asked(service: Service) -> None:
    """Without a replica, the pages' reads are the primary's: nothing is behind, and nothing
    is asked of the database to know it."""
    with statements(service.engine) as seen, _checkouts(service) as used:
        assert service.freshness.behind() is None
    assert seen == [] and used == set()


# A replica behind the primary's schema: at the revision before 0022, which gave the clubs their
# ``mac`` column. Every page's and the API's first statement reads the club's row, naming it,
# so a read there finds the schema behind at once.
BEHIND = "0021"


@contextmanager
def _behind(database_url: str, tmp_path: Path) -> Iterator[str]:
    """A database (PostgreSQL: a schema of the tests' database) migrated to ``BEHIND`` only,
    the primary's ``database_url`` at the head: a replica that has not replayed the last
    migrations yet."""
    if database_url.startswith("sqlite"):
        url = f"sqlite:///{tmp_path / 'behind.db'}"
        at_revision(make_engine(url), BEHIND)
        yield url
        return
    assert PG_URL
    with schema_pool(PG_URL).scratch(prefix="behind") as url:
        made = make_engine(url)
        try:
            at_revision(made, BEHIND)
        finally:
            made.dispose()
        yield url


def _said(caplog: pytest.LogCaptureFixture, words: str) -> int:
    return sum(words in record.getMessage() for record in caplog.records)


def test_a_replica_behind_the_schema_is_passed_over(service: Service, club: str,
                                                    database_url: str, tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    """A read whose statement finds the replica's schema behind is served by the primary, as
    are the next few seconds' (the replica not tried meanwhile), the log saying so once; tried
    again, still behind, the log says nothing new; once the replica has the migrations, it
    serves the reads again."""
    caplog.set_level(logging.INFO, logger="domino.service")
    service.clubs.set_public(club, True)
    with _behind(database_url, tmp_path) as behind_url:
        read = make_engine(behind_url)
        svc = Service(service.engine, read_engine=read, keys=service.keys.ring)
        try:
            pages = Pages(svc)
            home, engines = _ran(svc, lambda: pages.home(club))
            assert home["club"]["slug"] == club and engines == {"read", "primary"}
            assert svc.units.replica_passed_over
            assert svc.freshness.behind() is None  # read on the primary: nothing behind
            _, engines = _ran(svc, lambda: svc.standings.table(club))
            assert engines == {"primary"}  # not tried again meanwhile
            svc.units._replica_down_until = 0.0  # the pause over
            _, engines = _ran(svc, lambda: pages.home(club))
            assert engines == {"read", "primary"}  # tried again, still behind
            assert _said(caplog, "read replica is behind the schema") == 1
            assert _said(caplog, "no such column") + _said(caplog, "does not exist") == 1
            upgrade(read)  # the replica replays the migrations
            svc.units._replica_down_until = 0.0
            _, engines = _ran(svc, lambda: pages.clubs())
            assert engines == {"read"} and _said(caplog, "serves reads again") == 1
        finally:
            svc.notifier.close()
            read.dispose()


@pytest.mark.parametrize(("statement", "behind"), [
    ("SELECT * FROM no_such_table", True),
    ("SELECT no_such_column FROM clubs", True),
    ("SELECT no_such_function(1)", True),
    ("SELEC 1", False),  # a syntax error: the code's, on the primary as well
    ("INSERT INTO clubs (id, slug, name, created_at) SELECT id, slug, name, created_at "
     "FROM clubs", False),  # the rows break a constraint: the schema is there
])
def test_schema_behind_is_a_missing_table_column_or_function(service: Service, club: str,
                                                             statement: str,
                                                             behind: bool) -> None:
    with pytest.raises(DBAPIError) as raised, service.engine.connect() as conn:
        conn.execute(text(statement))
    assert schema_behind(raised.value) is behind


def test_a_page_and_the_api_on_a_replica_behind_answer_the_primarys(
        database_url: str, tmp_path: Path) -> None:
    """Through the app as a deployment configures it (DOMINO_READ_DATABASE_URL the replica
    behind): the pages and the API's reads are 200, with the primary's club and match."""
    from api_helpers import make_api

    with _behind(database_url, tmp_path) as behind_url:
        app = make_api(database_url, READ_DATABASE_URL=behind_url, ACCESS_LOG="0")
        try:
            app.service.clubs.set_public("casino", True)
            match_id = app.matches["casino"]
            for path, words in ((f"/clubs/casino/matches/{match_id}", "Ana"),
                                ("/clubs/casino", "Casino"),
                                ("/api/v1/pages/clubs/casino", "Casino"),
                                ("/api/v1/clubs/casino/standings", "Ana")):
                response = app.client.get(path, headers=app.auth("viewer"))
                assert response.status_code == 200, (path, response.get_data(as_text=True))
                assert words in response.get_data(as_text=True), path
            assert app.service.units.replica_passed_over
        finally:
            app.service.close()
