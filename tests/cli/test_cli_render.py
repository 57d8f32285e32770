"""cli/render.py's layout pieces on their own: Flow (lines broken only between tiles and moves)
and Hands (a table where it fits, else lines)."""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text

from cli.render import Flow, Hands
from referee import Position


def shown(renderable: object, width: int, soft_wrap: bool = False) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, markup=False, color_system=None,
                      soft_wrap=soft_wrap)
    console.print(renderable)
    return out.getvalue()


def test_flow_breaks_between_moves_never_inside_one() -> None:
    text = "To play: Ana (seat 0) · 7 tiles · legal: 6-3 on 6, 6-4 on the 4 end, d (draw)"
    assert shown(Flow(text), 20).splitlines() == [
        "To play: Ana", "  (seat 0) · 7 tiles", "  · legal: 6-3 on 6,", "  6-4 on the 4 end,",
        "  d (draw)"]
    assert shown(Flow(text), 200) == text + "\n"
    assert shown(Flow(text), 20, soft_wrap=True) == text + "\n"  # a script's one line


def test_flow_keeps_the_spacing_and_styles_given_and_folds_only_a_unit_too_wide() -> None:
    text = Text("note:  Beto  asked ")
    text.append("[6|5]", style="bold")
    flow = Flow(text)
    assert shown(flow, 40) == "note:  Beto  asked [6|5]\n"
    assert [span.style for span in list(flow.__rich_console__(
        Console(width=12), Console(width=12).options))[-1].spans] == ["bold"]
    assert shown(Flow("x " + "y" * 12), 10).splitlines() == ["x", "  yyyyyyyy", "yyyy"]


def test_hands_are_a_table_where_it_fits_else_lines() -> None:
    pos = Position(seq=1, round=1, phase="in_progress", line=(), ends=None, turn=0,
                   hands=(("6-6", "6-5", "5-5"), None), counts=(3, 7), boneyard=14,
                   totals=(0, 0), may_lead=(), owes_reveal=(), legal={}, finished=False,
                   winner=None)
    hands = Hands(pos, ["Ana", "Beto"], "(not seen)")
    wide = shown(hands, 80)
    assert "┃ seat ┃ player" in wide and "│ [6|6] [6|5] [5|5] │" in wide
    assert shown(hands, 24).splitlines() == [
        "seat 0: Ana ◀ to play ·", "  3 tiles · [6|6] [6|5]", "  [5|5]",
        "seat 1: Beto · 7 tiles ·", "  (not seen)"]
