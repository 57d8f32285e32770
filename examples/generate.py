"""Regenerate the example logs: python examples/generate.py

Each is a random legal match (fixed seeds, so the files are stable) with a real-looking header;
two are altered on purpose: one holds a renege, one is a closed recording with reveals.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from referee.core.match import Match
from referee.core.rules import resolve_rules
from referee.core.simulate import play_on, random_match

HERE = Path(__file__).parent
CLUB = {"club": "la-ceiba", "event": "Torneo de otoño", "date": "2026-11-27"}
TABLES = {
    "mano-a-mano": ["Ana", "Beto"],
    "parejas": ["Ana", "Beto", "Carla", "Dani"],
    "veracruz": ["Ema", "Fito", "Gala"],
    "sircle": ["Hugo", "Inés"],
    "puerto-rico": ["Juan", "Kiko", "Lola", "Memo"],
}


def write(name: str, header: dict, events: list[dict]) -> None:
    path = HERE / f"{name}.jsonl"
    path.write_text("".join(json.dumps(v, ensure_ascii=False) + "\n" for v in (header, *events)),
                    encoding="utf-8")
    print(f"{path.name}: {len(events)} events")


def with_renege(rules: str, players: list[str], events: list[dict], rng: random.Random) -> list[dict]:
    """A pass by a seat that could play: the table called the renege, and play went on from the
    next seat. The pass is marked ``"disputed": true``, as the table's scorekeeper records a
    refused event to leave it to the referee (and as an export writes it): the log imports as
    shipped, its renege an open dispute, and the referee applies it as the table played it
    (the rest of the match goes on from it, played anew)."""
    for i, event in enumerate(events):
        if event["type"] == "play" and i > 3 and events[i - 1]["type"] == "play":
            record = [*events[:i], {"type": "pass", "seat": event["seat"], "disputed": True},
                      {"type": "note", "text": "the table called a renege; play went on"}]
            match = Match(resolve_rules(rules, len(players)), players)
            match.push_all(record)
            return record + play_on(match, rng)
    raise AssertionError("no play to precede with a renege")


def main() -> None:
    for table, (preset, players) in enumerate(TABLES.items(), start=1):
        header, events = random_match(preset, players, random.Random(table))
        write(preset, {**header, "match": f"otono-{table}", "table": str(table), **CLUB}, events)
    rng = random.Random(7)
    header, events = random_match("parejas", TABLES["parejas"], rng)
    write("parejas-renege", {**header, "match": "otono-7", "table": "7", **CLUB},
          with_renege("parejas", TABLES["parejas"], events, rng))
    header, events = random_match("veracruz", TABLES["veracruz"], random.Random(8), hidden=[0, 1, 2])
    write("veracruz-closed", {**header, "match": "otono-8", "table": "8", **CLUB}, events)
    # The points family: a Fives and Threes pairs match (to 61 exactly) and All Fives (a spinner)
    header, events = random_match("fives-and-threes", ["Nacho", "Olga", "Pepe", "Quique"],
                                  random.Random(9))
    write("fives-and-threes-pairs", {**header, "match": "otono-9", "table": "9", **CLUB}, events)
    header, events = random_match("all-fives", ["Rosa", "Santi"], random.Random(10))
    write("all-fives", {**header, "match": "otono-10", "table": "10", **CLUB}, events)


if __name__ == "__main__":
    main()
