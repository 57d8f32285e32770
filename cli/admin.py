"""``domino club create`` and ``domino token create``: setting a club up for the HTTP API."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import click

from referee.service import ROLES, Service, ServiceError, open_service


@contextmanager
def _service() -> Iterator[Service]:
    """The configured database's service; service errors become a one-line CLI error."""
    try:
        with open_service() as service:
            yield service
    except ServiceError as error:
        raise click.ClickException(error.message) from None


@click.group()
def club() -> None:
    """Clubs."""


@club.command("create")
@click.argument("slug")
@click.option("--name", required=True, help="The club's name, as people write it.")
def club_create(slug: str, name: str) -> None:
    """Create a club. SLUG names it in URLs (lowercase letters, digits, dashes).

    \b
    Example:
      domino club create casino --name "Casino Domino Club"
    """
    with _service() as service:
        created = service.create_club(slug, name)
    click.echo(f"created club {created['slug']} ({created['name']})")


@click.group()
def token() -> None:
    """Bearer tokens for the HTTP API."""


@token.command("create")
@click.option("--club", "club_slug", required=True, help="The club the token belongs to.")
@click.option("--role", required=True, type=click.Choice(ROLES),
              help="admin: players, tokens; referee: rulings, sees all hands; "
                   "scorekeeper: records play; viewer: reads.")
@click.option("--label", default=None, help="Who or what holds it (kept with every event it records).")
def token_create(club_slug: str, role: str, label: str | None) -> None:
    """Issue a token and print it. It is shown this once: only its hash is stored.

    \b
    Example:
      domino token create --club casino --role scorekeeper --label "table 3"
    """
    with _service() as service:
        secret = service.create_token(club_slug, role, label=label)
    click.echo(secret)
