"""Arguments and options several commands share, so they read and behave the same everywhere."""

from __future__ import annotations

import click

match_argument = click.argument("match_id", metavar="MATCH")
club_option = click.option("--club", "club_slug", required=True, help="The club's slug.")
at_option = click.option("--at", "at", type=click.IntRange(min=0), default=None,
                         help="Show the table as it stood after this event (default: the last).")
seat_option = click.option("--seat", type=click.IntRange(min=0), default=None,
                           help="The acting seat (default: the seat on turn).")
disputed_option = click.option("--disputed", is_flag=True,
                               help="Store the event even if the referee refuses it, marked disputed.")
