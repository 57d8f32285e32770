"""``domino key``: each club's signing keys, made on purpose, listed, rotated and retired, and
the actas that wait for one signed (docs/verify.md). The private keys are files in the keys
folder (DOMINO_KEYS_DIR, else domino-keys in DOMINO_DATA_DIR or here): run these where they
are."""

from __future__ import annotations

import json
from typing import Any

import click

from words import N_, _, message

from .connection import connect
from .listing import echo_rows, output_format
from .options import csv_option

COLUMNS = ("key_id", "status", "valid_from", "valid_until", "retired_at", "retired_reason",
           "adopted", "public_key")
CLUB = click.option("--club", required=True, metavar="CLUB", help=N_("The club's slug."))

TEXT = {
    "made": N_("club %(club)s: signing key %(key_id)s, its private key at %(path)s: back the keys "
               "folder up (docs/verify.md)"),
    "adopted": N_("club %(club)s: adopted the server's key %(key_id)s (it signed every domino-acta/1), "
                  "its private key copied to %(path)s; domino key rotate --club %(club)s gives the club "
                  "a key of its own"),
    "rotated": N_("club %(club)s: %(key_id)s signs from now on, its private key at %(path)s; the keys "
                  "before it stay valid for what they signed: back the keys folder up"),
    "retired": N_("club %(club)s: key %(key_id)s retired (%(reason)s)"),
    "none_left": N_("club %(club)s has no signing key now: its actas wait until domino key rotate "
                    "--club %(club)s"),
    "signed": N_("signed %(count)s acta(s): %(which)s"),
    "nothing": N_("no acta is due"),
    "failed": N_("%(count)s acta(s) not signed:"),
}


def sentence(key: str, **params: object) -> str:
    """TEXT[key] in the language of the moment, its placeholders filled."""
    return _(TEXT[key], **params)


@click.group(help=N_("""\
Club signing keys: init, list, rotate, retire; and sign-due, the actas that wait.

\b
Example:
  domino key init --club casino
  domino key list --club casino --json > keys.json
  domino key rotate --club casino
  domino key sign-due"""))
def key() -> None:
    pass


def _failing(action: Any) -> Any:
    from referee.service import SigningKeyError

    try:
        return action()
    except SigningKeyError as error:
        raise click.ClickException(message(error)) from None  # in the reader's language


@key.command("init", help=N_("""\
Make the club's first signing key (or adopt the server's old one). The club's tree head
is signed with it, and from then on every finished match's acta.

\b
Example:
  domino key init --club casino
  domino key init --club casino --adopt"""))
@CLUB
@click.option("--adopt", "adopt", is_flag=True,
              help=N_("Take over the server's key of before club keys (DOMINO_SIGNING_KEY, else "
                      "domino-signing-key.pem in DOMINO_DATA_DIR), so that the actas it signed "
                      "verify against the club's keys."))
@click.option("--adopt-from", "adopt_from", metavar="PEM", default=None,
              help=N_("As --adopt, from this file."))
def key_init(club: str, adopt: bool, adopt_from: str | None) -> None:
    with connect() as service:
        made = _failing(lambda: service.keys.init(club, adopt=adopt_from or adopt))
        path = service.keys.ring.path(club, made["key_id"])
    click.echo(sentence("adopted" if made["adopted"] else "made", club=club,
                        key_id=made["key_id"], path=path))


@key.command("rotate", help=N_("""\
Give the club a new signing key: the one before stops signing (what it signed stays
valid, its listing says until when).

\b
Example:
  domino key rotate --club casino"""))
@CLUB
def key_rotate(club: str) -> None:
    with connect() as service:
        made = _failing(lambda: service.keys.rotate(club))
        path = service.keys.ring.path(club, made["key_id"])
    click.echo(sentence("rotated", club=club, key_id=made["key_id"], path=path))


@key.command("retire", help=N_("""\
Retire key KEY_ID of the club: it signs nothing more, and its listing says since when
and why. Retiring the key that signs leaves the club with none until domino key rotate.

\b
Example:
  domino key retire --club casino ed25519:1a2b3c4d5e6f7a8b --reason "laptop lost\""""))
@CLUB
@click.argument("key_id", metavar="KEY_ID")
@click.option("--reason", required=True, help=N_("Why: lost, exposed, done with..."))
def key_retire(club: str, key_id: str, reason: str) -> None:
    with connect() as service:
        retired = service.keys.retire(club, key_id, reason)
        left = [k for k in service.keys.listing(club)["keys"] if k["status"] == "signing"]
    click.echo(sentence("retired", club=club, key_id=retired["key_id"], reason=reason))
    if not left:
        click.echo(sentence("none_left", club=club))


@key.command("list", help=N_("""\
List the club's keys with their validity, oldest first.

\b
Example:
  domino key list --club casino
  domino key list --club casino --json > keys.json"""))
@CLUB
@click.option("--json", "as_json", is_flag=True,
              help=N_("Print the listing as GET /api/v1/clubs/CLUB/keys gives it (what domino "
                      "verify --key reads)."))
@csv_option
def key_list(club: str, as_json: bool, as_csv: bool) -> None:
    how = output_format(as_json, as_csv)
    with connect() as service:
        listing = service.keys.listing(club)
    if how == "json":
        click.echo(json.dumps(listing))  # the listing itself, as verify --key reads it
        return
    if echo_rows(how, listing["keys"], COLUMNS):
        return
    for k in listing["keys"]:
        until = k["valid_until"] or _("now")
        retired = (_(", retired %(when)s: %(why)s", when=k["retired_at"], why=k["retired_reason"])
                   if k["retired_at"] else "")
        # the status is a code (the listing's JSON says it too): padded, not translated
        click.echo(_("%(key)s  %(status)s from %(since)s until %(until)s%(retired)s",
                     key=k["key_id"], status=k["status"].ljust(8), since=k["valid_from"],
                     until=until, retired=retired))


@key.command("sign-due", help=N_("""\
Sign every acta that waits for its club's key: a match finished, or changed by a
ruling, while the key could not sign. Exit status 1 when one still cannot be signed.

\b
Example:
  domino key sign-due"""))
@click.option("--club", default=None, metavar="CLUB", help=N_("Only this club's (default: every club's)."))
def sign_due(club: str | None) -> None:
    with connect() as service:
        signed, failed = service.transparency.sign_due(club)
    which = ", ".join(_("match %(match)s (leaf %(leaf)s)", match=m, leaf=i) for m, i in signed)
    click.echo(sentence("signed", count=len(signed), which=which) if signed
               else sentence("nothing") if not failed else "")
    if failed:
        click.echo(sentence("failed", count=len(failed)), err=True)
        for line in failed:
            click.echo(f"  {line}", err=True)
        raise SystemExit(1)
