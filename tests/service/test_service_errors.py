"""The service's error sentences reach the catalogs (docs/i18n.md, *Writing a message*): an
error takes its msgid as a literal %-template with named values, never a sentence made before
the raise (an f-string, a ``+``, a ``%`` or ``.format()``), which babel cannot extract and so
no edge can translate; and ``words.build``'s extraction skips no f-string of referee/service."""

from __future__ import annotations

import ast
import contextlib
import io
from pathlib import Path

import pytest

import words
from referee.service import errors
from referee.service.errors import ChainBroken, Invalid, ServiceError, SigningKeyError
from referee.service.players import Unconfirmed
from words.build import KEYWORDS

SERVICE = Path(errors.__file__).parent
ROOT = SERVICE.parents[1]


def error_classes() -> set[str]:
    """errors.py's exception classes and every subclass the service defines of one."""
    names = {name for name, value in vars(errors).items()
             if isinstance(value, type) and issubclass(value, Exception)}
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in SERVICE.rglob("*.py")]
    grew = True
    while grew:
        grew = False
        for tree in trees:
            for node in ast.walk(tree):
                if (isinstance(node, ast.ClassDef) and node.name not in names
                        and any(isinstance(b, ast.Name) and b.id in names for b in node.bases)):
                    names.add(node.name)
                    grew = True
    return names


def made_before(argument: ast.expr) -> str | None:
    """Why ``argument`` is a sentence made before the raise, or None."""
    if isinstance(argument, ast.JoinedStr):
        return "an f-string"
    if isinstance(argument, ast.BinOp) and isinstance(argument.op, (ast.Add, ast.Mod)):
        return "a sentence put together with + or %"
    if (isinstance(argument, ast.Call) and isinstance(argument.func, ast.Attribute)
            and argument.func.attr == "format"):
        return "a sentence filled in with .format()"
    if isinstance(argument, ast.IfExp):
        return made_before(argument.body) or made_before(argument.orelse)
    return None


def raised_sentences() -> list[str]:
    """Each error of the service given a sentence no catalog holds (file:line: why)."""
    names = error_classes()
    found = []
    for path in sorted(SERVICE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            called = node.func.id if isinstance(node.func, ast.Name) else (
                node.func.attr if isinstance(node.func, ast.Attribute) else None)
            if called in names and (why := made_before(node.args[0])):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {called}() gets {why}")
            # an error's own sentence handed up is no keyword's argument: N_ marks it
            elif (called == "__init__" and isinstance(node.func.value, ast.Call)
                  and getattr(node.func.value.func, "id", None) == "super"
                  and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: super().__init__() gets "
                             "a msgid not marked N_()")
    return found


def test_no_service_error_is_given_a_sentence_made_before_the_raise() -> None:
    assert raised_sentences() == []


def test_the_walk_finds_what_it_looks_for() -> None:
    """The check above can fail: each way of making a sentence early is seen."""
    for source in ('f"no club {club!r}"', '"no club " + club', '"no club %r" % club',
                   '"no club {}".format(club)', '"a" if x else f"no club {club}"'):
        assert made_before(ast.parse(source, mode="eval").body), source
    for source in ('"no club %(slug)r"', "error.message", 'N_("x")'):
        assert made_before(ast.parse(source, mode="eval").body) is None, source


def test_every_error_class_raised_with_a_msgid_is_an_extraction_keyword() -> None:
    """A class whose first argument is its msgid is one of words.build's keywords, so that
    babel puts what it is raised with into the template."""
    keywords = {k.split(":")[0] for k in KEYWORDS}
    takes_message = {"NotFound", "Invalid", "Forbidden", "Unauthorized", "Duplicate",
                     "NotFinished", "IdempotencyMismatch", "ServiceError", "RoundRefused",
                     "Busy", "RecordBroken", "TreeBroken", "ActaPending", "SigningKeyError",
                     "NoSigningKey", "LeagueError"}
    assert takes_message <= keywords


def test_extraction_skips_no_f_string_of_the_service() -> None:
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

    keywords = {**DEFAULT_KEYWORDS, **{k.split(":")[0]: None for k in KEYWORDS}}
    told = io.StringIO()
    with contextlib.redirect_stderr(told):
        extracted = list(extract_from_dir(str(SERVICE), method_map=[("**.py", "python")],
                                          keywords=keywords))
    assert extracted  # it read the service
    assert "Skipping f-string" not in told.getvalue(), told.getvalue()


# --------------------------------------------------------------------------- said at the edge

@pytest.fixture
def spanish():
    token = words.use("es")
    yield
    words.reset(token)


def test_a_chain_check_is_said_whole_in_spanish(spanish: None) -> None:
    from referee.core.said import said

    error = ChainBroken(7, [(3, "x"), (None, said("the match counts %(last)s events, the "
                                                  "record holds %(held)s", last=4, held=3))])
    assert error.message == ("match 7's record fails its chain check, so nothing is signed "
                             "from it (event 3: x; the match counts 4 events, the record holds "
                             "3); domino db audit lists every problem")
    spoken = words.message(error)
    assert "evento 3: x" in spoken and "la partida cuenta 4 eventos" in spoken
    assert "match" not in spoken


def test_a_did_you_mean_is_said_in_spanish(spanish: None) -> None:
    one = Unconfirmed("casino", {"Ana Peres": ["Ana Pérez"]})
    assert one.message.startswith("'Ana Peres' is not a player of casino but close to one: "
                                  "did you mean Ana Pérez?")
    assert "Ana Pérez" in words.message(one) and "did you mean" not in words.message(one)
    two = Unconfirmed("casino", {"Ana Peres": ["Ana Pérez", "Ana Peña"], "Bto": ["Beto"]})
    assert "did you mean Ana Pérez or Ana Peña (for 'Ana Peres'); Beto (for 'Bto')?" in two.message
    assert "Ana Pérez o Ana Peña (por 'Ana Peres'); Beto (por 'Bto')" in words.message(two)


def test_a_signing_key_error_keeps_its_msgid(spanish: None) -> None:
    from referee.service.keys import TEXT

    error = SigningKeyError(TEXT["no_key"], club="casino")
    assert error.message.startswith("club casino has no signing key")
    assert words.message(error).startswith("el club casino no tiene clave de firma")


def test_a_service_error_of_the_tournaments_in_italian() -> None:
    from referee.service.tournaments.fields import whole

    token = words.use("it")
    try:
        with pytest.raises(Invalid) as refused:
            whole(0, "rounds", 1, 9)
        assert refused.value.message == "rounds must be a whole number from 1 to 9, not 0"
        assert words.message(refused.value) == "rounds deve essere un numero intero da 1 a 9, non 0"
    finally:
        words.reset(token)
    assert isinstance(refused.value, ServiceError)
