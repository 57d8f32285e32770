"""Where a PostgreSQL hot standby stands against its primary: whether the connection is to a
standby at all, whether it has replayed all the WAL it has received, and when the last
transaction it replayed committed on the primary (``pg_last_xact_replay_timestamp``).

One statement, on the standby, no table read. On the primary (or SQLite) there is nothing to
be behind: :func:`standing` answers None.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, text

_STANDING = text(
    "SELECT pg_is_in_recovery(),"
    " pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn(),"
    " extract(epoch FROM clock_timestamp()),"
    " extract(epoch FROM pg_last_xact_replay_timestamp())")


@dataclass(frozen=True)
class Standing:
    """A standby at one moment (``now``, its clock, epoch seconds): ``replayed_all``, it has
    replayed every byte of WAL it has received; ``last_replayed``, the primary's commit time
    of the last transaction it replayed (epoch seconds; None before it has replayed one)."""

    now: float
    replayed_all: bool
    last_replayed: float | None


def standing(conn: Connection) -> Standing | None:
    """The standby's standing, read on ``conn``; None when ``conn`` is not to a standby."""
    if conn.dialect.name != "postgresql":
        return None
    in_recovery, replayed_all, now, last = conn.execute(_STANDING).one()
    if not in_recovery:
        return None
    return Standing(float(now), bool(replayed_all), None if last is None else float(last))
