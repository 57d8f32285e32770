"""The configured database's service for a command, with its errors turned into CLI errors.

Every command that touches the database opens it through :func:`connect`, so that a user's
mistake (an unknown match, an illegal event, a database never upgraded) ends in one clear line
and a non-zero exit, never a traceback. The service (and SQLAlchemy with it) is imported when a
command connects, not when its module is: ``domino --help`` and the log commands never load it.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator

import click

from words import N_, _, message
from words.terms import term

if TYPE_CHECKING:
    from referee.service import DatabaseError, IllegalEvent, Service

UPGRADE_HINT = N_("the database is not upgraded to this version of domino: run `domino db upgrade`")


@contextmanager
def connect(url: str | None = None, *, upgrading: bool = False) -> Iterator[Service]:
    """The service over ``url`` (default: DOMINO_DATABASE_URL or the embedded SQLite file).
    ``upgrading``: the command is the upgrade, so a failure is never "run domino db upgrade"."""
    from referee.service import (
        DatabaseError,
        IllegalEvent,
        RowKeyError,
        ServiceError,
        open_service,
    )

    try:
        with open_service(url) as service:
            try:
                yield service
            except DatabaseError as error:
                said = (_("database error: %(cause)s", cause=database_cause(error)) if upgrading
                        else database_problem(service, error))
                raise click.ClickException(said) from None
    except IllegalEvent as error:
        raise click.ClickException(refusal(error)) from None
    except (ServiceError, RowKeyError) as error:  # RowKeyError: the server's row key file
        raise click.ClickException(message(error)) from None
    except DatabaseError as error:  # connecting failed
        raise click.ClickException(_("database error: %(cause)s", cause=database_cause(error))) from None


def refusal(error: IllegalEvent) -> str:
    v = error.violation
    return _("refused (%(code)s): %(why)s", code=term("violation", v.code), why=v.message)


def database_problem(service: Service, error: DatabaseError) -> str:
    """What to tell the user about a database error: most often the schema is missing or
    behind (a new install, or a new version of domino), which `domino db upgrade` fixes."""
    from referee.service import DatabaseError

    try:
        from migrations.runner import is_current

        behind = not is_current(service.engine)
    except DatabaseError:
        behind = False
    return _(UPGRADE_HINT) if behind else _("database error: %(cause)s", cause=database_cause(error))


def database_cause(error: DatabaseError) -> object:
    """What the driver said, in the reader's language (words.oserrors: SQLite's result code,
    PostgreSQL's SQLSTATE or libpq's failed connection), never the driver's English."""
    import sys

    cause = getattr(error, "orig", None) or error
    psycopg = sys.modules.get("psycopg")  # loaded when PostgreSQL failed, not by SQLite
    if psycopg is not None and isinstance(cause, psycopg.Error):
        from words.pgerrors import reason as postgresql_reason

        return postgresql_reason(cause)
    import sqlite3

    if isinstance(cause, sqlite3.Error):
        from words.oserrors import reason

        return reason(cause)
    return cause
