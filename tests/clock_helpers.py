"""A clock the tests set by hand (a service's ``clock``)."""

from __future__ import annotations

import datetime as dt

T0 = dt.datetime(2026, 5, 1, 19, 30, tzinfo=dt.timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)
