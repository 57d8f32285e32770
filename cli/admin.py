"""Setting a club up: ``domino club create/show``, ``domino player add/list/show/rename/merge``,
``domino token issue/list/revoke``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from referee.core.vocab import ROLES
from words import N_, _, message, ngettext
from words.collation import by_name
from words.terms import term

from .connection import connect
from .listing import all_pages, echo_json, echo_rows, output_format, wide_option
from .options import MAX_COUNT, NAME, Whole, club_option, csv_option, json_option

# The service is imported when a command runs (it connects), not with this module: --help
# loads no service nor SQLAlchemy.
if TYPE_CHECKING:
    from referee.service import Service

PLAYER_COLUMNS = ("id", "name", "created_at")
TOKEN_COLUMNS = ("id", "label", "role", "created_at", "last_used_at", "revoked_at", "issued_by")


@click.group(help=N_("""\
Clubs: create one, show one, change its settings.

\b
Example:
  domino club create casino "Casino Domino Club"
  domino club show casino
  domino club set casino --language es"""))
def club() -> None:
    pass


# Where `domino serve` answers by default: the desk's address `club create` prints, unless
# --site (DOMINO_SITE_URL) names the server's own.
DEFAULT_SITE = "http://127.0.0.1:8000"


@club.command("create", help=N_("""\
Create a club, its first admin token and its signing key (docs/verify.md).

SLUG names it in URLs (lowercase letters, digits, dashes); NAME is its name as people
write it (or --name). Prints the token, shown this once (only its hash is kept), and the
club desk's address, where the secretary signs in with it.

\b
Example:
  domino club create casino "Casino Domino Club"
  domino club create casino --name "Casino Domino Club" --site https://domino.example"""))
@click.argument("slug")
@click.argument("name", type=NAME, required=False)
@click.option("--name", "name_option", type=NAME, default=None,
              help=N_("The club's name, as people write it (instead of NAME)."))
@click.option("--site", envvar="DOMINO_SITE_URL", default=DEFAULT_SITE, show_default=True,
              help=N_("The server's address, for the desk's address printed (default: "
                      "DOMINO_SITE_URL, else domino serve's)."))
@click.option("--json", "as_json", is_flag=True,
              help=N_("Print JSON: slug, name, admin_token, desk, signing_key."))
def club_create(slug: str, name: str | None, name_option: str | None, site: str,
                as_json: bool) -> None:
    from referee.service import SigningKeyError

    if name and name_option and name != name_option:
        raise click.UsageError(_("give the club's name once: NAME or --name"))
    name = name or name_option
    if not name:
        raise click.UsageError(_("give the club's name: domino club create SLUG NAME"))
    with connect() as service:
        created = service.clubs.create_club(slug, name, admin_token=True)
        club_slug = created["slug"]
        desk = site.rstrip("/") + f"/clubs/{club_slug}/desk"
        if not as_json:
            click.echo(_("created club %(slug)s (%(name)s)", slug=club_slug, name=created["name"]))
            click.echo(_("first admin token (the secretary's; shown this once, only its hash "
                         "is kept): %(token)s", token=created["admin_token"]))
            click.echo(_("the club desk: %(desk)s (sign in there with the token)", desk=desk))
        try:
            made = service.keys.init(club_slug)
        except SigningKeyError as error:
            if as_json:
                echo_json({"slug": club_slug, "name": created["name"],
                           "admin_token": created["admin_token"], "desk": desk,
                           "signing_key": None})
            raise click.ClickException(_("%(why)s; then domino key init --club %(club)s",
                                         why=message(error), club=club_slug)) from None
        path = service.keys.ring.path(club_slug, made["key_id"])
    if as_json:
        echo_json({"slug": club_slug, "name": created["name"],
                   "admin_token": created["admin_token"], "desk": desk,
                   "signing_key": made["key_id"]})
        return
    click.echo(_("signing key %(key)s, its private key at %(path)s: back the keys folder up "
                 "(docs/verify.md)", key=made["key_id"], path=path))


@club.command("show", help=N_("""\
Show a club: its name, when it was created, its language and time zone, how many players
and matches it has.

\b
Example:
  domino club show casino"""))
@click.argument("slug")
def club_show(slug: str) -> None:
    with connect() as service:
        found = service.clubs.get_club(slug)
        _page, players = service.players.list(slug, limit=1)
        _page, matches = service.reading.list_matches(slug, limit=1)
        _page, finished = service.reading.list_matches(slug, status="finished", limit=1)
    language = found.get("language") or _("none (each reader's browser decides)")
    click.echo(f"{found['slug']}: {found['name']}\n"
               + _("created %(when)s", when=found["created_at"]) + "\n"
               + _("language of its pages: %(language)s", language=language) + "\n"
               + _("time zone: %(zone)s", zone=found.get("timezone") or _("UTC (none set)")) + "\n"
               + ngettext("%(num)s player", "%(num)s players", players) + ", "
               + ngettext("%(num)s match (%(finished)s finished)",
                          "%(num)s matches (%(finished)s finished)", matches, finished=finished))


@click.group(help=N_("""\
A club's players: add, list. Show one with its history; rename and merge (recorded).

Names are matched case-insensitively, spaces trimmed and collapsed: "ana" is Ana. PLAYER
is a player's id (digits, as player list shows it) or a name it answers to.

\b
Example:
  domino player add Ana --club casino
  domino player list --club casino
  domino player show Ana --club casino
  domino player rename 3 "Ana Pérez" --club casino --reason "her full name"
  domino player merge "ana p" "Ana Pérez" --club casino --reason "one person\""""))
def player() -> None:
    pass


player_argument = click.argument("player_ref", metavar="PLAYER", type=NAME)
new_option = click.option("--new", "confirm_new", is_flag=True,
                          help=N_("The name is someone new, though close to a player's "
                                  "(refused without it: \"did you mean ...?\")."))
reason_option = click.option("--reason", required=True,
                             help=N_("Why: the player's history keeps it."))
one_json_option = click.option("--json", "as_json", is_flag=True, help=N_("Print the player as JSON."))


def _player_ref(text: str) -> int | str:
    """A PLAYER argument: digits are an id, anything else a name."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 10 else text


@player.command("add", help=N_("""\
Add a player to a club (match new also adds the players it names).

The name is normalised (spaces trimmed and collapsed) and matched case-insensitively: a
name that is a player's already is refused, and so is a name close to one ("did you mean
Ana Pérez?") unless --new says it is someone new.

\b
Example:
  domino player add "Ana María" --club casino
  domino player add "Ana Perez" --club casino --new"""))
@click.argument("name", type=NAME)
@club_option
@new_option
@one_json_option
def player_add(name: str, club_slug: str, confirm_new: bool, as_json: bool) -> None:
    from referee.service import Unconfirmed

    with connect() as service:
        try:
            added = service.players.create(club_slug, name, confirm_new=confirm_new)
        except Unconfirmed as error:
            raise click.ClickException(_("%(why)s: add --new", why=message(error))) from None
    if as_json:
        echo_json(added)
        return
    click.echo(_("added %(name)s to %(club)s (id %(id)s)", name=added["name"], club=club_slug,
                 id=added["id"]))


@player.command("show", help=N_("""\
Show a player: its name, id, matches, aliases, and its history of renames and merges.

\b
Example:
  domino player show ana --club casino
  domino player show 3 --club casino --json"""))
@player_argument
@club_option
@one_json_option
def player_show(player_ref: str, club_slug: str, as_json: bool) -> None:
    with connect() as service:
        found = service.players.get(club_slug, _player_ref(player_ref))
    if as_json:
        echo_json(found)
        return
    _echo_player(found)


@player.command("rename", help=N_("""\
Rename a player; its history records the old name, the new one and the reason.

Matches keep the names they were recorded with; standings show the new one. A name that is
another player's is refused: merge the two instead.

\b
Example:
  domino player rename "Ana Perez" "Ana Pérez" --club casino --reason "spelling\""""))
@player_argument
@click.argument("new_name", metavar="NEW_NAME", type=NAME)
@club_option
@reason_option
@one_json_option
def player_rename(player_ref: str, new_name: str, club_slug: str, reason: str,
                  as_json: bool) -> None:
    with connect() as service:
        before = service.players.get(club_slug, _player_ref(player_ref))
        renamed = service.players.rename(club_slug, before["id"], new_name, reason)
    if as_json:
        echo_json(renamed)
        return
    if renamed["name"] == before["name"]:
        click.echo(_("%(name)s (id %(id)s) has that name already: nothing changed",
                     name=renamed["name"], id=renamed["id"]))
        return
    click.echo(_("renamed %(old)s (id %(id)s) to %(new)s", old=before["name"], id=renamed["id"],
                 new=renamed["name"]))


@player.command("merge", help=N_("""\
Merge PLAYER into INTO: one person recorded under two names.

Every match PLAYER sat in moves to INTO (standings and match lists count them as one), and
PLAYER's name finds INTO from then on, and PLAYER's tournament entries become INTO's; both
histories record it, with the reason. Two players who sat in one match, or who are both
entered in one tournament, are two people: refused.

\b
Example:
  domino player merge "ana p" "Ana Pérez" --club casino --reason "one person\""""))
@player_argument
@click.argument("into_ref", metavar="INTO", type=NAME)
@club_option
@reason_option
@one_json_option
def player_merge(player_ref: str, into_ref: str, club_slug: str, reason: str,
                 as_json: bool) -> None:
    with connect() as service:
        source = service.players.get(club_slug, _player_ref(player_ref))
        merged = service.players.merge(club_slug, source["id"], _player_ref(into_ref), reason)
    if as_json:
        echo_json(merged)
        return
    moved = merged["history"][-1]["moved"] or []
    click.echo(ngettext("merged %(old)s (id %(old_id)s) into %(new)s (id %(new_id)s): %(num)s "
                        "match moved",
                        "merged %(old)s (id %(old_id)s) into %(new)s (id %(new_id)s): %(num)s "
                        "matches moved", len(moved), old=source["name"], old_id=source["id"],
                        new=merged["name"], new_id=merged["id"]))


def _echo_player(found: dict[str, Any]) -> None:
    click.echo(_("%(name)s (id %(id)s), since %(when)s", name=found["name"], id=found["id"],
                 when=_when(found["created_at"])))
    if found["merged_into"] is not None:
        click.echo(_("merged into player %(id)s: its name finds that player",
                     id=found["merged_into"]))
    else:
        click.echo(ngettext("%(num)s match", "%(num)s matches", found["matches"]))
    if found["aliases"]:
        click.echo(_("also known as: %(names)s", names=", ".join(
            _("%(name)s (id %(id)s)", name=a["name"], id=a["id"]) for a in found["aliases"])))
    if not found["history"]:
        click.echo(_("no renames or merges"))
        return
    click.echo(_("history:"))
    for event in found["history"]:
        if event["kind"] == "rename":
            what = _("renamed %(old)s to %(new)s", old=event["old_name"], new=event["new_name"])
        else:
            moved = event["moved"] or []
            what = ngettext("merged %(old)s (id %(old_id)s) into %(new)s (id %(new_id)s), %(num)s "
                            "match moved",
                            "merged %(old)s (id %(old_id)s) into %(new)s (id %(new_id)s), %(num)s "
                            "matches moved", len(moved), old=event["old_name"],
                            old_id=event["player"], new=event["new_name"], new_id=event["into"])
        by = " " + _("by %(who)s", who=event["recorded_by"]) if event["recorded_by"] else ""
        click.echo(f"  {_when(event['recorded_at'])}  {what}{by}: {event['reason']}")


@player.command("list", help=N_("""\
List a club's players, by name (all of them).

--json and --csv print one row per player: id, name, created_at.

\b
Example:
  domino player list --club casino
  domino player list --club casino --csv > players.csv"""))
@club_option
@json_option
@csv_option
def player_list(club_slug: str, as_json: bool, as_csv: bool) -> None:
    how = output_format(as_json, as_csv)
    with connect() as service:
        found = _all_players(service, club_slug)
    if echo_rows(how, [{c: p[c] for c in PLAYER_COLUMNS} for p in found], PLAYER_COLUMNS):
        return
    from .listing import Col, print_table

    columns = [Col(_("id"), right=True), Col(_("name"), wrap=True, least=20), Col(_("since"))]
    cells = [[str(p["id"]), p["name"], p["created_at"][:10]]
             for p in by_name(found, lambda p: p["name"])]  # as the language sorts names
    print_table(ngettext("%(club)s: %(num)s player", "%(club)s: %(num)s players", len(found),
                         club=club_slug), columns, cells)


def _all_players(service: Service, club_slug: str) -> list[dict[str, Any]]:
    return all_pages(lambda limit, offset: service.players.list(club_slug, limit=limit,
                                                               offset=offset))


@click.group(help=N_("""\
Bearer tokens for the HTTP API.

\b
Example:
  domino token issue --club casino --role referee --label "head referee"
  domino token list --club casino
  domino token revoke --club casino 3"""))
def token() -> None:
    pass


@token.command("issue", help=N_("""\
Issue a token and print it. It is shown this once: only its hash is stored.

The token alone is printed on standard output (for a script); token list shows its label,
role and last use from then on. (token create is the same command, its old name.)

\b
Example:
  domino token issue --club casino --role scorekeeper --label "table 3\""""))
@club_option
@click.option("--role", required=True, type=click.Choice(ROLES),
              help=N_("admin: players, tokens; referee: rulings, sees all hands; "
                      "scorekeeper: records play; viewer: reads."))
@click.option("--label", type=NAME, default=None,
              help=N_("Who or what holds it (kept with every event it records)."))
def token_create(club_slug: str, role: str, label: str | None) -> None:
    with connect() as service:
        secret = service.tokens.create_token(club_slug, role, label=label)
    click.echo(secret)


# The command's old name, kept for the scripts that call it; not listed.
token.add_command(click.Command("create", params=token_create.params, callback=token_create.callback,
                                help=token_create.help, hidden=True))


@token.command("list", help=N_("""\
List a club's tokens: label, role, created, last used, revoked, issued by.

All of them, oldest first; never the tokens themselves. The last use is to the minute.
"issued by" is the id of the token that issued it over the API (empty: issued here, or
by the server admin token). --json and --csv print one row per token: id, label, role,
created_at, last_used_at, revoked_at, issued_by. In 80 columns "issued by", then
"created", then "revoked" are left out as needed; --wide shows every column.

\b
Example:
  domino token list --club casino
  domino token list --club casino --json | jq '.[] | select(.revoked_at == null)'"""))
@club_option
@json_option
@csv_option
@wide_option
def token_list(club_slug: str, as_json: bool, as_csv: bool, wide: bool) -> None:
    how = output_format(as_json, as_csv)
    with connect() as service:
        found = _all_tokens(service, club_slug)
    if echo_rows(how, [{c: t[c] for c in TOKEN_COLUMNS} for t in found], TOKEN_COLUMNS):
        return
    from .listing import Col, print_table

    # In 80 columns who issued it goes first, then when it was created: the label, the role,
    # the last use and the revocation are what the desk asks.
    columns = [Col(_("id"), right=True), Col(_("label"), wrap=True), Col(_("role")),
               Col(_("created"), drop=2), Col(_("last used")), Col(_("revoked"), drop=1),
               Col(_("issued by"), right=True, drop=3)]
    cells = [[str(t["id"]), t["label"] or "", term("role", t["role"]), _when(t["created_at"]),
              _when(t["last_used_at"]) or _("never"), _when(t["revoked_at"]),
              "" if t["issued_by"] is None else str(t["issued_by"])] for t in found]
    print_table(ngettext("%(club)s: %(num)s token", "%(club)s: %(num)s tokens", len(found),
                         club=club_slug), columns, cells, wide=wide)


@token.command("revoke", help=N_("""\
Revoke a token: it authenticates no more.

ID is the token's id, as token list shows it. A server running now refuses it from its
next request on, on every worker. --with-issued also revokes the tokens it issued over
the API (token list's "issued by"), theirs, and so on: what a stolen admin token made.
Revoking a revoked token changes nothing.

\b
Example:
  domino token revoke --club casino 3
  domino token revoke --club casino 3 --with-issued"""))
@club_option
@click.argument("token_id", metavar="ID", type=Whole(1, MAX_COUNT))
@click.option("--with-issued", is_flag=True,
              help=N_("Revoke the tokens it issued too, and theirs, and so on."))
def token_revoke(club_slug: str, token_id: int, with_issued: bool) -> None:
    with connect() as service:
        revoked = service.tokens.revoke_token(club_slug, token_id, cascade=with_issued)
    label = f" ({revoked['label']})" if revoked["label"] else ""
    click.echo(_("revoked token %(id)s%(label)s, %(role)s, at %(when)s", id=revoked["id"],
                 label=label, role=term("role", revoked["role"]), when=_when(revoked["revoked_at"])))
    if revoked["revoked_with"]:
        click.echo(_("and the tokens it issued: %(ids)s",
                     ids=", ".join(map(str, revoked["revoked_with"]))))


def _all_tokens(service: Service, club_slug: str) -> list[dict[str, Any]]:
    return all_pages(lambda limit, offset: service.tokens.list_tokens(club_slug, limit=limit,
                                                                     offset=offset))


def _when(iso: str | None) -> str:
    """An ISO time as a table shows it, to the minute, UTC: 2026-05-01 19:30."""
    return "" if iso is None else f"{iso[:10]} {iso[11:16]}"


# ``domino club set``: a club's settings, the standings' tie-breakers (cli/standings.py).
from .standings import club_set  # noqa: E402

club.add_command(club_set)
