"""``domino disputes`` (a club's or a match's disputes, open first) and ``domino dispute-sheet``
(one dispute, written out for a referee to hand to both sides). The service finds them
(``svc.disputes``); a ruling on one is ``domino stands``, ``amend``, ``penalty``, ``void`` ...
(cli/rulings.py)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Sequence

import click

from referee.core.vocab import DISPUTE_FILTERS as STATUSES
from words import N_, _
from words.terms import term

from .listing import echo_csv, echo_json, output_format, page_note, wide_option
from .options import MAX_COUNT, Whole, csv_option, json_option, match_argument

if TYPE_CHECKING:
    from referee.service import Service

COLUMNS = ("match", "seq", "code", "seat", "seat_name", "certainty", "found_at", "ruling",
           "ruling_seq", "ruling_type", "ruling_reason", "ruling_points")


@click.command(help=N_("""\
A club's disputes, or one match's: open first, then ruled, by match and event.

A dispute is an event the referee refused but the table recorded as disputed, or a foul
the record proves in hindsight. Each row: the match, the event (seq), the code, the seat at
fault (by name), how certain, the event that proved it (found at), and the ruling (open
until a referee rules: stands, amend, penalty, void ...).

--json prints one object a dispute (the service's, with match, seat_name and ruling);
--csv one row a dispute: match, seq, code, seat, seat_name, certainty, found_at, ruling,
ruling_seq, ruling_type, ruling_reason, ruling_points. In 80 columns "found at" and then
the certainty may be left out; --wide shows every column.

\b
Example:
  domino disputes --club casino
  domino disputes --match 7 --status all
  domino disputes --club casino --status ruled --csv > rulings.csv"""))
@click.option("--club", "club_slug", default=None, help=N_("The club's slug: every match of it."))
@click.option("--match", "match_id", default=None, metavar="MATCH", help=N_("One match only."))
@click.option("--status", type=click.Choice(STATUSES), default="open", show_default=True,
              help=N_("Open disputes (no ruling yet), ruled ones, or all."))
@click.option("--limit", type=Whole(1, MAX_COUNT), default=50, show_default=True,
              help=N_("At most this many disputes."))
@click.option("--offset", type=Whole(0, MAX_COUNT), default=0,
              help=N_("Skip this many first (the next page: --offset 50)."))
@json_option
@csv_option
@wide_option
def disputes(club_slug: str | None, match_id: str | None, status: str, limit: int, offset: int,
             as_json: bool, as_csv: bool, wide: bool) -> None:
    how = output_format(as_json, as_csv)
    if (club_slug is None) == (match_id is None):
        raise click.UsageError(_("give --club or --match, one of the two"))
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
    whose = club_slug if club_slug is not None else _("match %(id)s", id=match_id)
    which = {"all": _("disputes"), "open": _("open disputes")}.get(status, _("ruled disputes"))
    if how == "json":
        echo_json(rows)
    elif how == "csv":
        echo_csv([csv_row(r) for r in rows], COLUMNS)
    elif not rows:
        click.echo(_("%(whose)s: no %(which)s", whose=whose, which=which))
    else:
        from .listing import Col, print_table
        from .render import ruling_text

        # In 80 columns the certainty goes first, then where it was found: the ruling stays.
        columns = [Col(_("match"), right=True), Col(_("seq"), right=True), Col(_("foul"), wrap=True),
                   Col(_("seat"), wrap=True), Col(_("certainty"), drop=2),
                   Col(_("found at"), right=True, drop=1), Col(_("ruling"), wrap=True, least=16)]
        cells = [[str(r["match"]), str(r["seq"]), term("violation", r["code"]), seat_text(r),
                  term("certainty", r["certainty"]), str(r["found_at"]), ruling_text(r["ruling"])]
                 for r in rows]
        print_table(_("%(whose)s: %(which)s, %(num)s of %(total)s", whose=whose, which=which,
                      num=len(rows), total=total), columns, cells, wide=wide)
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

@click.command("dispute-sheet", help=N_("""\
Print the sheet of dispute SEQ, to hand to both sides: the match, the moment, the foul
and its evidence, the ruling, the score before and after.

Plain text: the match and its table, the players (and sides), the moment before the
disputed event (the line of play, the open ends, whose turn), the foul and every fact of
its evidence with the event as recorded, the ruling (or that there is none yet), and the
score before and after the ruling, by side.

\b
Example:
  domino dispute-sheet 7 12
  domino dispute-sheet 7 12 > dispute-7-12.txt
  domino dispute-sheet 7 12 --json | jq .evidence"""))
@match_argument
@click.argument("seq", metavar="SEQ", type=Whole(min=1))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the sheet as JSON (svc.disputes.sheet)."))
def dispute_sheet(match_id: str, seq: int, as_json: bool) -> None:
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
    from words.events import event_words, seat_number, table_words

    from .render import end_text, scores_text, tile_text, violation_head

    match, dispute, moment = sheet["match"], sheet["dispute"], sheet["moment"]
    players = match["players"]
    sides = side_names(match["rules"], players)

    def seat_name(seat: int) -> str:  # a sheet people sign: seats counted from 1
        return _("%(name)s (seat %(seat)s)", name=players[seat], seat=seat_number(seat))

    def recorded(event: Any) -> str:
        said = event_words(event, players, sides, match["rules"]) if isinstance(event, dict) else "?"
        return f"{said}   {json.dumps(event, ensure_ascii=False)}"

    club = sheet.get("club") or {}
    where = [_("club %(club)s", club=club.get("name") or match["club"])]
    if match.get("table"):
        where.append(table_words(match["table"]))
    if match.get("date"):
        where.append(_("played %(date)s", date=match["date"]))
    if match.get("event"):
        where.append(_("at %(event)s", event=match["event"]))
    title = _("Dispute sheet: match %(match)s, event %(seq)s", match=match["id"], seq=dispute["seq"])
    lines = [title, "=" * len(title), ", ".join(where),
             _("Players: %(seats)s", seats=", ".join(seat_name(s) for s in range(len(players))))]
    if match["rules"].get("partnerships"):
        # each said apart first: babel's extractor misses a _() inside another's arguments
        pairs = [_("%(name)s (partnership %(side)s)", name=name, side=s + 1)
                 for s, name in enumerate(sides)]
        lines.append(_("Partnerships: %(sides)s", sides=", ".join(pairs)))
    lines += ["", _("The moment (after event %(seq)s, round %(round)s)", seq=moment["seq"],
                    round=moment["round"]) if moment["round"]
              else _("The moment (after event %(seq)s, before any deal)", seq=moment["seq"])]
    line = " ".join(tile_text(t) for t in moment["line"]) or _("(empty)")
    lines.append("  " + _("Line: %(tiles)s", tiles=line))
    if moment.get("count") is not None and moment.get("open_ends"):  # the points family's
        ends = ", ".join(f"{end_text(e['side'])} {e['pip']}" for e in moment["open_ends"])
        lines.append("  " + _("Open ends: %(ends)s · count %(count)s", ends=ends,
                              count=moment["count"]))
    elif moment["ends"]:
        lines.append("  " + _("Open ends: %(left)s and %(right)s", left=moment["ends"][0],
                              right=moment["ends"][1]))
    turn = moment["turn"]
    lines.append("  " + (_("Turn: %(seat)s", seat=seat_name(turn)) if turn is not None
                         else _("Turn: nobody's")))
    at_fault = (seat_name(dispute["seat"]) if dispute["seat"] is not None
                else _("no seat"))
    lines += ["", _("The foul"), f"  {violation_head(dispute)}",
              "  " + _("certainty: %(certainty)s; at fault: %(seat)s",
                       certainty=term("certainty", dispute["certainty"]), seat=at_fault),
              "  " + _("event %(seq)s as recorded: %(said)s", seq=dispute["seq"],
                       said=recorded(sheet["event"]))]
    lines += ["", _("Evidence")]
    if sheet["evidence"]:
        for fact in sheet["evidence"]:
            lines += ["  " + _("event %(seq)s: %(fact)s", seq=fact["seq"], fact=fact["fact"]),
                      "    " + _("recorded: %(said)s", said=recorded(fact["event"]))]
    else:
        lines.append("  " + _("the referee refused event %(seq)s when it was recorded",
                              seq=dispute["seq"]))
    ruling, score = sheet["ruling"], sheet["score"]
    lines += ["", _("The ruling")]
    if ruling is None:
        lines += ["  " + _("none yet: the dispute is open"),
                  "", _("Score"), "  " + _("now: %(scores)s", scores=scores_text(score["before"], sides)),
                  "  " + _("after the ruling: no ruling yet")]
    else:
        said = (event_words(ruled, players, sides, match["rules"]) if ruled is not None
                else term("event", ruling["type"]))
        lines += ["  " + _("event %(seq)s: %(said)s", seq=ruling["seq"], said=said),
                  "", _("Score"),
                  "  " + _("before the ruling (after event %(seq)s): %(scores)s",
                           seq=ruling["seq"] - 1, scores=scores_text(score["before"], sides)),
                  "  " + _("after the ruling (after event %(seq)s): %(scores)s",
                           seq=ruling["seq"], scores=scores_text(score["after"], sides))]
    return lines
