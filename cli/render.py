"""Rich renderings shared by the CLI's commands: the table as it stands, rounds, violations.

Side names come from the caller (``referee.core.vocab.side_names``, as ``Screen.sides`` has them).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from rich.console import Console, ConsoleOptions, Group
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from referee import Position

from .quicktable import QuickTable

if TYPE_CHECKING:
    from referee.service import Screen


# What a line may not break inside: a move (a tile and its end: "6-5 on 5", "6-4 on the 4 end",
# "d (draw)"), a seat ("(seat 1)"), a count ("7 tiles"), else a word; a tile ("6-5", "[6|5]")
# holds no space.
_UNIT = re.compile(r"\S*\d+-\d+ on (?:the )?\S+(?: end\b)?\S*"
                   r"|\b[dp] \((?:draw|pass)\)\S*|\(seat \d+\)\S*|\b\d+ tiles?\b\S*|\S+")


class Flow:
    """Text that wraps only between units (:data:`_UNIT`), never inside a tile or a move, its
    continuation lines indented; on one line, as given, when the console does not wrap (the
    table prompt's output to a script)."""

    def __init__(self, text: Text | str, style: str = "", indent: int = 2,
                 spans: Sequence[tuple[int, int]] | None = None) -> None:
        self.text = text if isinstance(text, Text) else Text(text, style=style)
        self.indent = indent
        self.spans = spans

    @classmethod
    def of(cls, units: Sequence[str], sep: str = "  ", indent: int = 0) -> "Flow":
        """Units given one by one (the help's forms: "65 on 5", "r 6-5 4-4"), ``sep`` between."""
        spans, at = [], 0
        for unit in units:
            spans.append((at, at + len(unit)))
            at += len(unit) + len(sep)
        return cls(sep.join(units), indent=indent, spans=spans)

    def units(self) -> Sequence[tuple[int, int]]:
        if self.spans is not None:
            return self.spans
        return [m.span() for m in _UNIT.finditer(self.text.plain)]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        if options.no_wrap:
            yield self.text
            return
        width, lines, line, start = options.max_width, [], None, 0
        for begin, end in self.units():
            unit = self.text[begin:end]
            if line is not None and line.cell_len + (begin - start) + unit.cell_len <= width:
                line.append_text(self.text[start:begin])  # the space(s) between, as typed
            else:
                if line is not None:
                    lines.append(line)
                line = Text(" " * self.indent if lines else "", style=self.text.style)
            line.append_text(unit)
            start = end
        lines.append(line if line is not None else Text(style=self.text.style))
        for row in lines:
            row.overflow = "fold"  # a row fits, unless one unit is wider than a line: folded
            yield row

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((self.text[b:e].cell_len for b, e in self.units()), default=0)
        return Measurement(widest, max(widest, self.text.cell_len))


def tile_text(tile: str) -> str:
    a, b = tile.split("-")
    return f"[{a}|{b}]"


def outcome_text(result: dict[str, Any], players: Sequence[str]) -> str:
    """A report round's outcome in words: "domino", "blocked by Beto", "awaiting reveal"."""
    blocker = result["blocked_by"]
    return result["outcome"].replace("_", " ") + (f" by {players[blocker]}" if blocker is not None else "")


def scores_text(totals: Sequence[int], sides: Sequence[str]) -> str:
    return ", ".join(f"{sides[s]} {t}" for s, t in enumerate(totals))


def line_text(pos: Position) -> Flow:
    return Flow("Line: " + (" ".join(tile_text(t) for t in pos.line) or "(empty)"))


def rounds_table(report: dict[str, Any], players: Sequence[str], sides: Sequence[str]) -> Table:
    table = QuickTable(title="Rounds", title_justify="left")
    for column in ("round", "opener", "outcome", "winner", "points", "pips left"):
        table.add_column(column, justify="right" if column in ("round", "points") else "left")
    for r in report["rounds"]:
        table.add_row(
            str(r["round"]),
            players[r["opener"]] if r["opener"] is not None else "-",
            outcome_text(r, players),
            sides[r["winner"]] if r["winner"] is not None else "-",
            str(r["points"]),
            " ".join(map(str, r["pips"])) if r["pips"] is not None else "-",
        )
    return table


def totals_table(report: dict[str, Any], sides: Sequence[str]) -> Table:
    table = QuickTable(title="Totals", title_justify="left")
    table.add_column("side")
    table.add_column("total", justify="right")
    for side, total in enumerate(report["totals"]):
        marker = " (winner)" if report["winner"] == side else ""
        table.add_row(sides[side] + marker, str(total))
    return table


def match_over_text(winner: int | None, sides: Sequence[str]) -> str:
    who = sides[winner] if winner is not None else "nobody (a tie)"
    return f"Match over: {who} won."


def verdict(report: dict[str, Any], sides: Sequence[str]) -> Text:
    if report["finished"]:
        status = match_over_text(report["winner"], sides)
    else:
        status = "Match not finished."
    if report["valid"]:
        return Text(f"{status} Every event is legal.", style="green")
    count = len(report["violations"])
    return Text(f"{status} {count} violation{'s' * (count != 1)}:", style="bold red")


def violation_head(v: dict[str, Any]) -> str:
    """``event 3: renege (proven at event 5) — message``: a foul proven in hindsight says which
    event completed the proof; a suspicion says it is only possible."""
    found = ""
    if v.get("certainty") == "possible":
        found = " (possible)"
    elif v.get("found_at") is not None:
        found = f" (proven at event {v['found_at']})"
    return f"event {v['seq']}: {v['code']}{found} — {v['message']}"


def evidence_lines(v: dict[str, Any], indent: str = "      ") -> list[str]:
    """The facts a proof (or a suspicion) rests on, one a line with its event."""
    return [f"{indent}event {fact['seq']}: {fact['fact']}" for fact in v.get("evidence") or ()]


def violation_lines(violations: Sequence[dict[str, Any]], evidence: bool = False) -> list[Text]:
    lines = []
    for v in violations:
        lines.append(Text(f"  {violation_head(v)}"))
        if evidence:
            lines += [Text(line) for line in evidence_lines(v)]
    return lines


def suspicions_text(count: int, listed: bool) -> Text:
    """The one line on suspicions (what the record allows but does not prove)."""
    if not count:
        return Text("No suspicions.")
    what = f"{count} suspicion{'s' * (count != 1)} (possible, not proven)"
    return Text(what + (":" if listed else "; --suspicions lists them."), style="yellow")


def report_view(report: dict[str, Any], players: Sequence[str], sides: Sequence[str], *,
                suspicions: bool | None = None) -> Group:
    """The report: rounds, totals, the verdict, each violation with the evidence of a proof;
    ``suspicions``: None leaves them out, False counts them, True lists them too."""
    parts: list[Any] = [rounds_table(report, players, sides), totals_table(report, sides),
                        verdict(report, sides), *violation_lines(report["violations"], evidence=True)]
    if suspicions is not None:
        found = report.get("suspicions") or []
        parts.append(suspicions_text(len(found), suspicions))
        if suspicions:
            parts += violation_lines(found, evidence=True)
    return Group(*parts)


def screen_view(screen: Screen) -> Group:
    """A stored match's screen (``svc.reading.screen``): the table, whose turn and what that
    seat may do, the totals by side, the open disputes, the winner."""
    return position_view(screen.position, screen.players, screen.sides, disputes=screen.disputes,
                         disputes_are="open dispute", hands_hidden=screen.hands_hidden)


def position_view(pos: Position, players: Sequence[str], sides: Sequence[str], *,
                  disputes: Sequence[dict[str, Any]] = (), disputes_are: str = "violation",
                  hands_hidden: bool = False) -> Group:
    """The table after event ``pos.seq``; ``disputes``: the violations recorded up to it (the
    one of event ``pos.seq`` itself, if any, is said first), listed as ``disputes_are``."""
    parts: list[Any] = []
    head = f"After event {pos.seq}" + (f" · round {pos.round} ({pos.phase.replace('_', ' ')})" if pos.round else " · no deal yet")
    parts.append(Text(head, style="bold"))
    refused = next((d["message"] for d in disputes if d["seq"] == pos.seq), None) if pos.seq else None
    if refused:
        parts.append(Text(f"That event was refused: {refused}", style="red"))
    parts.append(line_text(pos))
    if pos.ends:
        parts.append(Text(f"Open ends: {pos.ends[0]} and {pos.ends[1]}"))
    parts.append(Hands(pos, players, "(hidden)" if hands_hidden else "(not seen)"))
    if not pos.finished:
        parts.append(Flow(next_step_text(pos, players), style="bold"))
    parts.append(Text(f"Boneyard: {pos.boneyard}"))
    parts.append(Flow("Scores: " + scores_text(pos.totals, sides)))
    if disputes:
        count = len(disputes)
        parts.append(Text(f"{count} {disputes_are}{'s' * (count != 1)}:", style="yellow"))
        parts += violation_lines(disputes)
    if pos.finished:
        parts.append(Text(match_over_text(pos.winner, sides), style="bold"))
    return Group(*parts)


class Hands:
    """Each seat's hand: a table (seat, player, tiles, hand) where it fits the width, else a
    few lines a seat, so that a narrow terminal never cuts a tile ("[6|…") to fit a column."""

    def __init__(self, pos: Position, players: Sequence[str], unseen: str) -> None:
        self.rows = []
        for seat, name in enumerate(players):
            hand = pos.hands[seat]
            shown = " ".join(tile_text(t) for t in hand) if hand is not None else unseen
            marker = " ◀ to play" if pos.turn == seat else ""
            self.rows.append((str(seat), name + marker, str(pos.counts[seat]), shown))

    def table(self) -> Table:
        table = Table(show_header=True)
        table.add_column("seat", justify="right")
        table.add_column("player")
        table.add_column("tiles", justify="right")
        table.add_column("hand")
        for seat, player, count, shown in self.rows:
            table.add_row(seat, player, count, Flow(shown, indent=0))
        return table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Any]:
        table = self.table()
        # Measured unbounded: within the width, rich would report the squeezed (cut) columns.
        unbounded = options.update_width(10 * options.max_width + 1000)
        if Measurement.get(console, unbounded, table).minimum <= options.max_width:
            yield table
            return
        for seat, player, count, shown in self.rows:
            yield Flow(f"seat {seat}: {player} · {count} tiles" + f" · {shown}" * bool(shown))


# ------------------------------------------------------------------- recording, one line at a time

def seat_name(seat: Any, players: Sequence[str]) -> str:
    return f"{players[seat]} (seat {seat})" if type(seat) is int and 0 <= seat < len(players) else f"seat {seat}"


def seat_names(seats: Sequence[int], players: Sequence[str]) -> str:
    return ", ".join(seat_name(s, players) for s in seats)


def side_name(side: Any, sides: Sequence[str]) -> str:
    return sides[side] if type(side) is int and 0 <= side < len(sides) else f"side {side}"


def event_text(event: dict[str, Any], players: Sequence[str], sides: Sequence[str]) -> str:
    """What an event says, in words: the confirmation printed once it is recorded."""
    kind = event.get("type")
    who = seat_name(event.get("seat"), players)
    if kind == "deal":
        hands = event.get("hands") or []
        seen = sum(hand is not None for hand in hands)
        how = "open" if hands and seen == len(hands) else "closed" if not seen else "partly open"
        return f"dealt a new round ({how})"
    if kind == "play":
        end = event.get("end")
        where = "" if end is None else f" on the {end}" + ("" if end in ("left", "right") else " end")
        return f"{who} played {event['tile']}{where}"
    if kind == "draw":
        return f"{who} drew " + (event["tile"] if event.get("tile") else "a tile (unseen)")
    if kind == "pass":
        return f"{who} passed"
    if kind == "reveal":
        shown = " ".join(event["tiles"]) if event.get("tiles") is not None else f"{event['pips']} pips"
        return f"{who} revealed {shown}"
    if kind == "penalty":
        ruling = f" for event {event['target']}" if event.get("target") is not None else ""
        return (f"penalty: {event['points']} points to {side_name(event['side'], sides)}{ruling} "
                f"({event['reason']})")
    if kind == "stands":
        return f"event {event['target']} stands ({event['reason']})"
    if kind == "amend":
        corrected = event.get("event")
        said = event_text(corrected, players, sides) if isinstance(corrected, dict) else "?"
        return f"amended event {event['target']} to: {said} ({event['reason']})"
    if kind == "void":
        return f"voided event {event['target']} ({event['reason']})"
    if kind == "annul":
        return f"annulled the round ({event['reason']})"
    if kind == "forfeit":
        return f"forfeit by {side_name(event['side'], sides)} ({event['reason']})"
    if kind == "note":
        return f"note: {event['text']}"
    if kind == "time":
        return "time called" + (f" ({event['reason']})" if event.get("reason") else "")
    if kind == "abandon":
        return f"match abandoned ({event['reason']})"
    return f"{kind} event"


def round_result_text(result: dict[str, Any], players: Sequence[str], sides: Sequence[str],
                      owing: Sequence[int] = ()) -> Text:
    """A report round that has just ended (or just been scored), in one line."""
    head = f"Round {result['round']}: {outcome_text(result, players)}"
    if result["outcome"] == "awaiting_reveal":
        waiting = seat_names(owing, players) or "the seats still holding tiles"
        return Text(f"{head}; waiting for reveals from {waiting}", style="bold yellow")
    if result["outcome"] == "annulled":
        return Text(f"{head}; no score, deal again", style="bold yellow")
    if result["winner"] is None:
        return Text(f"{head}; nobody scores", style="bold")
    pips = " ".join(map(str, result["pips"])) if result["pips"] is not None else "-"
    return Text(f"{head}; {result['points']} points to {sides[result['winner']]} (pips left: {pips})",
                style="bold green")


def legal_text(legal: dict[str, Any]) -> str:
    """What the seat on turn may do, from Position.legal."""
    plays = legal.get("plays")
    moves = []
    if plays is None:
        moves.append("any tile it holds that fits (hand not seen)")
    else:
        moves += [p["tile"] + (f" on {p['end']}" if p["end"] is not None else "") for p in plays]
    if legal.get("draw"):
        moves.append("d (draw)")
    if legal.get("pass"):
        moves.append("p (pass)")
    return ", ".join(moves) or "nothing"


def next_step_text(pos: Position, players: Sequence[str], prompt: bool = False) -> str:
    """Who acts next and what that seat may do (Position.legal), for a match not finished;
    ``prompt``: with what to type at ``domino table``."""
    if pos.turn is not None:
        return (f"To play: {seat_name(pos.turn, players)} · {pos.counts[pos.turn]} tiles · "
                f"legal: {legal_text(pos.legal)}")
    if pos.may_lead:
        return f"May open: {seat_names(pos.may_lead, players)}" + " (type N: before the tile)" * prompt
    if pos.owes_reveal:
        return (f"Waiting for reveals: {seat_names(pos.owes_reveal, players)}"
                + " (r TILES or r PIPS)" * prompt)
    return "No round in progress: " + ("type deal (or deal HANDS)" if prompt else "next, a deal")


def turn_view(pos: Position, players: Sequence[str]) -> Group:
    """The scorekeeper's screen between entries: the line, the ends, who acts and what is legal."""
    parts: list[Any] = [line_text(pos)]
    if pos.ends:
        parts.append(Flow(f"Open ends: {pos.ends[0]} and {pos.ends[1]} · boneyard {pos.boneyard}"))
    if pos.finished:
        parts.append(Flow("The match is over: notes, reveals and undo are still taken.",
                          style="bold"))
    else:
        parts.append(Flow(next_step_text(pos, players, prompt=True), style="bold"))
    return Group(*parts)


# --------------------------------------------------------------------- rulings previewed, disputes

def round_brief(result: dict[str, Any] | None, players: Sequence[str], sides: Sequence[str]) -> str:
    """A report round in a few words, for a before/after: "domino, 9 points to Ana"."""
    if result is None:
        return "no such round"
    text = outcome_text(result, players)
    if result["winner"] is not None:
        text += f", {result['points']} points to {sides[result['winner']]}"
    return text


def winner_brief(winner: int | None, finished: bool, sides: Sequence[str]) -> str:
    if winner is not None:
        return sides[winner]
    return "nobody (a tie)" if finished else "none yet (not finished)"


def preview_lines(preview: dict[str, Any], players: Sequence[str], sides: Sequence[str]) -> list[str]:
    """What ``svc.disputes.preview`` says a ruling would do, nothing stored: the events it would
    record (or why one would be refused), then the rounds, totals, winner and the violations
    that would appear or vanish."""
    lines = ["Preview: nothing is stored."]
    for entry in preview["events"]:
        v = entry["violation"]
        said = event_text(entry["event"], players, sides)
        if v is None:
            lines.append(f"It would record event {entry['seq']}: {said}")
        else:
            lines.append(f"Event {entry['seq']} would be refused ({v['code']}): {v['message']}")
    changes = preview["changes"]
    for r in changes["rounds"]:
        lines.append(f"Round {r['round']}: {round_brief(r['before'], players, sides)} → "
                     f"{round_brief(r['after'], players, sides)}")
    totals = changes["totals"]
    if totals["before"] == totals["after"]:
        lines.append(f"Totals: {scores_text(totals['after'], sides)} (unchanged)")
    else:
        lines.append(f"Totals: {scores_text(totals['before'], sides)} → "
                     f"{scores_text(totals['after'], sides)}")
    winner, finished = changes["winner"], changes["finished"]
    was = winner_brief(winner["before"], finished["before"], sides)
    now = winner_brief(winner["after"], finished["after"], sides)
    lines.append(f"Winner: {now} (unchanged)" if was == now else f"Winner: {was} → {now}")
    own = {entry["seq"] for entry in preview["events"]}  # a refusal is said above
    appear = [v for v in changes["violations_appear"] if v["seq"] not in own]
    for found, label in ((changes["violations_vanish"], "vanish"), (appear, "appear")):
        if found:
            lines.append(f"Violations that would {label}:")
            lines += [f"  {violation_head(v)}" for v in found]
    if not changes["violations_vanish"] and not appear:
        lines.append("No violation would appear or vanish.")
    return lines


def ruling_text(ruling: dict[str, Any] | None) -> str:
    """A dispute's ruling in a few words: "open", "stands (event 8): agreed"."""
    if ruling is None:
        return "open"
    points = f" {ruling['points']}" if ruling.get("points") is not None else ""
    reason = f": {ruling['reason']}" if ruling.get("reason") else ""
    return f"{ruling['type']}{points} (event {ruling['seq']}){reason}"
