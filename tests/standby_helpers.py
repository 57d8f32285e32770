"""A hot standby of the tests' PostgreSQL, for the replica tests (tests/replica): a
``pg_basebackup -R`` of the primary into a temporary folder, started with ``pg_ctl`` on a port
of its own, streaming from the primary; stopped and removed afterwards.

What the primary must allow (docs/deploy.md says the same for a deployment): replication
connections from 127.0.0.1 (a ``host replication`` line of pg_hba.conf: the tests' server
trusts 127.0.0.1), ``wal_level`` replica or logical, and a WAL sender free. The line is added
here when missing and the file can be written (the CI's machine, where the tests run as root:
``.ci/run`` adds it too), and the configuration reloaded; what needs a restart of the primary
(``wal_level``, ``max_wal_senders``) is only checked, and the tests skip saying what is missing.

The standby runs as the ``postgres`` OS user when the tests run as root (PostgreSQL refuses
root), else as the tests' own user.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from serve_helpers import free_port
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

BIN = Path(os.environ.get("DOMINO_PG_BIN", "/usr/lib/postgresql/15/bin"))
HBA_LINE = "host replication all 127.0.0.1/32 trust"
# Settings a standby may not have lower than its primary (it refuses to start otherwise).
AT_LEAST_PRIMARY = ("max_connections", "max_worker_processes", "max_wal_senders",
                    "max_prepared_transactions", "max_locks_per_transaction")


class Unavailable(Exception):
    """Why no standby can be started here (the tests skip with it)."""


def _admin(url: str) -> Any:
    return create_engine(make_url(url).set(query={}), isolation_level="AUTOCOMMIT")


def allow_replication(url: str) -> None:
    """Make the primary at ``url`` accept the standby, or raise Unavailable saying why not.
    Idempotent: the pg_hba.conf line is added once, and only when no rule allows it yet."""
    engine = _admin(url)
    try:
        with engine.connect() as conn:
            settings = dict(conn.execute(text(
                "SELECT name, setting FROM pg_settings WHERE name IN "
                "('wal_level', 'max_wal_senders', 'hba_file')")).all())
            if settings["wal_level"] not in ("replica", "logical"):
                raise Unavailable(f"the primary's wal_level is {settings['wal_level']}: a standby "
                                  "needs replica (set it and restart PostgreSQL)")
            if int(settings["max_wal_senders"]) < 1:
                raise Unavailable("the primary's max_wal_senders is 0 (set it and restart)")
            if _replication_allowed(conn):
                return
            hba = Path(settings["hba_file"])
            if not os.access(hba, os.W_OK):
                raise Unavailable(f"{hba} allows no replication connection from 127.0.0.1 and "
                                  f"cannot be written here: add '{HBA_LINE}' and reload")
            with hba.open("a") as file:
                file.write(f"\n# the replica tests' standby (domino-referee)\n{HBA_LINE}\n")
            conn.execute(text("SELECT pg_reload_conf()"))
            deadline = time.monotonic() + 30
            while not _replication_allowed(conn):
                if time.monotonic() > deadline:
                    raise Unavailable(f"{hba}: the line added was not taken up by a reload")
                time.sleep(0.2)
    finally:
        engine.dispose()


def _replication_allowed(conn: Any) -> bool:
    """Whether a physical replication connection from 127.0.0.1 is let in (what
    pg_basebackup and the standby make), tried for real."""
    url = conn.engine.url
    result = subprocess.run(
        [str(BIN / "psql"), f"host={url.host or '127.0.0.1'} port={url.port or 5432} "
         f"user={url.username or 'postgres'} dbname=postgres replication=true",
         "-Atc", "IDENTIFY_SYSTEM"], capture_output=True, text=True, timeout=30)
    return result.returncode == 0


class Standby:
    """A hot standby of the primary at ``primary_url``, streaming from it (``start``, ``stop``)."""

    def __init__(self, primary_url: str) -> None:
        self.primary = make_url(primary_url)
        self.port = 0
        self.folder: Path | None = None
        self._run_as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    @property
    def data(self) -> Path:
        assert self.folder is not None
        return self.folder / "data"

    def url(self, primary_url: str) -> str:
        """``primary_url`` (a test's, with its schema's search_path) pointed at the standby."""
        return make_url(primary_url).set(host="127.0.0.1", port=self.port).render_as_string(
            hide_password=False)

    def _run(self, *command: str, timeout: float = 180) -> None:
        result = subprocess.run([*self._run_as, *command], capture_output=True, text=True,
                                timeout=timeout)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)}: {result.stdout}{result.stderr}")

    def start(self) -> "Standby":
        for tool in ("pg_basebackup", "pg_ctl"):
            if not (BIN / tool).exists():
                raise Unavailable(f"{BIN / tool} is missing (PostgreSQL's server binaries; "
                                  "DOMINO_PG_BIN names another folder)")
        allow_replication(self.primary.render_as_string(hide_password=False))
        self.folder = Path(tempfile.mkdtemp(prefix="domino-standby-"))
        if self._run_as:
            shutil.chown(self.folder, "postgres", "postgres")
        self.port = free_port()
        with self._one_base_backup_at_a_time():
            self._run(str(BIN / "pg_basebackup"), "-h", self.primary.host or "127.0.0.1",
                      "-p", str(self.primary.port or 5432), "-U",
                      self.primary.username or "postgres",
                      "-D", str(self.data), "-R", "-X", "stream", "-c", "fast")
        self._configure()
        self._start_on_a_free_port()
        return self

    def _start_on_a_free_port(self, tries: int = 5) -> None:
        """``pg_ctl start`` on the port picked. PostgreSQL cannot be told to bind port 0 and
        say which it took, so the port is one free when picked (``free_port``), and another
        process may take it before the standby binds it: then its log says "Address already in
        use" and the start is tried again on a port picked again (``tries`` in all); any
        other failure is raised as it is."""
        assert self.folder is not None
        log = self.folder / "log"
        for left in range(tries - 1, -1, -1):
            said = log.stat().st_size if log.exists() else 0
            try:
                self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-l", str(log),
                          "-w", "-t", "120", "start")
                return
            except RuntimeError:
                with log.open("rb") as written:
                    written.seek(said)
                    taken = b"Address already in use" in written.read()
                if not taken or not left:
                    raise
            self.port = free_port()
            self._configure()

    @contextmanager
    def _one_base_backup_at_a_time(self) -> Iterator[None]:
        """A lock on this machine for base backups of this primary. Two at once (the standbys
        of two pytest-xdist workers) failed under -n 2: the primary's checkpointer ended one's
        WAL stream ("terminating process ... to release replication slot
        pg_basebackup_...", then pg_basebackup's "unexpected termination of replication
        stream"), max_slot_wal_keep_size being unlimited, while the other asked for its fast
        checkpoint. Read-only: a file another user made serves as well."""
        where = f"{self.primary.host or '127.0.0.1'}-{self.primary.port or 5432}"
        lock = os.open(Path(tempfile.gettempdir()) / f"domino-basebackup-{where}.lock",
                       os.O_RDONLY | os.O_CREAT, 0o644)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield
        finally:
            os.close(lock)  # the lock goes with it

    def _configure(self) -> None:
        """A configuration of its own (Debian keeps the primary's outside its data folder):
        this port and socket folder, hot standby, and the settings it may not have lower than
        the primary's."""
        engine = _admin(self.primary.render_as_string(hide_password=False))
        try:
            with engine.connect() as conn:
                at_least = dict(conn.execute(text(
                    "SELECT name, setting FROM pg_settings WHERE name = ANY(:names)"),
                    {"names": list(AT_LEAST_PRIMARY)}).all())
        finally:
            engine.dispose()
        assert self.folder is not None
        lines = [f"port = {self.port}", "listen_addresses = '127.0.0.1'",
                 f"unix_socket_directories = '{self.folder}'", "hot_standby = on",
                 # its queries hold back the primary's vacuum rather than being cancelled by it
                 "hot_standby_feedback = on", "shared_buffers = 32MB", "fsync = off",
                 *(f"{name} = {value}" for name, value in at_least.items())]
        for name, body in (("postgresql.conf", "\n".join(lines) + "\n"),
                           ("pg_hba.conf", "local all all trust\nhost all all 127.0.0.1/32 trust\n"),
                           ("pg_ident.conf", "")):
            path = self.data / name
            path.write_text(body)
            if self._run_as:
                shutil.chown(path, "postgres", "postgres")

    def stop(self, mode: str = "fast") -> None:
        """Stop the standby (its folder kept: ``start_again`` starts it)."""
        self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def start_again(self) -> None:
        assert self.folder is not None
        self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "log"),
                  "-w", "-t", "120", "start")

    def remove(self) -> None:
        """Stop it if it runs, and remove its folder."""
        if self.folder is None:
            return
        subprocess.run([*self._run_as, str(BIN / "pg_ctl"), "-D", str(self.data), "-m",
                        "immediate", "-w", "stop"], capture_output=True, timeout=120)
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None


@contextmanager
def replay_paused(standby_engine: Engine) -> Iterator[None]:
    """The standby receives the primary's WAL but replays none of it: a replica behind."""
    with standby_engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("SELECT pg_wal_replay_pause()"))
        try:
            yield
        finally:
            conn.execute(text("SELECT pg_wal_replay_resume()"))


def caught_up(standby_url: str, primary_url: str, deadline_s: float = 60.0) -> None:
    """Wait until the standby has replayed all the primary has written so far (a test's schema
    and seed made on the primary are not on the standby until then: a page read there before
    would find no table)."""
    primary, standby = _admin(primary_url), _admin(standby_url)
    try:
        with primary.connect() as conn:
            target = str(conn.execute(text("SELECT pg_current_wal_lsn()")).scalar_one())
        replayed = text("SELECT pg_last_wal_replay_lsn() >= CAST(:lsn AS pg_lsn)")
        start = time.monotonic()
        with standby.connect() as conn:
            while not conn.execute(replayed, {"lsn": target}).scalar_one():
                assert time.monotonic() - start < deadline_s, "the standby did not catch up"
                time.sleep(0.02)
    finally:
        primary.dispose()
        standby.dispose()


def page_last_seq(api: Any, match_id: int) -> int:
    response = api.client.get(f"/api/v1/pages/clubs/casino/matches/{match_id}")
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()["match"]["last_seq"]
