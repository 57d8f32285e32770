"""Rich renderings shared by the CLI's commands: the table as it stands, rounds, violations.

Side names come from the caller (``referee.core.vocab.side_names``, as ``Screen.sides`` has them).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from rich.console import Console, ConsoleOptions, Group
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from referee import Position
from words import N_, _, current, ngettext
from words.events import event_words, knocks, reason, side_word, sleeping
from words.terms import term

from .quicktable import QuickTable

if TYPE_CHECKING:
    from referee.service import Screen


# What a line may not break inside: a move (a tile and its end: "6-5 on 5", "6-4 on the 4 end",
# "d (draw)"), a seat ("(seat 1)"), a count ("7 tiles"), else a word; a tile ("6-5", "[6|5]")
# holds no space. In each language, as its catalog words them (the translations of "%(tile)s
# on %(end)s", "(seat %(seat)s)", "%(num)s tiles", "d (draw)"... keep these shapes).
_UNITS = {
    "en": r"\S*\d+-\d+ on (?:the )?\S+(?: end\b| arm\b)?\S*|\b[dp] \((?:draw|pass)\)\S*|\(seat \d+\)\S*"
          r"|\b\d+ tiles?\b\S*",
    "es": r"\S*\d+-\d+ (?:en|a) (?:el |la )?\S+\S*|\b[dp] \((?:robar|pasar)\)\S*"
          r"|\(asiento \d+\)\S*|\b\d+ fichas?\b\S*",
    "it": r"\S*\d+-\d+ (?:su|a) (?:\S+ )??\S+\S*|\b[dp] \((?:pescare|passare)\)\S*"
          r"|\(posto \d+\)\S*|\b\d+ tesser[ae]\b\S*",
}
_PATTERNS: dict[str, re.Pattern[str]] = {}


def _unit() -> re.Pattern[str]:
    lang = current()
    if lang not in _PATTERNS:
        _PATTERNS[lang] = re.compile(f"{_UNITS.get(lang, _UNITS['en'])}|\\S+")
    return _PATTERNS[lang]


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
        return [m.span() for m in _unit().finditer(self.text.plain)]

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
    """A report round's outcome in words: "domino", "blocked by Beto", "awaiting reveals"."""
    blocker = result["blocked_by"]
    outcome = term("phase", result["outcome"])
    if blocker is None:
        return outcome
    return _("%(outcome)s by %(name)s", outcome=outcome, name=players[blocker])


def scores_text(totals: Sequence[int], sides: Sequence[str]) -> str:
    return ", ".join(f"{sides[s]} {t}" for s, t in enumerate(totals))


def line_text(pos: Position) -> Flow:
    return Flow(_("Line: %(tiles)s", tiles=" ".join(tile_text(t) for t in pos.line) or _("(empty)")))


def arm_tile_text(tile: str, up: bool) -> str:
    """A tile on the spinner's arm, written from the spinner outward ("5-1": the 5 toward it):
    drawn so that reading from top to bottom follows the chain (the up arm's outer pip first)."""
    inner, outer = tile.split("-")
    return f"[{outer}|{inner}]" if up else f"[{inner}|{outer}]"


class LayoutView:
    """The tiles on the table: the line, and with a spinner whose arms are open the arms drawn
    above and below it, each tile under the spinner's column (the up arm's outermost tile on
    top). Where the line does not fit the width, or before the arms open, the line wraps as
    ``Line: ...`` does and each arm is a line of its own (``Up arm: ...``, from the spinner
    outward)."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos

    def cross(self, width: int) -> list[str] | None:
        """The layout as lines of text, the spinner's arms in its column; None if it does not
        fit ``width`` (or there are no arms to draw)."""
        pos = self.pos
        arms, spinner = pos.arms, pos.spinner
        if not arms or spinner is None:
            return None
        head = _("Line: %(tiles)s", tiles="")
        texts = [tile_text(t) for t in pos.line]
        names = [sorted(t.split("-")) for t in pos.line]
        at = next((i for i, t in enumerate(names) if t == sorted(spinner.split("-"))), None)
        if at is None:
            return None
        column = len(head) + sum(len(t) + 1 for t in texts[:at])
        line = head + " ".join(texts)
        if len(line) > width:
            return None
        up, down = arms
        pad = " " * column
        return ([pad + arm_tile_text(t, up=True) for t in reversed(up)] + [line]
                + [pad + arm_tile_text(t, up=False) for t in down])

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Any]:
        drawn = self.cross(options.max_width)
        if drawn is not None:
            for row in drawn:
                yield Text(row)
            return
        yield line_text(self.pos)
        arms, spinner = self.pos.arms, self.pos.spinner
        if arms:
            # each arm from the spinner outward, the pip toward it first
            up, down = (" ".join(arm_tile_text(t, up=False) for t in tiles) or _("(no tile yet)")
                        for tiles in arms)
            yield Flow(_("Up arm: %(tiles)s", tiles=up))
            yield Flow(_("Down arm: %(tiles)s", tiles=down))
        elif spinner is not None:
            yield Flow(_("Spinner: %(tile)s (its arms open once both its sides hold a tile)",
                         tile=tile_text(spinner)))


SIDE_WORDS = {"left": N_("left"), "right": N_("right"), "up": N_("up"), "down": N_("down")}
# A play named by its side (the points family, where the pip would not say which place):
# "6-5 on the up arm".
ON_SIDE = {"left": N_("%(tile)s on the left end"), "right": N_("%(tile)s on the right end"),
           "up": N_("%(tile)s on the up arm"), "down": N_("%(tile)s on the down arm")}


def end_text(end: Any) -> str:
    """An open end's side for people: a side in words ("up"), anything else as it is."""
    if isinstance(end, str) and end in SIDE_WORDS:
        return _(SIDE_WORDS[end])
    return str(end)


def play_text(tile: str, end: Any) -> str:
    """A legal play: "6-5 on 5", "6-5 on the up arm", or the tile alone (a lead)."""
    if end is None:
        return tile
    if isinstance(end, str) and end in ON_SIDE:
        return _(ON_SIDE[end], tile=tile)
    return _("%(tile)s on %(end)s", tile=tile, end=end)


def ends_text(pos: Position) -> str | None:
    """The open ends: "5 and 3" for the line, or, where the family counts them (the points
    family), each end with its side and the count ("left 3, right 2, up 5, down 5 · count
    15"). None before the lead."""
    if not pos.ends:
        return None
    count = pos.count
    if count is None:
        return _("Open ends: %(left)s and %(right)s", left=pos.ends[0], right=pos.ends[1])
    ends = ", ".join(f"{end_text(side)} {pip}" for side, pip, _kind in pos.open_ends)
    return _("Open ends: %(ends)s · count %(count)s", ends=ends, count=count)


def scores_during_play(report: dict[str, Any]) -> bool:
    """Whether the report's rules score during play (the points family: ``scoring: ends``)."""
    return (report.get("rules") or {}).get("scoring") == "ends"


def rounds_table(report: dict[str, Any], players: Sequence[str], sides: Sequence[str]) -> Table:
    """Each round: opener, outcome, winner, its end points and the pips left; for a game that
    scores during play also ``scores``, what each side made in the round (plays, bonus and end
    points, after busts), in the order of the sides."""
    during_play = scores_during_play(report)
    table = QuickTable(title=_("Rounds"), title_justify="left")
    columns = [(_("round"), True), (_("opener"), False), (_("outcome"), False),
               (_("winner"), False), (_("points"), True), (_("pips left"), False)]
    if during_play:
        columns.append((_("scores"), False))
    for column, right in columns:
        table.add_column(column, justify="right" if right else "left")
    for r in report["rounds"]:
        row = [
            str(r["round"]),
            players[r["opener"]] if r["opener"] is not None else "-",
            outcome_text(r, players),
            sides[r["winner"]] if r["winner"] is not None else "-",
            str(r["points"]),
            " ".join(map(str, r["pips"])) if r["pips"] is not None else "-",
        ]
        if during_play:
            row.append(" ".join(map(str, r.get("scores") or ())) or "-")
        table.add_row(*row)
    return table


def scored_table(report: dict[str, Any], players: Sequence[str],
                 tiles: Mapping[int, str] | None = None) -> Table | None:
    """Each play that scored (or busted) in every round, as the report's ``scored`` lists them:
    round, event, player, the tile placed (``tiles``: by seq, from the record), the count of
    the open ends and the points it is worth; a bust says the points were not added (past the
    exact target). None when no play scored."""
    rows = [(r["round"], entry) for r in report["rounds"] for entry in r.get("scored") or ()]
    if not rows:
        return None
    target = (report.get("rules") or {}).get("target")
    table = QuickTable(title=_("Scoring plays"), title_justify="left")
    for column, right in ((_("round"), True), (_("event"), True), (_("player"), False),
                          (_("tile"), False), (_("count"), True), (_("points"), True),
                          (_("note"), False)):
        table.add_column(column, justify="right" if right else "left")
    for number, entry in rows:
        seat = entry["seat"]
        note = (_("bust: past %(target)s, not added", target=target) if entry.get("bust")
                else "")
        table.add_row(str(number), str(entry["seq"]),
                      players[seat] if type(seat) is int and 0 <= seat < len(players) else "-",
                      tile_text(tile) if (tile := (tiles or {}).get(entry["seq"])) else "-",
                      str(entry["count"]), str(entry["points"]), note or "-")
    return table


def totals_table(report: dict[str, Any], sides: Sequence[str]) -> Table:
    table = QuickTable(title=_("Totals"), title_justify="left")
    table.add_column(side_word(report.get("rules") or {}, heading=False))
    table.add_column(_("total"), justify="right")
    for side, total in enumerate(report["totals"]):
        name = _("%(side)s (winner)", side=sides[side]) if report["winner"] == side else sides[side]
        table.add_row(name, str(total))
    return table


def match_over_text(winner: int | None, sides: Sequence[str]) -> str:
    if winner is None:
        return _("Match over: nobody won (a tie).")
    return _("Match over: %(side)s won.", side=sides[winner])


def verdict(report: dict[str, Any], sides: Sequence[str]) -> Text:
    if report["finished"]:
        status = match_over_text(report["winner"], sides)
    else:
        status = _("Match not finished.")
    if report["valid"]:  # said apart: the catalogs' extractor reads no call inside an f-string
        legal = _("Every event is legal.")
        return Text(f"{status} {legal}", style="green")
    count = len(report["violations"])
    return Text(f"{status} {ngettext('%(num)s violation:', '%(num)s violations:', count)}",
                style="bold red")


def violation_head(v: dict[str, Any]) -> str:
    """``event 3: renege (proven at event 5) — message``: a foul proven in hindsight says which
    event completed the proof; a suspicion says it is only possible."""
    found = ""
    if v.get("certainty") == "possible":
        found = " " + _("(possible)")
    elif v.get("found_at") is not None:
        found = " " + _("(proven at event %(seq)s)", seq=v["found_at"])
    return _("event %(seq)s: %(code)s%(found)s — %(message)s", seq=v["seq"],
             code=term("violation", v["code"]),
             found=found, message=v["message"])


def evidence_lines(v: dict[str, Any], indent: str = "      ") -> list[str]:
    """The facts a proof (or a suspicion) rests on, one a line with its event."""
    return [indent + _("event %(seq)s: %(fact)s", seq=fact["seq"], fact=fact["fact"])
            for fact in v.get("evidence") or ()]


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
        return Text(_("No suspicions."))
    if listed:
        what = ngettext("%(num)s suspicion (possible, not proven):",
                        "%(num)s suspicions (possible, not proven):", count)
    else:
        what = ngettext("%(num)s suspicion (possible, not proven); --suspicions lists it.",
                        "%(num)s suspicions (possible, not proven); --suspicions lists them.", count)
    return Text(what, style="yellow")


def report_view(report: dict[str, Any], players: Sequence[str], sides: Sequence[str], *,
                suspicions: bool | None = None,
                tiles: Callable[[Sequence[int]], Mapping[int, str]] | None = None) -> Group:
    """The report: rounds, totals, the verdict, each violation with the evidence of a proof;
    ``suspicions``: None leaves them out, False counts them, True lists them too; ``tiles``:
    the tile each scoring play placed, by seq, asked for the seqs of the report's ``scored``
    (only a game that scores during play asks)."""
    parts: list[Any] = [rounds_table(report, players, sides)]
    scored = None
    if scores_during_play(report):
        seqs = [e["seq"] for r in report["rounds"] for e in r.get("scored") or ()]
        scored = scored_table(report, players, tiles(seqs) if tiles is not None and seqs else None)
    if scored is not None:
        parts.append(scored)
    parts += [totals_table(report, sides), verdict(report, sides),
              *violation_lines(report["violations"], evidence=True)]
    if suspicions is not None:
        found = report.get("suspicions") or []
        parts.append(suspicions_text(len(found), suspicions))
        if suspicions:
            parts += violation_lines(found, evidence=True)
    return Group(*parts)


def screen_view(screen: Screen, prompt: bool = False) -> Group:
    """A stored match's screen (``svc.reading.screen``): the table, whose turn and what that
    seat may do, the totals by side, the open disputes, the winner. ``prompt``: the screen of
    ``domino table``, which says what to type next (so its first screen says each thing once)."""
    return position_view(screen.position, screen.players, screen.sides, disputes=screen.disputes,
                         disputes_are_open=True, hands_hidden=screen.hands_hidden, prompt=prompt,
                         knock=knocks(screen.summary["rules"]),
                         asleep=sleeping(screen.summary["rules"]))


def position_view(pos: Position, players: Sequence[str], sides: Sequence[str], *,
                  disputes: Sequence[dict[str, Any]] = (), disputes_are_open: bool = False,
                  hands_hidden: bool = False, prompt: bool = False, knock: bool = False,
                  asleep: bool = False) -> Group:
    """The table after event ``pos.seq``; ``disputes``: the violations recorded up to it (the
    one of event ``pos.seq`` itself, if any, is said first), listed as open disputes (a stored
    match's) or as violations (a log's); ``knock``: a pass is a knock (words.events.knocks);
    ``asleep``: the tiles not dealt are sleeping tiles, not a boneyard (words.events.sleeping)."""
    parts: list[Any] = []
    if pos.round:
        head = _("After event %(seq)s · round %(round)s (%(phase)s)", seq=pos.seq, round=pos.round,
                 phase=term("phase", pos.phase))
    else:
        head = _("After event %(seq)s · no deal yet", seq=pos.seq)
    parts.append(Text(head, style="bold"))
    refused = next((d["message"] for d in disputes if d["seq"] == pos.seq), None) if pos.seq else None
    if refused:
        parts.append(Text(_("That event was refused: %(why)s", why=refused), style="red"))
    parts.append(LayoutView(pos))
    ends = ends_text(pos)
    if ends:
        parts.append(Flow(ends))
    parts.append(Hands(pos, players, _("(hidden)") if hands_hidden else _("(not seen)")))
    if not pos.finished:
        parts.append(Flow(next_step_text(pos, players, prompt=prompt, knock=knock), style="bold"))
    parts.append(Text(_("Sleeping tiles: %(count)s", count=pos.boneyard) if asleep
                      else _("Boneyard: %(count)s", count=pos.boneyard)))
    parts.append(Flow(_("Scores: %(scores)s", scores=scores_text(pos.totals, sides))))
    if disputes:
        count = len(disputes)
        said = (ngettext("%(num)s open dispute:", "%(num)s open disputes:", count) if disputes_are_open
                else ngettext("%(num)s violation:", "%(num)s violations:", count))
        parts.append(Text(said, style="yellow"))
        parts += violation_lines(disputes)
    if pos.finished:
        parts.append(Text(match_over_text(pos.winner, sides), style="bold"))
        if prompt:
            parts.append(Flow(MATCH_OVER_AT_PROMPT(), style="bold"))
    return Group(*parts)


def MATCH_OVER_AT_PROMPT() -> str:  # noqa: N802 (a sentence, said in two places)
    return _("The match is over: notes, reveals and undo are still taken.")


class Hands:
    """Each seat's hand: a table (seat, player, tiles, hand) where it fits the width, else a
    few lines a seat, so that a narrow terminal never cuts a tile ("[6|…") to fit a column."""

    def __init__(self, pos: Position, players: Sequence[str], unseen: str) -> None:
        self.rows = []
        for seat, name in enumerate(players):
            hand = pos.hands[seat]
            shown = " ".join(tile_text(t) for t in hand) if hand is not None else unseen
            marker = " ◀ " + _("to play") if pos.turn == seat else ""
            self.rows.append((str(seat), name + marker, str(pos.counts[seat]), shown))

    def table(self) -> Table:
        table = Table(show_header=True)
        table.add_column(_("seat"), justify="right")
        table.add_column(_("player"))
        table.add_column(_("tiles"), justify="right")
        table.add_column(_("hand"))
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
            line = _("seat %(seat)s: %(player)s · %(tiles)s", seat=seat, player=player,
                     tiles=ngettext("%(num)s tile", "%(num)s tiles", int(count)))
            yield Flow(line + f" · {shown}" * bool(shown))


# ------------------------------------------------------------------- recording, one line at a time

def seat_name(seat: Any, players: Sequence[str]) -> str:
    if type(seat) is int and 0 <= seat < len(players):
        return _("%(name)s (seat %(seat)s)", name=players[seat], seat=seat)
    return _("seat %(seat)s", seat=seat)


def seat_names(seats: Sequence[int], players: Sequence[str]) -> str:
    return ", ".join(seat_name(s, players) for s in seats)


def side_name(side: Any, sides: Sequence[str]) -> str:
    return sides[side] if type(side) is int and 0 <= side < len(sides) else _("side %(side)s", side=side)


def round_result_text(result: dict[str, Any], players: Sequence[str], sides: Sequence[str],
                      owing: Sequence[int] = ()) -> Text:
    """A report round that has just ended (or just been scored), in one line."""
    head = _("Round %(round)s: %(outcome)s", round=result["round"],
             outcome=outcome_text(result, players))
    if result["outcome"] == "awaiting_reveal":
        waiting = seat_names(owing, players) or _("the seats still holding tiles")
        return Text(_("%(head)s; waiting for reveals from %(seats)s", head=head, seats=waiting),
                    style="bold yellow")
    if result["outcome"] == "annulled":
        return Text(_("%(head)s; no score, deal again", head=head), style="bold yellow")
    if result["winner"] is None:
        return Text(_("%(head)s; nobody scores", head=head), style="bold")
    pips = " ".join(map(str, result["pips"])) if result["pips"] is not None else "-"
    return Text(ngettext("%(head)s; %(num)s point to %(side)s (pips left: %(pips)s)",
                         "%(head)s; %(num)s points to %(side)s (pips left: %(pips)s)",
                         result["points"], head=head, side=sides[result["winner"]], pips=pips),
                style="bold green")


def legal_text(legal: dict[str, Any], knock: bool = False) -> str:
    """What the seat on turn may do, from Position.legal; ``knock``: a pass is a knock (the
    points family's word, words.events.knocks)."""
    plays = legal.get("plays")
    moves = []
    if plays is None:
        moves.append(_("any tile it holds that fits (hand not seen)"))
    else:
        moves += [play_text(p["tile"], p["end"]) for p in plays]
    if legal.get("draw"):
        moves.append(_("d (draw)"))
    if legal.get("pass"):
        moves.append(_("p (knock)") if knock else _("p (pass)"))
    return ", ".join(moves) or _("nothing")


def next_step_text(pos: Position, players: Sequence[str], prompt: bool = False,
                   knock: bool = False) -> str:
    """Who acts next and what that seat may do (Position.legal), for a match not finished;
    ``prompt``: with what to type at ``domino table``; ``knock``: a pass is a knock."""
    if pos.turn is not None:
        return _("To play: %(seat)s · %(tiles)s · legal: %(legal)s", seat=seat_name(pos.turn, players),
                 tiles=ngettext("%(num)s tile", "%(num)s tiles", pos.counts[pos.turn]),
                 legal=legal_text(pos.legal, knock))
    if pos.may_lead:
        seats = seat_names(pos.may_lead, players)
        return (_("May open: %(seats)s (type N: before the tile)", seats=seats) if prompt
                else _("May open: %(seats)s", seats=seats))
    if pos.owes_reveal:
        seats = seat_names(pos.owes_reveal, players)
        return (_("Waiting for reveals: %(seats)s (r TILES or r PIPS)", seats=seats) if prompt
                else _("Waiting for reveals: %(seats)s", seats=seats))
    return (_("No round in progress: type deal (or deal HANDS)") if prompt
            else _("No round in progress: next, a deal"))


def turn_view(pos: Position, players: Sequence[str], knock: bool = False,
              asleep: bool = False) -> Group:
    """The scorekeeper's screen between entries: the line, the ends, who acts and what is legal
    (``knock``: a pass is a knock; ``asleep``: the tiles not dealt are sleeping tiles)."""
    parts: list[Any] = [LayoutView(pos)]
    if pos.ends and pos.count is not None:  # the points family: the count
        parts.append(Flow(_("%(ends)s · sleeping %(count)s", ends=ends_text(pos),
                            count=pos.boneyard) if asleep else
                          _("%(ends)s · boneyard %(count)s", ends=ends_text(pos),
                            count=pos.boneyard)))
    elif pos.ends:
        parts.append(Flow(_("Open ends: %(left)s and %(right)s · boneyard %(count)s",
                            left=pos.ends[0], right=pos.ends[1], count=pos.boneyard)))
    if pos.finished:
        parts.append(Flow(MATCH_OVER_AT_PROMPT(), style="bold"))
    else:
        parts.append(Flow(next_step_text(pos, players, prompt=True, knock=knock), style="bold"))
    return Group(*parts)


# --------------------------------------------------------------------- rulings previewed, disputes

def round_brief(result: dict[str, Any] | None, players: Sequence[str], sides: Sequence[str]) -> str:
    """A report round in a few words, for a before/after: "domino, 9 points to Ana"."""
    if result is None:
        return _("no such round")
    text = outcome_text(result, players)
    if result["winner"] is not None:
        text = ngettext("%(outcome)s, %(num)s point to %(side)s", "%(outcome)s, %(num)s points to %(side)s",
                        result["points"], outcome=text, side=sides[result["winner"]])
    return text


def winner_brief(winner: int | None, finished: bool, sides: Sequence[str]) -> str:
    if winner is not None:
        return sides[winner]
    return _("nobody (a tie)") if finished else _("none yet (not finished)")


def preview_lines(preview: dict[str, Any], players: Sequence[str], sides: Sequence[str],
                  rules: Any = None) -> list[str]:
    """What ``svc.disputes.preview`` says a ruling would do, nothing stored: the events it would
    record (or why one would be refused), then the rounds, totals, winner and the violations
    that would appear or vanish."""
    lines = [_("Preview: nothing is stored.")]
    for entry in preview["events"]:
        v = entry["violation"]
        said = event_words(entry["event"], players, sides, rules)
        if v is None:
            lines.append(_("It would record event %(seq)s: %(said)s", seq=entry["seq"], said=said))
        else:
            lines.append(_("Event %(seq)s would be refused (%(code)s): %(why)s", seq=entry["seq"],
                           code=term("violation", v["code"]), why=v["message"]))
    changes = preview["changes"]
    for r in changes["rounds"]:
        lines.append(_("Round %(round)s: %(before)s → %(after)s", round=r["round"],
                       before=round_brief(r["before"], players, sides),
                       after=round_brief(r["after"], players, sides)))
    totals = changes["totals"]
    if totals["before"] == totals["after"]:
        lines.append(_("Totals: %(totals)s (unchanged)", totals=scores_text(totals["after"], sides)))
    else:
        lines.append(_("Totals: %(before)s → %(after)s", before=scores_text(totals["before"], sides),
                       after=scores_text(totals["after"], sides)))
    winner, finished = changes["winner"], changes["finished"]
    was = winner_brief(winner["before"], finished["before"], sides)
    now = winner_brief(winner["after"], finished["after"], sides)
    lines.append(_("Winner: %(now)s (unchanged)", now=now) if was == now
                 else _("Winner: %(before)s → %(after)s", before=was, after=now))
    own = {entry["seq"] for entry in preview["events"]}  # a refusal is said above
    appear = [v for v in changes["violations_appear"] if v["seq"] not in own]
    for found, label in ((changes["violations_vanish"], _("Violations that would vanish:")),
                         (appear, _("Violations that would appear:"))):
        if found:
            lines.append(label)
            lines += [f"  {violation_head(v)}" for v in found]
    if not changes["violations_vanish"] and not appear:
        lines.append(_("No violation would appear or vanish."))
    return lines


def ruling_text(ruling: dict[str, Any] | None) -> str:
    """A dispute's ruling in a few words: "open", "stands (event 8): agreed"."""
    if ruling is None:
        return _("open")
    points = f" {ruling['points']}" if ruling.get("points") is not None else ""
    reason_said = f": {reason(ruling['reason'])}" if ruling.get("reason") else ""
    return _("%(ruling)s%(points)s (event %(seq)s)%(reason)s", ruling=term("event", ruling["type"]),
             points=points, seq=ruling["seq"], reason=reason_said)
