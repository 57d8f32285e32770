"""Rich renderings shared by the CLI's commands: the table as it stands, rounds, violations."""

from __future__ import annotations

from typing import Any, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from referee import Position


def side_names(rules: dict[str, Any], players: Sequence[str]) -> list[str]:
    if rules["partnerships"]:
        return [f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}"]
    return list(players)


def tile_text(tile: str) -> str:
    a, b = tile.split("-")
    return f"[{a}|{b}]"


def rounds_table(report: dict[str, Any], players: Sequence[str]) -> Table:
    sides = side_names(report["rules"], players)
    table = Table(title="Rounds", title_justify="left")
    for column in ("round", "opener", "outcome", "winner", "points", "pips left"):
        table.add_column(column, justify="right" if column in ("round", "points") else "left")
    for r in report["rounds"]:
        table.add_row(
            str(r["round"]),
            players[r["opener"]] if r["opener"] is not None else "-",
            r["outcome"].replace("_", " ") + (f" by {players[r['blocked_by']]}" if r["blocked_by"] is not None else ""),
            sides[r["winner"]] if r["winner"] is not None else "-",
            str(r["points"]),
            " ".join(map(str, r["pips"])) if r["pips"] is not None else "-",
        )
    return table


def totals_table(report: dict[str, Any], players: Sequence[str]) -> Table:
    sides = side_names(report["rules"], players)
    table = Table(title="Totals", title_justify="left")
    table.add_column("side")
    table.add_column("total", justify="right")
    for side, total in enumerate(report["totals"]):
        marker = " (winner)" if report["winner"] == side else ""
        table.add_row(sides[side] + marker, str(total))
    return table


def verdict(report: dict[str, Any], players: Sequence[str]) -> Text:
    sides = side_names(report["rules"], players)
    if report["finished"]:
        who = sides[report["winner"]] if report["winner"] is not None else "nobody (a tie)"
        status = f"Match over: {who} won."
    else:
        status = "Match not finished."
    if report["valid"]:
        return Text(f"{status} Every event is legal.", style="green")
    count = len(report["violations"])
    return Text(f"{status} {count} violation{'s' * (count != 1)}:", style="bold red")


def violation_lines(report: dict[str, Any]) -> list[Text]:
    return [Text(f"  event {v['seq']}: {v['code']} — {v['message']}") for v in report["violations"]]


def report_view(report: dict[str, Any], players: Sequence[str]) -> Group:
    return Group(rounds_table(report, players), totals_table(report, players),
                 verdict(report, players), *violation_lines(report))


def position_view(pos: Position, rules: dict[str, Any], players: Sequence[str],
                  violation: str | None = None) -> Group:
    sides = side_names(rules, players)
    parts: list[Any] = []
    head = f"After event {pos.seq}" + (f" · round {pos.round} ({pos.phase.replace('_', ' ')})" if pos.round else " · no deal yet")
    parts.append(Text(head, style="bold"))
    if violation:
        parts.append(Text(f"That event was refused: {violation}", style="red"))
    line = " ".join(tile_text(t) for t in pos.line) or "(empty)"
    parts.append(Text(f"Line: {line}"))
    if pos.ends:
        parts.append(Text(f"Open ends: {pos.ends[0]} and {pos.ends[1]}"))
    hands = Table(show_header=True)
    hands.add_column("seat", justify="right")
    hands.add_column("player")
    hands.add_column("tiles", justify="right")
    hands.add_column("hand")
    for seat, name in enumerate(players):
        hand = pos.hands[seat]
        shown = " ".join(tile_text(t) for t in hand) if hand is not None else "(not seen)"
        marker = " ◀ to play" if pos.turn == seat else ""
        hands.add_row(str(seat), name + marker, str(pos.counts[seat]), shown)
    parts.append(hands)
    if pos.may_lead and pos.turn is None:
        parts.append(Text("May open: " + ", ".join(players[s] for s in pos.may_lead)))
    parts.append(Text(f"Boneyard: {pos.boneyard}"))
    parts.append(Text("Scores: " + ", ".join(f"{sides[s]} {t}" for s, t in enumerate(pos.totals))))
    if pos.finished:
        parts.append(Text("Match over: " + (sides[pos.winner] + " won" if pos.winner is not None else "no winner"),
                          style="bold"))
    return Group(*parts)
