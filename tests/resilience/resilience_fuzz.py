"""Hostile domino-log/1 files, made from real ones: every mutation a log can suffer on its way
(cut short, bytes flipped, lines lost or doubled, garbage JSON, bad UTF-8, NUL, numbers no
float holds, nesting no stack holds, a line of 5 MB), deterministic for a seed."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable, Iterator

from referee.core.simulate import random_match

ROOT = Path(__file__).resolve().parents[2]
SEATS = {"mano-a-mano": 2, "parejas": 4, "veracruz": 3, "sircle": 2, "puerto-rico": 4}
NAMES = ["Ana", "Beto", "Carla", "Dani"]


def base_logs(rng: random.Random, count: int = 6) -> list[bytes]:
    """The examples, and a few random legal matches (open, closed, pips-only reveals)."""
    logs = [p.read_bytes() for p in sorted((ROOT / "examples").glob("*.jsonl"))]
    presets = sorted(SEATS)
    for n in range(count):
        preset = presets[n % len(presets)]
        players = NAMES[:SEATS[preset]]
        hidden = [] if n % 3 == 0 else list(range(0, SEATS[preset], 2))
        header, events = random_match(preset, players, random.Random(rng.random()),
                                      hidden=hidden, pips_only=n % 3 == 2)
        logs.append("".join(json.dumps(v) + "\n" for v in (header, *events)).encode())
    return logs


def random_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 4 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, 1, 7, 2**31, 2**63, -2**63 - 1, 10**30, rng.randrange(-10, 10)])
    if kind == 3:
        return rng.choice([0.5, -0.0, 1e308, 6.0, 1e-320, rng.random()])
    if kind == 4:
        return rng.choice(["", "6-6", "6-5", "9-9", "x", "deal", "play", "\u0000", "\ud800",
                           "[bold]markup[/]", "\u202e", "e\u0301", "\U0001F600", "a" * 300])
    if kind == 5:
        return rng.choice(["deal", "play", "draw", "pass", "reveal", "note", "void", "penalty",
                           "annul", "forfeit"])
    if kind in (6, 7):
        keys = ["type", "seat", "tile", "end", "hands", "tiles", "pips", "target", "text",
                "disputed", "points", "reason", rng.choice(["", "x", "\u0000", "Type"])]
        return {rng.choice(keys): random_json(rng, depth + 1) for _ in range(rng.randrange(5))}
    return [random_json(rng, depth + 1) for _ in range(rng.randrange(5))]


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _join(lines: list[bytes]) -> bytes:
    return b"\n".join(lines)


def _pick(rng: random.Random, lines: list[bytes], first: int = 0) -> int:
    real = [i for i, line in enumerate(lines) if line.strip() and i >= first]
    return rng.choice(real) if real else 0


def truncate_line(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    i = _pick(rng, lines)
    lines[i] = lines[i][:rng.randrange(max(1, len(lines[i])))]
    return _join(lines)


def truncate_file(rng: random.Random, data: bytes) -> bytes:
    return data[:rng.randrange(len(data))]


def flip_bytes(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randrange(1, 8)):
        out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
    return bytes(out)


def random_bytes(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randrange(1, 5)):
        out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


def delete_lines(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    for _ in range(rng.randrange(1, 4)):
        if len(lines) > 1:
            del lines[_pick(rng, lines)]
    return _join(lines)


def duplicate_lines(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    for _ in range(rng.randrange(1, 4)):
        i = _pick(rng, lines)
        lines.insert(rng.randrange(len(lines) + 1), lines[i])
    return _join(lines)


def swap_lines(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    i, j = _pick(rng, lines), _pick(rng, lines)
    lines[i], lines[j] = lines[j], lines[i]
    return _join(lines)


def random_json_line(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    value = json.dumps(random_json(rng)).encode()
    lines.insert(rng.randrange(1, len(lines) + 1), value)
    return _join(lines)


def random_json_event(rng: random.Random, data: bytes) -> bytes:
    """An event line replaced by a random object with a real event type."""
    lines = _lines(data)
    value = random_json(rng, depth=3)
    if not isinstance(value, dict):
        value = {"v": value}
    value["type"] = rng.choice(["deal", "play", "draw", "pass", "reveal", "note", "void",
                                "penalty", "annul", "forfeit"])
    lines[_pick(rng, lines, first=1)] = json.dumps(value).encode()
    return _join(lines)


def random_header(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    header = json.loads(lines[0])
    key = rng.choice(["rules", "players", "date", "format", "club", "table", "match"])
    header[key] = random_json(rng, depth=2)
    lines[0] = json.dumps(header).encode()
    return _join(lines)


def invalid_utf8(rng: random.Random, data: bytes) -> bytes:
    bad = rng.choice([b"\xff", b"\xfe\xff", b"\xc3\x28", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                      b"\xe2\x82", b"\x80"])
    at = rng.randrange(len(data))
    return data[:at] + bad + data[at:]


def nul_bytes(rng: random.Random, data: bytes) -> bytes:
    at = rng.randrange(len(data))
    return data[:at] + rng.choice([b"\x00", b"\x00" * 10, b'"\x00"']) + data[at:]


def nul_escapes(rng: random.Random, data: bytes) -> bytes:
    """A NUL written as JSON allows it: inside a string, an escape (a player's name, a note)."""
    text = data.decode("utf-8", "replace")
    for old, new in ((' "Ana"', ' "An\\u0000a"'), ('"note"', '"no\\u0000te"'),
                     ('"6-6"', '"6-6\\u0000"'), ('"text": "', '"text": "\\u0000')):
        if old in text and rng.random() < 0.7:
            text = text.replace(old, new, 1)
    if "\\u0000" not in text:
        text = text.rstrip("\n") + '\n{"type": "note", "text": "\\u0000"}\n'
    return text.encode()


HUGE = ["1e400", "-1e400", "1e-400", "1" + "0" * 5000, "-" + "9" * 4301, "1E+999999999",
        "123456789012345678901234567890", "9007199254740993", "1.7976931348623157e309",
        "NaN", "Infinity", "-Infinity", "0e0", "-0", "1.0", "6.000000000000001"]


def huge_numbers(rng: random.Random, data: bytes) -> bytes:
    """A number of the log replaced by one no 64-bit float or int holds (or not JSON at all)."""
    text = data.decode("utf-8")
    import re

    spots = [m for m in re.finditer(r"(?<=[:\[,] )-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", text)]
    if not spots:
        return text.encode()
    for _ in range(rng.randrange(1, 3)):
        spot = rng.choice(spots)
        text = text[:spot.start()] + rng.choice(HUGE) + text[spot.end():]
        spots = [m for m in re.finditer(r"(?<=[:\[,] )-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", text)]
    return text.encode()


def huge_number_fields(rng: random.Random, data: bytes) -> bytes:
    """The header's rules given as an object with a huge number, or a play's seat or end."""
    lines = _lines(data)
    try:
        header = json.loads(lines[0])
    except ValueError:  # a first mutation's number is past what Python will read back
        header = None
    number = rng.choice(HUGE)
    if rng.random() < 0.5 and isinstance(header, dict):
        preset = header["rules"] if isinstance(header["rules"], str) else "parejas"
        field = rng.choice(["target", "max_pip", "hand_size", "seats", "points"])
        rules = f'{{"preset": {json.dumps(preset)}, "{field}": {number}}}'
        lines[0] = json.dumps({**header, "rules": "@RULES@"}).replace('"@RULES@"', rules).encode()
    else:
        field = rng.choice(["seat", "end", "target", "points", "pips"])
        lines.insert(_pick(rng, lines, first=1),
                     f'{{"type": "play", "{field}": {number}, "tile": "6-6", "seat": 0}}'.encode())
    return _join(lines)


def deep_nesting(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    depth = rng.choice([100, 500, 900, 990, 1000, 3000, 20_000, 100_000])
    where = rng.choice(["line", "event", "header"])
    if where == "line":
        value = b"[" * depth + b"]" * depth
        lines.insert(_pick(rng, lines, first=1), value)
    elif where == "event":
        value = b'{"type": "note", "text": ' + b"[" * depth + b"]" * depth + b"}"
        lines.insert(_pick(rng, lines, first=1), value)
    else:
        value = b'{"a": ' * depth + b"1" + b"}" * depth
        lines[0] = lines[0][:-1] + b', "extra": ' + value + b"}"
    return _join(lines)


def five_mb_line(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    kind = rng.choice(["note", "digits", "array", "garbage", "tile"])
    size = 5 * 1024 * 1024
    if kind == "note":
        line = b'{"type": "note", "text": "' + b"x" * size + b'"}'
    elif kind == "digits":
        line = b'{"type": "play", "seat": 0, "tile": "6-6", "end": ' + b"7" * size + b"}"
    elif kind == "array":
        line = b'{"type": "deal", "hands": [' + b'"6-6", ' * (size // 7) + b'"6-6"]}'
    elif kind == "tile":
        line = b'{"type": "play", "seat": 0, "tile": "' + b"6" * size + b'"}'
    else:
        line = bytes(rng.randrange(32, 127) for _ in range(1024)) * (size // 1024)
    lines.insert(_pick(rng, lines, first=1), line)
    return _join(lines)


def line_endings(rng: random.Random, data: bytes) -> bytes:
    choice = rng.randrange(6)
    if choice == 0:
        return data.replace(b"\n", b"\r\n")
    if choice == 1:
        return data.replace(b"\n", b"\r")
    if choice == 2:
        return b"\xef\xbb\xbf" + data
    if choice == 3:
        return data.rstrip(b"\n")
    if choice == 4:
        lines = _lines(data)
        lines.insert(_pick(rng, lines), rng.choice([b"", b"   ", b"\t", b"\xc2\xa0", b"\x0c", b"\xe2\x80\xa8"]))
        return _join(lines)
    return data.replace(b"\n", b"\n\n", 1)


def whole_garbage(rng: random.Random, data: bytes) -> bytes:
    choice = rng.randrange(7)
    if choice == 0:
        return b""
    if choice == 1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4096)))
    if choice == 2:
        return json.dumps(random_json(rng)).encode()
    if choice == 3:
        return b"\n".join(json.dumps(random_json(rng)).encode() for _ in range(20))
    if choice == 4:
        return b"\x00" * 1000
    if choice == 5:
        return _lines(data)[0]  # the header alone
    return b"\n".join(_lines(data)[1:])  # no header


def hostile_names(rng: random.Random, data: bytes) -> bytes:
    """Player names a terminal renderer may choke on: rich markup, escapes, bidi, 10 KB."""
    lines = _lines(data)
    header = json.loads(lines[0])
    names = ["[/]", "[bold", "[link=javascript:alert(1)]x[/link]", "\x1b[31mred\x1b[0m",
             "\u202eevil", "\r\n", "x" * 10_000, "\t", "[[/]]", "\\[b]", "e\u0301", "%s%n",
             "\U0001F0A1", "{0}", "<script>"]
    header["players"] = [rng.choice(names) + str(i) * (rng.random() < 0.5)
                         for i in range(len(header.get("players") or [1, 2]))]
    if rng.random() < 0.3:
        header[rng.choice(["club", "table", "match", "event"])] = rng.choice(names)
    lines[0] = json.dumps(header).encode()
    return _join(lines)


MUTATIONS: list[Callable[[random.Random, bytes], bytes]] = [
    hostile_names,
    truncate_line, truncate_file, flip_bytes, random_bytes, delete_lines, duplicate_lines,
    swap_lines, random_json_line, random_json_event, random_header, invalid_utf8, nul_bytes,
    nul_escapes, huge_numbers, huge_number_fields, deep_nesting, line_endings, whole_garbage,
]
BIG = [five_mb_line]


def mutated_logs(seed: int, count: int, big: int = 3) -> Iterator[tuple[str, bytes]]:
    """(a name saying what was done, the bytes), ``count`` of them plus ``big`` 5 MB lines."""
    rng = random.Random(seed)
    bases = base_logs(rng)
    for n in range(count):
        mutation = MUTATIONS[n % len(MUTATIONS)]
        data = rng.choice(bases)
        for _ in range(1 + (rng.random() < 0.3)):  # now and then two mutations
            data = mutation(rng, data) if data else data
        yield f"{n:03d}-{mutation.__name__}", data
    for n in range(big):
        yield f"big{n}-five_mb_line", five_mb_line(rng, rng.choice(bases))
