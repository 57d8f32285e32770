"""click's own words (``Usage:``, ``Options``, ``Error: ...``, ``Missing option``, ``Try ... for
help``, ``Show this message and exit.`` ...) and every command's help, through the catalogs.

click says its words with the standard library's :func:`gettext.gettext` (``from gettext import
gettext as _`` in each of its modules), which reads a catalog named by the environment, not the
language ``--lang`` chose. :func:`install` points those names at :mod:`words` instead, so click
speaks the command's language; the messages are listed below, as click writes them (with their
``{name}`` placeholders, which click fills with ``str.format``), so that ``python -m
words.build`` extracts them. click's messages for a developer (a badly declared option) and
for what these commands never use (shell completion, colours, UUIDs) are left out: English.

A command's help is its English text in the code, marked for the catalogs where it is written
(the decorator's ``help=N_(...)``, an option's ``help=N_(...)``: docs/i18n.md);
:func:`translated_help` and the classes in :mod:`cli.lazy` translate it as it is shown, so a
text the catalogs hold appears in the language (a text they do not hold shows as written, and
tests/cli/test_cli_help_languages.py fails for it). This module imports click and
:mod:`words` only: ``domino --help`` stays fast (tests/cli/test_cli_startup.py).
"""

from __future__ import annotations

import importlib
from typing import Any

from words import N_

# click's user-facing messages, as its sources write them (click 8.1 to 8.3), for extraction.
MESSAGES = (
    N_("Aborted!"), N_("Options"), N_("Positional arguments"), N_("Commands"),
    N_("Missing command."), N_("Usage:"), N_("Error: {message}"),
    N_("Try '{command} {option}' for help."), N_("Invalid value: {message}"),
    N_("Invalid value for {param_hint}: {message}"), N_("Missing argument"),
    N_("Missing option"), N_("Missing parameter"), N_("Missing {param_type}"),
    N_("Missing parameter: {param_name}"), N_("No such option {name!r}."),
    N_("No such command {name!r}."), N_("unknown error"),
    N_("Could not open file {filename!r}: {message}"), N_("Show the version and exit."),
    N_("Show this message and exit."), N_("%(prog)s, version %(version)s"),
    N_("Do you want to continue?"), N_("Confirm the action without prompting."),
    N_("env var: {var}"), N_("default: {default}"), N_("required"), N_("(dynamic)"),
    N_("deprecated"), N_("Value must be an iterable."),
    N_("Choose from:\n\t{choices}"), N_("{value!r} is not a valid {number_type}."),
    N_("{value} is not in the range {range}."),
    N_("{value!r} is not a valid boolean. Recognized values: {states}"),
    N_("file"), N_("directory"), N_("path"), N_("{name} {filename!r} does not exist."),
    N_("{name} {filename!r} is a file."), N_("{name} {filename!r} is a directory."),
    N_("{name} {filename!r} is not readable."), N_("{name} {filename!r} is not writable."),
    N_("{name} {filename!r} is not executable."),
    N_("Invalid start character for option ({option})"),
    N_("Argument {name!r} takes {nargs} values."), N_("Option {name!r} does not take a value."),
    N_("Repeat for confirmation"), N_("Error: The two entered values do not match."),
    N_("Error: invalid input"), N_("Press any key to continue..."),
)


def _ngettext_marks() -> None:
    """click's plural messages, for extraction only (never called)."""
    from words import ngettext

    ngettext("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", 1)
    ngettext("Takes {nargs} values but 1 was given.", "Takes {nargs} values but {len} were given.", 1)
    ngettext("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)", 1)
    ngettext("{value!r} is not {choice}.", "{value!r} is not one of {choices}.", 1)
    ngettext("{value!r} does not match the format {format}.",
             "{value!r} does not match the formats {formats}.", 1)
    ngettext("{len_type} values are required, but {len_value} was given.",
             "{len_type} values are required, but {len_value} were given.", 1)
    ngettext("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments.", 1)


# click's modules that say words with ``_`` or ``ngettext``.
CLICK_MODULES = ("click.core", "click.exceptions", "click.decorators", "click.formatting",
                 "click.types", "click.parser", "click.termui")


def click_gettext(message: str) -> str:
    """``message`` in the current language, unformatted (click fills its placeholders)."""
    import words

    return words.catalog(words.current()).gettext(message)


def click_ngettext(singular: str, plural: str, n: int) -> str:
    import words

    return words.catalog(words.current()).ngettext(singular, plural, n)


def install() -> None:
    """Make click say its words, and the commands' help, through the catalogs, in the language
    of the moment. Once is enough; again changes nothing."""
    install_help()
    for name in CLICK_MODULES:
        module = importlib.import_module(name)
        if hasattr(module, "_"):
            module._ = click_gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = click_ngettext  # type: ignore[attr-defined]


def translated_help(text: Any) -> Any:
    """A help text in the current language: the catalog's, else as written."""
    if not isinstance(text, str) or not text:
        return text
    return click_gettext(text)


def _with_help_translated(method: Any) -> Any:
    """``method`` of a command or an option, run with its help (and short help) in the current
    language for the time of the call: what it shows is translated, the object unchanged."""

    def translating(self: Any, *args: Any, **kwargs: Any) -> Any:
        kept = self.help, getattr(self, "short_help", None)
        self.help = translated_help(kept[0])
        if kept[1] is not None:
            self.short_help = translated_help(kept[1])
        try:
            return method(self, *args, **kwargs)
        finally:
            self.help = kept[0]
            if kept[1] is not None:
                self.short_help = kept[1]

    translating.__wrapped__ = method  # type: ignore[attr-defined]
    return translating


def install_help() -> None:
    """Every command's help, its short help in a listing, and each option's help translated
    as shown (click's Command and Option, whoever made them)."""
    import click

    for cls, name in ((click.Command, "format_help_text"), (click.Command, "get_short_help_str"),
                      (click.Option, "get_help_record")):
        method = cls.__dict__[name]
        if not hasattr(method, "__wrapped__"):
            setattr(cls, name, _with_help_translated(method))
    made = click.Command.__dict__["get_help_option"]
    if not hasattr(made, "__wrapped__"):
        click.Command.get_help_option = _help_option_in_english(made)  # type: ignore[method-assign]


def _help_option_in_english(method: Any) -> Any:
    """click makes a command's -h/--help option the first time it is asked for, its help said
    then (in that moment's language) and kept: here it keeps the English msgid instead, and is
    translated as it is shown, like every help."""

    def made(self: Any, ctx: Any) -> Any:
        option = method(self, ctx)
        if option is not None and not getattr(option, "_help_msgid", False):
            option.help = HELP_OPTION
            option._help_msgid = True
        return option

    made.__wrapped__ = method  # type: ignore[attr-defined]
    return made


HELP_OPTION = "Show this message and exit."  # click's, among MESSAGES
