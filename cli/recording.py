"""Recording what happens at a table, one event a command: deal, play, draw, pass, reveal, note.

The referee judges each event as it is recorded: an illegal one is refused with the violation
(nothing stored), unless --disputed asks to store it marked as disputed, to be ruled on later.
"""

from __future__ import annotations

from typing import Any

import click

from words import N_, _

from .options import Whole, disputed_option, match_argument, seat_option
from .recorder import record_from_command
from .table_input import InputError, parse_end, parse_hand, parse_tile


class _TextParam(click.ParamType):
    """A click type over one of table_input's readers, so bad text is a usage error."""

    def __init__(self, name: str, reader: Any) -> None:
        self.name = name
        self._reader = reader

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return self._reader(value)
        except InputError as error:
            self.fail(error.message, param, ctx)


TILE = _TextParam("tile", parse_tile)
END = _TextParam("end", parse_end)
HAND = _TextParam("hand", parse_hand)


@click.command(help=N_("""\
Deal a new round, open (every --hand) or closed (no --hand: hands revealed at the end).

\b
Example:
  domino deal 7 --hand "6-6 6-5 5-5 4-4 3-3 2-2 1-1" --hand "6-4 6-3 5-4 5-3 4-3 2-1 1-0"
  domino deal 7"""))
@match_argument
@click.option("--hand", "hands", type=HAND, multiple=True,
              help=N_('One per seat, in seat order: "6-6 6-5 ..." (or "-" for a hand not seen). '
                      "None at all: a closed deal."))
@disputed_option
def deal(match_id: str, hands: tuple[list[str] | None, ...], disputed: bool) -> None:
    event: dict[str, Any] = {"type": "deal"}
    if hands:
        event["hands"] = list(hands)
    record_from_command(match_id, lambda _seat: event, disputed=disputed)


@click.command(help=N_("""\
Place a tile on the line (a lead lies as written: 5-6 puts the 5 on the left).

\b
Example:
  domino play 7 6-5 --end 5
  domino play 7 44 --seat 2"""))
@match_argument
@click.argument("tile", type=TILE)
@click.option("--end", type=END, default=None,
              help=N_("The open end it joins (its pip), or left/right, or up/down (the spinner's "
                      "arms): needed when the places it fits differ."))
@seat_option
@disputed_option
def play(match_id: str, tile: str, end: int | str | None, seat: int | None, disputed: bool) -> None:
    extra = {"end": end} if end is not None else {}
    record_from_command(match_id, lambda s: {"type": "play", "seat": s, "tile": tile, **extra},
                        seat=seat, seated=True, disputed=disputed)


@click.command(help=N_("""\
Take a tile from the boneyard: name it when the table saw it, else leave it out.

\b
Example:
  domino draw 7 3-2
  domino draw 7 --seat 1"""))
@match_argument
@click.argument("tile", type=TILE, required=False)
@seat_option
@disputed_option
def draw(match_id: str, tile: str | None, seat: int | None, disputed: bool) -> None:
    extra = {"tile": tile} if tile is not None else {}
    record_from_command(match_id, lambda s: {"type": "draw", "seat": s, **extra},
                        seat=seat, seated=True, disputed=disputed)


@click.command("pass", help=N_("""\
Pass (the referee refuses a pass by a seat that could play or had to draw).

\b
Example:
  domino pass 7"""))
@match_argument
@seat_option
@disputed_option
def pass_(match_id: str, seat: int | None, disputed: bool) -> None:
    record_from_command(match_id, lambda s: {"type": "pass", "seat": s},
                        seat=seat, seated=True, disputed=disputed)


@click.command(help=N_("""\
After a round, show what a seat still holds: its tiles, or only their pips.

\b
Example:
  domino reveal 7 --seat 1 6-5 4-4
  domino reveal 7 --seat 3 --pips 12"""))
@match_argument
@click.argument("tiles", type=TILE, nargs=-1)
@click.option("--seat", type=Whole(min=0), required=True, help=N_("The seat showing its hand."))
@click.option("--pips", type=Whole(min=0), default=None,
              help=N_("Only the pip total, instead of the tiles."))
@disputed_option
def reveal(match_id: str, tiles: tuple[str, ...], seat: int, pips: int | None, disputed: bool) -> None:
    if bool(tiles) == (pips is not None):
        raise click.UsageError(_("give the tiles or --pips, one of the two"))
    shown: dict[str, Any] = {"tiles": list(tiles)} if tiles else {"pips": pips}
    record_from_command(match_id, lambda s: {"type": "reveal", "seat": s, **shown},
                        seat=seat, seated=True, disputed=disputed)


@click.command(help=N_("""\
Add a note to the record (free text; it changes nothing).

\b
Example:
  domino note 7 "Beto asked for a ruling on event 12\""""))
@match_argument
@click.argument("text", nargs=-1, required=True)
def note(match_id: str, text: tuple[str, ...]) -> None:
    record_from_command(match_id, lambda _seat: {"type": "note", "text": " ".join(text)})


COMMANDS = (deal, play, draw, pass_, reveal, note)
