"""``domino table``: the scorekeeper's prompt at a live table.

One line per thing that happens (see :mod:`cli.table_input`). Piped lines are read with
click.prompt, so a session can be scripted through stdin; on a terminal readline edits them and
keeps a history (:class:`LineReader`). End of input quits like ``q``. Every entry is recorded
the moment it is typed: quitting loses nothing.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import click
from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from words import N_, _, ngettext
from words import message as words_message
from words.events import event_words, knocks, sleeping

from .connection import connect, database_cause, refusal
from .console import terminal
from .options import match_argument
from .recorder import Recorder, round_ended
from .render import Flow, screen_view, turn_view, violation_lines
from .seating import NoSeat, seat_on_turn, seats_owing_reveal
from .table_input import Entry, InputError, parse_entry

if TYPE_CHECKING:
    from referee import Violation
    from referee.service import Recorded

UNDO_REASON = "undo at the table"
# Refusals `!` may not record, not even as disputed: an event naming a tile the set does not
# have, or one the referee cannot read as an event at all (a deal of the wrong size, say).
NOT_AN_EVENT = ("unknown_tile", "bad_event")
YES = ("y", "yes")  # and the language's own (yes_words)
HISTORY_FILE = "domino-table.history"
HISTORY_LENGTH = 1000

# The forms of each entry (never split across lines) and what they do; ``?`` prints them.
HELP = (
    (("6-5", "65", "65 on 5", "6-5 left", "6-5 u"),
     N_("play a tile (the end: its pip, left/right of the lead, or u/d: the spinner's up and "
        "down arms)")),
    (("p",), N_("pass")),
    (("d", "d 3-2"), N_("draw a tile, unseen or seen")),
    (("r 6-5 4-4", "r 12"), N_("reveal a hand after the round: tiles, or only the pips")),
    (("n TEXT",), N_("note")),
    (("deal",), N_("deal a closed round (or: deal 6-6 6-5 ... / 5-5 ... / -)")),
    (("N: ...",), N_("act as seat N (a lead several seats may make; a reveal)")),
    (("u",), N_("undo: void the last event (another's: after a yes)")),
    (("!",), N_("record the entry just refused, marked disputed")),
    (("s", "?", "q"), N_("the whole table (score, open disputes), this help, quit")),
)
KNOCK = N_("knock (say you cannot play)")  # p, in the games scoring during play


def yes_words() -> tuple[str, ...]:
    """What answers yes: English's, and the language's own ("s", "sí"; "s", "sì")."""
    return (*YES, _("y").lower(), _("yes").lower())


class TableSession:
    """One scorekeeper's session on one match: what it recorded (for undo), the entry the
    referee last refused (for ``!``), and how to read a line (for undo's question)."""

    def __init__(self, recorder: Recorder, console: Console) -> None:
        self.recorder = recorder
        self.console = console
        self.recorded: set[int] = set()  # seqs of the entries made here
        self.undone: set[int] = set()  # seqs of the voids undo recorded: undo walks past them
        self.refused: tuple[dict[str, Any], Violation] | None = None
        self.pos = recorder.state()
        self.ask: Callable[[str], str | None] = lambda _question: None
        self.disputes_shown: list[tuple[int, str]] | None = None  # the last open disputes listed
        self.told_how_to_rule = False  # how a referee rules on them: said once a session

    def run(self, read: Callable[[], str | None],
            ask: Callable[[str], str | None] | None = None) -> None:
        """Take lines from ``read`` until it gives None (end of input) or ``q``; ``ask`` reads
        the answer to a question (default: a line from ``read``)."""
        self.ask = ask or (lambda _question: read())
        self.show_table()  # says what to type next too: the first screen says each thing once
        while (line := read()) is not None:
            if not self.take(line):
                break
        self.console.print(_("Bye: everything entered is recorded."))

    def take(self, line: str) -> bool:
        """Act on one line; False to quit."""
        refused, self.refused = self.refused, None  # `!` counts only right after a refusal
        if not line.strip():
            self.show_turn()
            return True
        try:
            entry = parse_entry(line)
        except InputError as error:
            self.say(words_message(error), "red")
            return True
        if entry.action == "quit":
            return False
        from referee.service import DatabaseError, database_unavailable

        try:
            self.act(entry, refused)
        except DatabaseError as error:
            if not database_unavailable(error):
                raise  # a schema to upgrade, a damaged file: the session cannot go on
            # Locked by another program, full, restarting: the table is kept, not lost with
            # the session. The entry is typed again; if it was stored after all (a commit
            # whose answer was lost), its expected seq makes the retry a conflict, never a
            # second copy, and the table is read again.
            self.say(_("database error: %(cause)s; type the entry again once the database "
                       "answers (one recorded meanwhile is never recorded twice)",
                       cause=database_cause(error)), "red")
        return True

    def act(self, entry: Entry, refused: tuple[dict[str, Any], Violation] | None) -> None:
        if entry.action == "help":
            self.console.print(help_view(knocks(self.recorder.rules)), highlight=False)
        elif entry.action == "show":
            self.show_table()
        elif entry.action == "undo":
            self.undo()
        elif entry.action == "insist":
            self.insist(refused)
        else:
            self.enter(entry)

    def enter(self, entry: Entry) -> None:
        try:
            event = entry.event_for(self.acting_seat(entry))
        except NoSeat as error:
            hint = _(": type N: before the entry to act as seat N") if error.choose else ""
            self.say(words_message(error) + hint, "red")
            return
        self.record(event)

    def acting_seat(self, entry: Entry) -> int | None:
        if entry.seat is not None or entry.action not in ("play", "draw", "pass", "reveal"):
            return entry.seat
        if entry.action != "reveal":
            return seat_on_turn(self.pos, self.recorder.players)
        owing = self.owing()
        if len(owing) != 1:
            seats = ", ".join(str(s) for s in owing) or _("none")
            raise NoSeat(_("which seat reveals? (owing a reveal: %(seats)s)", seats=seats),
                         choose=True)
        return owing[0]

    def owing(self) -> list[int]:
        return seats_owing_reveal(self.pos)

    def insist(self, refused: tuple[dict[str, Any], Violation] | None) -> None:
        """``!``: the entry just refused, recorded as disputed; never one naming a tile the set
        does not have or that is no event at all (there is nothing a referee could rule on)."""
        if refused is None:
            self.say(_("! records an entry the referee just refused, as disputed: there is none"),
                     "red")
            return
        event, violation = refused
        # A tile's existence is checked here too: refused for an earlier reason (the round is
        # over, say), the referee never got as far as the tiles.
        unknown = self.unknown_tile(event)
        why = violation.message if violation.code in NOT_AN_EVENT else unknown
        if why is not None:
            self.say(_("! cannot record that, not even as disputed: %(why)s. Nothing recorded: "
                       "fix it and type it again", why=why), "red")
            return
        self.record(event, disputed=True)

    def unknown_tile(self, event: dict[str, Any]) -> str | None:
        """What is wrong with the first tile ``event`` names that the set does not have."""
        from referee import tile_set

        named = [event.get("tile"), *(event.get("tiles") or ()),
                 *(t for hand in event.get("hands") or () for t in hand or ())]
        tiles = tile_set(self.recorder.rules["max_pip"])
        for tile in named:
            if tile is not None and tiles.parse(tile) is None:
                return _("%(tile)r is not a tile of the double-%(max)s set", tile=tile,
                         max=tiles.max_pip)
        return None

    def record(self, event: dict[str, Any], disputed: bool = False) -> Recorded | None:
        from referee.service import IllegalEvent, ServiceError

        try:
            recorded = self.recorder.record(event, at=self.pos, disputed=disputed)
        except IllegalEvent as error:
            self.refused = (event, error.violation)
            insistable = error.violation.code not in NOT_AN_EVENT and not self.unknown_tile(event)
            self.say(_("%(refusal)s (fix it and type it again, or ! to record it as disputed)",
                       refusal=refusal(error)) if insistable
                     else _("%(refusal)s (fix it and type it again)", refusal=refusal(error)), "red")
            return None
        except ServiceError as error:  # a conflict with another terminal, say: read again
            self.read_again(words_message(error))
            return None
        # Typed entries are never voids: a void here is undo's own.
        (self.undone if event["type"] == "void" else self.recorded).add(recorded.seq)
        before, self.pos = self.pos, recorded.state
        if round_ended(before, self.pos):
            self.show_open_disputes()
        self.show_turn()
        return recorded

    def read_again(self, why: str) -> None:
        """The table moved on at another terminal: say so, read it again, and tell what those
        events did to the round and the score (the result of a round they ended, say)."""
        self.say(why, "red")
        before, self.pos = self.pos, self.recorder.state()
        self.recorder.tell_outcome(before, self.pos)
        if round_ended(before, self.pos):
            self.show_open_disputes()
        self.show_turn()

    def undo(self) -> None:
        """Void the last event of the record that still stands, leaving out undo's own voids (so
        ``u`` again walks further back): a new event, never a deletion, so the record shows what
        was entered and taken back. An event this session did not record (another terminal's
        entry, a referee's ruling) is voided only after a yes: the void is a referee's ruling,
        which this prompt may record because ``domino`` runs as the database's operator."""
        r = self.recorder
        events = r.service.reading.list_events(r.match_id)
        if events and events[-1]["seq"] != self.pos.seq:
            self.read_again(_("conflict: the last event is %(last)s, not %(seen)s: the table is "
                              "read again; look, then type u again", last=events[-1]["seq"],
                              seen=self.pos.seq))
            return
        struck = r.service.reading.struck(r.match_id)
        target = next((e for e in reversed(events)
                       if e["seq"] not in struck and e["seq"] not in self.undone), None)
        if target is None:
            self.say(_("nothing to undo: no event of the record still stands"), "red")
            return
        seq = target["seq"]
        if seq not in self.recorded and not self.confirmed(target, events):
            self.say(_("event %(seq)s stands: nothing recorded", seq=seq), "yellow")
            return
        self.record({"type": "void", "target": seq, "reason": UNDO_REASON})

    def confirmed(self, target: dict[str, Any], events: Sequence[dict[str, Any]]) -> bool:
        """Say what voiding ``target`` (not this session's) would strike, and ask."""
        r = self.recorder
        said = event_words(target["event"], r.players, r.sides, r.rules)
        by = target.get("recorded_by")
        self.say(_("event %(seq)s was not recorded at this prompt (recorded by %(by)s): %(said)s",
                   seq=target["seq"], by=by, said=said) if by
                 else _("event %(seq)s was not recorded at this prompt (recorded elsewhere): "
                        "%(said)s", seq=target["seq"], said=said), "yellow")
        inner = target["event"]
        if inner.get("type") == "void" and isinstance(inner.get("target"), int):
            restored = next((e for e in events if e["seq"] == inner["target"]), None)
            if restored is not None:
                back = event_words(restored["event"], r.players, r.sides, r.rules)
                self.say(_("Voiding it puts event %(seq)s back: %(said)s", seq=restored["seq"],
                           said=back), "yellow")
        answer = self.ask(_("void event %(seq)s? (a referee's ruling) [y/N]", seq=target["seq"]))
        return answer is not None and answer.strip().lower() in yes_words()

    def show_table(self) -> None:
        """The whole table, as ``domino match show`` draws it: the match's screen."""
        self.console.print(screen_view(self.recorder.screen(), prompt=True))

    def show_open_disputes(self) -> None:
        """The match's open disputes, when a round ends: the fouls its end proves (a closed
        round's reveals) among them. Nothing when there are none."""
        r = self.recorder
        found = r.service.reading.report(r.match_id)["violations"]
        listed = [(v["seq"], v["code"]) for v in found]
        if not found or listed == self.disputes_shown:
            return  # none, or the same as at the last round's end: said already
        self.disputes_shown = listed
        self.console.print(Text(ngettext("%(num)s open dispute:", "%(num)s open disputes:",
                                         len(found)), style="yellow"))
        for line in violation_lines(found):
            self.console.print(line, highlight=False)
        if not self.told_how_to_rule:
            self.told_how_to_rule = True
            self.console.print(_("A referee rules on them with domino stands, amend, penalty or "
                                 "void; domino dispute-sheet %(match)s SEQ writes one out for both "
                                 "sides.", match=r.match_id), highlight=False)

    def show_turn(self) -> None:
        rules = self.recorder.rules
        self.console.print(turn_view(self.pos, self.recorder.players, knocks(rules),
                                     sleeping(rules)))

    def say(self, message: str, style: str) -> None:
        self.console.print(Flow(message, style=style))


def help_view(knock: bool = False) -> Padding:
    """The entries in two columns, the forms never split however narrow the terminal; with
    ``knock`` (rules that score during play, words.events.knocks) ``p`` is a knock."""
    grid = Table.grid(padding=(0, 3))
    grid.add_column()
    grid.add_column()
    for forms, meaning in HELP:
        grid.add_row(Flow.of(forms), _(KNOCK if knock and forms == ("p",) else meaning))
    return Padding(grid, (0, 0, 0, 2))


class LineReader:
    """The prompt's lines. Piped input (a script) is read with click.prompt; on a terminal,
    GNU readline gives line editing (arrow keys, Ctrl-A/E, ...) and a history kept across
    sessions in ``domino-table.history`` in the data dir (DOMINO_DATA_DIR, else the current
    folder, where ``domino.db`` lives). readline is imported only then: it would print escape
    codes into a script's output."""

    def __init__(self, label: str) -> None:
        self.label = label
        interactive = sys.stdin.isatty() and sys.stdout.isatty()
        self.readline: Any = _readline() if interactive else None
        self.history = history_path()
        if self.readline is not None:
            self.readline.set_history_length(HISTORY_LENGTH)
            self.readline.set_completer(lambda _text, _state: None)  # tab: no file names
            try:
                self.readline.read_history_file(self.history)
            except OSError:  # none yet, or unreadable: start afresh
                pass

    def read(self) -> str | None:
        """One line, or None at end of input or Ctrl-C (everything is recorded already)."""
        try:
            if self.readline is not None:
                return input(f"{self.label}> ")  # readline knows the prompt: redraws it right
            return click.prompt(self.label, default="", show_default=False, prompt_suffix="> ")
        except (click.Abort, EOFError, KeyboardInterrupt):
            click.echo()
            return None

    def ask(self, question: str) -> str | None:
        """The answer to a question, left out of the history (it is no entry)."""
        try:
            answer = input(f"{question} ") if self.readline is not None else click.prompt(
                question, default="", show_default=False, prompt_suffix=" ")
        except (click.Abort, EOFError, KeyboardInterrupt):
            click.echo()
            return None
        length = self.readline.get_current_history_length() if self.readline else 0
        if length and answer:  # readline keeps every line but an empty one
            self.readline.remove_history_item(length - 1)
        return answer

    def close(self) -> None:
        if self.readline is None:
            return
        try:
            self.history.parent.mkdir(parents=True, exist_ok=True)
            self.readline.write_history_file(self.history)
        except OSError:  # a read-only folder: the history is a convenience, the record is kept
            pass


def table_console() -> Console:
    """The prompt's console. On a terminal, or at a width COLUMNS names, lines wrap to the width
    between tiles and moves (:class:`cli.render.Flow`), never inside one; piped to a script, each
    message stays on one line for the script to read."""
    console = terminal()
    console.soft_wrap = not (console.is_terminal or os.environ.get("COLUMNS"))
    return console


def _readline() -> Any:
    try:
        import readline
    except ImportError:  # a Python without it (Windows): lines are read plainly
        return None
    return readline


def history_path() -> Path:
    """Where the prompt's history is kept: beside the embedded database's file."""
    return Path(os.environ.get("DOMINO_DATA_DIR") or ".") / HISTORY_FILE


@click.command(help=N_("""\
Score a live table: type what happens, the referee checks each entry as it comes.

Shows the line, the open ends, whose turn it is and what is legal. Short input: 6-5, 65,
65 on 5, 6-5 left, 6-5 u (play; u/d: the spinner's up and down arms); p (pass); d, d 3-2 (draw); r 6-5 4-4, r 12 (reveal); n TEXT
(note); deal; N: to act as seat N; u (undo: a void of the last event, after a yes when
this session did not record it); ! (record the entry just refused, as disputed); s (the
whole table, the score, open disputes); ? (help); q (quit). Reads stdin, so it can be
scripted; on a terminal, lines are edited with readline and kept in a history.

\b
Example:
  domino table 7
  printf '1: 6-6\\n65\\np\\nq\\n' | domino table 7"""))
@match_argument
def table(match_id: str) -> None:
    with connect() as service:
        console = table_console()
        recorder = Recorder(service, match_id, console, recorded_by="cli:table")
        reader = LineReader(_("match %(id)s", id=recorder.match_id))
        try:
            TableSession(recorder, console).run(reader.read, reader.ask)
        finally:
            reader.close()
