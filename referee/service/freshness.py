"""How far behind the primary the pages' reads may be, for a page to say so.

The pages, standings, listings and exports read the read engine (:class:`.uow.Kind` READ): a
streaming replica, when one is configured. A replica replays the primary's WAL a moment
after it is written, milliseconds as a rule; when it falls further behind (a long query on the
primary, a busy standby, its replay paused) a page read there says how far
(:meth:`Freshness.behind`), and every recording and a match's own screens read the primary
anyway.

How far behind: nothing, when the standby has replayed all the WAL it has received; else
since the later of the last transaction it replayed (its commit time on the primary) and the
last moment this process saw it with nothing left to replay. The second bound matters after a
quiet spell: the first transaction after an idle hour is being replayed for a millisecond, and
its predecessor committed an hour ago, which is not how late the replica is. A standby cut off
from its primary, with all it received replayed, reads as up to date: it cannot know better.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..store.replica import standing
from .uow import READ, UnitOfWork, use_case

if TYPE_CHECKING:
    from .uow import Units

# Behind by less than this, a page says nothing: a replica is milliseconds behind as a rule, and
# a page read a second late is as good as a page read now.
SAID_FROM_S = 1.0


class Freshness:
    """How far behind the primary the read engine is (``svc.freshness``)."""

    def __init__(self, units: "Units") -> None:
        self.units = units
        self._replayed_all_at: float | None = None  # the standby's clock, epoch seconds

    @use_case(READ)
    def behind(self, uow: UnitOfWork) -> float | None:
        """Seconds the pages' reads are behind the primary, when at least ``SAID_FROM_S``; None
        when less, or when the pages read the primary (no replica, or it cannot be reached):
        then no statement is run at all."""
        if uow.engine is self.units.engine:
            return None
        conn = uow.conn  # may find the replica gone, and read the primary instead
        if uow.engine is self.units.engine:
            return None
        now = standing(conn)
        if now is None:
            return None
        if now.replayed_all:
            self._replayed_all_at = now.now
            return None
        since = max((t for t in (now.last_replayed, self._replayed_all_at) if t is not None),
                    default=None)
        if since is None:
            return None
        late = now.now - since
        return late if late >= SAID_FROM_S else None
