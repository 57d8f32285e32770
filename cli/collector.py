"""The garbage collector under the console script.

A database command's start is mostly imports (SQLAlchemy, the store's tables, the service),
hundreds of thousands of objects that live as long as the process and hold no garbage; the
collector's default thresholds walk them many times over as they are made (one full
collection and dozens of young ones: a tenth of ``domino match list``'s CPU time,
bench/cli_bench.py). So the console script collects the young generation every
``YOUNG`` objects instead of every 700 (:func:`hold`): a command still collects its cycles,
in fewer and larger batches, and its memory stays bounded. A server runs for hours: once it is
built, ``domino serve`` moves what its start made out of the collector's sight
(``gc.freeze``) and puts the default thresholds back (:func:`settle`). The tests' in-process
runs keep the defaults.

As ``domino validate`` and ``domino show LOG`` exit (the fast path, cli.entry), everything left
is moved out of the collector's sight too (:func:`leave`): the interpreter's finalization runs
full collections that walk every object still alive (the modules, the log reader's cache), a
process at its end has no cycle worth finding, and the OS takes the memory back. Those two
commands hold no resource that a collection would close (their files are closed as read). Some
13 million instructions a process: `validate --json` of one log 148 -> 135 million
(docs/performance.md, 7 December evening).
"""

from __future__ import annotations

import gc

YOUNG = 100_000  # objects made between two young collections, under the console script
_default: tuple[int, ...] | None = None


def hold() -> None:
    global _default
    if _default is None:
        _default = gc.get_threshold()
        gc.set_threshold(YOUNG, *_default[1:])


def settle() -> None:
    global _default
    if _default is not None:
        gc.freeze()
        gc.set_threshold(*_default)
        _default = None


def leave() -> None:
    """The command is done and the process exits next: no collection from here on finds
    anything the exit does not free."""
    gc.freeze()
