"""What a match screen's words cost the API (api/screens.py: ``said``, the phone's sentences),
beside the screen's own JSON, per screen, in English and Spanish: an append answers one.

A parejas match played out from the simulator (its rounds: the more, the more sentences), its
screen read once, then ``screen.as_dict()`` and ``screen_json(screen)`` timed in this thread
(``time.thread_time``, the median of ``--repeat`` runs of ``--number`` calls each). The round
sentences are kept once said (words.events.round_words), as a match's screens say them again.

    python bench/said_bench.py [--number 2000] [--repeat 7] [--seed 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import words  # noqa: E402
from api.screens import screen_json  # noqa: E402
from migrations.runner import upgrade  # noqa: E402
from referee.core.log import make_log, write_log  # noqa: E402
from referee.core.simulate import random_match  # noqa: E402
from referee.service import open_service  # noqa: E402


def cpu_us(call: Callable[[], object], number: int, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.thread_time()
        for _ in range(number):
            call()
        runs.append((time.thread_time() - start) / number * 1e6)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--number", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    url = f"sqlite:///{tempfile.mkdtemp()}/said.db"
    with open_service(url) as service:
        upgrade(service.engine)
        service.clubs.create_club("bench", "Bench")
        header, events = random_match("parejas", ["Ana", "Beto", "Carla", "Dani"],
                                      random.Random(args.seed))
        match = service.recording.import_log("bench", write_log(make_log(header, events)))["id"]
        screen = service.reading.screen(match)
        print(f"a screen of {len(screen.rounds)} rounds, {args.repeat} x {args.number} calls")
        for lang in ("en", "es"):
            token = words.use(lang)
            try:
                bare = cpu_us(screen.as_dict, args.number, args.repeat)
                said = cpu_us(lambda: screen_json(screen), args.number, args.repeat)
            finally:
                words.reset(token)
            print(f"{lang}: the screen {bare:.0f} us, with its words {said:.0f} us "
                  f"(the words: {said - bare:.0f} us a screen)")


if __name__ == "__main__":
    main()
