"""CSV the product writes: RFC 4180, and no cell a spreadsheet would run as a formula."""

from __future__ import annotations

import csv
import io

import pytest

from referee.service import STANDING_COLUMNS, Service
from referee.service.csvfile import safe_cell, to_csv

HOSTILE = ["=HYPERLINK(\"http://evil\",\"x\")", "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR"]


def read(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("value", HOSTILE)
def test_a_formula_cell_gets_a_leading_quote(value: str) -> None:
    assert safe_cell(value) == "'" + value
    assert read(to_csv([{"name": value}], ["name"]))[1] == ["'" + value]


@pytest.mark.parametrize("value", ["Ana", "a=b", "1-0", "", " =x", "'=already", "José"])
def test_other_text_is_left_alone(value: str) -> None:
    assert safe_cell(value) == value


def test_numbers_and_missing_values() -> None:
    text = to_csv([{"player": "Ana", "points": -5, "ratio": -0.5}, {"player": "Beto"}],
                  ["player", "points", "ratio"])
    assert text == "player,points,ratio\r\nAna,-5,-0.5\r\nBeto,,\r\n"


def test_quotes_commas_and_newlines_are_quoted_as_rfc_4180_says() -> None:
    rows = [{"a": 'say "hi"', "b": "x,y", "c": "two\nlines", "d": "=1,2"}]
    text = to_csv(rows, ["a", "b", "c", "d"])
    assert text.splitlines()[1].startswith('"say ""hi""","x,y","two')
    assert read(text)[1] == ['say "hi"', "x,y", "two\nlines", "'=1,2"]
    # Columns not asked for are left out; the order is the columns'.
    assert to_csv([{"b": 2, "a": 1, "z": 9}], ["a", "b"]) == "a,b\r\n1,2\r\n"


def test_standings_csv_escapes_player_names(service: Service, club: str) -> None:
    players = ["=cmd|' /C calc'!A0", "+Ana", "Beto", "@Carla"]
    service.recording.create_match(club, "parejas", players)
    rows = read(service.standings.csv(club))
    assert rows[0] == list(STANDING_COLUMNS)
    assert rows[0][:2] == ["rank", "player"]
    names = sorted(row[1] for row in rows[1:])
    assert names == sorted(["'=cmd|' /C calc'!A0", "'+Ana", "Beto", "'@Carla"])
    # The JSON standings keep the names as they are.
    assert sorted(r["player"] for r in service.standings.table(club)) == sorted(players)
