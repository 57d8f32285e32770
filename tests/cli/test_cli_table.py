"""``domino table``: the scorekeeper's prompt, driven by scripted input through whole matches,
with refused entries, a disputed entry (``!``) and undo."""

from __future__ import annotations

import fcntl
import io
import json
import os
import re
import select
import struct
import subprocess
import sys
import termios
from collections import Counter
from pathlib import Path
from typing import Any, Callable

import pytest
from cli_helpers import OPEN_HANDS, Cli, legal_match
from rich.cells import cell_len

from cli.table import HELP, UNDO_REASON
from referee import build_report, replay, resolve_rules

ROOT = Path(__file__).resolve().parents[2]

DEAL = "deal " + " / ".join(" ".join(hand) for hand in OPEN_HANDS)


def prompt_lines(events: list[dict[str, Any]], *, name_leads: bool = False,
                 name_reveals: bool = False) -> list[str]:
    """What a scorekeeper types for a log's events. The seat is left to the prompt (the seat on
    turn, the only seat owing a reveal) except where asked: closed hands can leave several seats
    that may open, or several owing a reveal."""
    lines = []
    lead = False
    for event in events:
        kind = event["type"]
        seat = f"{event.get('seat')}: "
        if kind == "deal":
            hands = event.get("hands") or []
            lines.append("deal " + " / ".join(" ".join(h) if h is not None else "-" for h in hands)
                         if any(h is not None for h in hands) else "deal")
            lead = True
            continue
        if kind == "play":
            end = f" on {event['end']}" if "end" in event else ""
            lines.append((seat if lead and name_leads else "") + event["tile"].replace("-", "") + end)
            lead = False
        elif kind == "draw":
            lines.append("d" + (f" {event['tile']}" if "tile" in event else ""))
        elif kind == "pass":
            lines.append("p")
        elif kind == "reveal":
            shown = " ".join(event["tiles"]) if "tiles" in event else str(event["pips"])
            lines.append(f"{seat if name_reveals else ''}r {shown}")
        else:
            lines.append(f"n {event['text']}")
    return lines


def at_table(cli: Cli, match_id: int, lines: list[str], code: int = 0) -> str:
    """The output of a ``domino table`` session fed ``lines`` on stdin."""
    return cli.run("table", match_id, input="\n".join(lines) + "\n", code=code).output


def report_of(header: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    rules = resolve_rules(header["rules"], len(header["players"]))
    return build_report(replay(rules, header["players"], events))


def play_through(cli: Cli, header: dict[str, Any], events: list[dict[str, Any]],
                 **naming: bool) -> str:
    match_id = cli.new_match(header["rules"], tuple(header["players"]))
    lines = prompt_lines(events, **naming) + ["q"]
    output = at_table(cli, match_id, lines)
    expected = report_of(header, events)
    got = cli.service.reading.report(match_id)
    for key in ("rounds", "totals", "finished", "winner", "violations"):
        assert got[key] == expected[key], key
    said = output.splitlines()
    results = [n for n, line in enumerate(said) if line.startswith("Round ")]
    assert len(results) >= len(expected["rounds"])  # one as each ends; a closed one's as scored
    for n in results:  # the score after every round
        assert said[n + 1].startswith("Totals: "), said[n:n + 2]
    return output


def test_a_whole_open_match_at_the_prompt(cli: Cli) -> None:
    header, events = legal_match("mano-a-mano", seed=11)
    output = play_through(cli, header, events)
    rounds = report_of(header, events)["rounds"]
    assert len(rounds) > 1
    for r in rounds:
        assert f"Round {r['round']}: {r['outcome']}" in output
    assert "Totals: Ana " in output
    assert "Match over: " in output and "won." in output
    assert "To play: Ana (seat 0)" in output and "legal: " in output and "Open ends: " in output
    assert output.rstrip().endswith("Bye: everything entered is recorded.")


def test_a_whole_closed_partnership_match_names_leads_and_reveals(cli: Cli) -> None:
    header, events = legal_match("parejas", ("Ana", "Beto", "Carla", "Dani"), seed=4,
                                 hidden=[1, 3])
    output = play_through(cli, header, events, name_leads=True, name_reveals=True)
    assert "waiting for reveals from" in output or "Waiting for reveals" in output
    assert "Match over: " in output


def test_the_only_seat_owing_a_reveal_needs_no_prefix(cli: Cli) -> None:
    header, events = legal_match("mano-a-mano", seed=2, hidden=[1], pips_only=True)
    output = play_through(cli, header, events, name_leads=True)
    assert "revealed" in output and "pips" in output


def test_refused_entries_disputed_entry_and_undo(cli: Cli) -> None:
    match_id = cli.new_match()
    script = [
        DEAL,
        "6-4",       # Ana opens, but 6-4 is Beto's: refused
        "66",        # corrected
        "p",         # Beto holds 6-4 and 6-3: a renege, refused
        "!",         # the scorekeeper insists: stored as disputed (event 3)
        "u",         # undo: a void of event 3 (event 4)
        "64 on 6",   # event 5
        "u",         # void of event 5 (event 6): the line is back to the 6-6
        "!",         # nothing was refused just before: no effect
        "zz",        # not a form: refused by the parser
        "6-4",       # event 7
        "q",
    ]
    output = at_table(cli, match_id, script)
    assert "refused (tile not in hand): Ana does not hold 6-4" in output
    assert "refused (renege): Beto passed holding" in output
    assert "! to record it as disputed" in output
    assert "event 3: Beto passed — recorded as disputed (renege:" in output
    assert "event 4: voided event 3 (undo at the table)" in output
    assert "event 6: voided event 5 (undo at the table)" in output
    assert "there is none" in output and "'zz' is neither a tile nor a command" in output
    events = cli.events(match_id)
    assert [e["type"] for e in events] == ["deal", "play", "pass", "void", "play", "void", "play"]
    assert events[2] == {"type": "pass", "seat": 1, "disputed": True}
    assert events[3] == {"type": "void", "target": 3, "reason": UNDO_REASON}
    assert events[5] == {"type": "void", "target": 5, "reason": UNDO_REASON}
    svc = cli.service
    assert svc.reading.state(match_id, at=6).line == svc.reading.state(match_id, at=2).line == ("6-6",)
    assert svc.reading.state(match_id, at=6).turn == 1
    assert svc.reading.state(match_id).line == ("6-6", "6-4")
    assert svc.reading.report(match_id)["violations"] == []  # the disputed pass was struck


class LineByLine(io.RawIOBase):
    """Standard input served a line at a time, calling ``before(line)`` as each is read: another
    terminal can then record between two lines of the session."""

    def __init__(self, lines: list[str], before: Callable[[str], None]) -> None:
        super().__init__()
        self.lines = iter(lines)
        self.before = before
        self.pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not len(buffer):  # a probe (read(0)): consume nothing
            return 0
        if not self.pending:
            line = next(self.lines, None)
            if line is None:
                return 0
            self.before(line)
            self.pending = (line + "\n").encode()
        size = min(len(buffer), len(self.pending))
        buffer[:size] = self.pending[:size]
        self.pending = self.pending[size:]
        return size


def test_undo_of_a_referees_void_asks_first_and_a_stale_table_is_read_again(cli: Cli) -> None:
    match_id = cli.new_match()
    svc = cli.service

    def referee_voids_the_6_4(line: str) -> None:
        # A referee at another terminal strikes event 3 just before the scorekeeper types u.
        if line == "u" and svc.reading.state(match_id).seq == 3:
            svc.recording.record_event(match_id, {"type": "void", "target": 3, "reason": "referee"},
                                       expected_seq=3)

    script = [DEAL, "66", "64",
              "u",        # the table moved on (event 4, the referee's void): read again
              "u", "n",   # the last event is the referee's void: asked, and kept
              "u", "y",   # asked again: voided (event 5), and the 6-4 is back
              "u",        # this session's 6-4: voided at once (event 6)
              "u",        # past undo's own voids to this session's 6-6 (event 7)
              "q"]
    output = cli.run("table", match_id, input=LineByLine(script, referee_voids_the_6_4)).output
    assert "conflict: the last event is 4, not 3: the table is read again" in output
    assert ("event 4 was not recorded at this prompt (recorded elsewhere): "
            "voided event 3 (referee)") in output
    assert "Voiding it puts event 3 back: Beto played 6-4" in output
    assert "void event 4? (a referee's ruling) [y/N]" in output
    assert "event 4 stands: nothing recorded" in output
    events = cli.events(match_id)
    assert [(e["type"], e.get("target")) for e in events] == [
        ("deal", None), ("play", None), ("play", None), ("void", 3), ("void", 4), ("void", 3),
        ("void", 2)]
    assert svc.reading.state(match_id).line == ()


def test_a_database_that_does_not_answer_for_a_moment_keeps_the_session(
        cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database locked by another program past the busy timeout (or full, or restarting)
    as an entry was recorded ended the whole session ('Error: database error: database is
    locked', exit 1): the scorekeeper lost the prompt mid-round. The entry is refused with the
    reason in the reader's language, the session goes on, and typed again it is recorded once."""
    from sqlalchemy import exc

    from referee.service.recording import Recording

    match_id = cli.new_match()
    record_event = Recording.record_event
    locked = []

    def locked_once(self: Recording, *args: Any, **kwargs: Any) -> Any:
        if not locked and kwargs.get("expected_seq") == 2:
            locked.append(True)
            raise exc.OperationalError("INSERT", {}, Exception("database is locked"))
        return record_event(self, *args, **kwargs)

    monkeypatch.setattr(Recording, "record_event", locked_once)
    output = cli.run("--lang", "es", "table", match_id,
                     input="\n".join([DEAL, "66", "64", "64", "q"]) + "\n").output
    assert locked and "error de la base de datos: " in output
    assert "vuelva a escribir la entrada" in output
    assert [e["type"] for e in cli.events(match_id)] == ["deal", "play", "play"]


def test_undo_asks_before_voiding_another_sessions_entry(cli: Cli) -> None:
    match_id = cli.new_match()
    at_table(cli, match_id, [DEAL, "66"])
    output = at_table(cli, match_id, ["64", "u", "u", "no", "u", "yes", "u", "q"])
    assert "event 4: voided event 3 (undo at the table)" in output  # its own: no question
    assert output.count("void event 2? (a referee's ruling) [y/N]") == 2
    assert ("event 2 was not recorded at this prompt (recorded by cli:table): "
            "Ana played 6-6") in output
    assert "event 2 stands: nothing recorded" in output
    assert "event 5: voided event 2 (undo at the table)" in output
    assert "void event 1? (a referee's ruling) [y/N] q" in output  # q answers no, then quits
    assert cli.service.reading.state(match_id).line == ()
    assert len(cli.events(match_id)) == 5


def test_bang_never_records_a_tile_not_in_the_set_nor_a_non_event(cli: Cli) -> None:
    match_id = cli.new_match()
    script = [
        "1: 9-9", "!",     # refused as no round is dealt yet; and there is no 9-9 either
        "deal 6-6 / 5-5",  # hands of one tile: not a deal the referee can read (bad_event)
        "!",
        DEAL, "66",
        "7-9", "!",        # no such tile in a double-6 set (unknown_tile)
        "r 6-5 x", "!",    # not a form at all: nothing was refused by the referee
        "n hi\x1b[A",      # an arrow key typed on a terminal without line editing
        "!",
        "p", "!",          # a renege: a real dispute, recorded
        "q",
    ]
    output = at_table(cli, match_id, script)
    assert "refused (unusable event)" in output and "refused (unknown tile)" in output
    assert "(fix it and type it again)" in output  # no "or !" for those two
    assert output.count("! cannot record that, not even as disputed") == 3
    assert "'7-9' is not a tile of the double-6 set. Nothing recorded" in output
    assert "refused (no round in play): no round has been dealt yet (fix it and type it again)" in output
    assert "'9-9' is not a tile of the double-6 set. Nothing recorded" in output
    assert "the line holds an escape sequence (an arrow key?): nothing recorded" in output
    assert output.count("there is none") == 2
    events = cli.events(match_id)
    assert [e["type"] for e in events] == ["deal", "play", "pass"]
    assert events[2] == {"type": "pass", "seat": 1, "disputed": True}


def test_a_round_ended_at_another_terminal_is_told_with_the_score(cli: Cli) -> None:
    header, events = legal_match("mano-a-mano", seed=11)
    ends = next(seq for seq, e in enumerate(events[1:], start=2) if e["type"] == "deal") - 1
    match_id = cli.new_match()
    svc = cli.service

    def the_other_terminal_ends_round_1(line: str) -> None:
        if line == "n late" and svc.reading.state(match_id).seq == ends - 1:
            svc.recording.record_event(match_id, events[ends - 1], expected_seq=ends - 1)

    lines = prompt_lines(events[:ends - 1]) + ["n late", "q"]
    output = cli.run("table", match_id, input=LineByLine(lines, the_other_terminal_ends_round_1)
                     ).output
    told = output[output.index(f"conflict: the last event is {ends}"):]
    result = svc.reading.report(match_id)["rounds"][0]
    assert f"Round 1: domino; {result['points']} points to " in told
    assert f"Totals: Ana {svc.reading.state(match_id).totals[0]}" in told


def test_several_openers_need_a_seat_prefix(cli: Cli) -> None:
    match_id = cli.new_match({"preset": "mano-a-mano", "first_opener": "free"})
    script = ["p", "deal", "6-6", "1: 6-6", "d", "2: n not a seat for a note", "q"]
    output = at_table(cli, match_id, script)
    assert "no round has been dealt yet" in output
    assert "May open: Ana (seat 0), Beto (seat 1)" in output
    assert "several seats may open this round: 0 (Ana), 1 (Beto): type N: before the entry" in output
    assert "event 2: Beto played 6-6" in output
    assert "event 3: Ana drew a tile (unseen)" in output
    assert "legal: any tile it holds that fits (hand not seen)" in output
    assert cli.events(match_id)[-1] == {"type": "note", "text": "not a seat for a note"}


def test_help_show_end_of_input_and_an_unknown_match(cli: Cli) -> None:
    match_id = cli.new_match()
    output = at_table(cli, match_id, ["?", "u", DEAL, "", "s"])  # no q: end of input
    assert "undo: void the last event (another's: after a yes)" in output
    assert "nothing to undo: no event of the record still stands" in output
    assert "After event 1 · round 1 (in progress)" in output  # s: the whole table
    assert output.rstrip().endswith("Bye: everything entered is recorded.")
    assert "no match '99'" in at_table(cli, 99, ["q"], code=1)


# A tile as a move names it ("6-5", "6-4 on the 4 end", "6-3 on 6"), as the table draws it
# ("[6|5]"), and the moves without a tile ("d (draw)").
PIECE = re.compile(r"\d+-\d+ on (?:the )?(?:\d+(?: end)?|left|right)|\[\d+\|\d+\]|\b\d+-\d+\b"
                   r"|\b[dp] \((?:draw|pass)\)")


def pieces(output: str) -> Counter[str]:
    """Every tile and move that stands whole on one line of ``output``."""
    return Counter(piece for line in output.splitlines() for piece in PIECE.findall(line))


def test_a_narrow_terminal_never_splits_a_tile_or_a_move(cli: Cli,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    players = ("Ana", "Beto Sebastián", "Carla", "Dani")
    header, events = legal_match("parejas", players, seed=4)
    lines = prompt_lines(events[:30]) + ["s", "7-9", "?", "q"]
    wide = at_table(cli, cli.new_match("parejas", players), lines)  # COLUMNS=200: no wrapping
    monkeypatch.setenv("COLUMNS", "30")
    narrow = at_table(cli, cli.new_match("parejas", players), lines)
    assert pieces(narrow) == pieces(wide) and len(pieces(wide)) > 30
    said = [line for line in narrow.splitlines() if not line.startswith("match ")]  # the input
    assert max(cell_len(line) for line in said) <= 30
    shown = narrow[narrow.rindex("After event"):]  # `s`: the hands as lines, not a cut table
    assert "seat 0: Ana · 6 tiles · [3|1]\n  [3|2]" in shown and "┃" not in shown
    assert "(seat\n" not in narrow and " 7\n  tiles" not in narrow  # nor a name, nor a count
    helped = narrow[narrow.rindex("match 2> ?"):]
    assert all(f"  {form}  " in helped or f"  {form}\n" in helped for forms, _ in HELP
               for form in forms)  # the help's forms, each whole on a line


def test_piped_output_keeps_each_message_on_one_line(cli: Cli,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS")
    output = at_table(cli, cli.new_match(), [DEAL, "66", "q"])
    assert "To play: Beto (seat 1) · 7 tiles · legal: 6-3 on 6, 6-4 on 6\n" in output


def in_a_terminal(cli: Cli, match_id: int, data_dir: Path, keys: list[bytes]) -> str:
    """``domino table MATCH`` run on a pseudo-terminal 30 columns wide: each of ``keys`` typed
    once the prompt (or undo's question, for a key after ``u``) is shown; what it showed."""
    controller, terminal_side = os.openpty()
    fcntl.ioctl(terminal_side, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 30, 0, 0))
    env = {**os.environ, "DOMINO_DATABASE_URL": cli.url, "DOMINO_DATA_DIR": str(data_dir),
           "TERM": "xterm"}
    env.pop("COLUMNS", None)
    child = subprocess.Popen([sys.executable, "-c", "from cli.main import main; main()",
                              "table", str(match_id)], cwd=ROOT, env=env, stdin=terminal_side,
                             stdout=terminal_side, stderr=terminal_side, start_new_session=True)
    os.close(terminal_side)
    shown = b""

    def until(mark: bytes, count: int) -> None:
        nonlocal shown
        while shown.count(mark) < count:
            ready, _, _ = select.select([controller], [], [], 60)
            assert ready, f"no {mark!r} from the prompt; it showed: {shown[-400:]!r}"
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # the child closed the terminal
                chunk = b""
            assert chunk, f"the prompt ended early; it showed: {shown[-400:]!r}"
            shown += chunk

    prompt, question = f"match {match_id}> ".encode(), b"[y/N] "
    try:
        for n, key in enumerate(keys):
            if n and keys[n - 1] == b"u\r":
                until(question, keys[:n].count(b"u\r"))
            else:
                until(prompt, n + 1 - keys[:n].count(b"u\r"))
            os.write(controller, key)
        assert child.wait(timeout=60) == 0, shown.decode(errors="replace")
    finally:
        if child.poll() is None:
            child.kill()
        os.close(controller)
    return shown.decode(errors="replace")


LEFT, UP = b"\x1b[D", b"\x1b[A"


@pytest.mark.slow  # starts a process
def test_readline_edits_lines_and_keeps_a_history_and_no_escape_code_is_stored(
        cli: Cli, tmp_path: Path) -> None:
    match_id = cli.new_match()
    data = tmp_path / "data"
    # "n hello", the cursor taken back five places, X typed there: the note "Xhello".
    in_a_terminal(cli, match_id, data, [b"n hello" + LEFT * 5 + b"X\r", b"q\r"])
    assert (data / "domino-table.history").read_text().splitlines()[-2:] == ["n Xhello", "q"]
    # The next session's up arrow, twice: past "q" to "n Xhello", recorded again.
    shown = in_a_terminal(cli, match_id, data, [UP + UP + b"\r", b"q\r"])
    assert "event 2: note: Xhello" in shown
    # Undo of the first session's note asks; the answer is kept out of the history.
    in_a_terminal(cli, match_id, data, [b"u\r", b"y\r", b"q\r"])
    assert (data / "domino-table.history").read_text().splitlines()[-4:] == [
        "n Xhello", "q", "u", "q"]
    records = cli.service.reading.list_events(match_id)
    assert [r["event"] for r in records] == [{"type": "note", "text": "Xhello"}] * 2 + [
        {"type": "void", "target": 2, "reason": UNDO_REASON}]
    assert not any("\x1b" in json.dumps(r["event"]) or "\\u001b" in json.dumps(r["event"])
                   for r in records)


def test_s_shows_the_score_and_the_open_disputes_only(cli: Cli) -> None:
    # Closed: Beto passes on the 6s at event 3, then plays the 6-4: a renege proven at event 5.
    rules = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none", "target": 5}
    match_id = cli.new_match(rules)
    svc = cli.service

    def a_referee_rules_it_stands(line: str) -> None:
        if line == "s" and svc.reading.state(match_id).seq == 8:
            svc.recording.record_event(match_id, {"type": "stands", "target": 3,
                                                  "reason": "seen by both"}, expected_seq=8)

    script = ["deal", "0: 66", "p", "65", "64", "s", "55", "r 3-3 2-1", "n x", "s", "q"]
    output = cli.run("table", match_id, input=LineByLine(script, a_referee_rules_it_stands)).output
    first, second = (output[i:output.index("match 1>", i)]
                     for i in (output.index("After event 5"), output.rindex("After event")))
    assert "Scores: Ana 0, Beto 0" in first and "1 open dispute:" in first
    assert "event 3: renege (proven at event 5)" in first
    assert second.startswith("After event 9") and "open dispute" not in second  # ruled: stands
    assert "Scores: Ana 9, Beto 0" in second
