"""The layers of the design, checked by folder: every import of every module is resolved to an
absolute name and held to what its layer may use.

| layer | may import |
| --- | --- |
| ``referee/core/`` | the standard library (no I/O, no clock) and the core |
| ``referee/seal/`` | the core, the seal, rfc8785 and cryptography (what is signed; no I/O, no clock) |
| ``referee/store/`` | the core, the store, SQLAlchemy |
| ``referee/service/`` | the core, the seal, the store, the service, SQLAlchemy, openskill (the ratings), networkx (the pairings), cryptography (the actas) |
| ``api/`` | the service, the core's value types, flask and its kin |
| ``cli/`` | the service, the core, click, rich, cryptography (verify); ``migrations`` and ``api`` only where it upgrades or serves |
| ``migrations/`` | the store, alembic, SQLAlchemy |
| ``words/`` | the standard library; Babel (formats, the catalogs' tools) and ICU (collation), each where it is used |

``words`` (the catalogs and the language) is below the layers that talk to people: ``api/`` and
``cli/`` use it; the service and the core do not (their sentences are made at the edge).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import networkx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("referee", "api", "cli", "migrations", "words")
# standard-library modules that reach outside the process or read the clock
IO_MODULES = {"os", "io", "pathlib", "socket", "subprocess", "time", "sqlite3", "shutil",
              "tempfile", "urllib", "http", "threading", "multiprocessing", "asyncio", "logging"}
IO_CALLS = {"open", "print", "input"}
CLOCK_ATTRIBUTES = {"now", "today", "utcnow", "time", "monotonic", "perf_counter"}
FRAMEWORKS = {"flask", "flask_smorest", "flask_httpauth", "marshmallow", "webargs", "werkzeug",
              "click", "rich", "alembic", "waitress", "gunicorn"}

# What each layer may import besides the standard library: product packages by prefix, and
# third-party top-level packages.
LAYERS: dict[str, tuple[tuple[str, ...], set[str]]] = {
    "referee/core": (("referee.core",), set()),
    "referee/seal": (("referee.core", "referee.seal"), {"rfc8785", "cryptography"}),
    "referee/store": (("referee.core", "referee.store"), {"sqlalchemy"}),
    "referee/service": (("referee.core", "referee.seal", "referee.store", "referee.service"),
                        {"sqlalchemy", "openskill", "networkx", "cryptography"}),
    "api": (("referee.service", "referee.core", "api", "words"),
            {"flask", "flask_smorest", "flask_httpauth", "flask_babel", "marshmallow", "webargs",
             "werkzeug", "jinja2", "markupsafe", "flask_swagger_ui", "limits",
             # the server: the ASGI front, uvicorn and its gunicorn worker (api.asgi, api.server)
             "a2wsgi", "uvicorn", "uvicorn_worker",
             "segno",  # the club desk's QR codes (api.desk.views)
             "icalendar"}),  # a league's fixtures as a calendar feed (api.pages.calendar)
    # cryptography: domino verify checks an acta's Ed25519 signature offline
    "cli": (("referee.service", "referee.core", "referee", "cli", "words"),
            {"click", "rich", "cryptography"}),
    "migrations": (("referee.store", "migrations"), {"alembic", "sqlalchemy"}),
    "words": (("words",), {"babel", "icu"}),
}
# The CLI's commands that upgrade the database or serve the API (and the connection helper that
# tells a user their database needs an upgrade) may reach those layers, inside the command.
CLI_UPGRADES_OR_SERVES = {"db.py", "serve.py", "connection.py"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> list[tuple[str, bool]]:
    """(absolute module name, at module level?) of every import in a file, wherever it is (in a
    function, under ``if TYPE_CHECKING``)."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top_level = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        at_top = id(node) in top_level
        if isinstance(node, ast.Import):
            found += [(alias.name, at_top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            # from package import x: x may be a module of it (from . import x, always)
            found += [(f"{name}.{alias.name}"
                       if node.module is None or _is_module(f"{name}.{alias.name}") else name,
                       at_top) for alias in node.names]
    return found


def _is_module(name: str) -> bool:
    """Whether ``name`` is a module or package of this repository."""
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def layer_of(path: Path) -> str:
    rel = path.relative_to(ROOT).as_posix()
    for layer in sorted(LAYERS, key=len, reverse=True):
        if rel.startswith(layer + "/"):
            return layer
    raise AssertionError(f"{rel} is in no layer")


SOURCES = sorted(p for top in PRODUCT for p in (ROOT / top).rglob("*.py")
                 if p.parent != ROOT / "migrations" / "versions")
LAYERED = [p for p in SOURCES if p != ROOT / "referee" / "__init__.py"]


@pytest.mark.parametrize("path", LAYERED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_imports_go_one_way(path: Path) -> None:
    layer = layer_of(path)
    product, third_party = LAYERS[layer]
    for name, _ in imports(path):
        top = name.split(".")[0]
        if top in PRODUCT:
            if layer == "cli" and top in ("migrations", "api") and path.name in CLI_UPGRADES_OR_SERVES:
                continue
            allowed = any(name == p or name.startswith(p + ".") for p in product)
            if layer == "cli" and top == "referee":
                # the package root re-exports the core
                allowed = allowed and (name == "referee" or not name.startswith("referee.store"))
            assert allowed, f"{path.relative_to(ROOT)} ({layer}) imports {name}"
        else:
            serves = layer == "cli" and path.name in CLI_UPGRADES_OR_SERVES and top == "waitress"
            assert top in sys.stdlib_module_names or top in third_party or serves, \
                f"{path.relative_to(ROOT)} ({layer}) imports {name}"


def test_the_package_root_re_exports_only_the_core() -> None:
    """It imports the core and the standard library only (each name from its module of the
    core when first asked for), and every name it lends is the core's."""
    names = [name for name, _ in imports(ROOT / "referee" / "__init__.py")]
    product = [n for n in names if n.split(".")[0] not in sys.stdlib_module_names]
    assert product and all(n.startswith("referee.core") for n in product), names
    import referee

    for name in referee.__all__:
        value = getattr(referee, name)
        assert any(getattr(module, name, None) is value for key, module in sys.modules.items()
                   if key.startswith("referee.core.")), name


CORE = sorted([*(ROOT / "referee" / "core").glob("*.py"), *(ROOT / "referee" / "seal").glob("*.py")])


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_core_does_no_io_and_reads_no_clock(path: Path) -> None:
    for name, _ in imports(path):
        assert name.split(".")[0] not in IO_MODULES, f"{path.name} imports {name}"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                assert func.id not in IO_CALLS, f"{path.name} calls {func.id}()"
            elif isinstance(func, ast.Attribute):
                assert func.attr not in CLOCK_ATTRIBUTES, f"{path.name} calls .{func.attr}()"


@pytest.mark.parametrize("path", sorted((ROOT / "referee").rglob("*.py")),
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_nothing_in_referee_imports_a_framework_or_the_migrations(path: Path) -> None:
    for name, _ in imports(path):
        top = name.split(".")[0]
        assert top not in FRAMEWORKS | {"api", "cli", "migrations", "words"}, \
            f"{path.relative_to(ROOT)} imports {name}"


def _loaded_by(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint('\\n'.join(sys.modules))"],
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout
    return {m.split(".")[0] for m in out.split()} | {m for m in out.split() if m.startswith("referee.")}


@pytest.mark.slow  # starts a process
def test_importing_the_core_pulls_in_nothing_else() -> None:
    loaded = _loaded_by("import referee, referee.core.simulate")
    outside = {m for m in loaded if "." not in m and m not in sys.stdlib_module_names
               and m not in ("referee", "__main__") and not m.startswith("_")}
    assert outside == set()
    assert not [m for m in loaded if m.startswith("referee.") and not m.startswith("referee.core")]


@pytest.mark.slow  # starts a process
def test_the_service_pulls_in_no_framework() -> None:
    loaded = _loaded_by("import referee.service")
    assert not loaded & (FRAMEWORKS | {"api", "cli", "migrations"})


def test_no_import_cycles() -> None:
    """No module of the product imports, however indirectly, a module that imports it: not at
    run time, not in a function (a deferred import only hides a cycle), not for type hints.
    Every import counts, so the layers below a module never need to know about it."""
    graph = networkx.DiGraph()
    for path in SOURCES:
        here = module_name(path)
        for name, _ in imports(path):
            if name.split(".")[0] in PRODUCT and name != here and _is_module(name):
                graph.add_edge(here, name)
    cycles = [" -> ".join([*cycle, cycle[0]]) for cycle in networkx.simple_cycles(graph)]
    assert not cycles, "import cycles:\n" + "\n".join(sorted(cycles))
