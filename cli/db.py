"""``domino db upgrade``, ``domino db rebuild``, ``domino db audit`` and ``domino db catch-up``:
the database's schema, its projections, everything in it checked again (docs/verify.md), and
the jobs that bring the ratings and the actas up to date (``referee.service.jobs``)."""

from __future__ import annotations

import click

from words import N_, _, ngettext, say

from .connection import connect

_URL_OPTION = click.option(
    "--database-url", envvar="DOMINO_DATABASE_URL", default=None,
    help=N_("Default: DOMINO_DATABASE_URL, else the SQLite file domino.db "
            "(in DOMINO_DATA_DIR if set, else the current directory)."))


@click.group(help=N_("""\
The database: schema migrations, projections, and an audit of what it holds.

\b
Example:
  domino db upgrade
  domino db rebuild
  domino db audit
  domino db seal
  domino db catch-up"""))
def db() -> None:
    pass


@db.command("upgrade", help=N_("""\
Create or migrate the tables to the latest revision (safe to run again).

In the same transaction it fills the standings and ratings of finished matches that have
none (a database upgraded past the revision that created them empty).

\b
Example:
  DOMINO_DATABASE_URL=postgresql+psycopg://domino@db/domino domino db upgrade"""))
@_URL_OPTION
def upgrade(**kwargs: str | None) -> None:
    from referee.service import database_url, safe_url

    url = database_url(kwargs.get("database_url"))
    with connect(url, upgrading=True) as service:
        from migrations.runner import upgrade as upgrade_schema
        from referee.service.maintenance import fill_standings

        filled = upgrade_schema(service.engine, then=fill_standings)
    click.echo(_("database at the latest revision: %(url)s", url=safe_url(url)))
    if filled:
        click.echo(ngettext("standings and ratings filled from %(num)s finished match",
                            "standings and ratings filled from %(num)s finished matches", filled))


@db.command("rebuild", help=N_("""\
Recompute every match's summary (status, round, totals, winner) from its events.

Every record is checked against its chain first: one that fails (a digest that does not
follow, an event missing, a header that does not name its club) stops the rebuild, saying
which, unless --force.

\b
Example:
  domino db rebuild"""))
@_URL_OPTION
@click.option("--force", is_flag=True,
              help=N_("Rebuild even from a record that fails its chain check (scoring it as it now "
                      "stands); without it such a record stops the rebuild before anything changes."))
def rebuild(force: bool, **kwargs: str | None) -> None:
    from referee.service import database_url, safe_url

    url = database_url(kwargs.get("database_url"))
    with connect(url) as service:
        count = service.rebuild(force=force)
    click.echo(ngettext("rebuilt %(num)s match: %(url)s", "rebuilt %(num)s matches: %(url)s",
                        count, url=safe_url(url)))


@db.command("audit", help=N_("""\
Check everything again: the append-only triggers, every match's chain, digests and
projection, every acta signed against its record, every club's tree, leaves and heads
against their signatures, each club's key file, and the standings and ratings against
what the records give (nothing is written). Prints each problem with its club, match and
event, or its table and row, and what no acta is signed for yet. Exit status 1 on any
problem.

\b
Example:
  domino db audit"""))
@_URL_OPTION
@click.option("--json", "as_json", is_flag=True, help=N_("Print the findings as one JSON object."))
def audit(as_json: bool, **kwargs: str | None) -> None:
    import json

    from referee.service import database_url

    with connect(database_url(kwargs.get("database_url"))) as service:
        found = service.audit.run()
    if as_json:
        click.echo(json.dumps(found.as_dict()))
    else:
        for problem in found.problems:
            click.echo(click.style(f"PROBLEM {say(problem.line())}", fg="red"))
        outcome = (ngettext("%(num)s problem", "%(num)s problems", len(found.problems))
                   if found.problems else _("no problem"))
        click.echo(_("%(matches)s matches (%(events)s events), %(leaves)s signed actas, "
                     "%(heads)s tree heads checked: %(outcome)s", matches=found.matches,
                     events=found.events, leaves=found.leaves, heads=found.heads,
                     outcome=outcome))
    if found.problems:
        raise SystemExit(1)


@db.command("seal", help=N_("""\
MAC, once, the rows written before row MACs (events, matches, seats, players, renames and
merges, clubs), with the server's row key kept beside the signing keys: until then the service refuses to read them. Run it right
after the upgrade that brought the MACs, after domino db audit: it takes the rows as they
stand for the service's own. A record that fails its chain check is left unsealed and named.
A second seal is refused unless --again (rows without a MAC after the first were written
behind the service's back).

\b
Example:
  domino db upgrade && domino db audit && domino db seal"""))
@_URL_OPTION
@click.option("--again", is_flag=True,
              help=N_("Seal again after a first seal: only for rows you know the origin of."))
def seal(again: bool, **kwargs: str | None) -> None:
    from referee.service import database_url

    with connect(database_url(kwargs.get("database_url"))) as service:
        done = service.seal.run(again=again)
    click.echo(ngettext("sealed %(num)s row", "sealed %(num)s rows", done.rows) + " " + ngettext(
        "(%(num)s match)", "(%(num)s matches)", len(done.matches)))
    for match_id, why in done.refused:
        click.echo(click.style(say(_("match %(match)s not sealed: %(problem)s", match=match_id,
                                     problem=why)), fg="red"), err=True)
    if done.refused:
        raise SystemExit(1)


@db.command("catch-up", help=N_("""\
Bring the ratings up to date and sign the actas that wait: what the server does at start and
every minute. A ruling on an old match re-rates its club after it is stored, and a finished
match's acta is signed then; a process stopped before that leaves it to this. Exit status 1
when an acta still cannot be signed (its club's key: see domino key sign-due).

\b
Example:
  domino db catch-up"""))
@_URL_OPTION
def catch_up(**kwargs: str | None) -> None:
    from referee.service import database_url

    with connect(database_url(kwargs.get("database_url"))) as service:
        done = service.jobs.run_due()
    click.echo(_("%(rated)s, %(signed)s", rated=ngettext(
        "%(num)s match rated", "%(num)s matches rated", done.rated), signed=ngettext(
        "%(num)s acta signed", "%(num)s actas signed", len(done.signed))))
    for line in done.failed:  # an acta whose club's key cannot sign: domino key says why
        click.echo(f"  {line}", err=True)
    if done.failed:
        raise SystemExit(1)
