"""What the table has seen: the record as someone sees it who saw only the table (and what they
recorded themselves).

During a round, a hand dealt open or a tile drawn in sight is *known* to the record but not
*seen* by the table. :meth:`referee.core.match.Match.secret_since` says from which event on the
record may hold such tiles; :func:`as_seen` takes them out of every event from there on, except
the ones ``own`` says the viewer recorded.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .events import as_table_saw_it


def as_seen(events: Sequence[Any], secret_since: int | None,
            own: Callable[[int], bool] = lambda seq: False) -> Sequence[Any]:
    """The record with the deals' hands and drawn tiles from ``secret_since`` on taken out,
    except in events ``own(seq)``. The same sequence back when nothing had to go."""
    if secret_since is None:
        return events
    seen = list(events)
    changed = False
    for seq in range(secret_since, len(seen) + 1):
        event = seen[seq - 1]
        if not own(seq):
            shown = as_table_saw_it(event)
            if shown is not event:
                seen[seq - 1] = shown
                changed = True
    return seen if changed else events
