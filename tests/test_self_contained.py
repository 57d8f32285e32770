"""A clone of the repository needs nothing outside it: the design's contracts that the code
relies on are written in docs/, so no file points at the design document kept beside the
project, and every relative link of the README and the docs names a file of the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = re.compile(r"DESIGN\.md|\.\./shared\b")
LINK = re.compile(r"\]\(([^)\s]+)\)")
BINARY = (".mo", ".png", ".ico", ".woff2")


def tracked(pattern: str = "*") -> list[Path]:
    names = subprocess.run(["git", "ls-files", "-z", "--", pattern], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split("\0")
    return [ROOT / name for name in names if name and not name.endswith(BINARY)]


def test_no_file_points_outside_the_repository() -> None:
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in tracked() if path != Path(__file__).resolve() and path.is_file()
             for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
             if OUTSIDE.search(line)]
    assert not found, "\n".join(found)


def test_every_relative_link_of_the_docs_names_a_file() -> None:
    broken = [f"{path.relative_to(ROOT)}: {target}"
              for path in tracked("*.md")
              for target in LINK.findall(path.read_text())
              if not re.match(r"[a-z]+:", target) and target.split("#")[0]
              and not (path.parent / target.split("#")[0]).exists()]
    assert not broken, "\n".join(broken)
