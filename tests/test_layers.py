"""The layers of the design: the rules core imports only the standard library and itself, does no
I/O and reads no clock; nothing in referee/ imports the HTTP or CLI layers."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

REFEREE = Path(__file__).resolve().parent.parent / "referee"
CORE = ("tiles", "rules", "events", "match", "scoring", "replay", "report", "position", "log",
        "simulate")
# standard-library modules that reach outside the process or read the clock
IO_MODULES = {"os", "io", "pathlib", "socket", "subprocess", "time", "sqlite3", "shutil",
              "tempfile", "urllib", "http", "threading", "multiprocessing", "asyncio", "logging"}
IO_CALLS = {"open", "print", "input"}
CLOCK_ATTRIBUTES = {"now", "today", "utcnow", "time", "monotonic", "perf_counter"}


def imports(path: Path) -> list[tuple[int, str]]:
    """(relative level, absolute or relative module name) of every import in a file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(0, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level and not node.module:  # from . import x
                found += [(node.level, alias.name) for alias in node.names]
            else:
                found.append((node.level, node.module or ""))
    return found


def core_name(level: int, name: str) -> str | None:
    """The core module an import names, or None if it names something else."""
    if level == 1:
        head = name.split(".")[0]
    elif name.startswith("referee."):
        head = name.split(".")[1]
    else:
        return None
    return head if head in CORE else f"referee.{head}"


@pytest.mark.parametrize("module", CORE)
def test_core_imports_only_the_standard_library_and_the_core(module):
    for level, name in imports(REFEREE / f"{module}.py"):
        if level == 0 and not name.startswith("referee"):
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names, f"{module} imports {name}"
            assert top not in IO_MODULES, f"{module} imports {name}: the core does no I/O"
        else:
            assert level <= 1, f"{module} imports from outside referee/"
            target = core_name(level, name)
            assert target in CORE, f"{module} imports {target}, which is not in the rules core"


@pytest.mark.parametrize("module", CORE)
def test_core_does_no_io_and_reads_no_clock(module):
    tree = ast.parse((REFEREE / f"{module}.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                assert func.id not in IO_CALLS, f"{module} calls {func.id}()"
            elif isinstance(func, ast.Attribute):
                assert func.attr not in CLOCK_ATTRIBUTES, f"{module} calls .{func.attr}()"


@pytest.mark.parametrize("path", sorted(REFEREE.rglob("*.py")), ids=lambda p: p.name)
def test_nothing_in_referee_imports_api_or_cli(path):
    for level, name in imports(path):
        if level == 0:
            assert name.split(".")[0] not in ("api", "cli"), f"{path.name} imports {name}"
        else:
            assert level == 1, f"{path.name} imports from above referee/"


def test_importing_the_core_pulls_in_nothing_else():
    code = ("import sys\n"
            + "".join(f"import referee.{m}\n" for m in CORE)
            + "print('\\n'.join(sorted(sys.modules)))\n")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=REFEREE.parent).stdout.split()
    outside = [m for m in loaded if m.split(".")[0] not in sys.stdlib_module_names
               and m.split(".")[0] not in ("referee", "__main__")
               and not m.startswith("_")]
    assert outside == []
    assert not [m for m in loaded if m.startswith("referee.")
                and m.split(".")[1] not in CORE]
