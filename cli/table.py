"""``domino table``: the scorekeeper's prompt at a live table.

One line per thing that happens (see :mod:`cli.table_input`). Lines are read with click.prompt,
so a session can be scripted through stdin; end of input quits like ``q``. Every entry is
recorded the moment it is typed: quitting loses nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import click
from rich.console import Console

from .console import terminal
from rich.text import Text

from .connection import connect, refusal
from .options import match_argument
from .recorder import Recorder, round_ended
from .render import screen_view, turn_view, violation_lines
from .seating import NoSeat, seat_on_turn, seats_owing_reveal
from .table_input import Entry, InputError, parse_entry

if TYPE_CHECKING:
    from referee.service import Recorded

UNDO_REASON = "undo at the table"

HELP = """\
  6-5  65  65 on 5  6-5 left   play a tile (the end: its pip, or left/right of the lead)
  p                            pass
  d   d 3-2                    draw a tile, unseen or seen
  r 6-5 4-4   r 12             reveal a hand after the round: tiles, or only the pips
  n TEXT                       note
  deal                         deal a closed round (or: deal 6-6 6-5 ... / 5-5 ... / -)
  N: ...                       act as seat N (a lead several seats may make; a reveal)
  u                            undo: void the last event this session recorded
  !                            record the entry just refused, marked disputed
  s  ?  q                      show the whole table, this help, quit"""


class TableSession:
    """One scorekeeper's session on one match: what it recorded (for undo) and the entry the
    referee last refused (for ``!``)."""

    def __init__(self, recorder: Recorder, console: Console) -> None:
        self.recorder = recorder
        self.console = console
        self.recorded: list[int] = []  # seqs of the entries made here; undo pops
        self.refused: dict[str, Any] | None = None
        self.pos = recorder.state()

    def run(self, read: Callable[[], str | None]) -> None:
        self.show_table()
        self.show_turn()
        while (line := read()) is not None:
            if not self.take(line):
                break
        self.console.print("Bye: everything entered is recorded.")

    def take(self, line: str) -> bool:
        """Act on one line; False to quit."""
        refused, self.refused = self.refused, None  # `!` counts only right after a refusal
        if not line.strip():
            self.show_turn()
            return True
        try:
            entry = parse_entry(line)
        except InputError as error:
            self.say(error.message, "red")
            return True
        if entry.action == "quit":
            return False
        if entry.action == "help":
            self.console.print(HELP, highlight=False, markup=False)
        elif entry.action == "show":
            self.show_table()
        elif entry.action == "undo":
            self.undo()
        elif entry.action == "insist":
            if refused is None:
                self.say("! records an entry the referee just refused, as disputed: "
                         "there is none", "red")
            else:
                self.record(refused, disputed=True)
        else:
            self.enter(entry)
        return True

    def enter(self, entry: Entry) -> None:
        try:
            event = entry.event_for(self.acting_seat(entry))
        except NoSeat as error:
            hint = ": type N: before the entry to act as seat N" if error.choose else ""
            self.say(error.message + hint, "red")
            return
        self.record(event)

    def acting_seat(self, entry: Entry) -> int | None:
        if entry.seat is not None or entry.action not in ("play", "draw", "pass", "reveal"):
            return entry.seat
        if entry.action != "reveal":
            return seat_on_turn(self.pos, self.recorder.players)
        owing = self.owing()
        if len(owing) != 1:
            seats = ", ".join(str(s) for s in owing) or "none"
            raise NoSeat(f"which seat reveals? (owing a reveal: {seats})", choose=True)
        return owing[0]

    def owing(self) -> list[int]:
        return seats_owing_reveal(self.pos)

    def record(self, event: dict[str, Any], disputed: bool = False) -> Recorded | None:
        from referee.service import IllegalEvent, ServiceError

        try:
            recorded = self.recorder.record(event, at=self.pos, disputed=disputed)
        except IllegalEvent as error:
            self.refused = event
            self.say(f"{refusal(error)} (fix it and type it again, or ! to record it as disputed)",
                     "red")
            return None
        except ServiceError as error:  # a conflict with another terminal, say: read again
            self.say(error.message, "red")
            self.pos = self.recorder.state()
            self.show_turn()
            return None
        if event["type"] != "void":  # undo takes back entries, never its own voids
            self.recorded.append(recorded.seq)
        before, self.pos = self.pos, recorded.state
        if round_ended(before, self.pos):
            self.show_open_disputes()
        self.show_turn()
        return recorded

    def undo(self) -> None:
        """Void the last event this session recorded that still stands: a new event, never a
        deletion, so the record shows what was entered and taken back."""
        r = self.recorder
        struck = r.service.reading.struck(r.match_id)
        while self.recorded and self.recorded[-1] in struck:
            self.recorded.pop()
        if not self.recorded:
            self.say("nothing to undo: this session has recorded nothing that still stands", "red")
            return
        target = self.recorded[-1]
        if self.record({"type": "void", "target": target, "reason": UNDO_REASON}):
            self.recorded.pop()

    def show_table(self) -> None:
        """The whole table, as ``domino match show`` draws it: the match's screen."""
        self.console.print(screen_view(self.recorder.screen()))

    def show_open_disputes(self) -> None:
        """The match's open disputes, when a round ends: the fouls its end proves (a closed
        round's reveals) among them. Nothing when there are none."""
        r = self.recorder
        found = r.service.reading.report(r.match_id)["violations"]
        if not found:
            return
        count = len(found)
        self.console.print(Text(f"{count} open dispute{'s' * (count != 1)}:", style="yellow"))
        for line in violation_lines(found):
            self.console.print(line, highlight=False)
        self.console.print(f"A referee rules on them with domino stands, amend, penalty or void; "
                           f"domino dispute-sheet {r.match_id} SEQ writes one out for both sides.",
                           highlight=False)

    def show_turn(self) -> None:
        self.console.print(turn_view(self.pos, self.recorder.players))

    def say(self, message: str, style: str) -> None:
        self.console.print(Text(message, style=style))


def _prompt(label: str) -> Callable[[], str | None]:
    def read() -> str | None:
        try:
            return click.prompt(label, default="", show_default=False, prompt_suffix="> ")
        except click.Abort:  # end of input or Ctrl-C: quit; everything is recorded already
            click.echo()
            return None
    return read


@click.command()
@match_argument
def table(match_id: str) -> None:
    """Score a live table: type what happens, the referee checks each entry as it comes.

    Shows the line, the open ends, whose turn it is and what is legal. Short input: 6-5, 65,
    65 on 5, 6-5 left (play); p (pass); d, d 3-2 (draw); r 6-5 4-4, r 12 (reveal); n TEXT
    (note); deal; N: to act as seat N; u (undo: a void of your last event); ! (record the
    entry just refused, as disputed); ? (help); q (quit). Reads stdin, so it can be scripted.

    \b
    Example:
      domino table 7
      printf '1: 6-6\\n65\\np\\nq\\n' | domino table 7
    """
    console = terminal(soft_wrap=True)  # long messages stay one line for a script to read
    with connect() as service:
        recorder = Recorder(service, match_id, console, recorded_by="cli:table")
        TableSession(recorder, console).run(_prompt(f"match {recorder.match_id}"))
