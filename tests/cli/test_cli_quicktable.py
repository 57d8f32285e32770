"""QuickTable draws what rich's Table draws, character for character and style for style, on a
terminal and off one, and hands over to rich wherever it cannot be sure to."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console
from rich.table import Table

from cli.quicktable import QuickTable
from cli.render import report_view

NAMES = ["Ana", "Beto", "Carla & Dani", "李小龍", "Zoë", "x" * 30, "é", "[bold]Ana", "-"]
HEADS = ("round", "opener", "outcome", "winner", "points", "pips left")


def build(cls: type[Table], rows: list[tuple[str, ...]], title: str | None = "Rounds") -> Table:
    table = cls(title=title, title_justify="left")
    for head in HEADS:
        table.add_column(head, justify="right" if head in ("round", "points") else "left")
    for row in rows:
        table.add_row(*row)
    return table


def drawn(table: Table, width: int, colour: bool) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, markup=False, force_terminal=colour,
                      color_system="truecolor" if colour else None)
    console.print(table)
    return out.getvalue()


def random_rows(rng: random.Random, names: list[str]) -> list[tuple[str, ...]]:
    return [(str(rng.randint(1, 30)), rng.choice(names), rng.choice(["domino", "blocked by Ana"]),
             rng.choice(names), str(rng.randint(0, 200)),
             " ".join(str(rng.randint(0, 50)) for _ in range(rng.randint(1, 4))))
            for _ in range(rng.randint(0, 12))]


@pytest.mark.parametrize("seed", range(40))
def test_it_draws_what_rich_draws(seed: int) -> None:
    rng = random.Random(seed)
    rows = random_rows(rng, NAMES)
    title = rng.choice(["Rounds", "Totals", None])
    for width in (30, 60, 80, 200):
        for colour in (False, True):
            assert drawn(build(QuickTable, rows, title), width, colour) \
                == drawn(build(Table, rows, title), width, colour), (width, colour)


def test_it_draws_plain_rows_itself_and_hands_the_rest_to_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [("1", "Ana", "domino", "Ana & Carla", "12", "1 2")]
    expected = {width: drawn(build(Table, rows), width, False) for width in (80, 40)}
    rich_drew = []
    original = Table.__rich_console__

    def spy(self: Table, console: Console, options: object):  # type: ignore[no-untyped-def]
        rich_drew.append(True)
        return original(self, console, options)  # type: ignore[arg-type]

    monkeypatch.setattr(Table, "__rich_console__", spy)
    assert drawn(build(QuickTable, rows), 80, False) == expected[80] and not rich_drew
    assert drawn(build(QuickTable, rows), 40, False) == expected[40] and rich_drew  # too wide
    for odd in (":smile:", "Ana\nBeto", "tab\there"):  # an emoji code, more than one line
        rich_drew.clear()
        table = build(QuickTable, [("1", odd, "domino", "Ana", "12", "1 2")])
        assert drawn(table, 80, False) == drawn(build(Table, [("1", odd, "domino", "Ana", "12", "1 2")]), 80, False)
        assert rich_drew


def test_a_report_draws_its_tables_quickly(monkeypatch: pytest.MonkeyPatch) -> None:
    report = {"rounds": [{"round": 1, "opener": 0, "outcome": "blocked", "blocked_by": 1,
                          "winner": 0, "points": 30, "pips": [3, 27]}],
              "totals": [30, 0], "winner": None, "finished": False, "valid": True,
              "violations": []}
    view = report_view(report, ["Ana", "Beto"], ["Ana", "Beto"])  # type: ignore[arg-type]
    monkeypatch.setattr(Table, "__rich_console__", None)  # rich's own drawing: not called
    assert drawn(view, 80, False).splitlines() == [
        "Rounds" + " " * 60,
        "┏━━━━━━━┳━━━━━━━━┳━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━━━━┓",
        "┃ round ┃ opener ┃ outcome         ┃ winner ┃ points ┃ pips left ┃",
        "┡━━━━━━━╇━━━━━━━━╇━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━━━━┩",
        "│     1 │ Ana    │ blocked by Beto │ Ana    │     30 │ 3 27      │",
        "└───────┴────────┴─────────────────┴────────┴────────┴───────────┘",
        "Totals            ",
        "┏━━━━━━━━┳━━━━━━━┓",
        "┃ player ┃ total ┃",  # one against one: a side is a player
        "┡━━━━━━━━╇━━━━━━━┩",
        "│ Ana    │    30 │",
        "│ Beto   │     0 │",
        "└────────┴───────┘",
        "Match not finished. Every event is legal.",
    ]
