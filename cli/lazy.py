"""A click group whose subcommands are imported on first use (click's documented LazyGroup).

Each subcommand is named by a ``"module:attr"`` string and its short help, so that ``--help``
lists the commands without importing a module: ``domino --help`` loads click and this file,
nothing of the service, SQLAlchemy or rich. ``tests/cli/test_cli_startup.py`` holds every short
help here to the command's own.
"""

from __future__ import annotations

import importlib
from typing import Any

import click


class LazyGroup(click.Group):
    """``lazy`` maps a subcommand's name to ``("module:attr", short help)``."""

    def __init__(self, *args: Any, lazy: dict[str, tuple[str, str]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            self.add_command(self.load(cmd_name), cmd_name)
        return super().get_command(ctx, cmd_name)

    def load(self, name: str) -> click.Command:
        """Import the subcommand ``name``."""
        module_name, attr = self.lazy[name][0].split(":")
        command = getattr(importlib.import_module(module_name), attr)
        if not isinstance(command, click.Command):
            raise TypeError(f"{module_name}:{attr} is not a click command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's listing, with the short help of a command not imported yet from the table."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            if name in self.lazy:
                # the table's text, imported or not (it is the command's own short help, and
                # what the catalogs hold), shortened as click shortens a command's
                stand_in = click.Command(name, help=self.lazy[name][1])
                rows.append((name, stand_in.get_short_help_str(limit)))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        from .click_words import click_gettext

        with formatter.section(click_gettext("Commands")):
            formatter.write_dl(rows)
