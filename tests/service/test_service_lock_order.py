"""The lock order, on PostgreSQL (SQLite's writers queue for one lock, so they cannot deadlock):
a players merge racing the matches that seat its players (created, imported, a tournament's
round paired) never deadlocks. Before the club row was locked by a merge in a mode no foreign
key check waits for, a creation holding its players FOR SHARE waited at the club row (its
match's foreign key) while the merge held that row and waited for the players: PostgreSQL broke
the cycle by failing one of them (a 503 over HTTP, some 1 in 8)."""

from __future__ import annotations

import random
import threading
from typing import Callable, Iterator

import pytest
from template_helpers import migrate

from referee import write_log
from referee.core.log import make_log
from referee.core.simulate import random_match
from referee.service import Invalid, Service
from referee.store.db import Timeouts, make_engine

ROUNDS = 30


def _race(*work: Callable[[], object]) -> list[object]:
    """Run each of ``work`` at once (a barrier), and each one's outcome: what it returned, an
    Invalid it was refused with, or ("failed", error) for anything else."""
    barrier = threading.Barrier(len(work))
    outcomes: list[object] = [None] * len(work)

    def run(index: int, job: Callable[[], object]) -> None:
        barrier.wait(timeout=30)
        try:
            outcomes[index] = job()
        except Invalid as refused:
            outcomes[index] = refused
        except BaseException as error:  # noqa: BLE001 - a deadlock, reported by the caller
            outcomes[index] = ("failed", error)

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(work)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return outcomes


@pytest.fixture
def postgresql(database_url: str) -> Iterator[Service]:
    """A service whose waits for a lock or a statement outlast a busy machine's slowest turn:
    a lock cycle is still found by PostgreSQL itself (deadlock_timeout, 1 s) and fails the
    test, but a merge that merely holds the club row for more than the deployed 5 s while the
    machine is loaded is no deadlock (it failed so at load 20, 'canceling statement due to
    lock timeout')."""
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite's writers take one lock: no order to keep")
    engine = make_engine(database_url, timeouts=Timeouts(lock_ms=120_000, statement_ms=120_000))
    service = Service(engine)
    migrate(service.engine)
    yield service
    service.notifier.close()
    engine.dispose()


def _finished(names: list[str], seed: int) -> str:
    header, events = random_match("mano-a-mano", names, random.Random(seed))
    return write_log(make_log(header, events))


def test_a_merge_racing_match_creations_never_deadlocks(postgresql: Service, club: str) -> None:
    """Each round: Ana N is merged into Zoe N while three matches seat them, all at once: one
    created seating the player merged away, one the player kept, and a finished log imported
    (its standings written, as the merge's are): every match is stored and the merge happens;
    a match stored first seats the merged player, and the merge moves it."""
    service = postgresql
    for round_ in range(ROUNDS):
        source, into = f"Ana {round_}", f"Zoe {round_}"
        for name in (source, into):
            service.players.create(club, name, confirm_new=True)
        outcomes = _race(
            lambda: service.players.merge(club, source, into, "one person"),
            lambda: service.recording.create_match(club, "mano-a-mano", [source, "Rival"],
                                                   confirm_new=True),
            lambda: service.recording.create_match(club, "mano-a-mano", [into, "Other"],
                                                   confirm_new=True),
            lambda: service.recording.import_log(club, _finished([source, "Third"], round_),
                                                 confirm_new=True))
        failed = [o for o in outcomes if isinstance(o, tuple)]
        assert not failed, (round_, failed)
        merged, *created = outcomes
        assert isinstance(merged, dict) and all(isinstance(m, dict) for m in created), outcomes
        kept = service.players.get(club, into)
        assert kept["matches"] == 3 and source in [a["name"] for a in kept["aliases"]]
