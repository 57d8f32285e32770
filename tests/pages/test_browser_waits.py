"""The browser tests wait in ways a page's Content-Security-Policy allows.

Playwright's ``wait_for_function`` given an expression (not a function) runs ``eval`` of it in
the page at every poll after the first; the pages' CSP (``script-src 'self'``, no
'unsafe-eval') refuses that, so such a wait passes when its condition already holds at the first
check and fails with "'unsafe-eval' is not an allowed source of script" when the machine is busy
enough that it does not. A function (``"() => ..."``) is evaluated once and then called, so it
is safe; a selector wait (``wait_for_selector("#x:has-text('...')")``) runs no page code at all.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
FUNCTION = re.compile(r"\s*(async\s+)?(function\b|\(|[A-Za-z_$][\w$]*\s*=>)")


def expression_waits(source: str) -> list[int]:
    """The lines of ``wait_for_function`` calls whose first argument is a string that is not a
    function (an f-string counts as a string)."""
    found = []
    if "wait_for_function" not in source:
        return found  # no such call in it (the check reads the name as written): not parsed
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "wait_for_function" and node.args):
            continue
        first = node.args[0]
        if isinstance(first, ast.JoinedStr):
            text = "".join(v.value for v in first.values if isinstance(v, ast.Constant))
        elif isinstance(first, ast.Constant) and isinstance(first.value, str):
            text = first.value
        else:
            continue
        if not FUNCTION.match(text):
            found.append(node.lineno)
    return found


def test_the_check_finds_an_expression_wait() -> None:
    assert expression_waits('page.wait_for_function("document.title === \'x\'")') == [1]
    assert expression_waits('page.wait_for_function(f"document.title === \'{t}\'")') == [1]
    for safe in ('"() => document.title"', '"w => w.scrollLeft > 0"', '"([a, b]) => a === b"',
                 '"function () { return 1; }"', "predicate"):
        assert expression_waits(f"page.wait_for_function({safe})") == [], safe


def test_no_browser_test_waits_on_an_expression() -> None:
    found = {str(path.relative_to(TESTS)): lines for path in sorted(TESTS.rglob("*.py"))
             if (lines := expression_waits(path.read_text(encoding="utf-8")))}
    assert found == {}
