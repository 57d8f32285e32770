"""A referee's rulings: penalty, void, annul, forfeit, stands, amend. Each one is an event
appended to the record; nothing recorded is ever changed or deleted. ``--preview`` on any of them
tells what the ruling would change (``svc.disputes.preview``) and stores nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import click

from words import N_, _

from .options import Whole, WholeNumber, json_value, match_argument
from .recorder import Recorder
from .table_input import SEATED, Entry, InputError, parse_entry

if TYPE_CHECKING:
    from referee.service import Service

reason_option = click.option("--reason", required=True, help=N_("Why: kept in the record."))
side_option = click.option("--side", type=Whole(min=0), required=True,
                           help=N_("The side (the seat, or 0/1 for partnerships 0+2 and 1+3)."))
preview_option = click.option("--preview", is_flag=True,
                              help=N_("Show what the ruling would change (rounds, totals, winner, "
                                      "violations); store nothing."))
seq_argument = click.argument("target", metavar="SEQ", type=Whole(min=1))

Build = Callable[["Service", Recorder], list[dict[str, Any]]]
Record = Callable[["Service", Recorder, Any], None]


def rule(match_id: str, build: Build, *, preview: bool, record: Record | None = None) -> None:
    """Open the match, build the ruling's events (``build`` may read the match), then preview
    them, or record them (by ``record`` when given, else one by one) and print what each did.

    A preview exits 0, or 1 when the referee would refuse the ruling (it says why)."""
    from referee.service import IllegalEvent

    from .connection import connect, refusal
    from .console import terminal

    with connect() as service:
        recorder = Recorder(service, match_id, terminal(soft_wrap=True))
        pos = recorder.state()
        events = build(service, recorder)
        if preview:
            if not show_preview(service, recorder, events):
                raise SystemExit(1)
            return
        try:
            if record is not None:
                record(service, recorder, pos)
                return
            for event in events:
                pos = recorder.record(event, at=pos).state
        except IllegalEvent as error:
            raise click.ClickException(refusal(error)) from None


def show_preview(service: Service, recorder: Recorder, events: list[dict[str, Any]]) -> bool:
    """Print what recording ``events`` would do; False when one would be refused."""
    from .render import preview_lines

    found = service.disputes.preview(recorder.match_id, events)
    for line in preview_lines(found, recorder.players, recorder.sides, recorder.rules):
        click.echo(line)
    return all(entry["violation"] is None for entry in found["events"])


def fixed(event: dict[str, Any]) -> Build:
    return lambda _service, _recorder: [event]


def require_dispute(service: Service, recorder: Recorder, seq: int) -> None:
    """A ruling that names a dispute must name one: a typo is an error, never a stray ruling."""
    if all(d["seq"] != seq for d in service.disputes.for_match(recorder.match_id, status="all")):
        raise click.ClickException(
            _("event %(seq)s of match %(match)s is not a dispute "
              "(domino disputes --match %(match)s lists them)", seq=seq, match=recorder.match_id))


@click.command(help=N_("""\
Award points to a side, or deduct them; it can end the match.

With --dispute SEQ alone, the rules' standard penalty for that dispute: their points to
each side opposing the seat at fault, each naming the dispute. With --side and --points
too, that penalty, naming the dispute.

\b
Example:
  domino penalty 7 --side 1 --points 25 --reason "exposed tiles twice"
  domino penalty 7 --dispute 12
  domino penalty 7 --dispute 12 --side 0 --points 10 --reason "renege" --preview"""))
@match_argument
@click.option("--side", type=Whole(min=0), default=None,
              help=N_("The side (the seat, or 0/1 for partnerships 0+2 and 1+3)."))
@click.option("--points", type=WholeNumber(), default=None, help=N_("Points awarded (negative deducts)."))
@click.option("--dispute", type=Whole(min=1), default=None, metavar="SEQ",
              help=N_("The dispute it rules on (event SEQ). Alone, without --side and --points: "
                      "the rules' standard penalty for it (foul_points, foul_share)."))
@click.option("--reason", default=None,
              help=N_("Why: kept in the record. Required, except for the rules' standard penalty "
                      "(which says why by itself unless given one)."))
@preview_option
def penalty(match_id: str, side: int | None, points: int | None, dispute: int | None,
            reason: str | None, preview: bool) -> None:
    if dispute is not None and side is None and points is None:
        standard_penalty(match_id, dispute, reason, preview)
        return
    if side is None or points is None:
        raise click.UsageError(
            _("give both --side and --points") if dispute is None else
            _("give both --side and --points (or --dispute SEQ alone, for the rules' standard "
              "penalty)"))
    if reason is None:
        raise click.UsageError(_("Missing option '%(name)s'.", name="--reason"))
    event: dict[str, Any] = {"type": "penalty", "side": side, "points": points}
    if dispute is not None:
        event["target"] = dispute

    def build(service: Service, recorder: Recorder) -> list[dict[str, Any]]:
        if dispute is not None:
            require_dispute(service, recorder, dispute)
        return [{**event, "reason": reason}]

    rule(match_id, build, preview=preview)


def standard_penalty(match_id: str, dispute: int, reason: str | None, preview: bool) -> None:
    """``penalty --dispute SEQ``: the rules' standard penalty (svc.disputes)."""
    def build(service: Service, recorder: Recorder) -> list[dict[str, Any]]:
        rules = recorder.rules
        if rules.get("foul_points") is None and rules.get("foul_share") is None:
            raise click.ClickException(
                _("the rules of match %(match)s name no standard penalty "
                  "(foul_points, foul_share): give --side and --points", match=recorder.match_id))
        return service.disputes.standard_penalty(recorder.match_id, dispute, reason=reason)

    def record(service: Service, recorder: Recorder, pos: Any) -> None:
        recorded = service.disputes.apply_standard_penalty(
            recorder.match_id, dispute, expected_seq=pos.seq, reason=reason)
        for each in recorded:
            recorder.console.print(recorder.confirmation(each), highlight=False)
            recorder.tell_outcome(pos, each.state)
            pos = each.state

    rule(match_id, build, preview=preview, record=record)


@click.command(help=N_("""\
Strike event SEQ from the record (voiding a void restores its target).

\b
Example:
  domino void 7 23 --reason "recorded at the wrong table\""""))
@match_argument
@seq_argument
@reason_option
@preview_option
def void(match_id: str, target: int, reason: str, preview: bool) -> None:
    rule(match_id, fixed({"type": "void", "target": target, "reason": reason}), preview=preview)


@click.command(help=N_("""\
Cancel the round in progress (a misdeal): no score, it is dealt again.

\b
Example:
  domino annul 7 --reason "misdeal: 8 tiles to seat 2\""""))
@match_argument
@reason_option
@preview_option
def annul(match_id: str, reason: str, preview: bool) -> None:
    rule(match_id, fixed({"type": "annul", "reason": reason}), preview=preview)


@click.command(help=N_("""\
A side forfeits the match.

\b
Example:
  domino forfeit 7 --side 0 --reason "left the table\""""))
@match_argument
@side_option
@reason_option
@preview_option
def forfeit(match_id: str, side: int, reason: str, preview: bool) -> None:
    rule(match_id, fixed({"type": "forfeit", "side": side, "reason": reason}), preview=preview)


@click.command(help=N_("""\
Rule that disputed event SEQ stands as recorded: the dispute is settled, nothing changes.

\b
Example:
  domino stands 7 12 --reason "both sides agreed to play on\""""))
@match_argument
@seq_argument
@reason_option
@preview_option
def stands(match_id: str, target: int, reason: str, preview: bool) -> None:
    event = {"type": "stands", "target": target, "reason": reason}

    def build(service: Service, recorder: Recorder) -> list[dict[str, Any]]:
        require_dispute(service, recorder, target)
        return [event]

    rule(match_id, build, preview=preview)


class CorrectedEvent(click.ParamType):
    """The corrected event of an amend: as the table prompt writes it (``2: 6-5 on 5``, ``p``,
    ``d 3-2``, ``r 6-5 4-4``, ``deal ... / ...``) or a JSON object. Read here, so that bad text is
    a usage error naming EVENT; the seat is settled once the amended event is read."""

    name = "event"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Entry | dict[str, Any]:
        if isinstance(value, (Entry, dict)):
            return value
        text = str(value)
        if text.lstrip().startswith("{"):
            # read as every JSON option is (a deep nesting was a RecursionError's traceback)
            event = json_value(text, param.human_readable_name if param else "EVENT")
            if not isinstance(event, dict):
                self.fail(_("the corrected event must be a JSON object"), param, ctx)
            return event
        try:
            entry = parse_entry(text)
        except InputError as error:
            self.fail(error.message, param, ctx)
        if entry.event is None:
            self.fail(_("%(text)r is a command of the table prompt (%(action)s), not an event: "
                        "write the event as the prompt does (6-5 on 5, p, d 3-2, 2: r 6-5 4-4) "
                        "or as JSON", text=text.strip(), action=entry.action), param, ctx)
        return entry


def corrected_event(given: Entry | dict[str, Any], amended: dict[str, Any],
                    target: int) -> dict[str, Any]:
    """The corrected event, its seat (when it needs one and names none) the amended event's."""
    if isinstance(given, dict):
        if given.get("type") in SEATED and "seat" not in given and "seat" in amended:
            return {"type": given["type"], "seat": amended["seat"],
                    **{k: v for k, v in given.items() if k != "type"}}
        return given
    seat = given.seat
    if seat is None and given.action in SEATED:
        seat = amended.get("seat")
        if type(seat) is not int:
            raise click.UsageError(_("event %(seq)s names no seat: put N: before EVENT to say "
                                     "which seat acts (2: 6-5)", seq=target))
    return given.event_for(seat)


@click.command(help=N_("""\
Correct event SEQ: the record reads EVENT in its place from then on.

EVENT is written as at the table prompt (6-5 on 5, p, d 3-2, r 6-5 4-4, deal ... / ...;
N: for seat N; the seat defaults to the amended event's) or as a JSON object.

\b
Example:
  domino amend 7 12 "6-5 on 5" --reason "the 6-5 went on the 5, not the 6"
  domino amend 7 3 "2: d 3-2" --reason "the drawn tile was seen"
  domino amend 7 1 '{"type": "deal", "hands": [["6-6", "6-5"], ["6-4", "2-1"]]}' \\
      --reason "2-1 typed as 6-5\""""))
@match_argument
@seq_argument
@click.argument("corrected", metavar="EVENT", type=CorrectedEvent())
@reason_option
@preview_option
def amend(match_id: str, target: int, corrected: Entry | dict[str, Any], reason: str,
          preview: bool) -> None:
    def build(service: Service, recorder: Recorder) -> list[dict[str, Any]]:
        found = service.reading.list_events(recorder.match_id, after=target - 1, limit=1)
        if not found:
            last = recorder.state().seq
            raise click.BadParameter(_("match %(match)s has %(last)s events; there is no event "
                                       "%(seq)s", match=recorder.match_id, last=last, seq=target),
                                     param_hint="'SEQ'")
        amended = found[0]["event"]
        return [{"type": "amend", "target": target,
                 "event": corrected_event(corrected, amended, target), "reason": reason}]

    rule(match_id, build, preview=preview)


COMMANDS = (penalty, void, annul, forfeit, stands, amend)
