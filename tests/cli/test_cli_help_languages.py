"""Every command's own help in the reader's language: the walk below finds each command and
group of ``domino`` (the lazy ones loaded), and in the pseudo-locale its help, its short help
and every option's help are the catalog's (wrapped in its marks), both as texts and on the
``--help`` page as printed; so a new command, or a new option, whose help is not marked with
``N_`` (cli/click_words.py translates what the catalogs hold) fails here. Then Spanish and
Italian for a few of them, and the usage errors and checks (cli/options.py, the rulings,
tournament new, verify) that stop a command before it does anything.
"""

from __future__ import annotations

import re
from typing import Iterator

import click
import pytest
from click.testing import CliRunner, Result

import words
from cli.click_words import translated_help
from cli.main import COMMANDS, main
from referee.core.vocab import DEFAULT_TIE_BREAKERS, MAX_DEFAULT_TARGET, TIE_BREAKERS
from words.pseudo import wrap

Path = tuple[str, ...]


def walk(command: click.Command, path: Path = ()) -> Iterator[tuple[Path, click.Command]]:
    """``command`` and, for a group, every command under it (a lazy group loads each)."""
    yield path, command
    if isinstance(command, click.Group):
        ctx = click.Context(command, info_name=" ".join(("domino", *path)))
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            assert sub is not None, (path, name)
            yield from walk(sub, (*path, name))


EVERY = dict(walk(main))


def texts(command: click.Command) -> list[str]:
    """The help texts a command shows: its help, its short help, each option's help."""
    found = [command.help, command.short_help]
    found += [param.help for param in command.params if isinstance(param, click.Option)]
    return [text for text in found if text]


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), prog_name="domino", terminal_width=80)


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMINO_PSEUDO_LOCALE", "1")


def test_the_walk_finds_every_command_and_subcommand() -> None:
    assert {path[0] for path in EVERY if path} == set(COMMANDS)
    for path in [("club", "set"), ("player", "merge"), ("token", "revoke"), ("db", "audit"),
                 ("match", "abandon"), ("tournament", "lift"), ("key", "sign-due")]:
        assert path in EVERY
    assert len(EVERY) >= 69  # the group, 28 commands, the groups' subcommands


# ------------------------------------------------------------------- the pseudo-locale

@pytest.mark.parametrize("path", sorted(EVERY), ids=lambda path: " ".join(path) or "domino")
def test_every_help_and_option_help_is_the_catalogs(path: Path, pseudo: None) -> None:
    command = EVERY[path]
    assert command.help, f"{path}: a command without help"
    token = words.use(words.PSEUDO)
    try:
        for text in texts(command):
            assert translated_help(text) == wrap(text), f"{path}: not in the catalogs: {text!r}"
    finally:
        words.reset(token)


MARKED = re.compile(r"⟦[^⟦⟧]*⟧")  # a mark's text spans lines: click wraps it
# a short help in a group's listing is the start of the command's help, cut by click (at its
# first sentence, or "..."): its mark opens and does not close
SHORTENED = re.compile(r"⟦[^⟦⟧\n]*$", re.M)
# what a help page shows that is no text for translation: option names, metavars, choices,
# click's range hints, punctuation
DATA = re.compile(r"^(?:-{1,2}[\w-]+,?|\[?[A-Z][A-Z0-9_,.|\-]*\]?(?:\.\.\.)?|\[[\w|-]+\]"
                  r"|\[?(?:\d+<=?)?x(?:[<>]=?\d+)?[;\]]?|[^\w⟦⟧]+)$")


def unmarked(page: str, names: set[str]) -> list[str]:
    """The words of a help page outside the marks, but for data and the commands' names."""
    while MARKED.search(page):  # marks inside marks (a default inside a help): innermost first
        page = MARKED.sub(" ", page)
    page = SHORTENED.sub(" ", page)
    return [word for word in page.split() if word not in names and not DATA.match(word)]


@pytest.mark.parametrize("path", sorted(EVERY), ids=lambda path: " ".join(path) or "domino")
def test_every_help_page_is_inside_the_marks(path: Path, pseudo: None) -> None:
    result = run("--lang", "xx", *path, "--help")
    assert result.exit_code == 0, result.output
    page = result.stdout
    command = EVERY[path]
    names = {"domino", *path}
    if isinstance(command, click.Group):
        names |= set(command.list_commands(click.Context(command)))
    left = unmarked(page, names)
    assert left == [], f"{left}\n{page}"
    # the command's own help is on the page, said by the catalog (click rewraps its lines)
    first = " ".join(command.help.split("\n\n")[0].split())
    assert wrap(first).split()[0] in page.split()


def test_a_help_without_n_would_fail(pseudo: None) -> None:
    # the check above finds a help the catalogs do not hold (as a new option's would be)
    stray = click.Command("stray", help="Some text no catalog holds.",
                          params=[click.Option(["--x"], help="Neither this.")])
    token = words.use(words.PSEUDO)
    try:
        assert [translated_help(t) == wrap(t) for t in texts(stray)] == [False, False]
    finally:
        words.reset(token)
    page = CliRunner().invoke(stray, ["--help"], terminal_width=80).stdout
    assert "Some" in unmarked(page, {"stray"}) and "Neither" in unmarked(page, {"stray"})


# ------------------------------------------------------------------ Spanish and Italian

@pytest.mark.parametrize("lang, args, said", [
    ("es", ("club", "create"), ["Crea un club, su primera clave de administrador y su clave",
                                "El nombre del club, como lo escribe la gente (en lugar de",
                                "Ejemplo:"]),
    ("es", ("standings",), ["La clasificación de un club: por jugador",
                            "Solo las partidas jugadas este día o después."]),
    ("es", ("tournament", "lift"), ["Levanta una restricción"]),
    ("es", ("amend",), ["Corrige el evento SEQ", "Por qué: se guarda en el registro."]),
    ("it", ("verify",), ["Stato di uscita: 0 verificato e pulito", "Esempio:",
                         "Stampa l'esito come un oggetto JSON."]),
    ("it", ("penalty",), ["Assegna punti a una squadra", "Punti assegnati (negativi: tolti)."]),
    # a group: its subcommands' short helps, cut from their own helps in the language
    ("it", ("key",), ["Le chiavi di firma del club", "Crea la prima chiave di firma del club",
                      "Elenca le chiavi del club"]),
])
def test_helps_in_spanish_and_italian(lang: str, args: Path, said: list[str]) -> None:
    page = " ".join(run("--lang", lang, *args, "--help").stdout.split())  # click's wrapping
    for text in said:
        assert text in page, f"{text!r} not in\n{page}"
    english = " ".join(run(*args, "--help").stdout.split())
    assert said[0] not in english


def test_the_help_written_out_names_what_the_code_knows() -> None:
    # three helps were f-strings (not extractable): their codes are written out in the msgid
    tie = next(p for p in EVERY[("club", "set")].params if p.name == "tie_breakers").help
    assert all(name in tie for name in TIE_BREAKERS)
    assert f"'default' ({','.join(DEFAULT_TIE_BREAKERS)})" in tie
    target = next(p for p in EVERY[("club", "set")].params if p.name == "default_target").help
    assert f"1 to {MAX_DEFAULT_TARGET} points" in target
    from cli.verify import TOKEN_VARIABLE

    token = next(p for p in EVERY[("verify",)].params if p.name == "token").help
    assert f"(default: {TOKEN_VARIABLE})" in token


# -------------------------------------------------- usage errors and the options' checks

@pytest.mark.parametrize("lang, args, said", [
    ("es", ("player", "show", "", "--club", "casino"), "un nombre no puede estar en blanco"),
    ("it", ("player", "show", "x" * 201, "--club", "casino"),
     "un nome ha al massimo 200 caratteri, non 201"),
    ("es", ("match", "list", "--club", "casino", "--from", "2026-02-30"),
     "'2026-02-30' no es un día: escríbalo AAAA-MM-DD"),
    ("es", ("penalty", "7", "--side", "1"), "indique --side y --points a la vez"),
    ("it", ("penalty", "7", "--side", "1", "--points", "5"), "Manca l'opzione '--reason'."),
    ("es", ("amend", "7", "3", "{", "--reason", "x"), "no es JSON:"),
    ("it", ("amend", "7", "3", "s", "--reason", "x"), "è un comando del prompt del tavolo"),
    ("es", ("tournament", "new", "copa", "--club", "casino", "--name", "Copa", "--format",
            "pairs", "--rules", "parejas", "--rounds", "2", "--player", "Ana", "--pair",
            "Beto,Carla"), "indique --player (rotating) o --pair (pairs, round_robin), no ambos"),
    ("it", ("tournament", "new", "copa", "--club", "casino", "--name", "Copa", "--format",
            "pairs", "--rules", "parejas", "--rounds", "2", "--pair", "Beto"),
     "'Beto': una coppia sono due nomi, NOME,NOME"),
    ("it", ("verify",), "indica un LOG, un --acta FILE, o --since OLD_HEAD e la testa di oggi"),
    ("es", ("verify", "--since", "head.json"), "--since OLD_HEAD toma como argumento"),
])
def test_usage_errors_in_the_language(lang: str, args: Path, said: str) -> None:
    result = run("--lang", lang, *args)
    assert result.exit_code == 2, result.output
    assert said in " ".join(result.stderr.split()), result.stderr


def test_verify_says_a_file_it_cannot_read_in_the_language(tmp_path) -> None:
    missing = str(tmp_path / "nope.jsonl")
    result = run("--lang", "es", "verify", missing)
    assert result.exit_code == 2
    assert f"{missing}: no se puede leer el archivo:" in result.stderr
