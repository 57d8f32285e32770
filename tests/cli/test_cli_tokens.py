"""``domino token list`` and ``domino token revoke``, through click's runner."""

from __future__ import annotations

import csv
import io
import json

import pytest
from cli_helpers import CLUB, Cli

from referee.service import Unauthorized
from referee.service.access import Caller

COLUMNS = ["id", "label", "role", "created_at", "last_used_at", "revoked_at", "issued_by"]


def issue(cli: Cli, role: str, label: str | None = None) -> str:
    args = ["token", "create", "--club", CLUB, "--role", role]
    return cli.run(*args, *(["--label", label] if label else [])).stdout.strip()


def test_token_list(cli: Cli) -> None:
    result = cli.run("token", "list", "--club", CLUB)
    assert "casino: 0 tokens" in result.output
    used = issue(cli, "scorekeeper", "table 3")
    issue(cli, "viewer")
    cli.service.tokens.authenticate(used)
    result = cli.run("token", "list", "--club", CLUB)
    assert "casino: 2 tokens" in result.output
    for heading in ("id", "label", "role", "created", "last used", "revoked"):
        assert heading in result.output
    lines = {line.split("│")[2].strip(): line for line in result.output.splitlines()
             if "│" in line and ("scorekeeper" in line or "viewer" in line)}
    assert "table 3" in lines["table 3"] and "never" in lines[""]
    assert "never" not in lines["table 3"]
    assert used not in result.output
    assert "no club 'x'" in cli.run("token", "list", "--club", "x", code=1).output


def test_token_list_as_json_and_csv(cli: Cli) -> None:
    secret = issue(cli, "referee", "Saturday referee")
    rows = json.loads(cli.run("token", "list", "--club", CLUB, "--json").stdout)
    assert [list(r) for r in rows] == [COLUMNS]
    assert rows[0]["label"] == "Saturday referee" and rows[0]["role"] == "referee"
    assert rows[0]["last_used_at"] is None and rows[0]["revoked_at"] is None
    text = cli.run("token", "list", "--club", CLUB, "--csv").stdout
    parsed = list(csv.DictReader(io.StringIO(text)))
    assert list(parsed[0]) == COLUMNS and parsed[0]["id"] == str(rows[0]["id"])
    assert secret not in text
    cli.run("token", "list", "--club", CLUB, "--json", "--csv", code=2)


def test_token_revoke(cli: Cli) -> None:
    secret = issue(cli, "scorekeeper", "table 3")
    other = issue(cli, "viewer")
    token_id = cli.service.tokens.authenticate(secret).token_id
    result = cli.run("token", "revoke", "--club", CLUB, token_id)
    assert f"revoked token {token_id} (table 3), scorekeeper, at " in result.output
    with pytest.raises(Unauthorized):
        cli.service.tokens.authenticate(secret)
    assert cli.service.tokens.authenticate(other).role == "viewer"
    assert result.output == cli.run("token", "revoke", "--club", CLUB, token_id).output  # twice
    rows = json.loads(cli.run("token", "list", "--club", CLUB, "--json").stdout)
    assert [r["revoked_at"] is not None for r in rows] == [True, False]
    table = cli.run("token", "list", "--club", CLUB).output
    assert rows[0]["revoked_at"][:10] in [line for line in table.splitlines() if "table 3" in line][0]


def test_token_revoke_with_issued(cli: Cli) -> None:
    """An admin token's offspring (issued with it, as the API does) are listed with it and
    revoked with it on --with-issued; a token the command line issued is left alone."""
    admin = issue(cli, "admin", "stolen")
    admin_id = cli.service.tokens.authenticate(admin).token_id
    made = cli.service.tokens.create_token(CLUB, "referee", who=Caller(CLUB, "admin", admin_id))
    made_id = cli.service.tokens.authenticate(made).token_id
    bystander = issue(cli, "viewer")
    rows = {r["id"]: r for r in json.loads(cli.run("token", "list", "--club", CLUB, "--json").stdout)}
    assert (rows[admin_id]["issued_by"], rows[made_id]["issued_by"]) == (None, admin_id)
    assert str(admin_id) in [line for line in cli.run("token", "list", "--club", CLUB).output
                             .splitlines() if "referee" in line][0]
    result = cli.run("token", "revoke", "--club", CLUB, admin_id, "--with-issued")
    assert f"and the tokens it issued: {made_id}" in result.output
    for secret in (admin, made):
        with pytest.raises(Unauthorized):
            cli.service.tokens.authenticate(secret)
    assert cli.service.tokens.authenticate(bystander).role == "viewer"


def test_token_revoke_refuses_what_is_not_the_clubs(cli: Cli) -> None:
    cli.service.clubs.create_club("other", "Other")
    theirs = cli.service.tokens.create_token("other", "admin")
    theirs_id = cli.service.tokens.authenticate(theirs).token_id
    result = cli.run("token", "revoke", "--club", CLUB, theirs_id, code=1)
    assert f"no token {theirs_id}" in result.output and "Traceback" not in result.output
    assert "no token 999" in cli.run("token", "revoke", "--club", CLUB, 999, code=1).output
    assert "no club 'x'" in cli.run("token", "revoke", "--club", "x", 1, code=1).output
    assert cli.service.tokens.authenticate(theirs).club == "other"
    for bad in ("0", "abc", str(2**31)):
        cli.run("token", "revoke", "--club", CLUB, bad, code=2)  # usage errors
    cli.run("token", "revoke", "1", code=2)  # --club is required
