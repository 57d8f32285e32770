"""A live scoreboard's stream (server-sent events) read line by line, for the tests that read
one from a real server (tests/api/test_api_scoreboard.py, tests/replica)."""

from __future__ import annotations

import http.client
import json
from typing import Any


class Stream:
    """A scoreboard stream read line by line: its events as (event, id, data) and comments."""

    def __init__(self, response: http.client.HTTPResponse) -> None:
        self.response = response
        self.seen = b""  # every byte read, to search for what must never be sent

    def next(self) -> dict[str, Any]:
        """The next event or comment (``{"comment": text}``)."""
        fields: dict[str, Any] = {}
        while True:
            line = self.response.readline()
            self.seen += line
            if not line:
                raise AssertionError("the stream ended")
            text = line.decode().rstrip("\r\n")
            if not text:
                if fields:
                    if "data" in fields:
                        fields["data"] = json.loads(fields["data"])
                    return fields
                continue
            name, _, value = text.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if not name:
                return {"comment": value}
            fields[name] = value

    def event(self, kind: str) -> dict[str, Any]:
        """The next event of ``kind``, passing over comments and the retry field (bounded)."""
        for _ in range(200):
            found = self.next()
            if found.get("event") == kind:
                return found
        raise AssertionError(f"no {kind} event")
