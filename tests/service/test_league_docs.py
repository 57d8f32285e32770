"""docs/leagues.md's example for developers runs, and says what it gives."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "leagues.md"


def test_the_developers_example_runs_as_written() -> None:
    code = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S).group(1)
    names: dict = {}
    exec(compile(code, str(DOC), "exec"), names)  # the doc's own code, nothing else
    table = names["table"]
    assert [(r.place, r.team, r.points, r.zone) for r in table.rows] == [
        (1, "crown", 3, None), (1, "anchor", 3, None), (3, "swan", 0, None),
        (4, "bell", -1, "relegation")]
    assert table.level_across == (("promotion", ("crown", "anchor")),)
    assert names["averages"]([names["won"]], minimum=1)[0].player == "yan"
    assert names["draw"].order == ("crown", "bell", "anchor", "oak", "swan")
    assert names["cup"].tie("W1-2").winner == "oak"
