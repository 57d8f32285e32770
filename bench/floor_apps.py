"""The floor under bench/api_bench.py's figures: what the server costs a request by itself.

Two apps that do nothing an append does, served by waitress as the real one is: ``wsgi``, a
bare WSGI callable, and ``flask_app``, one Flask view that reads the JSON body and answers with
JSON. Every POST is answered 201 with a body shaped like a new match's (``id``), every GET 200,
so that api_bench's tables record against them as against the API."""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable

from flask import Flask, Response, jsonify, request

ANSWER = {"id": 1, "seq": 1, "screen": {"tiles": list(range(28))}}
_BODY = json.dumps(ANSWER).encode()


def wsgi(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    status = "201 Created" if environ["REQUEST_METHOD"] == "POST" else "200 OK"
    start_response(status, [("Content-Type", "application/json"), ("ETag", '"1"'),
                            ("Content-Length", str(len(_BODY)))])
    return [_BODY]


flask_app = Flask("floor")


@flask_app.route("/<path:path>", methods=["GET", "POST"])
def answer(path: str) -> Response:
    response = jsonify({**ANSWER, "event": request.get_json(silent=True)})
    response.status_code = 201 if request.method == "POST" else 200
    response.headers["ETag"] = '"1"'
    return response
