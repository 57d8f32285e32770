"""``domino match new/list/show/report/export/abandon`` (and ``import``, in
cli/imports.py)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from referee.core.vocab import MATCH_STATUSES as STATUSES
from words import N_, _, message, ngettext
from words.terms import term

from .connection import connect
from .lazy import LazyGroup
from .listing import echo_csv, echo_json, output_format, page_note, wide_option
from .options import (
    DATE,
    MAX_COUNT,
    NAME,
    Whole,
    at_option,
    club_option,
    csv_option,
    json_option,
    json_value,
    match_argument,
    output_option,
    write_output,
)

# The service is imported when a command runs (it connects), not with this module: --help
# loads no service nor SQLAlchemy.
if TYPE_CHECKING:
    from referee.service import Screen, Service

LIST_COLUMNS = ("id", "date", "table", "event", "players", "status", "round", "totals", "winner")

# A seated name that is new but close to a player's is refused ("did you mean ...?"), as
# `player add` refuses it, until the command confirms it (the API's "new": true, ?new=true).
seating_new_option = click.option(
    "--new", "confirm_new", is_flag=True,
    help=N_("The names that are new to the club are new players, though close to a player's "
            "(refused without it: \"did you mean ...?\")."))
NEW_HINT = N_("; --new seats them as new players")


@click.group(cls=LazyGroup, lazy={
    "import": ("cli.imports:match_import", N_("Import whole match logs (domino-log/1).")),
}, help=N_("""\
Matches: create, list, show, report, export, import, abandon.

\b
Example:
  domino match new --club casino --rules mano-a-mano --player Ana --player Beto
  domino match list --club casino --status in_progress
  domino match abandon 7 --reason "the wrong player was seated\""""))
def match() -> None:
    pass


def _rules(text: str) -> Any:
    """A preset name, or a JSON object of parameters ({"preset": ..., "target": 100})."""
    if not text.lstrip().startswith("{"):
        return text
    return json_value(text, "--rules")


@match.command("new", help=N_("""\
Create a match and print its id (on a line of its own, for scripts).

A name is a player of the club whatever its case and spacing ("ana" sits Ana); a new name
joins the club, unless it is close to a player's ("did you mean Ana Pérez?"): then --new
says it is someone new.

\b
Example:
  domino match new --club casino --rules parejas \\
      --player Ana --player Beto --player Carla --player Dani --table 3
  domino match new --club casino --rules mano-a-mano --player "Ana Perez" --player Beto --new"""))
@club_option
@click.option("--rules", "rules_text", required=True, metavar="PRESET|JSON",
              help=N_('A preset (mano-a-mano, parejas, veracruz, sircle, puerto-rico) or JSON '
                      'like \'{"preset": "parejas", "target": 100}\'.'))
@click.option("--player", "players", type=NAME, multiple=True, required=True,
              help=N_("A player, once per seat in the order of play (new names join the club)."))
@click.option("--table", default=None, help=N_("Which table it is played at."))
@click.option("--date", type=DATE, default=None, metavar="YYYY-MM-DD",
              help=N_("The day it is played; default today (UTC)."))
@click.option("--event", default=None, help=N_("The tournament or club night."))
@seating_new_option
def match_new(club_slug: str, rules_text: str, players: tuple[str, ...], table: str | None,
              date: str | None, event: str | None, confirm_new: bool) -> None:
    from referee.service import Unconfirmed

    with connect() as service:
        try:
            created = service.recording.create_match(club_slug, _rules(rules_text),
                                                     list(players), table=table, date=date,
                                                     event=event, confirm_new=confirm_new)
        except Unconfirmed as error:
            raise click.ClickException(message(error) + _(NEW_HINT)) from None
    click.echo(_("created match %(id)s: %(players)s", id=created["id"],
                 players=", ".join(created["players"])), err=True)
    click.echo(created["id"])


@match.command("list", help=N_("""\
List a club's matches, newest first.

A page at a time: the first 50, then --offset 50 for the next 50 (--limit sets the size of
a page); a line on stderr says which are shown.

--json and --csv print one row per match: id, date, table, event, players, status, round,
totals, winner (the winning side's name). The table fits the terminal: names wrap, and in
80 columns the round and then the date are left out (a line on standard error says so);
--wide shows every column.

\b
Example:
  domino match list --club casino --status finished --player Ana --from 2026-01-01
  domino match list --club casino --offset 50
  domino match list --club casino --limit 1000 --csv > matches.csv"""))
@club_option
@click.option("--status", type=click.Choice(STATUSES), default=None)
@click.option("--player", type=NAME, default=None, help=N_("Only matches this player sat in."))
@click.option("--from", "date_from", type=DATE, default=None, metavar="YYYY-MM-DD",
              help=N_("Played on or after this day."))
@click.option("--to", "date_to", type=DATE, default=None, metavar="YYYY-MM-DD",
              help=N_("Played on or before this day."))
@click.option("--limit", type=Whole(1, MAX_COUNT), default=50, show_default=True,
              help=N_("At most this many matches."))
@click.option("--offset", type=Whole(0, MAX_COUNT), default=0,
              help=N_("Skip this many first (the next page: --offset 50)."))
@json_option
@csv_option
@wide_option
def match_list(club_slug: str, status: str | None, player: str | None, date_from: str | None,
               date_to: str | None, limit: int, offset: int, as_json: bool, as_csv: bool,
               wide: bool) -> None:
    how = output_format(as_json, as_csv)
    with connect() as service:
        found, total = service.reading.list_matches(club_slug, status=status, player=player,
                                                    date_from=date_from, date_to=date_to,
                                                    limit=limit, offset=offset)
    rows = [list_row(m) for m in found]
    if how == "json":
        echo_json(rows)
    elif how == "csv":
        echo_csv([{**r, "players": ", ".join(r["players"]), "totals": " - ".join(map(str, r["totals"]))}
                  for r in rows], LIST_COLUMNS)
    else:
        from .listing import Col, print_table

        # In 80 columns the round goes first, then the date: the id finds the match.
        columns = [Col(_("id"), right=True), Col(_("date"), drop=2), Col(_("players"), wrap=True),
                   Col(_("status")), Col(_("round"), right=True, drop=3),
                   Col(_("totals")), Col(_("winner"), wrap=True, least=8),
                   Col(_("disputed"), right=True)]
        cells = [[str(r["id"]), r["date"] or m["created_at"][:10], ", ".join(r["players"]),
                  term("phase", r["status"]) if r["status"] == "in_progress"
                  else term("status", r["status"]).lower(), str(r["round"] or "-"),
                  " - ".join(map(str, r["totals"])), r["winner"] or "-", str(m["violations"])]
                 for m, r in zip(found, rows)]
        print_table(ngettext("%(club)s: %(num)s of %(total)s match",
                             "%(club)s: %(num)s of %(total)s matches", len(found),
                             club=club_slug, total=total), columns, cells, wide=wide)
    note = page_note(offset, len(found), total)
    if note:
        click.echo(note, err=True)


def list_row(summary: dict[str, Any]) -> dict[str, Any]:
    """A match as ``match list --json/--csv`` prints it (the winner by side name)."""
    from referee.service import side_names

    winner = summary["winner"]
    return {**{c: summary[c] for c in LIST_COLUMNS if c != "winner"},
            "winner": side_names(summary["rules"], summary["players"])[winner] if winner is not None else None}


def match_screen(service: Service, match_id: str | int, at: int | None) -> Screen:
    """The screen of a stored match (``svc.reading.screen``); with ``at``, the same screen of
    the table as it stood after event ``at``, with the disputes recorded up to it."""
    if at is None:
        return service.reading.screen(match_id)
    summary = service.reading.get_match(match_id)
    if at > summary["last_seq"]:
        raise click.BadParameter(ngettext("match %(id)s has %(num)s event; there is no event "
                                          "%(at)s", "match %(id)s has %(num)s events; there is no "
                                          "event %(at)s", summary["last_seq"], id=summary["id"],
                                          at=at), param_hint="'--at'")
    return service.reading.screen(summary["id"], at)


@match.command("show", help=N_("""\
Draw the table of a match as it stood: the line, open ends, hands, whose turn and what
that seat may do, the boneyard, the totals by side, open disputes, the winner.

\b
Example:
  domino match show 7
  domino match show 7 --at 12
  domino match show 7 --json | jq .legal"""))
@match_argument
@at_option
@click.option("--json", "as_json", is_flag=True,
              help=N_("Print the screen as JSON (what GET /api/v1/matches/ID answers)."))
def match_show(match_id: str, at: int | None, as_json: bool) -> None:
    with connect() as service:
        screen = match_screen(service, match_id, at)
    if as_json:
        echo_json(screen.as_dict())
        return
    from .console import terminal
    from .render import screen_view

    terminal().print(screen_view(screen))


@match.command("report", help=N_("""\
The referee's report: rounds, totals, winner and every violation.

\b
Example:
  domino match report 7
  domino match report 7 --json | jq .totals"""))
@match_argument
@click.option("--json", "as_json", is_flag=True, help=N_("Print the domino-report/1 as JSON."))
def match_report(match_id: str, as_json: bool) -> None:
    with connect() as service:
        summary = service.reading.get_match(match_id)
        report = service.reading.report(summary["id"])
        # each play's tile (what a scoring play placed: the report's scored leave it out)
        plays = ({seq: tile for line in service.reading.lines(summary["id"])
                  for seq, tile in line["plays"].items()}
                 if summary["rules"].get("scoring") == "ends" and not as_json else {})
    if as_json:
        from words import localize

        click.echo(json.dumps(localize(report)))
        return
    from referee.service import side_names

    from .console import terminal
    from .render import report_view

    players = summary["players"]
    terminal().print(report_view(report, players, side_names(summary["rules"], players),
                                suspicions=False, tiles=lambda seqs: plays))


@match.command("export", help=N_("""\
Write a match as a domino-log/1 (its header and every event, as recorded). With -o, the
log's chain head (docs/verify.md) is told too: domino verify FILE prints the same.

\b
Example:
  domino match export 7 -o table3.jsonl"""))
@match_argument
@output_option
def match_export(match_id: str, output: str | None) -> None:
    with connect() as service:
        text = service.reading.export_log(match_id)
    from referee import read_log
    from referee.core.chain import head

    log = read_log(text)  # the head of exactly what is written
    write_output(text, output, _("wrote match %(id)s to %(file)s; chain head %(head)s",
                                 id=match_id, file=output,
                                 head=head(log.header.fields, log.events)))


# What the record says of an abandon given no reason (the record's text, as typed: English).
ABANDON_REASON = "started by mistake"


@match.command("abandon", help=N_("""\
Withdraw a match started by mistake, while no deal stands in its record: it ends with
no result and counts nowhere (standings, ratings, tournaments, the scoreboard); it is
listed with --status abandoned. Refused once a deal stands (void it first).

\b
Example:
  domino match abandon 7 --reason "the wrong player was seated"
  domino match list --club casino --status abandoned"""))
@match_argument
@click.option("--reason", default=ABANDON_REASON, show_default=True,
              help=N_("Why: kept in the record."))
def match_abandon(match_id: str, reason: str) -> None:
    from referee.service import IllegalEvent

    from .connection import refusal

    with connect() as service:
        summary = service.reading.get_match(match_id)
        event = {"type": "abandon", "reason": reason}
        try:
            recorded = service.recording.record_event(summary["id"], event,
                                                      expected_seq=summary["last_seq"])
        except IllegalEvent as error:
            raise click.ClickException(refusal(error)) from None
    click.echo(_("Match %(id)s abandoned (event %(seq)s): it counts nowhere.",
                 id=summary["id"], seq=recorded.seq))
