"""``domino disputes`` (a club's or a match's disputes, open first) and ``domino dispute-sheet``
(one dispute, written out for a referee to hand to both sides). The service finds them
(``svc.disputes``); a ruling on one is ``domino stands``, ``amend``, ``penalty``, ``void`` ...
(cli/rulings.py)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Sequence

import click

from referee.core.vocab import DISPUTE_FILTERS as STATUSES

from .listing import echo_csv, echo_json, output_format, page_note
from .options import MAX_COUNT, csv_option, json_option, match_argument

if TYPE_CHECKING:
    from referee.service import Service

COLUMNS = ("match", "seq", "code", "seat", "seat_name", "certainty", "found_at", "ruling",
           "ruling_seq", "ruling_type", "ruling_reason", "ruling_points")


@click.command()
@click.option("--club", "club_slug", default=None, help="The club's slug: every match of it.")
@click.option("--match", "match_id", default=None, metavar="MATCH", help="One match only.")
@click.option("--status", type=click.Choice(STATUSES), default="open", show_default=True,
              help="Open disputes (no ruling yet), ruled ones, or all.")
@click.option("--limit", type=click.IntRange(1, MAX_COUNT), default=50, show_default=True,
              help="At most this many disputes.")
@click.option("--offset", type=click.IntRange(0, MAX_COUNT), default=0,
              help="Skip this many first (the next page: --offset 50).")
@json_option
@csv_option
def disputes(club_slug: str | None, match_id: str | None, status: str, limit: int, offset: int,
             as_json: bool, as_csv: bool) -> None:
    """A club's disputes, or one match's: open first, then ruled, by match and event.

    A dispute is an event the referee refused but the table recorded as disputed, or a foul
    the record proves in hindsight. Each row: the match, the event (seq), the code, the seat at
    fault (by name), how certain, the event that proved it (found at), and the ruling (open
    until a referee rules: stands, amend, penalty, void ...).

    --json prints one object a dispute (the service's, with match, seat_name and ruling);
    --csv one row a dispute: match, seq, code, seat, seat_name, certainty, found_at, ruling,
    ruling_seq, ruling_type, ruling_reason, ruling_points.

    \b
    Example:
      domino disputes --club casino
      domino disputes --match 7 --status all
      domino disputes --club casino --status ruled --csv > rulings.csv
    """
    how = output_format(as_json, as_csv)
    if (club_slug is None) == (match_id is None):
        raise click.UsageError("give --club or --match, one of the two")
    from .connection import connect

    with connect() as service:
        if club_slug is not None:
            found, total = service.disputes.for_club(club_slug, status=status, limit=limit,
                                                     offset=offset)
        else:
            summary = service.reading.get_match(match_id)
            every = [{**d, "match": summary["id"]}
                     for d in service.disputes.for_match(summary["id"], status=status)]
            found, total = every[offset:offset + limit], len(every)
        players = {m: service.reading.get_match(m)["players"] for m in {d["match"] for d in found}}
    rows = [dispute_row(d, players[d["match"]]) for d in found]
    whose = club_slug if club_slug is not None else f"match {match_id}"
    which = "disputes" if status == "all" else f"{status} disputes"
    if how == "json":
        echo_json(rows)
    elif how == "csv":
        echo_csv([csv_row(r) for r in rows], COLUMNS)
    elif not rows:
        click.echo(f"{whose}: no {which}")
    else:
        from .console import terminal
        from rich.table import Table

        from .render import ruling_text

        table = Table(title=f"{whose}: {which}, {len(rows)} of {total}", title_justify="left")
        for column in ("match", "seq", "code", "seat", "certainty", "found at", "ruling"):
            table.add_column(column, justify="right" if column in ("match", "seq", "found at")
                             else "left")
        for r in rows:
            table.add_row(str(r["match"]), str(r["seq"]), r["code"], seat_text(r),
                          r["certainty"], str(r["found_at"]), ruling_text(r["ruling"]))
        terminal().print(table)
    note = page_note(offset, len(rows), total)
    if note:
        click.echo(note, err=True)


def dispute_row(dispute: dict[str, Any], players: Sequence[str]) -> dict[str, Any]:
    seat = dispute["seat"]
    name = players[seat] if type(seat) is int and 0 <= seat < len(players) else None
    return {"match": dispute["match"], "seq": dispute["seq"], "code": dispute["code"],
            "seat": seat, "seat_name": name, "certainty": dispute["certainty"],
            "found_at": dispute["found_at"], "ruling": dispute["ruling"]}


def seat_text(row: dict[str, Any]) -> str:
    if row["seat_name"] is not None:
        return f"{row['seat_name']} ({row['seat']})"
    return "-" if row["seat"] is None else str(row["seat"])


def csv_row(row: dict[str, Any]) -> dict[str, Any]:
    ruling = row["ruling"] or {}
    return {**row, "ruling": ruling.get("type", "open"), "ruling_seq": ruling.get("seq"),
            "ruling_type": ruling.get("type"), "ruling_reason": ruling.get("reason"),
            "ruling_points": ruling.get("points")}


# ------------------------------------------------------------------------------------ the sheet

@click.command("dispute-sheet")
@match_argument
@click.argument("seq", metavar="SEQ", type=click.IntRange(min=1))
@click.option("--json", "as_json", is_flag=True, help="Print the sheet as JSON (svc.disputes.sheet).")
def dispute_sheet(match_id: str, seq: int, as_json: bool) -> None:
    """Print the sheet of dispute SEQ, to hand to both sides: the match, the moment, the foul
    and its evidence, the ruling, the score before and after.

    Plain text: the match and its table, the players (and sides), the moment before the
    disputed event (the line of play, the open ends, whose turn), the foul and every fact of
    its evidence with the event as recorded, the ruling (or that there is none yet), and the
    score before and after the ruling, by side.

    \b
    Example:
      domino dispute-sheet 7 12
      domino dispute-sheet 7 12 > dispute-7-12.txt
      domino dispute-sheet 7 12 --json | jq .evidence
    """
    from .connection import connect

    with connect() as service:
        sheet = service.disputes.sheet(match_id, seq)
        ruling = sheet["ruling"]
        ruled = _event_at(service, sheet["match"]["id"], ruling["seq"]) if ruling else None
    if as_json:
        echo_json(sheet)
        return
    click.echo("\n".join(sheet_lines(sheet, ruled)))


def _event_at(service: Service, match_id: int, seq: int) -> dict[str, Any] | None:
    found = service.reading.list_events(match_id, after=seq - 1, limit=1)
    return found[0]["event"] if found else None


def sheet_lines(sheet: dict[str, Any], ruled: dict[str, Any] | None = None) -> list[str]:
    """The sheet as text. ``ruled``: the ruling's event as recorded, when there is one."""
    from referee.service import side_names

    from .render import event_text, seat_name, scores_text, tile_text, violation_head

    match, dispute, moment = sheet["match"], sheet["dispute"], sheet["moment"]
    players = match["players"]
    sides = side_names(match["rules"], players)

    def recorded(event: Any) -> str:
        said = event_text(event, players, sides) if isinstance(event, dict) else "?"
        return f"{said}   {json.dumps(event, ensure_ascii=False)}"

    where = [f"club {match['club']}"]
    where += [f"{label} {match[key]}" for key, label in
              (("table", "table"), ("date", "played"), ("event", "at")) if match.get(key)]
    title = f"Dispute sheet: match {match['id']}, event {dispute['seq']}"
    lines = [title, "=" * len(title), ", ".join(where),
             "Players: " + ", ".join(f"{name} (seat {s})" for s, name in enumerate(players))]
    if match["rules"].get("partnerships"):
        lines.append("Sides: " + ", ".join(f"{name} (side {s})" for s, name in enumerate(sides)))
    lines += ["", f"The moment (after event {moment['seq']}"
              + (f", round {moment['round']})" if moment["round"] else ", before any deal)")]
    line = " ".join(tile_text(t) for t in moment["line"]) or "(empty)"
    lines.append(f"  Line: {line}")
    if moment["ends"]:
        lines.append(f"  Open ends: {moment['ends'][0]} and {moment['ends'][1]}")
    turn = moment["turn"]
    lines.append(f"  Turn: {seat_name(turn, players)}" if turn is not None else "  Turn: nobody's")
    lines += ["", "The foul", f"  {violation_head(dispute)}",
              f"  certainty: {dispute['certainty']}; at fault: "
              + (seat_name(dispute["seat"], players) if dispute["seat"] is not None else "no seat"),
              f"  event {dispute['seq']} as recorded: {recorded(sheet['event'])}"]
    lines += ["", "Evidence"]
    if sheet["evidence"]:
        for fact in sheet["evidence"]:
            lines += [f"  event {fact['seq']}: {fact['fact']}",
                      f"    recorded: {recorded(fact['event'])}"]
    else:
        lines.append(f"  the referee refused event {dispute['seq']} when it was recorded")
    ruling, score = sheet["ruling"], sheet["score"]
    lines += ["", "The ruling"]
    if ruling is None:
        lines += ["  none yet: the dispute is open",
                  "", "Score", f"  now: {scores_text(score['before'], sides)}",
                  "  after the ruling: no ruling yet"]
    else:
        said = event_text(ruled, players, sides) if ruled is not None else ruling["type"]
        lines += [f"  event {ruling['seq']}: {said}",
                  "", "Score", f"  before the ruling (after event {ruling['seq'] - 1}): "
                  f"{scores_text(score['before'], sides)}",
                  f"  after the ruling (after event {ruling['seq']}): "
                  f"{scores_text(score['after'], sides)}"]
    return lines
