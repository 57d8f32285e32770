"""Setting a club up: ``domino club create/show``, ``domino player add/list``, ``domino token
create/list/revoke``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

# The service, for the roles --role offers; every command here opens the database anyway.
from referee.service import ROLES

from .connection import connect
from .listing import echo_csv, echo_json, output_format
from .options import MAX_COUNT, NAME, club_option, csv_option, json_option

if TYPE_CHECKING:
    from referee.service import Service

PLAYER_COLUMNS = ("id", "name", "created_at")
TOKEN_COLUMNS = ("id", "label", "role", "created_at", "last_used_at", "revoked_at")


@click.group()
def club() -> None:
    """Clubs: create one, show one.

    \b
    Example:
      domino club create casino --name "Casino Domino Club"
      domino club show casino
    """


@club.command("create")
@click.argument("slug")
@click.option("--name", type=NAME, required=True, help="The club's name, as people write it.")
def club_create(slug: str, name: str) -> None:
    """Create a club. SLUG names it in URLs (lowercase letters, digits, dashes).

    \b
    Example:
      domino club create casino --name "Casino Domino Club"
    """
    with connect() as service:
        created = service.clubs.create_club(slug, name)
    click.echo(f"created club {created['slug']} ({created['name']})")


@club.command("show")
@click.argument("slug")
def club_show(slug: str) -> None:
    """Show a club: its name, when it was created, how many players and matches it has.

    \b
    Example:
      domino club show casino
    """
    with connect() as service:
        found = service.clubs.get_club(slug)
        _, players = service.clubs.list_players(slug, limit=1)
        _, matches = service.reading.list_matches(slug, limit=1)
        _, finished = service.reading.list_matches(slug, status="finished", limit=1)
    click.echo(f"{found['slug']}: {found['name']}\n"
               f"created {found['created_at']}\n"
               f"{players} players, {matches} matches ({finished} finished)")


@click.group()
def player() -> None:
    """A club's players: add, list.

    \b
    Example:
      domino player add Ana --club casino
      domino player list --club casino
    """


@player.command("add")
@click.argument("name", type=NAME)
@club_option
def player_add(name: str, club_slug: str) -> None:
    """Add a player to a club (match new also adds the players it names).

    \b
    Example:
      domino player add "Ana María" --club casino
    """
    with connect() as service:
        added = service.clubs.create_player(club_slug, name)
    click.echo(f"added {added['name']} to {club_slug}")


@player.command("list")
@club_option
@json_option
@csv_option
def player_list(club_slug: str, as_json: bool, as_csv: bool) -> None:
    """List a club's players, by name (all of them).

    --json and --csv print one row per player: id, name, created_at.

    \b
    Example:
      domino player list --club casino
      domino player list --club casino --csv > players.csv
    """
    how = output_format(as_json, as_csv)
    with connect() as service:
        found = _all_players(service, club_slug)
    rows = [{c: p[c] for c in PLAYER_COLUMNS} for p in found]
    if how == "json":
        echo_json(rows)
        return
    if how == "csv":
        echo_csv(rows, PLAYER_COLUMNS)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{club_slug}: {len(found)} players", title_justify="left")
    table.add_column("id", justify="right")
    table.add_column("name")
    table.add_column("since")
    for p in found:
        table.add_row(str(p["id"]), p["name"], p["created_at"][:10])
    Console().print(table)


def _all_players(service: Service, club_slug: str) -> list[dict[str, Any]]:
    """Every player, page by page (the service pages its lists)."""
    found: list[dict[str, Any]] = []
    while True:
        page, total = service.clubs.list_players(club_slug, limit=500, offset=len(found))
        found += page
        if not page or len(found) >= total:
            return found


@click.group()
def token() -> None:
    """Bearer tokens for the HTTP API.

    \b
    Example:
      domino token create --club casino --role referee
      domino token list --club casino
      domino token revoke --club casino 3
    """


@token.command("create")
@club_option
@click.option("--role", required=True, type=click.Choice(ROLES),
              help="admin: players, tokens; referee: rulings, sees all hands; "
                   "scorekeeper: records play; viewer: reads.")
@click.option("--label", type=NAME, default=None,
              help="Who or what holds it (kept with every event it records).")
def token_create(club_slug: str, role: str, label: str | None) -> None:
    """Issue a token and print it. It is shown this once: only its hash is stored.

    \b
    Example:
      domino token create --club casino --role scorekeeper --label "table 3"
    """
    with connect() as service:
        secret = service.tokens.create_token(club_slug, role, label=label)
    click.echo(secret)


@token.command("list")
@club_option
@json_option
@csv_option
def token_list(club_slug: str, as_json: bool, as_csv: bool) -> None:
    """List a club's tokens: label, role, created, last used, revoked.

    All of them, oldest first; never the tokens themselves. The last use is to the minute. --json and --csv print one row per token: id, label, role,
    created_at, last_used_at, revoked_at.

    \b
    Example:
      domino token list --club casino
      domino token list --club casino --json | jq '.[] | select(.revoked_at == null)'
    """
    how = output_format(as_json, as_csv)
    with connect() as service:
        found = _all_tokens(service, club_slug)
    rows = [{c: t[c] for c in TOKEN_COLUMNS} for t in found]
    if how == "json":
        echo_json(rows)
        return
    if how == "csv":
        echo_csv(rows, TOKEN_COLUMNS)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{club_slug}: {len(found)} tokens", title_justify="left")
    table.add_column("id", justify="right")
    for column in ("label", "role", "created", "last used", "revoked"):
        table.add_column(column)
    for t in found:
        table.add_row(str(t["id"]), t["label"] or "", t["role"], _when(t["created_at"]),
                      _when(t["last_used_at"]) or "never", _when(t["revoked_at"]))
    Console().print(table)


@token.command("revoke")
@club_option
@click.argument("token_id", metavar="ID", type=click.IntRange(1, MAX_COUNT))
def token_revoke(club_slug: str, token_id: int) -> None:
    """Revoke a token: it authenticates no more.

    ID is the token's id, as token list shows it. A server running now refuses it within its token cache time (DOMINO_TOKEN_CACHE_SECONDS, 30
    by default). Revoking a revoked token changes nothing.

    \b
    Example:
      domino token revoke --club casino 3
    """
    with connect() as service:
        revoked = service.tokens.revoke_token(club_slug, token_id)
    label = f" ({revoked['label']})" if revoked["label"] else ""
    click.echo(f"revoked token {revoked['id']}{label}, {revoked['role']}, "
               f"at {_when(revoked['revoked_at'])}")


def _all_tokens(service: Service, club_slug: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    while True:
        page, total = service.tokens.list_tokens(club_slug, limit=500, offset=len(found))
        found += page
        if not page or len(found) >= total:
            return found


def _when(iso: str | None) -> str:
    """An ISO time as a table shows it, to the minute, UTC: 2026-05-01 19:30."""
    return "" if iso is None else f"{iso[:10]} {iso[11:16]}"


# ``domino club set``: a club's settings, the standings' tie-breakers (cli/standings.py).
from .standings import club_set  # noqa: E402

club.add_command(club_set)
