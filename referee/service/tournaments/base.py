"""What every tournament use case holds: where its units of work come from, the recording use
cases a round's matches are created by, and the clock."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Callable

from ..uow import Units

if TYPE_CHECKING:
    from ..recording import Recording


class Base:
    def __init__(self, units: Units, recording: Recording,
                 clock: Callable[[], dt.datetime]) -> None:
        self.units = units
        self.recording = recording
        self.clock = clock
