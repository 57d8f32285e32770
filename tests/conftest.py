"""Fixtures for the database contract suite: every test that takes ``database_url`` (or a fixture
built on it) runs on SQLite, always, and on PostgreSQL when DOMINO_TEST_DATABASE_URL is set.

Each test gets an empty database: a new SQLite file, or a new PostgreSQL schema (reached through
the connection's search_path, so the tables and the alembic version table land in it) dropped
afterwards. ``service`` migrates it from a template (tests/template_helpers.py).
"""

from __future__ import annotations

import gc
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

# Where PYTHONDONTWRITEBYTECODE is set (as in this project's containers), every process of a
# run compiled every module of the project and the tests again: 10 of the 15 CPU seconds each
# pytest process (each pytest-xdist worker) spent collecting the suite. The tests' processes
# keep their bytecode in .pytest_cache/pycache instead (git-ignored; nothing beside the
# sources), read again by the next run. Set before the imports below.
if sys.dont_write_bytecode and not sys.pycache_prefix:
    sys.pycache_prefix = str(Path(__file__).resolve().parents[1] / ".pytest_cache" / "pycache")
    sys.dont_write_bytecode = False

import pytest
from compiled_helpers import share_compiled_statements
from db_helpers import PG_URL
from hypothesis import HealthCheck, settings
from sqlalchemy import Engine
from template_helpers import close_pools, close_templates, migrate, schema_pool

from referee.service import Service
from referee.store.db import make_engine

if TYPE_CHECKING:
    from api_helpers import Api

# The garbage collector, as the console script has it (cli/collector.py): a test process holds
# hundreds of thousands of objects that live as long as it does (the modules, the collected
# tests, the session's app, templates, caches), and under the default thresholds each quick-loop
# worker walked them all in some 30 full collections: 11 to 13 of its 78 CPU seconds in the
# collector, 9 of them in those (gc.callbacks, 6 December). Young collections come every YOUNG
# objects made instead of every 700, full ones rarer, and what collection made is moved out of
# the collector's sight (pytest_collection_finish): 7 to 8 s a worker. Cycles are still
# collected, in fewer and larger batches; what each test checks is unchanged.
YOUNG = 20_000
gc.set_threshold(YOUNG, 20, 20)

# No property fails because the machine is busy: hypothesis's default gives each example 200 ms
# (then fails the test as flaky when the same example runs faster again) and fails a test whose
# examples are slow to generate. Every test's @settings starts from this profile, so these two
# hold for those that set only max_examples; what each test checks is unchanged.
settings.register_profile("busy-machine", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("busy-machine")
# The quick loop (a run whose -m leaves out the slow tests: -m "not slow") runs each property
# on a fifth of its examples, never fewer than QUICK_EXAMPLES (all of them, when it has fewer):
# every property still runs, on examples generated as the full run's are. The README's command
# (no -m) and any run naming a profile (--hypothesis-profile busy-machine) run the full counts.
settings.register_profile("quick", parent=settings.get_profile("busy-machine"))
QUICK_SHARE = 5
QUICK_EXAMPLES = 10

DATABASES = [
    "sqlite",
    pytest.param("postgresql", marks=pytest.mark.skipif(
        not PG_URL, reason="DOMINO_TEST_DATABASE_URL is not set")),
]


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'domino.db'}"
        return
    with schema_pool(PG_URL).scratch(prefix="test") as url:
        yield url


@pytest.fixture(autouse=True, scope="session")
def _schema_pools() -> Iterator[None]:
    """The migrated spare schemas and the SQLite templates (tests/template_helpers.py) dropped
    at the end of the run."""
    yield
    close_pools()
    close_templates()


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def service(engine: Engine) -> Iterator[Service]:
    service = Service(engine)
    migrate(service.engine)
    yield service
    # Its notifier sends the last appends' batch a moment later: on an engine disposed by then
    # it would open a connection that nothing closes (PostgreSQL's clients run out).
    service.notifier.close()


@pytest.fixture
def club(service: Service) -> str:
    service.clubs.create_club("casino", "Casino Domino Club")
    return "casino"


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    """The app of the API tests (tests/api_helpers.py): the session's one, over this test's
    database (two clubs, their tokens, a match each)."""
    # Imported here, not at the top: the pytest-xdist controller loads this file too, runs no
    # test, and would import the app (flask, flask-smorest, the pages) before starting its
    # workers: some 0.4 s of CPU, and of wall time, of every -n run.
    from api_helpers import reused_api

    built = reused_api(database_url)
    yield built
    built.service.close()


@pytest.fixture(autouse=True, scope="session")
def _signing_keys(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every test keeps its clubs' keys in the session's scratch folder, never in the working
    directory (referee.service.keyfolder.keys_dir), and adopts no server key of its own; set for the
    session, so that module-scoped fixtures (the browser tests' servers) have it too."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DOMINO_KEYS_DIR", str(tmp_path_factory.getbasetemp() / "domino-keys"))
        patch.setenv("DOMINO_SIGNING_KEY", str(tmp_path_factory.getbasetemp() / "signing-key.pem"))
        yield


# A memory file system, when there is one with room, for the tests' temporary folders.
MEMORY = "/dev/shm"
MEMORY_ROOM = 2 * 1024**3  # bytes free, at least; a run writes some tens of MB


def _in_memory(config: pytest.Config) -> None:
    """The tests' temporary folders (tmp_path, the SQLite templates) on a memory file system,
    unless the run names a place (--basetemp, TMPDIR, PYTEST_DEBUG_TEMPROOT). The service opens
    SQLite with synchronous = FULL: every commit of a test's database waits for the disk (some
    30,000 a quick run, 4 ms each on a busy disk), where on memory it costs nothing; what each
    test checks is the same. (A pytest-xdist worker is given its folder by the controller, and
    each process sets its own templates' place here.)"""
    if config.option.basetemp or os.environ.get("TMPDIR") or os.environ.get(
            "PYTEST_DEBUG_TEMPROOT"):
        return
    if os.path.isdir(MEMORY) and os.access(MEMORY, os.W_OK | os.X_OK) \
            and shutil.disk_usage(MEMORY).free >= MEMORY_ROOM:
        tempfile.tempdir = MEMORY


def quick_examples(examples: int) -> int:
    """How many examples a property of ``examples`` runs in the quick loop."""
    return min(examples, max(QUICK_EXAMPLES, examples // QUICK_SHARE))


def _quick_loop(config: pytest.Config) -> bool:
    """Whether this run is the quick loop: its -m leaves out the slow tests, and it names no
    hypothesis profile of its own."""
    return "not slow" in (config.getoption("markexpr") or "") \
        and not config.getoption("hypothesis_profile", default=None)


def _fewer_examples(items: list[pytest.Item]) -> None:
    """Each property test's settings given its quick count (``quick_examples``); whatever else
    they say (its strategies, its phases, its database) unchanged."""
    for item in items:
        test = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is None or getattr(test, "_quick_examples", False):
            continue  # not a property, or one already given its count (another parameter's)
        test._hypothesis_internal_use_settings = settings(
            own, max_examples=quick_examples(own.max_examples))
        test._quick_examples = True


def pytest_configure(config: pytest.Config) -> None:
    """The tests' temporary folders in memory where there is room (``_in_memory``); the quick
    loop's hypothesis profile; SQLite's statements compiled once a session
    (tests/compiled_helpers.py). The resilience suite does not run under pytest-xdist: a second
    worker's tests would be stopped with PostgreSQL, and load what it measures."""
    _in_memory(config)
    share_compiled_statements()
    if _quick_loop(config):
        settings.load_profile("quick")
    named = (config.getoption("markexpr") or "").replace("not resilience", "")
    if config.getoption("numprocesses", default=None) and "resilience" in named:
        raise pytest.UsageError("the resilience suite runs alone: leave out -n")


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collecting made (the modules, the tests, their fixtures' definitions) lives until
    the process ends: out of the collector's sight from here (see YOUNG)."""
    gc.collect()
    gc.freeze()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The resilience suite stops PostgreSQL and kills servers: it runs only when the -m
    expression names it (``-m resilience``). A run's -m replaces addopts' ``-m "not
    resilience"``, so without this ``-m "not slow"`` (or ``-m slow``) would start it. In the
    quick loop, the properties run fewer examples (``_fewer_examples``)."""
    if _quick_loop(config):
        _fewer_examples(items)
    if "resilience" in (config.getoption("markexpr") or ""):
        return
    kept, left = [], []
    for item in items:
        (kept if item.get_closest_marker("resilience") is None else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept
