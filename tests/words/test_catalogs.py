"""The catalogs are complete and current: every message of the code (as ``pybabel extract``
finds it now) is in the template, translated in es and it (no missing, empty or fuzzy one, every
plural form filled, the placeholders the msgid's), the pseudo-locale wraps each one, and every
committed ``.mo`` is what compiling its ``.po`` gives. When one fails: ``python -m words.build``,
then translate what is new (docs/i18n.md)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import words
from words import LOCALE_DIR, MARKS, PSEUDO
from words.build import KEYWORDS, ROOT, TEMPLATE

TRANSLATED = ("es", "it")
KEYWORD_SPECS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
                 "npgettext": ((1, "c"), 2, 3),
                 **{word: None for word in KEYWORDS if ":" not in word},
                 **{word.split(":")[0]: tuple(int(i) for i in word.split(":")[1].split(","))
                    for word in KEYWORDS if ":" in word}}


def po(lang: str):
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "domino.po").open("rb") as file:
        return read_po(file)


def keyed(catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in catalog if m.id}


@pytest.fixture(scope="module")
def extracted() -> set[tuple[str | None, str]]:
    with (ROOT / "babel.cfg").open(encoding="utf-8") as file:
        method_map, options_map = parse_mapping_cfg(file)
    found = set()
    for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORD_SPECS):
        found.add((context, message[0] if isinstance(message, (tuple, list)) else message))
    return found


def test_the_template_holds_every_message_of_the_code(extracted: set) -> None:
    with TEMPLATE.open("rb") as file:
        template = keyed(read_po(file))
    assert extracted - template == set(), "new messages: run python -m words.build"
    assert template - extracted == set(), "messages gone from the code: run python -m words.build"


def test_every_message_the_python_code_says_is_one_the_extractor_sees(extracted: set) -> None:
    """Babel reads no call inside an f-string (Python 3.11's one token) nor a call inside another
    call's arguments: such a message never reached the catalogs and was said in English in
    every language ("Every event is legal.", "(side 1)"). Every literal msgid of a gettext call
    in the product's Python, found by its syntax tree, must be among the extracted ones."""
    import ast

    names = {"_", "gettext", "ngettext", "N_", "pgettext", "npgettext"}
    missed = []
    for folder in ("referee", "api", "cli", "words"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in names and node.args):
                    continue
                first = 1 if node.func.id in ("pgettext", "npgettext") else 0
                if len(node.args) > first and isinstance(node.args[first], ast.Constant) \
                        and isinstance(node.args[first].value, str):
                    context = node.args[0].value if first else None
                    if (context, node.args[first].value) not in extracted:
                        missed.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert missed == []


def test_every_message_a_script_says_is_one_its_page_embeds() -> None:
    """The same for the pages' scripts: a page embeds the translations of the msgids Babel's
    javascript extractor finds in them (words.scripts), and it finds no _() inside another's
    arguments (the scoreboard's " or " was English in every language). Every literal first
    argument of _(), ngettext() and pgettext()'s msgid, found by a pattern, must be among them."""
    import json
    import re

    from words import scripts

    call = re.compile(r'(?<![\w.$])(_|ngettext|pgettext)\(\s*("(?:[^"\\]|\\.)*")'
                      r'(?:\s*,\s*("(?:[^"\\]|\\.)*"))?')
    missed = []
    for path in sorted((ROOT / "api" / "static").rglob("*.js")):
        found = {singular for singular, _plural in scripts.msgids([path])}
        for match in call.finditer(path.read_text(encoding="utf-8")):
            name, first, second = match.groups()
            said = json.loads(first)
            if name == "pgettext":
                if second is None:
                    continue  # a context given by a name, not a literal
                said = f"{said}{scripts.CONTEXT}{json.loads(second)}"
            if said not in found:
                line = path.read_text(encoding="utf-8")[:match.start()].count("\n") + 1
                missed.append(f"{path.relative_to(ROOT)}:{line} {said!r}")
    assert missed == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(lang: str) -> None:
    catalog = po(lang)
    with TEMPLATE.open("rb") as file:
        assert keyed(catalog) == keyed(read_po(file)), "run python -m words.build"
    assert not catalog.fuzzy
    for message in catalog:
        if not message.id:
            continue
        assert "fuzzy" not in message.flags, message.id
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert forms and all(forms), f"{lang}: no translation of {message.id!r}"
        if isinstance(message.id, tuple):
            assert len(forms) == catalog.num_plurals, message.id
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if not any("%" in i for i in ids):  # the templates format every message: a lone % breaks
            assert not any("%" in form for form in forms), f"{lang}: a % in {forms!r}"
    assert list(catalog.check()) == [], "placeholders differ from the msgid's"


def test_the_pseudo_locale_wraps_every_message() -> None:
    catalog = po(PSEUDO)
    with TEMPLATE.open("rb") as file:
        assert keyed(catalog) == keyed(read_po(file))
    for message in catalog:
        if message.id:
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            assert [f"{MARKS[0]}{i}{MARKS[1]}" for i in ids] == list(forms)[:len(ids)]


@pytest.mark.parametrize("lang", (*TRANSLATED, PSEUDO))
def test_each_mo_is_its_po_compiled(lang: str) -> None:
    out = io.BytesIO()
    write_mo(out, po(lang))
    assert words.mo_path(lang).read_bytes() == out.getvalue(), \
        f"{words.mo_path(lang)} is not its .po compiled: run python -m words.build compile"


def test_the_catalogs_are_package_data() -> None:
    # a wheel (pip install . on a fresh machine) carries the compiled catalogs
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"locale/*/LC_MESSAGES/*.mo"' in text and '"words*"' in text


def test_a_catalog_that_cannot_be_read_is_an_error_naming_the_file(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    broken = tmp_path / "es" / "LC_MESSAGES"
    broken.mkdir(parents=True)
    (broken / "domino.mo").write_bytes(b"not a catalog at all")
    monkeypatch.setattr(words, "LOCALE_DIR", tmp_path)
    words.catalog.cache_clear()
    try:
        with pytest.raises(words.CatalogError) as raised:
            words.check_catalogs(["es"])
        assert str(broken / "domino.mo") in str(raised.value)
        (broken / "domino.mo").unlink()
        with pytest.raises(words.CatalogError, match="domino.mo"):  # a missing one too
            words.catalog("es")
    finally:
        words.catalog.cache_clear()


def test_an_unknown_step_is_refused_before_any_step_runs(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from words import build

    ran: list[str] = []
    monkeypatch.setattr(build, "extract", lambda: ran.append("extract"))
    assert build.main(["extract", "--help"]) == 2
    assert ran == []
    assert "no step '--help'" in capsys.readouterr().err
