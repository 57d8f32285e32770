"""Arguments and options several commands share, so they read and behave the same everywhere.

Input is checked here, with click types, before any service is called: a bad value is a usage
error that names the option the user typed (``--from``), never the service's parameter.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import click

from referee.core.vocab import MAX_INT, NAME_LENGTH, whole_number
from words import N_, _

# The store's ids, seqs and counts are 32-bit: a larger --offset or --at is refused here,
# naming the option.
MAX_COUNT = MAX_INT
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class _DigitsAlone(click.ParamType):
    """A whole number of ASCII digits alone (a minus before them), as the API and the pages read
    numbers (referee.core.vocab.whole_number): click reads with int(), which takes "２", "٣",
    " 2", "+2" and "1_0" too."""

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> object:
        if isinstance(value, str) and whole_number(value, signed=True) is None:
            self.fail(_("%(value)s is not a whole number written in digits 0 to 9",
                        value=repr(value)), param, ctx)
        return super().convert(value, param, ctx)


class Whole(_DigitsAlone, click.IntRange):
    """click's IntRange, of digits alone. Every whole-number option and argument of the CLI is
    one (or a WholeNumber, with no bounds to say)."""


class WholeNumber(_DigitsAlone, click.types.IntParamType):
    """Whole without bounds (click's IntRange would say "x<=None" in the help)."""


def json_value(text: str, option: str) -> Any:
    """The JSON an option was given (``option``: its name, for the error), read as a log's
    lines are (NaN refused, a key named twice refused); what is not JSON is a usage error
    saying where and what, in the caller's language."""
    import json

    from referee.core.log import json_problem, reject_constant, unique_keys

    try:
        return json.loads(text, parse_constant=reject_constant, object_pairs_hook=unique_keys)
    except (ValueError, RecursionError) as error:
        raise click.BadParameter(_("not JSON: %(why)s", why=json_problem(error)),
                                 param_hint=f"'{option}'") from None


class Day(click.ParamType):
    """A day, written YYYY-MM-DD (as a log header writes it), given to the command as that text."""

    name = "date"

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = str(value)
        try:
            if _DAY.fullmatch(text):
                return dt.date.fromisoformat(text).isoformat()
        except ValueError:  # 2026-02-30
            pass
        self.fail(_("%(text)r is not a day: write it YYYY-MM-DD, like 2026-03-01", text=text), param, ctx)


DATE = Day()  # options that take it say metavar="YYYY-MM-DD"

class Name(click.ParamType):
    """A name people type (a player, a club's name, a token's label): the service's own checks
    (not blank, at most NAME_LENGTH characters, no control characters), made here first so that
    the error names the option."""

    name = "name"

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        import unicodedata

        text = str(value)
        if not text.strip():
            self.fail(_("a name cannot be blank"), param, ctx)
        if len(text) > NAME_LENGTH:
            self.fail(_("a name is at most %(most)s characters, not %(num)s", most=NAME_LENGTH,
                         num=len(text)), param, ctx)
        if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text):
            self.fail(_("a name may not contain control characters"), param, ctx)
        return text


NAME = Name()

match_argument = click.argument("match_id", metavar="MATCH")
club_option = click.option("--club", "club_slug", required=True, help=N_("The club's slug."))
at_option = click.option("--at", "at", type=Whole(0, MAX_COUNT), default=None,
                         help=N_("Show the table as it stood after this event (default: the last)."))
seat_option = click.option("--seat", type=Whole(min=0), default=None,
                           help=N_("The acting seat (default: the seat on turn)."))
disputed_option = click.option("--disputed", is_flag=True,
                               help=N_("Store the event even if the referee refuses it, marked disputed."))
json_option = click.option("--json", "as_json", is_flag=True,
                           help=N_("Print JSON: a list with one object a row."))
csv_option = click.option("--csv", "as_csv", is_flag=True,
                          help=N_("Print CSV (RFC 4180): a header line, then one row a line."))
output_option = click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
                             default=None, help=N_("Write to this file (default: standard output)."))


def write_output(text: str, output: str | None, done: str) -> None:
    """``text`` to standard output, or to the file ``output`` (UTF-8) with ``done`` told on
    standard error; a file that cannot be written is a one-line error."""
    if output is None:
        click.echo(text, nl=False)
        return
    from pathlib import Path

    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        from words.oserrors import reason  # the system's words in the reader's language

        raise click.ClickException(_("cannot write %(path)s: %(why)s", path=output,
                                     why=reason(error))) from None
    click.echo(done, err=True)
