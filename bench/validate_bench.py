"""How fast the referee validates whole matches.

Builds a corpus of random legal matches for every preset (open and closed recording), writes
them as domino-log/1 text, and times the referee over them: from text (what `domino validate`
does: parse, replay, report) and from already-parsed events (the replay alone).

    python bench/validate_bench.py [--matches 400] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from referee import build_report, read_log, replay
from referee.simulate import random_match

TABLES = [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 2), ("veracruz", 3), ("veracruz", 4),
          ("sircle", 2), ("puerto-rico", 4)]


def corpus(matches: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for i in range(matches):
        preset, seats = TABLES[i % len(TABLES)]
        players = [f"P{s}" for s in range(seats)]
        hidden = list(range(seats)) if i % 3 == 0 else ()
        header, events = random_match(preset, players, rng, hidden=hidden)
        texts.append("".join(json.dumps(v) + "\n" for v in (header, *events)))
    return texts


def best_of(runs: int, work) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    texts = corpus(args.matches, args.seed)
    logs = [read_log(t) for t in texts]
    events = sum(len(log.events) for log in logs)
    print(f"corpus: {len(logs)} matches, {events} events "
          f"({events / len(logs):.0f} per match on average)")

    def from_text() -> None:
        for text in texts:
            log = read_log(text)
            build_report(replay(log.header.rules, log.header.players, log.events))

    def replay_only() -> None:
        for log in logs:
            replay(log.header.rules, log.header.players, log.events)

    t_text = best_of(args.runs, from_text)
    t_replay = best_of(args.runs, replay_only)
    print(f"validate from text (parse + replay + report): {events / t_text:,.0f} events/s")
    print(f"replay of parsed events:                      {events / t_replay:,.0f} events/s")

    # one 200-event match, the size of a long club game
    rng = random.Random(args.seed)
    while True:
        header, evs = random_match("veracruz", ["A", "B", "C"], rng)
        if len(evs) >= 200:
            break
    text = "".join(json.dumps(v) + "\n" for v in (header, *evs[:200]))
    samples = []
    for _ in range(200):
        start = time.perf_counter()
        log = read_log(text)
        build_report(replay(log.header.rules, log.header.players, log.events))
        samples.append(time.perf_counter() - start)
    print(f"one 200-event match from text: median {statistics.median(samples) * 1e3:.3f} ms, "
          f"best {min(samples) * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
