"""Recording events on one match from the terminal, and telling what each one did.

Shared by the one-shot commands (``domino play`` ...) and the ``domino table`` prompt. Each
append names the seq it read the table at, so an event whose seat was taken from "whose turn
it is" can never land after someone else's event at another terminal: that is a conflict, and
the user reads the table again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

import click
from rich.console import Console
from rich.text import Text

from referee import Position
from words import _, message, ngettext
from words.events import event_words

from .connection import connect, refusal
from .console import terminal
from .render import Flow, match_over_text, round_result_text, scores_text
from .seating import NoSeat, seat_on_turn, seats_owing_reveal

if TYPE_CHECKING:
    from referee.service import Recorded, Screen, Service

ENDED = ("domino", "blocked", "awaiting_reveal", "annulled")


class Recorder:
    """One match, opened for recording: its players and rules read once, each event appended
    after the table the user saw, and a line printed for what it did."""

    def __init__(self, service: Service, match_id: str | int, console: Console,
                 recorded_by: str = "cli") -> None:
        from referee.service import side_names

        self.service = service
        summary = service.reading.get_match(match_id)  # NotFound for an unknown match, before anything
        self.match_id: int = summary["id"]
        self.players: list[str] = summary["players"]
        self.rules: dict[str, Any] = summary["rules"]
        self.sides: list[str] = side_names(self.rules, self.players)
        self.console = console
        self.recorded_by = recorded_by

    def state(self) -> Position:
        return self.service.reading.state(self.match_id)

    def screen(self) -> Screen:
        return self.service.reading.screen(self.match_id)

    def record(self, event: dict[str, Any], *, at: Position | None = None,
               disputed: bool = False) -> Recorded:
        """Append ``event`` after the table ``at`` (read now if not given); print what it did.
        Raises IllegalEvent (nothing stored) unless ``disputed``."""
        before = at if at is not None else self.state()
        if disputed:
            event = {**event, "disputed": True}
        recorded = self.service.recording.record_event(self.match_id, event, expected_seq=before.seq,
                                             recorded_by=self.recorded_by)
        self.console.print(Flow(self.confirmation(recorded)), highlight=False)
        if self.rules.get("scoring") == "ends" and event.get("type") == "play":
            self.tell_score(recorded.seq)
        self.tell_outcome(before, recorded.state)
        return recorded

    def tell_score(self, seq: int) -> None:
        """A game scoring during play: what the play at ``seq`` scored, as the report's
        ``scored`` has it ("count 15: 8 points to Ana", or a bust past the target); nothing
        for a play whose count is worth nothing."""
        rounds = self.service.reading.report(self.match_id)["rounds"]
        entry = next((e for r in rounds for e in r.get("scored") or () if e["seq"] == seq), None)
        if entry is None:
            return
        from referee.core.rules import Rules

        side = self.sides[Rules(**self.rules).side_of(entry["seat"])]
        if entry.get("bust"):
            said = ngettext("count %(count)s: %(num)s point, a bust (past %(target)s): not added",
                            "count %(count)s: %(num)s points, a bust (past %(target)s): not added",
                            entry["points"], count=entry["count"], target=self.rules["target"])
            self.console.print(Flow(said, style="yellow"), highlight=False)
            return
        said = ngettext("count %(count)s: %(num)s point to %(side)s",
                        "count %(count)s: %(num)s points to %(side)s", entry["points"],
                        count=entry["count"], side=side)
        self.console.print(Flow(said, style="green"), highlight=False)

    def confirmation(self, recorded: Recorded) -> Text:
        text = Text(_("event %(seq)s: %(said)s", seq=recorded.seq,
                      said=event_words(recorded.event, self.players, self.sides, self.rules)))
        if recorded.violation is not None:
            v = recorded.violation
            text.append(" — " + _("recorded as disputed (%(code)s: %(why)s)", code=v.code,
                                  why=v.message), style="yellow")
        return text

    def tell_outcome(self, before: Position, after: Position) -> None:
        """The round result the moment a round ends (or its last reveal scores it), the totals
        whenever they move, and the end of the match."""
        changed = round_ended(before, after)
        if changed:
            result = self._round_result(after.round)
            if result is not None:
                self.console.print(round_result_text(result, self.players, self.sides,
                                                     seats_owing_reveal(after)), highlight=False)
        if after.totals != before.totals or changed:
            self.console.print(_("Totals: %(scores)s", scores=scores_text(after.totals, self.sides)),
                               highlight=False)
        if after.finished and not before.finished:
            self.console.print(Text(match_over_text(after.winner, self.sides), style="bold"))

    def _round_result(self, number: int | None) -> dict[str, Any] | None:
        rounds: Sequence[dict[str, Any]] = self.service.reading.report(self.match_id)["rounds"]
        return next((r for r in rounds if r["round"] == number), None)


def round_ended(before: Position, after: Position) -> bool:
    """Whether the event between the two ended a round (or its last reveal scored it)."""
    changed = (after.round, after.phase) != (before.round, before.phase)
    return changed and after.phase in ENDED


def record_from_command(match_id: str, make_event: Callable[[int | None], dict[str, Any]], *,
                        seat: int | None = None, seated: bool = False,
                        disputed: bool | None = None) -> None:
    """What every recording command does: open the match, take the seat on turn when the event
    needs a seat and none was given, record, and print the outcome. ``disputed`` is None for a
    command that has no --disputed."""
    from referee.service import IllegalEvent

    with connect() as service:
        recorder = Recorder(service, match_id, terminal(soft_wrap=True))
        pos = recorder.state()
        if seated and seat is None:
            try:
                seat = seat_on_turn(pos, recorder.players)
            except NoSeat as error:
                hint = _(": say which seat acts with --seat") if error.choose else ""
                raise click.UsageError(message(error) + hint) from None
        try:
            recorder.record(make_event(seat), at=pos, disputed=bool(disputed))
        except IllegalEvent as error:
            hint = "" if disputed is None else _("; add --disputed to record it anyway, as disputed")
            raise click.ClickException(refusal(error) + hint) from None
