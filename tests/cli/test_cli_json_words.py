"""What is wrong with a line that is not JSON, said where and what in the caller's language
(``domino validate``, ``domino verify LOG``, ``--rules``), not in json's English ("Expecting
',' delimiter: line 1 column 5 (char 4)")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import Cli

import words
from referee.core.log import _decoder, json_problem

HEADER = json.dumps({"format": "domino-log/1", "rules": "mano-a-mano", "players": ["Ana", "Beto"]})

# every complaint of json's decoder (C scanner and Python one), and what each is said as
BROKEN = [('{"type" "draw"}', "column 9: a colon was expected"),
          ('{"type": "draw" "seat": 1}', "column 17: a comma was expected"),
          ('{"type": }', "column 10: a value was expected"),
          ('{type: "draw"}', "column 2: a key in double quotes was expected"),
          ('{"type": "dr', "column 10: this string is never closed"),
          ('{"type": "d\x01"}', "column 12: a control character inside a string"),
          ('{"type": "\\q"}', "column 11: a backslash that escapes nothing JSON knows"),
          ('{"type": "\\u12"}', "column 12: a \\u escape that is not four hexadecimal digits"),
          ('{"type": "draw"} x', "column 18: more text after the value"),
          ('{"seat": NaN}', "NaN is not JSON")]


@pytest.mark.parametrize("line, said", BROKEN)
def test_each_complaint_of_the_decoder_is_said_in_words(line: str, said: str) -> None:
    with pytest.raises(ValueError) as caught:
        _decoder.decode(line)
    assert json_problem(caught.value) == said
    if said.startswith("column"):
        assert json_problem(caught.value, lines=True) == "line 1, " + said


def test_the_python_decoders_words_too() -> None:
    # json's pure-Python string reader (no C speedups) names the character after its words
    for msg, said in (("Invalid \\escape: 'q'", "a backslash that escapes nothing JSON knows"),
                      ("Invalid control character '\\x01' at", "a control character inside a string")):
        assert json_problem(json.JSONDecodeError(msg, "ab", 1)) == "column 2: " + said


@pytest.mark.parametrize("lang", ["es", "it", "xx"])
def test_every_complaint_has_its_translation(lang: str) -> None:
    from referee.core.log import _JSON_WORDS

    token = words.use(lang)
    try:
        for _, english in _JSON_WORDS:
            assert words.say(english) != english
    finally:
        words.reset(token)


@pytest.mark.parametrize("lang, said", [
    ("en", "bad.jsonl: cannot read line 2: not JSON: column 17: a comma was expected"),
    ("es", "bad.jsonl: no se puede leer la línea 2: no es JSON: columna 17: se esperaba una coma"),
    ("it", "bad.jsonl: impossibile leggere la riga 2: non è JSON: colonna 17: era attesa una virgola")])
def test_validate_and_verify_say_where_and_what(cli: Cli, tmp_path: Path, lang: str, said: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(HEADER + '\n{"type": "draw" "seat": 1}\n')
    out = cli.run("--lang", lang, "validate", path, code=2).output
    assert said in out and "Expecting" not in out
    report = json.loads(cli.run("--lang", lang, "validate", "--json", path, code=2).output)
    assert report["error"] == {"line": 2, "message": said.split(": ", 2)[2]}
    assert said in cli.run("--lang", lang, "verify", path, code=2).output


@pytest.mark.parametrize("lang, said", [
    ("en", "Invalid value for '--points': not JSON: column 11: a comma was expected"),
    ("es", "no es JSON: columna 11: se esperaba una coma"),
    ("it", "non è JSON: colonna 11: era attesa una virgola")])
def test_a_json_option_says_where_and_what(cli: Cli, lang: str, said: str) -> None:
    # league new's --points, --format and --leg-rules and cup new's --rules said "'...' is not
    # JSON", and took NaN and a key named twice; read now as match new's --rules and a log are
    out = cli.run("--lang", lang, "league", "new", "2028", "--club", "casino", "--name", "L",
                  "--singles", "1", "--first-day", "2028-01-06", "--points", '{"win": 3 "draw": 1}', code=2).output
    assert said in out
    for text, why in (('{"win": NaN}', "NaN is not JSON"),
                      ('{"win": 3, "win": 2}', "the key 'win' appears twice in one object")):
        assert why in cli.run("league", "new", "2028", "--club", "casino", "--name", "L",
                              "--singles", "1", "--first-day", "2028-01-06", "--points", text, code=2).output
