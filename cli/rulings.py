"""A referee's rulings: penalty, void, annul, forfeit. Each one is an event appended to the
record; nothing recorded is ever changed or deleted."""

from __future__ import annotations

import click

from .recorder import record_from_command
from .options import match_argument

reason_option = click.option("--reason", required=True, help="Why: kept in the record.")
side_option = click.option("--side", type=click.IntRange(min=0), required=True,
                           help="The side (the seat, or 0/1 for partnerships 0+2 and 1+3).")


@click.command()
@match_argument
@side_option
@click.option("--points", type=int, required=True, help="Points awarded (negative deducts).")
@reason_option
def penalty(match_id: str, side: int, points: int, reason: str) -> None:
    """Award points to a side, or deduct them; it can end the match.

    \b
    Example:
      domino penalty 7 --side 1 --points 25 --reason "exposed tiles twice"
    """
    record_from_command(match_id, lambda _seat: {"type": "penalty", "side": side,
                                                 "points": points, "reason": reason})


@click.command()
@match_argument
@click.argument("target", metavar="SEQ", type=click.IntRange(min=1))
@reason_option
def void(match_id: str, target: int, reason: str) -> None:
    """Strike event SEQ from the record (voiding a void restores its target).

    \b
    Example:
      domino void 7 23 --reason "recorded at the wrong table"
    """
    record_from_command(match_id, lambda _seat: {"type": "void", "target": target, "reason": reason})


@click.command()
@match_argument
@reason_option
def annul(match_id: str, reason: str) -> None:
    """Cancel the round in progress (a misdeal): no score, it is dealt again.

    \b
    Example:
      domino annul 7 --reason "misdeal: 8 tiles to seat 2"
    """
    record_from_command(match_id, lambda _seat: {"type": "annul", "reason": reason})


@click.command()
@match_argument
@side_option
@reason_option
def forfeit(match_id: str, side: int, reason: str) -> None:
    """A side forfeits the match.

    \b
    Example:
      domino forfeit 7 --side 0 --reason "left the table"
    """
    record_from_command(match_id, lambda _seat: {"type": "forfeit", "side": side, "reason": reason})


COMMANDS = (penalty, void, annul, forfeit)
