"""The jobs: what brings the database up to date behind the use cases, and never inside a read.

A ruling on an old match leaves the club's ratings to a worker of the process that ruled
(asked once the ruling has committed); a finishing append's acta is signed once it has
committed. Should either not happen (the process stopped first, the key could not be read
then), the job does it: :meth:`Jobs.run_due` brings every club's stale ratings up to date and
signs every acta due. ``domino db catch-up`` runs it once; ``domino serve`` (and each of
gunicorn's workers) runs it at start and every :data:`EVERY_S` seconds in a thread of its own
(:class:`Background`). Each step takes its own locks, so processes running it at once queue
and find the work done.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field

from .ratings import catch_up_all
from .transparency import Transparency
from .uow import Units

EVERY_S = 60.0
log = logging.getLogger("domino.jobs")


@dataclass
class Done:
    """What a run did: the matches rated, the (match, leaf index) actas signed, and why each
    acta due was not signed."""

    rated: int = 0
    signed: list[tuple[int, int]] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


class Jobs:
    def __init__(self, units: Units, transparency: Transparency) -> None:
        self.units = units
        self.transparency = transparency

    def run_due(self) -> Done:
        """Every club's stale ratings brought up to date, then every acta due signed."""
        done = Done(rated=catch_up_all(self.units.engine))
        done.signed, done.failed = self.transparency.sign_due()
        return done


class Background:
    """A thread running ``jobs.run_due`` now and every ``every`` seconds until :meth:`stop`; a
    failure is logged and the next run tries again."""

    def __init__(self, jobs: Jobs, every: float = EVERY_S) -> None:
        self.jobs = jobs
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="domino-jobs", daemon=True)

    def start(self) -> "Background":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                done = self.jobs.run_due()
                if done.rated or done.signed:
                    log.info("caught up: %s matches rated, %s actas signed", done.rated,
                             len(done.signed))
            except Exception:  # noqa: BLE001 - the database away, say: the next run tries again
                log.exception("the background jobs failed")
            self._stop.wait(self.every)
