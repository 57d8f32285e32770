"""Which seat acts when the user names none: read off the referee's Position, no rule of our own."""

from __future__ import annotations

from typing import Sequence

from referee import Position
from words import _
from words.terms import term


class NoSeat(ValueError):
    """No single seat is on turn; ``message`` says why. ``choose``: several seats may act, and
    the user should name one (the caller says how); otherwise no seat may act now at all."""

    def __init__(self, message: str, choose: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.choose = choose


def seat_label(seat: int, players: Sequence[str]) -> str:
    return f"{seat} ({players[seat]})" if 0 <= seat < len(players) else str(seat)


def seat_on_turn(pos: Position, players: Sequence[str]) -> int:
    """The seat to act, or NoSeat: before a lead several seats may make, between rounds, after
    the match."""
    if pos.turn is not None:
        return pos.turn
    if pos.may_lead:
        seats = ", ".join(seat_label(s, players) for s in pos.may_lead)
        raise NoSeat(_("several seats may open this round: %(seats)s", seats=seats), choose=True)
    if pos.finished:
        raise NoSeat(_("the match is over"))
    if pos.round is None:
        raise NoSeat(_("no round has been dealt yet"))
    raise NoSeat(_("round %(round)s is over (%(phase)s)", round=pos.round,
                   phase=term("phase", pos.phase)))


def seats_owing_reveal(pos: Position) -> list[int]:
    """Seats the ended round waits on: still holding tiles the record has not shown."""
    return list(pos.owes_reveal)
