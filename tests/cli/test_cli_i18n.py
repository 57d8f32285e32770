"""The CLI in Spanish, Italian and the pseudo-locale: ``--lang``, else LC_ALL / LC_MESSAGES /
LANG, else English; an unknown one passed over. The human output is in the language (tables,
headers, messages, errors, the table prompt's help and answers, plural forms); --json and CSV
are the same in every language. In the pseudo-locale every text a command prints is inside the
catalog's marks, names, numbers, tiles and codes aside (the rules core's violation messages and
evidence are English until the core gives codes and parameters: they are taken out by name)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import OPEN_HANDS, Cli

ROOT = Path(__file__).resolve().parents[2]
RENEGE = str(ROOT / "examples" / "parejas-renege.jsonl")
PAREJAS = str(ROOT / "examples" / "parejas.jsonl")
DEAL = "deal " + " / ".join(" ".join(hand) for hand in OPEN_HANDS)


def test_validate_speaks_spanish_and_italian_and_its_json_does_not(cli: Cli) -> None:
    es = cli.run("--lang", "es", "validate", RENEGE, code=1).output
    assert "Rondas" in es and "Partida terminada: ganó Beto & Dani. 1 infracción:" in es
    assert "renuncio" in es and "(renege)" not in es and "Sin sospechas." in es
    it = cli.run("--lang", "it", "validate", RENEGE, code=1).output
    assert "Mani" in it and "Partita finita: ha vinto Beto & Dani. 1 infrazione:" in it
    en = cli.run("validate", RENEGE, code=1).output
    assert "Match over: Beto & Dani won. 1 violation:" in en
    as_json = {lang: json.loads(cli.run("--lang", lang, "validate", "--json", RENEGE, code=1).output)
               for lang in ("en", "es", "it")}

    def without_words(report: dict) -> dict:
        return {**report, "violations": [{k: v for k, v in found.items()
                                          if k not in ("message", "evidence")}
                                         for found in report["violations"]]}

    # the contract's keys and codes do not change with the language; its messages do
    assert without_words(as_json["en"]) == without_words(as_json["es"]) == without_words(as_json["it"])
    renege = [found["message"] for found in (as_json[lang]["violations"][0] for lang in ("en", "es", "it"))]
    assert " passed holding " in renege[0] and " pasó teniendo " in renege[1]
    assert " ha passato avendo " in renege[2]


@pytest.mark.parametrize("environ, word", [
    ({"LANG": "es_ES.UTF-8"}, "Mesa:"), ({"LC_ALL": "it_IT.UTF-8", "LANG": "es_ES"}, "Linea:"),
    ({"LC_ALL": "C", "LANG": "es_ES"}, "Line:"), ({"LANG": "fr_FR.UTF-8"}, "Line:"),
])
def test_the_locale_environment_decides_without_lang(environ: dict, word: str) -> None:
    # the console script itself, fast path and all, in a new process
    env = {"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", **environ}
    out = subprocess.run([sys.executable, "-c", "from cli.entry import main; main()", "show",
                          PAREJAS, "--at", "3"], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True).stdout
    assert word in out, out


def test_an_unknown_lang_is_passed_over(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    assert "Linea:" in cli.run("--lang", "tlh", "show", PAREJAS, "--at", "3").output
    assert "⟦" not in cli.run("--lang", "xx", "show", PAREJAS).output  # the pseudo-locale: off


def test_the_table_prompt_in_spanish(cli: Cli) -> None:
    match_id = cli.new_match()
    out = cli.run("--lang", "es", "table", match_id,
                  input=f"?\n{DEAL}\n6-6\np\n0: 5-5\nu\ns\nq\n").output
    assert "jugar una ficha" in out and "robar una ficha, sin ver o vista" in out  # the help
    assert "se repartió una ronda nueva (abierta)" in out
    assert "Ana jugó 6-6" in out
    assert "rechazado (" in out  # the referee's refusal of the pass, then what to do
    assert "corríjalo y escríbalo de nuevo, o ! para anotarlo en disputa" in out
    assert "Hasta luego: todo lo anotado queda guardado." in out
    assert "7 fichas" in out or "6 fichas" in out


def test_the_table_prompt_takes_the_languages_yes(cli: Cli) -> None:
    match_id = cli.new_match()
    cli.run("deal", match_id, "--hand", " ".join(OPEN_HANDS[0]), "--hand", " ".join(OPEN_HANDS[1]))
    out = cli.run("--lang", "it", "table", match_id, input="u\nsì\nq\n").output
    assert "stralciare l'evento 1? (una decisione arbitrale) [s/N]" in out
    assert cli.events(match_id)[-1]["type"] == "void"


def test_club_and_player_commands_in_italian(cli: Cli) -> None:
    out = cli.run("--lang", "it", "club", "set", "casino", "--language", "it").output
    assert out.strip() == "casino: lingua delle sue pagine it"
    assert cli.service.clubs.get_club("casino")["language"] == "it"
    for name in ("Zoe", "Ñico", "Nuria", "Ángel"):
        cli.run("player", "add", name, "--club", "casino", "--new")
    listed = cli.run("--lang", "es", "player", "list", "--club", "casino").output
    assert "casino: 4 jugadores" in listed
    order = [n for n in re.findall(r"\b(Zoe|Ñico|Nuria|Ángel)\b", listed)]
    assert order == ["Ángel", "Nuria", "Ñico", "Zoe"]
    one = cli.run("--lang", "es", "player", "add", "Paco", "--club", "casino").output
    assert one.startswith("Paco añadido a casino")
    shown = cli.run("--lang", "it", "club", "show", "casino").output
    assert "5 giocatori" in shown and "lingua delle sue pagine: it" in shown
    error = cli.run("--lang", "es", "player", "show", "Nadie", "--club", "casino", code=1).output
    assert "no hay ningún jugador 'Nadie' en casino" in error
    cleared = cli.run("club", "set", "casino", "--language", "none").output
    assert "none (each reader's browser decides)" in cleared
    assert cli.run("club", "set", "casino", code=2).exit_code == 2


# ---------------------------------------------------------------- the pseudo-locale

MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
# what is no text of the program's: tiles, numbers, codes, paths, the table's frame
DATA = re.compile(r"\[\d+\|\d+\]|\d+-\d+|[0-9][0-9.,:%+\-–]*|\b[a-z]+(?:_[a-z]+)+\b|/\S+|[\u2500-\u257f]"
                  r"|https?://\S+|[^\w\s]")


def unmarked(output: str, known: list[str]) -> list[str]:
    """The words of ``output`` outside the marks, once names and data are taken out."""
    leftover = []
    for line in output.splitlines():
        for text in sorted(known, key=len, reverse=True):
            line = line.replace(text, " ")
        while MARKED.search(line):  # marks inside marks: innermost first
            line = MARKED.sub(" ", line)
        line = DATA.sub(" ", line)
        leftover += line.split()
    return leftover


@pytest.fixture
def pseudo(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> Cli:
    monkeypatch.setenv("DOMINO_PSEUDO_LOCALE", "1")
    return cli


def core_words(cli: Cli, match_id: int) -> list[str]:
    """The rules core's sentences (violation messages, evidence): English for now."""
    report = cli.service.reading.report(match_id)
    said = [v["message"] for v in report["violations"] + report.get("suspicions", [])]
    said += [f["fact"] for v in report["violations"] for f in v.get("evidence") or ()]
    return said


def test_every_command_prints_only_the_catalogs_words_in_the_pseudo_locale(pseudo: Cli) -> None:
    cli = pseudo
    names = ["Ana", "Beto", "Carla", "Dani", "casino", "Casino Domino Club", "Zoe", RENEGE, PAREJAS,
             "cli:table", "cli", "operator"]
    from referee import build_report, read_log, replay

    with open(RENEGE, "rb") as file:
        log = read_log(file.read())
    report = build_report(replay(log.header.rules, log.header.players, log.events))
    core = [v["message"] for v in report["violations"]]
    core += [f["fact"] for v in report["violations"] for f in v.get("evidence") or ()]

    outputs = {}
    outputs["validate"] = cli.run("--lang", "xx", "validate", RENEGE, code=1).output
    outputs["show log"] = cli.run("--lang", "xx", "show", RENEGE, "--at", "5").output
    outputs["club show"] = cli.run("--lang", "xx", "club", "show", "casino").output
    outputs["club set"] = cli.run("--lang", "xx", "club", "set", "casino", "--language", "es").output
    outputs["player add"] = cli.run("--lang", "xx", "player", "add", "Zoe", "--club", "casino").output
    outputs["player list"] = cli.run("--lang", "xx", "player", "list", "--club", "casino").output
    outputs["player show"] = cli.run("--lang", "xx", "player", "show", "Zoe", "--club", "casino").output
    match_id = int(cli.run("--lang", "xx", "match", "new", "--club", "casino", "--rules",
                           "mano-a-mano", "--player", "Ana", "--player", "Beto").stdout.strip())
    typed_lines = ["?", DEAL, "6-6", "p", "!", "zz", "0: 5-5", "s", "q"]
    outputs["table"] = cli.run("--lang", "xx", "table", match_id,
                               input="".join(f"{line}\n" for line in typed_lines)).output
    outputs["match list"] = cli.run("--lang", "xx", "match", "list", "--club", "casino").output
    outputs["match show"] = cli.run("--lang", "xx", "match", "show", match_id).output
    outputs["match report"] = cli.run("--lang", "xx", "match", "report", match_id).output
    outputs["disputes"] = cli.run("--lang", "xx", "disputes", "--match", match_id).output
    outputs["dispute-sheet"] = cli.run("--lang", "xx", "dispute-sheet", match_id, "3").output
    outputs["pass refused"] = cli.run("--lang", "xx", "pass", match_id, code=1).output
    outputs["standings"] = cli.run("--lang", "xx", "standings", "--club", "casino").output
    outputs["not found"] = cli.run("--lang", "xx", "match", "show", "999", code=1).output
    outputs["club set public"] = cli.run("--lang", "xx", "club", "set", "casino", "--public",
                                         "--name", "Casino Domino Club").output
    cli.run("--lang", "xx", "token", "issue", "--club", "casino", "--role", "viewer", "--label", "Zoe")
    outputs["token list"] = cli.run("--lang", "xx", "token", "list", "--club", "casino").output
    cli.run("club", "create", "la-ceiba", "--name", "Casino Domino Club")
    outputs["match import"] = cli.run("--lang", "xx", "match", "import", "--club", "la-ceiba",
                                      PAREJAS, RENEGE).output
    outputs["usage error"] = cli.run("--lang", "xx", "standings", code=2).output
    names += ["la-ceiba", "parejas.jsonl", "parejas-renege.jsonl", "standings", "main", "[OPTIONS]"]
    core += core_words(cli, match_id)
    # what the scorekeeper types is input, not text of ours: the help's forms and the lines typed
    from cli.table import HELP

    typed = [form for forms, _meaning in HELP for form in forms] + typed_lines
    core += sorted(set(typed) | {"TEXT", "N:", "..."}, key=len, reverse=True)
    from words.terms import TERMS

    core += list(TERMS["violation"])  # codes: the same in every language
    for command, output in outputs.items():
        assert output.strip(), command
        left = unmarked(output, names + core)
        assert left == [], f"{command}: not through the catalogs: {left}\n{output}"


# ------------------------------------------------------------- click's own words and the help

@pytest.mark.parametrize("lang, usage, options, commands, shown, error, missing, try_help", [
    ("es", "Uso: main", "Opciones:", "Comandos:", "Muestra este mensaje y termina.", "Error: ",
     "Falta la opción '--club'.", "Pruebe 'main match list --help' para ver la ayuda."),
    ("it", "Uso: main", "Opzioni:", "Comandi:", "Mostra questo messaggio ed esce.", "Errore: ",
     "Manca l'opzione '--club'.", "Prova 'main match list --help' per l'aiuto."),
    ("en", "Usage: main", "Options:", "Commands:", "Show this message and exit.", "Error: ",
     "Missing option '--club'.", "Try 'main match list --help' for help."),
])
def test_clicks_own_words_speak_the_language(cli: Cli, lang: str, usage: str, options: str,
                                             commands: str, shown: str, error: str,
                                             missing: str, try_help: str) -> None:
    helped = cli.run("--lang", lang, "--help").stdout
    assert helped.startswith(usage) and options in helped and commands in helped
    assert shown in helped
    wrong = cli.run("--lang", lang, "match", "list", code=2)
    assert wrong.stderr.startswith(usage) and try_help in wrong.stderr
    assert error + missing in wrong.stderr and not wrong.stdout
    # a subcommand's help: click's frame in the language, the -h/--help line too
    sub = cli.run("--lang", lang, "match", "list", "--help").stdout
    assert sub.startswith(usage + " match list") and options in sub and shown in sub


def test_the_environment_decides_clicks_words_too(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "it_IT.UTF-8")
    out = cli.run("nope", code=2).stderr
    assert "Errore: Non esiste il comando 'nope'." in out
    monkeypatch.setenv("LC_ALL", "es_ES.UTF-8")
    out = cli.run("standings", "--club", code=2).stderr
    assert "La opción '--club' necesita un argumento." in out
    out = cli.run("match", "list", "--club", "casino", "--status", "nada", code=2).stderr
    assert "Valor no válido para '--status'" in out
    out = cli.run("--help").stdout
    assert "árbitro y anotador" in out and "Anota una mesa en vivo" in out  # the listing


def test_the_language_is_put_back_after_a_command(cli: Cli) -> None:
    # --lang holds until click's last word (its Error: after the command), then no longer
    cli.run("--lang", "es", "match", "show", "999", code=1)
    import words

    assert words.current() == "en"
    assert "Usage:" in cli.run("--help").stdout


# what a help shows that is no text for translation: option names, metavars, choices, the
# commands' names in a listing, the examples' command lines
HELP_DATA = re.compile(r"(?<![\w-])--?[a-z][\w-]*|\b[A-Z][A-Z_]+\b(?:\.\.\.)?|\[[\w|-]+\]"
                       r"|^\s{2}[a-z][\w-]*(?=\s{2})|^\s+domino .*$", re.M)


SHORTENED = re.compile(r"⟦[^⟦⟧\n]*\.\.\.$", re.M)


def unmarked_help(text: str, known: list[str]) -> list[str]:
    """The words of a help or a usage error outside the marks (a help's text spans lines; a
    short help click shortened ends in "..." before its closing mark)."""
    text = SHORTENED.sub(" ", text)
    while MARKED.search(text):
        text = MARKED.sub(" ", text)
    return unmarked(HELP_DATA.sub(" ", text), known)


def test_the_main_help_and_clicks_words_are_all_through_the_catalogs(pseudo: Cli) -> None:
    cli = pseudo
    helped = cli.run("--lang", "xx", "--help").stdout
    left = unmarked_help(helped, ["main"])
    assert left == [], f"{left}\n{helped}"
    refused = cli.run("--lang", "xx", "match", "list", code=2).stderr
    left = unmarked_help(refused, ["main match list"])
    assert left == [], f"{left}\n{refused}"
    unknown = cli.run("--lang", "xx", "nope", code=2).stderr
    left = unmarked_help(unknown, ["main", "'nope'"])
    assert left == [], f"{left}\n{unknown}"
    # every command's help: click's frame (Usage:, Options, the -h line) through the catalogs
    from cli.main import COMMANDS

    for name in COMMANDS:
        sub = cli.run("--lang", "xx", name, "--help").stdout
        assert sub.startswith("⟦Usage:⟧ main " + name), name
        assert "⟦Options⟧:" in sub and "⟦Show this message and exit.⟧" in sub, name


# The totals' column by the match's sides (words.events.side_word: es/it said "equipo" /
# "squadra", a team, for one against one), and the verdict's "Every event is legal.", which sat
# in an f-string the catalogs' extractor cannot read and was English in every language.
VALIDATE_WORDS = {"en": ("player", "partnership", "Every event is legal."),
                  "es": ("jugador", "pareja", "Todos los eventos son reglamentarios."),
                  "it": ("giocatore", "coppia", "Tutti gli eventi sono regolari.")}


@pytest.mark.parametrize("lang", sorted(VALIDATE_WORDS))
def test_validate_says_player_or_partnership_and_that_every_event_is_legal(cli: Cli, lang: str) -> None:
    player, partnership, legal = VALIDATE_WORDS[lang]
    for log, column in ((ROOT / "examples" / "mano-a-mano.jsonl", player), (PAREJAS, partnership)):
        out = cli.run("--lang", lang, "validate", str(log)).output
        header = next(line for line in out.splitlines() if "┃" in line and line.count("┃") == 3)
        assert header.split("┃")[1].strip() == column, (lang, log)
        assert legal in out, (lang, log)
