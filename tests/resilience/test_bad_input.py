"""Hostile input, three ways:

- schemathesis over every operation of the OpenAPI document (in process, on PostgreSQL),
  thousands of generated requests fitting the document and not: no answer is a 5xx;
- a few hundred mutated and random logs through ``domino validate`` (a subprocess, as a user
  runs it): exit status 0, 1 or 2 only, never a traceback, and with ``--json`` one
  domino-report/1 (strict JSON) per file, agreeing with the exit status;
- malformed JSON, invalid UTF-8, NUL, numbers no float holds, deep nesting and huge bodies sent
  to a real gunicorn on PostgreSQL (and the mutated logs POSTed to the import): every refusal is
  a 4xx application/problem+json, never a 5xx.
"""

from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from resilience_fuzz import mutated_logs
from resilience_helpers import (
    CLUB,
    PG_URL,
    PLAYERS,
    PROBLEM,
    ROOT,
    Gunicorn,
    Http,
    needs_pg,
    scratch_club,
    scratch_schema,
)

pytestmark = pytest.mark.resilience

SCHEMATHESIS_EXAMPLES = int(os.environ.get("DOMINO_RESILIENCE_SCHEMATHESIS_EXAMPLES", "120"))
SCHEMATHESIS_BUDGET_S = 150.0  # for all operations together; each gets its share
LOG_FILES = 342  # plus three with a 5 MB line
FAILED_INPUTS = Path(__file__).resolve().parent / "failed-inputs"
BATCH = 12


def _strict_json(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")
    return json.loads(text, parse_constant=refuse)


# ---------------------------------------------------------------- schemathesis

@dataclass
class Tally:
    statuses: Counter[str] = field(default_factory=Counter)
    per_operation: dict[str, dict[str, int]] = field(default_factory=dict)
    by_operation: dict[str, Counter[str]] = field(default_factory=dict)
    server_errors: list[str] = field(default_factory=list)
    not_problem: list[str] = field(default_factory=list)
    out_of_time: list[str] = field(default_factory=list)
    unsatisfiable: list[str] = field(default_factory=list)


def _doomed_token_id(api: Any) -> int | None:
    """The id of a token made to be revoked (a DELETE of a token must not revoke one in use)."""
    label = f"doomed {time.monotonic_ns()}"
    api.service.tokens.create_token("casino", "viewer", label=label)
    try:
        tokens, total = api.service.tokens.list_tokens("casino", limit=1, offset=0)
        tokens, _ = api.service.tokens.list_tokens("casino", limit=50, offset=max(0, total - 50))
        return next(t["id"] for t in tokens if t.get("label") == label)
    except Exception:  # noqa: BLE001 - the service moved: the id is left to schemathesis
        return None


def _hunt(api: Any, operation: Any, mode: Any, token: str, budget: float, tally: Tally) -> None:
    """One hypothesis run of schemathesis cases for one operation and generation mode; every
    answer tallied, none raising (no shrinking: the budget goes to new cases)."""
    from hypothesis import HealthCheck, assume, given, settings

    method, path = operation.method.upper(), operation.path
    label = f"{method} {path}"
    known: dict[str, Any] = {"club": "casino", "match_id": api.matches["casino"]}
    if any(p.name == "token_id" for p in operation.path_parameters):
        known["token_id"] = _doomed_token_id(api)
    fixed = {p.name: known[p.name] for p in operation.path_parameters
             if known.get(p.name) is not None}
    is_append = method == "POST" and path.endswith("/events")
    stop_at = time.monotonic() + budget
    count = 0

    @given(case=operation.as_strategy(generation_mode=mode, path_parameters=fixed))
    @settings(max_examples=SCHEMATHESIS_EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def check(case: Any) -> None:
        nonlocal count
        assume(not any(v == [] for v in (case.query or {}).values()))
        if time.monotonic() > stop_at:
            return
        headers = {"Authorization": f"Bearer {token}"}
        # The document says If-Match is optional (it is, to get a 428): most appends name the
        # current seq, so that the referee judges them.
        if is_append and "If-Match" not in (case.headers or {}) and count % 3:
            seq = api.service.reading.get_match(api.matches["casino"])["last_seq"]
            headers["If-Match"] = f'"{seq}"'
        # Ours, not one generated from the security scheme (a 401 tells nothing).
        case.headers = {**(case.headers or {}), **headers}
        response = case.call()
        count += 1
        status = response.status_code
        tally.statuses[str(status)] += 1
        tally.by_operation.setdefault(label, Counter())[str(status)] += 1
        if status >= 500 and len(tally.server_errors) < 40:
            tally.server_errors.append(f"{status} {label} ({mode.value}): "
                                       f"{case.as_curl_command(headers=headers)[:600]}")
        ctype = (response.headers.get("content-type") or [""])[0]
        if 400 <= status < 500 and not ctype.startswith(PROBLEM) and len(tally.not_problem) < 20:
            tally.not_problem.append(f"{status} {label} ({mode.value}) {ctype}: "
                                     f"{case.as_curl_command(headers=headers)[:400]}")

    from hypothesis.errors import Unsatisfiable

    try:
        check()
    except Unsatisfiable:  # nothing to generate in this mode (no parameter can be made wrong)
        tally.unsatisfiable.append(f"{label} ({mode.value})")
    tally.per_operation.setdefault(label, {})[mode.value] = count
    if time.monotonic() > stop_at:
        tally.out_of_time.append(f"{label} ({mode.value})")


@needs_pg
def test_schemathesis_every_operation_no_5xx(figures) -> None:
    import schemathesis
    from api_helpers import SERVER_TOKEN, make_api  # tests/, on the path through its conftest
    from schemathesis import GenerationMode

    began = time.monotonic()
    tally = Tally()
    with scratch_schema(PG_URL) as url:
        api = make_api(url)
        try:
            schema = schemathesis.openapi.from_wsgi("/api/openapi.json", api.app)
            operations = [result.ok() for result in schema.get_all_operations()]
            budget = SCHEMATHESIS_BUDGET_S / (2 * len(operations))
            for operation in operations:
                method, path = operation.method.upper(), operation.path
                for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                    # Fresh tokens for each run: a DELETE of a token (its id generated) may
                    # revoke the one a run uses, and the next run must not inherit that.
                    # Whoever may do it: an admin manages the club, its players and tokens;
                    # a referee does everything else.
                    manages = "/tokens" in path or method == "PATCH" or (
                        method == "POST" and "/players" in path)
                    role = "admin" if manages else "referee"
                    token = SERVER_TOKEN if path == "/api/v1/clubs" else \
                        api.service.tokens.create_token("casino", role, label=f"st {method} {path}")
                    _hunt(api, operation, mode, token, budget, tally)
        finally:
            api.service.close()

    figures.update(
        operations=len(operations), examples_per_operation_and_mode=SCHEMATHESIS_EXAMPLES,
        cases=sum(tally.statuses.values()), statuses=dict(sorted(tally.statuses.items())),
        cases_per_operation=tally.per_operation,
        statuses_per_operation={k: dict(sorted(v.items())) for k, v in tally.by_operation.items()},
        stopped_by_time_budget=tally.out_of_time, nothing_to_generate=tally.unsatisfiable,
        refusals_not_problem_json=tally.not_problem, server_errors=tally.server_errors,
        seconds=round(time.monotonic() - began, 1))
    assert not tally.server_errors, "\n".join(tally.server_errors)
    assert not tally.not_problem, "\n".join(tally.not_problem)


# ---------------------------------------------------------------- domino validate

def _domino() -> list[str]:
    script = Path(sys.executable).parent / "domino"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())"]


def _status_of(report: dict[str, Any]) -> int:
    if "error" in report:
        return 2
    return 0 if report.get("valid") else 1


def _validate(files: list[Path], as_json: bool, cwd: Path) -> dict[str, Any]:
    command = [*_domino(), "validate", *(["--json"] if as_json else []), *map(str, files)]
    began = time.monotonic()
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, timeout=180,
                              env={**os.environ, "COLUMNS": "120", "PYTHONPATH": str(ROOT)}, check=False)
    except subprocess.TimeoutExpired:
        return {"files": files, "json": as_json, "problem": "timed out after 180 s",
                "seconds": 180.0, "statuses": []}
    result: dict[str, Any] = {"files": files, "json": as_json, "code": done.returncode,
                              "seconds": time.monotonic() - began, "statuses": []}
    stderr = done.stderr.decode("utf-8", "replace")
    stdout = done.stdout.decode("utf-8", "replace")
    if done.returncode not in (0, 1, 2):
        result["problem"] = f"exit status {done.returncode}: {stderr[-800:]}"
    elif "Traceback" in stderr or "Traceback" in stdout:
        last = (stderr.strip() or stdout.strip()).splitlines()[-1]
        result["problem"] = f"exit status {done.returncode} and a traceback ending {last[:300]!r}"
    elif as_json:
        lines = stdout.splitlines()
        try:
            reports = [_strict_json(line) for line in lines]
        except ValueError as error:
            result["problem"] = f"--json printed a line that is not strict JSON: {error}"
            return result
        if len(reports) != len(files) or not all(
                isinstance(r, dict) and r.get("format") == "domino-report/1" for r in reports):
            result["problem"] = f"{len(reports)} reports for {len(files)} files"
            return result
        result["statuses"] = [_status_of(r) for r in reports]
        if max(result["statuses"]) != done.returncode:
            result["problem"] = f"exit status {done.returncode}, reports say {result['statuses']}"
    return result


def test_validate_survives_hostile_logs(tmp_path, figures) -> None:
    began = time.monotonic()
    folder = tmp_path / "logs"
    folder.mkdir()
    files, kinds = [], {}
    for name, data in mutated_logs(seed=20261201, count=LOG_FILES, big=3):
        path = folder / f"{name}.jsonl"
        path.write_bytes(data)
        files.append(path)
        kinds[path] = name.split("-", 1)[1]
    special = [folder / "missing.jsonl", folder]  # a file that is not there; a directory
    batches = [files[i:i + BATCH] for i in range(0, len(files), BATCH)]
    batches.append(special)
    jobs = [(batch, n % 2 == 0) for n, batch in enumerate(batches)]  # every other one --json
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda job: _validate(job[0], job[1], tmp_path), jobs))

    # A batch that went wrong is run again file by file, to name the files.
    failures: list[str] = []
    for result in results:
        if "problem" not in result:
            continue
        named = 0
        for path in result["files"]:
            alone = _validate([path], result["json"], tmp_path)
            if "problem" in alone:
                named += 1
                kept = path
                if path.is_file():  # kept for a reproducer (git ignores the folder)
                    FAILED_INPUTS.mkdir(exist_ok=True)
                    kept = FAILED_INPUTS / path.name
                    kept.write_bytes(path.read_bytes())
                failures.append(f"domino validate{' --json' if result['json'] else ''} "
                                f"{kept.relative_to(ROOT) if kept.is_relative_to(ROOT) else kept} "
                                f"({kinds.get(path, 'special')}): {alone['problem']}")
        if not named:
            failures.append(f"a batch of {len(result['files'])} files (but no file alone): "
                            f"{result['problem']}")
    by_status: Counter[str] = Counter()
    by_mutation: dict[str, Counter[str]] = {}
    for result in results:
        for path, status in zip(result["files"], result["statuses"]):
            by_status[str(status)] += 1
            by_mutation.setdefault(kinds.get(path, "special"), Counter())[str(status)] += 1
    # The special paths are unreadable: 2.
    stdin = subprocess.run([*_domino(), "validate", "-"], input=b"\xff\x00{[", capture_output=True,
                           timeout=60, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
                           check=False)
    if stdin.returncode != 2 or b"Traceback" in stdin.stderr:
        failures.append(f"validate - with garbage on stdin: exit {stdin.returncode} {stdin.stderr[-300:]!r}")
    figures.update(
        files=len(files) + len(special) + 1, invocations=len(jobs),
        files_with_5mb_line=3, json_reports_by_exit_status=dict(sorted(by_status.items())),
        json_reports_by_mutation={k: dict(v) for k, v in sorted(by_mutation.items())},
        slowest_invocation_s=round(max(r["seconds"] for r in results), 2),
        seconds=round(time.monotonic() - began, 1), failures=failures)
    assert not failures, "\n".join(failures)


# ---------------------------------------------------------------- bad bodies over HTTP

def _raw(port: int, request: bytes, timeout: float = 15) -> tuple[int | None, dict[str, str], bytes]:
    """Send bytes as they are (headers no client library would write) and read the answer.

    A large body is sent as a careful client sends one (curl with Expect: 100-continue): the
    head first, then a pause for an early answer. A server refusing it by its Content-Length
    (413) answers without reading it and closes; a client still sending would get a reset and
    might never see the 413."""
    head, separator, body = request.partition(b"\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        try:
            if len(body) > 1_000_000 and b"content-length:" in head.lower():
                sock.sendall(head + separator)
                if not select.select([sock], [], [], 2.0)[0]:
                    sock.sendall(body)
            else:
                sock.sendall(request)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the server answered and closed before taking the whole body
        data = b""
        deadline = time.monotonic() + 2 * timeout
        try:
            while time.monotonic() < deadline and (chunk := sock.recv(65536)):
                data += chunk
        except OSError:
            pass
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    try:
        status = int(lines[0].split()[1])
    except (IndexError, ValueError):
        return None, {}, data
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        headers[name.decode("latin-1").strip().lower()] = value.decode("latin-1").strip()
    return status, headers, body


def _bodies() -> list[tuple[str, bytes]]:
    deep = 100_000
    return [
        ("truncated", b'{"type": "note", "text": "x"'),
        ("single quotes", b"{'type': 'note', 'text': 'x'}"),
        ("trailing comma", b'{"type": "note", "text": "x",}'),
        ("empty", b""),
        ("only spaces", b"   \n\t"),
        ("two values", b'{"type": "note"} {"type": "note"}'),
        ("null", b"null"), ("array", b"[]"), ("number", b"42"), ("string", b'"note"'),
        ("true", b"true"),
        ("invalid UTF-8 0xff", b'{"type": "note", "text": "\xff\xfe"}'),
        ("invalid UTF-8 truncated", b'{"type": "note", "text": "\xe2\x82"}'),
        ("invalid UTF-8 overlong", b'{"type": "note", "text": "\xc0\xaf"}'),
        ("UTF-8 surrogate bytes", b'{"type": "note", "text": "\xed\xa0\x80"}'),
        ("latin-1 body", '{"type": "note", "text": "año"}'.encode("latin-1")),
        ("UTF-16 body", '{"type": "note", "text": "x"}'.encode("utf-16")),
        ("raw NUL in a string", b'{"type": "note", "text": "a\x00b"}'),
        ("raw NUL outside", b'{"type": "note"}\x00'),
        ("NUL escape in text", b'{"type": "note", "text": "a\\u0000b"}'),
        ("NUL escape in type", b'{"type": "no\\u0000te"}'),
        ("NUL escape as a key", b'{"type": "note", "\\u0000": 1}'),
        ("NUL escape in tile", b'{"type": "play", "seat": 0, "tile": "6-6\\u0000"}'),
        ("lone surrogate escape", b'{"type": "note", "text": "\\ud800"}'),
        ("seat 1e400", b'{"type": "play", "seat": 1e400, "tile": "6-6"}'),
        ("seat -1e400", b'{"type": "play", "seat": -1e400, "tile": "6-6"}'),
        ("seat 1e-400", b'{"type": "play", "seat": 1e-400, "tile": "6-6"}'),
        ("seat 10**5000", b'{"type": "play", "seat": 1' + b"0" * 5000 + b', "tile": "6-6"}'),
        ("seat 10**30", b'{"type": "play", "seat": 1000000000000000000000000000000, "tile": "6-6"}'),
        ("seat 2**63", b'{"type": "play", "seat": 9223372036854775808, "tile": "6-6"}'),
        ("seat NaN", b'{"type": "play", "seat": NaN, "tile": "6-6"}'),
        ("seat Infinity", b'{"type": "play", "seat": Infinity, "tile": "6-6"}'),
        ("end 1e400", b'{"type": "play", "seat": 0, "tile": "6-6", "end": 1e400}'),
        ("tile 1e400", b'{"type": "play", "seat": 0, "tile": 1e400}'),
        ("void target 1e400", b'{"type": "void", "target": 1e400, "reason": "x"}'),
        ("void target 10**5000", b'{"type": "void", "target": 1' + b"0" * 5000 + b', "reason": "x"}'),
        ("penalty points 1e400", b'{"type": "penalty", "seat": 0, "points": 1e400, "reason": "x"}'),
        ("penalty points 10**30", b'{"type": "penalty", "seat": 0, "points": 1000000000000000000000000000000, "reason": "x"}'),
        ("deep array", b"[" * deep + b"]" * deep),
        ("deep object", b'{"a": ' * deep + b"1" + b"}" * deep),
        ("deep text", b'{"type": "note", "text": ' + b"[" * 5000 + b"]" * 5000 + b"}"),
        ("nested 900", b'{"type": "note", "text": ' + b"[" * 900 + b"]" * 900 + b"}"),
        ("1.9 MB tile", b'{"type": "play", "seat": 0, "tile": "' + b"6" * 1_900_000 + b'"}'),
        ("1.9 MB of keys", b"{" + b",".join(b'"k%d": 0' % i for i in range(150_000)) + b"}"),
        ("3 MB body", b'{"type": "note", "text": "' + b"x" * 3_000_000 + b'"}'),
    ]


def _create_bodies() -> list[tuple[str, bytes]]:
    players = json.dumps(PLAYERS).encode()
    return [
        ("NUL in a player", b'{"rules": "parejas", "players": ["An\\u0000a", "B", "C", "D"]}'),
        ("lone surrogate player", b'{"rules": "parejas", "players": ["\\udc00", "B", "C", "D"]}'),
        ("rules target 1e400", b'{"rules": {"preset": "parejas", "target": 1e400}, "players": ' + players + b"}"),
        ("rules target 10**30", b'{"rules": {"preset": "parejas", "target": 1000000000000000000000000000000}, "players": ' + players + b"}"),
        ("rules max_pip 1e400", b'{"rules": {"preset": "parejas", "max_pip": 1e400}, "players": ' + players + b"}"),
        ("rules max_pip 10**6", b'{"rules": {"preset": "parejas", "max_pip": 1000000}, "players": ' + players + b"}"),
        ("rules hand_size 10**9", b'{"rules": {"preset": "parejas", "hand_size": 1000000000}, "players": ' + players + b"}"),
        ("rules deep", b'{"rules": ' + b'{"a": ' * 3000 + b"1" + b"}" * 3000 + b', "players": ' + players + b"}"),
        ("date NUL", b'{"rules": "parejas", "players": ' + players + b', "date": "2026-01-01\\u0000"}'),
        ("date 1e400", b'{"rules": "parejas", "players": ' + players + b', "date": 1e400}'),
        ("table 1.9 MB", b'{"rules": "parejas", "players": ' + players + b', "table": "' + b"t" * 1_900_000 + b'"}'),
        ("10**5 players", b'{"rules": "parejas", "players": [' + b",".join(b'"p%d"' % i for i in range(100_000)) + b"]}"),
    ]


@needs_pg
def test_api_refuses_bad_bodies_with_4xx_problems(tmp_path, figures) -> None:  # noqa: C901 (one server, a list of hostile bodies each checked in turn)
    began = time.monotonic()
    server_token = "resilience-server-admin-token"
    with scratch_club(scorekeepers=1) as club:
        server = Gunicorn(club.url, tmp_path / "gunicorn.log", workers=2, threads=4,
                          DOMINO_ADMIN_TOKEN=server_token)
        server.start()
        try:
            http = Http(server.base, club.token("referee"), timeout=30)
            created = http.call("POST", f"/api/v1/clubs/{CLUB}/matches",
                                json.dumps({"rules": "parejas", "players": PLAYERS}).encode())
            assert created.status == 201, created.body
            match_id = created.json()["id"]
            events_path = f"/api/v1/matches/{match_id}/events"
            results: list[dict[str, Any]] = []

            created_ids: list[int] = []

            def send(name: str, method: str, path: str, body: bytes | None, *, expect: str = "4xx",
                     headers: dict[str, str] | None = None, token: str | None = None) -> None:
                if body is not None and len(body) > 1_000_000:
                    # A fresh connection, the answer read even if the server stops reading the
                    # body: gunicorn says keep-alive on a 413 and then closes the connection.
                    sent = {"Authorization": f"Bearer {token or club.token('referee')}",
                            "Content-Type": "application/json", **(headers or {})}
                    request = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                               + "".join(f"{k}: {v}\r\n" for k, v in sent.items())
                               + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n")
                    status, answer_headers, answer_body = _raw(server.port, request.encode("latin-1") + body)
                    if status is None:
                        results.append({"name": name, "path": path, "status": None, "error": "no answer"})
                    else:
                        results.append(_judge(name, path, status, answer_headers, answer_body, expect))
                    return
                try:
                    answer = http.call(method, path, body, headers, token)
                except (OSError, Exception) as error:  # noqa: BLE001 - an answer is the promise
                    results.append({"name": name, "path": path, "status": None,
                                    "error": type(error).__name__})
                    return
                results.append(_judge(name, path, answer.status, answer.headers, answer.body, expect))
                if answer.status == 201 and path.endswith("/matches"):
                    created_ids.append(answer.json()["id"])

            def current() -> str:
                return http.call("GET", f"/api/v1/matches/{match_id}").headers.get("etag", '"0"')

            for name, body in _bodies():
                send(f"event: {name}", "POST", events_path, body, headers={"If-Match": current()},
                     expect="<500" if name in LEGAL_JSON else "4xx")
                if name in ("truncated", "invalid UTF-8 0xff", "NUL escape in text",
                            "lone surrogate escape", "seat 1e400", "seat 10**5000", "deep array",
                            "3 MB body", "raw NUL in a string"):
                    for other, token in ((f"/api/v1/clubs/{CLUB}/matches", None),
                                         (f"/api/v1/clubs/{CLUB}/players", club.token("admin")),
                                         (f"/api/v1/clubs/{CLUB}/tokens", club.token("admin")),
                                         ("/api/v1/clubs", server_token)):
                        send(f"{other.rsplit('/', 1)[-1]}: {name}", "POST", other, body, token=token)
            for name, body in _create_bodies():
                send(f"create: {name}", "POST", f"/api/v1/clubs/{CLUB}/matches", body,
                     expect="<500" if name in LEGAL_JSON else "4xx")
            for name, body in (("NUL in a player name", b'{"name": "An\\u0000a"}'),
                               ("lone surrogate name", b'{"name": "\\ud800"}'),
                               ("name 1e400", b'{"name": 1e400}')):
                send(f"players: {name}", "POST", f"/api/v1/clubs/{CLUB}/players", body,
                     token=club.token("admin"))
            for name, body in (("NUL in a label", b'{"role": "viewer", "label": "a\\u0000"}'),
                               ("lone surrogate label", b'{"role": "viewer", "label": "\\udfff"}'),
                               ("role NUL", b'{"role": "viewer\\u0000", "label": "x"}')):
                send(f"tokens: {name}", "POST", f"/api/v1/clubs/{CLUB}/tokens", body,
                     token=club.token("admin"))
            for name, body in (("NUL in a slug", b'{"slug": "a\\u0000b", "name": "x"}'),
                               ("NUL in a name", b'{"slug": "nulclub", "name": "x\\u0000"}'),
                               ("lone surrogate name", b'{"slug": "surrogate", "name": "\\ud800"}')):
                send(f"clubs: {name}", "POST", "/api/v1/clubs", body, token=server_token)
            # Headers and content types.
            note = b'{"type": "note", "text": "hello"}'
            for name, value in (("If-Match 10**30", '"1000000000000000000000000000000"'),
                                ("If-Match -1", '"-1"'), ("If-Match 1e400", '"1e400"'),
                                ("If-Match unquoted", "0"), ("If-Match garbage", 'W/"x", "'),
                                ("If-Match latin-1", '"\xe9"'), ("If-Match huge", '"' + "9" * 8000 + '"')):
                send(f"header: {name}", "POST", events_path, note, headers={"If-Match": value})
            for name, key in (("Idempotency-Key 10 KB", "k" * 10_000), ("Idempotency-Key latin-1", "cl\xe9"),
                              ("Idempotency-Key empty", "")):
                send(f"header: {name}", "POST", events_path, note,
                     headers={"If-Match": current(), "Idempotency-Key": key}, expect="<500")
            for name, ctype in (("text/plain", "text/plain"), ("no type", ""),
                                ("form", "application/x-www-form-urlencoded"),
                                ("json latin-1 charset", "application/json; charset=latin-1"),
                                ("multipart", "multipart/form-data; boundary=x")):
                send(f"content-type: {name}", "POST", events_path, note,
                     headers={"If-Match": current(), "Content-Type": ctype}, expect="<500")
            # Query strings and paths no client should send.
            for path in (f"/api/v1/clubs/{CLUB}/matches?limit=1e400",
                         f"/api/v1/clubs/{CLUB}/matches?limit=1{'0' * 5000}",
                         f"/api/v1/clubs/{CLUB}/matches?offset=-1",
                         f"/api/v1/clubs/{CLUB}/matches?player=%00",
                         f"/api/v1/clubs/{CLUB}/matches?player=%ff%fe",
                         f"/api/v1/clubs/{CLUB}/matches?date=%00",
                         f"/api/v1/clubs/{CLUB}/matches?date=99999-01-01",
                         f"/api/v1/clubs/{CLUB}/matches?date_from=2026-13-45",
                         f"/api/v1/clubs/{CLUB}/matches?status=%ed%a0%80",
                         f"/api/v1/matches/{match_id}/events?after=1e400",
                         f"/api/v1/matches/{match_id}/events?after=99999999999999999999",
                         f"/api/v1/matches/{match_id}/events?limit=0",
                         "/api/v1/matches/99999999999999999999999",
                         "/api/v1/matches/%ff/report", "/api/v1/clubs/%00/matches",
                         "/api/v1/clubs/%ed%a0%80/matches", f"/api/v1/clubs/{'c' * 5000}/matches",
                         f"/api/v1/clubs/{CLUB}/standings?format=%00"):
                send(f"GET {path[:70]}", "GET", path, None, expect="<500")

            # Bodies sent raw: chunked past the limit, lying lengths, NUL in a header.
            auth = f"Authorization: Bearer {club.token('scorekeeper')}\r\n".encode()
            big = b'{"type": "note", "text": "' + b"x" * 3_000_000 + b'"}'
            chunked = b"".join(b"%x\r\n%s\r\n" % (len(big[i:i + 65536]), big[i:i + 65536])
                               for i in range(0, len(big), 65536)) + b"0\r\n\r\n"
            raw_cases = [
                ("chunked 3 MB event", b"POST %s HTTP/1.1\r\nHost: x\r\n%sIf-Match: %s\r\n"
                 b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n%s"
                 % (events_path.encode(), auth, current().encode(), chunked), "4xx"),
                ("chunked 3 MB import", b"POST /api/v1/clubs/%s/matches/import HTTP/1.1\r\nHost: x\r\n"
                 b"Authorization: Bearer %s\r\nContent-Type: application/x-ndjson\r\n"
                 b"Transfer-Encoding: chunked\r\n\r\n%s" % (CLUB.encode(), club.token("referee").encode(), chunked), "4xx"),
                ("Content-Length 10**20", b"POST %s HTTP/1.1\r\nHost: x\r\n%sIf-Match: \"0\"\r\n"
                 b"Content-Type: application/json\r\nContent-Length: 100000000000000000000\r\n\r\n{}"
                 % (events_path.encode(), auth), "4xx-any"),
                ("Content-Length -1", b"POST %s HTTP/1.1\r\nHost: x\r\n%sIf-Match: \"0\"\r\n"
                 b"Content-Type: application/json\r\nContent-Length: -1\r\n\r\n{}"
                 % (events_path.encode(), auth), "4xx-any"),
                ("NUL in a header", b"POST %s HTTP/1.1\r\nHost: x\r\n%sIf-Match: \"0\x00\"\r\n"
                 b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
                 % (events_path.encode(), auth), "4xx-any"),
                ("NUL in the bearer token", b"GET /api/v1/clubs/%s/matches HTTP/1.1\r\nHost: x\r\n"
                 b"Authorization: Bearer ab\x00cd\r\n\r\n" % CLUB.encode(), "4xx-any"),
                ("latin-1 bearer token", b"GET /api/v1/clubs/%s/matches HTTP/1.1\r\nHost: x\r\n"
                 b"Authorization: Bearer \xe9\xff\r\n\r\n" % CLUB.encode(), "4xx"),
            ]
            for name, request, expect in raw_cases:
                status, headers, body = _raw(server.port, request)
                if status is None:
                    results.append({"name": f"raw: {name}", "status": None, "error": "no answer"})
                else:
                    results.append(_judge(f"raw: {name}", "", status, headers, body, expect))

            # The mutated logs, imported: the referee refuses what it cannot read or judge.
            import_statuses: dict[str, Counter[str]] = {}
            for n, (name, data) in enumerate(mutated_logs(seed=4242, count=162, big=1)):
                if len(data) > 1_000_000:
                    send(f"import {name}", "POST", f"/api/v1/clubs/{CLUB}/matches/import", data,
                         headers={"Content-Type": "application/x-ndjson"}, expect="4xx")
                    import_statuses.setdefault(name.split("-", 1)[1], Counter())[
                        str(results[-1]["status"])] += 1
                    continue
                answer = None
                for _ in range(2):
                    try:
                        answer = http.call("POST", f"/api/v1/clubs/{CLUB}/matches/import", data,
                                           {"Content-Type": "application/x-ndjson"})
                        break
                    except (OSError, Exception):  # noqa: BLE001 - retried once, then judged
                        answer = None
                if answer is None:
                    results.append({"name": f"import {name}", "status": None, "error": "no answer"})
                    continue
                results.append(_judge(f"import {name}", "", answer.status, answer.headers,
                                      answer.body, "<500"))
                import_statuses.setdefault(name.split("-", 1)[1], Counter())[str(answer.status)] += 1
            # What was accepted can be read back, on every channel.
            for read_id in (match_id, *created_ids):
                for suffix in ("", "/events", "/report", "/log"):
                    send(f"read back match {read_id}{suffix}", "GET", f"/api/v1/matches/{read_id}{suffix}",
                         None, expect="<500")
            send("read back the standings", "GET", f"/api/v1/clubs/{CLUB}/standings", None, expect="<500")
            send("read back the players", "GET", f"/api/v1/clubs/{CLUB}/players", None, expect="<500")
            http.close()
            figures["server_log_tracebacks"] = server.log_text().count("Traceback")
        finally:
            server.stop()

    failures = [r for r in results if r.get("problem") or r["status"] is None]
    figures.update(
        requests=len(results),
        statuses=dict(sorted(Counter(str(r["status"]) for r in results).items())),
        import_statuses_by_mutation={k: dict(v) for k, v in sorted(import_statuses.items())},
        accepted=[r["name"] for r in results if r["status"] is not None and r["status"] < 400
                  and not r["name"].startswith("import")],
        failures=[f"{r['name']}: {r.get('problem') or r.get('error')}" for r in failures],
        seconds=round(time.monotonic() - began, 1))
    assert not failures, "\n".join(figures["failures"])


# Bodies that are JSON a client may legitimately send (RFC 8259 allows the escapes; Python
# reads a UTF-16 body with its BOM): storing them is no failure, a 5xx still is.
LEGAL_JSON = {"UTF-16 body", "NUL escape in text", "lone surrogate escape", "NUL escape as a key",
              "rules target 10**30", "nested 900", "deep text", "seat 10**30", "seat 2**63"}
# Refused by gunicorn itself, before the app sees the request: its own HTML page.
SERVER_LEVEL = {414, 431}


def _judge(name: str, path: str, status: int, headers: dict[str, str], body: bytes,
           expect: str) -> dict[str, Any]:
    """``expect``: "4xx" (a problem+json refusal), "4xx-any" (a refusal, perhaps by gunicorn
    itself before the app: its own plain text), "<500" (anything but a server error; a refusal
    still problem+json, unless gunicorn's own 414 or 431)."""
    result: dict[str, Any] = {"name": name, "path": path, "status": status}
    problem_json = headers.get("content-type", "").startswith(PROBLEM)
    if status >= 500:
        result["problem"] = f"{status} {body[:300]!r}"
    elif expect in ("4xx", "4xx-any") and not 400 <= status < 500:
        result["problem"] = f"accepted with {status}, a refusal was expected"
    elif status >= 400 and expect != "4xx-any" and status not in SERVER_LEVEL and not problem_json:
        result["problem"] = f"{status} as {headers.get('content-type')}, not problem+json"
    elif status >= 400 and problem_json:
        try:
            document = _strict_json(body.decode("utf-8"))
            if document.get("status") != status:
                result["problem"] = f"problem+json says status {document.get('status')}"
        except (ValueError, UnicodeDecodeError) as error:
            result["problem"] = f"{status} problem+json that is not JSON: {error}"
    return result
