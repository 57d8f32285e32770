"""The pages' scripts are ES modules (as the phone's are), and what every page needs of the
server is said once: the token's storage key, the call with it, the status line (client.js),
the words (i18n.js), the status line's place beside the control last used (near.js, the
desk's and the phone's). A page script with its own copy, or loaded as a classic script, fails."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "api" / "static"
TEMPLATES = ROOT / "api" / "templates"
# The API's documentation page runs Swagger UI's own bundle, classic scripts of its own.
NOT_PAGES = {"docs.js"}
SHARED = {"client.js", "i18n.js", "near.js"}


def scripts() -> list[Path]:
    return sorted(p for p in STATIC.glob("*.js") if p.name not in NOT_PAGES)


def test_every_page_script_is_a_module_with_one_copy_of_the_shared_parts() -> None:
    for path in scripts():
        text = path.read_text(encoding="utf-8")
        assert "window.dominoWords" not in text and not re.search(r"^\(function \(\) \{", text, re.M), \
            path.name
        if path.name not in SHARED:
            assert re.search(r'^import .* from "\./(client|i18n)\.js";$', text, re.M), path.name
            assert "domino-referee.token" not in text, f"{path.name}: the token's key is client.js's"
            assert not re.search(r"^function (token|call|say)\(", text, re.M), path.name
    assert "domino-referee.token" in (STATIC / "client.js").read_text(encoding="utf-8")


def test_the_templates_load_them_as_modules() -> None:
    loaded = set()
    for template in TEMPLATES.rglob("*.html"):
        for tag in re.findall(r"<script [^>]*src=\"[^\"]*\">", template.read_text(encoding="utf-8")):
            name = re.search(r"filename='([^']+)'", tag)
            if name and name.group(1) in {p.name for p in scripts()}:
                assert 'type="module"' in tag, (template.name, tag)
                loaded.add(name.group(1))
    assert loaded >= {p.name for p in scripts()} - SHARED  # the shared ones are imported


def test_a_repeating_timer_is_client_js_s() -> None:
    """A page may be written in place of another (client.js, show()), which keeps the window's
    timers: a timer repeating on a page goes through client.js's every(), which show() stops."""
    for path in scripts():
        if path.name != "client.js":
            assert "setInterval(" not in path.read_text(encoding="utf-8"), path.name
