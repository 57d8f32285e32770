"""``domino acta`` and ``domino signing-key``: a finished match's signed score sheet, and the
server's public key to check it with (docs/verify.md). Both read the server's key file
(DOMINO_SIGNING_KEY, else domino-signing-key.pem in DOMINO_DATA_DIR or here): run them where
the server runs."""

from __future__ import annotations

import json

import click

from .connection import connect
from .options import match_argument, output_option, write_output


@click.command()
@match_argument
@output_option
def acta(match_id: str, output: str | None) -> None:
    """Print the signed acta (domino-acta/1) of finished match MATCH: players and sides, table,
    event, round, start and end, each round's points, the rulings, totals and winner, the chain
    head, and the server's Ed25519 signature. A match still in play has none yet.

    \b
    Example:
      domino acta 12 -o acta-12.json
      domino verify --acta acta-12.json --key signing-key.json table12.jsonl
    """
    from referee.service import SigningKeyError

    with connect() as service:
        try:
            text = json.dumps(service.actas.acta(match_id), ensure_ascii=False, indent=2) + "\n"
        except SigningKeyError as error:
            raise click.ClickException(error.message) from None
    write_output(text, output, f"wrote the acta of match {match_id} to {output}")


@click.command("signing-key")
@click.option("--pem", is_flag=True, help="Print only the PEM (SubjectPublicKeyInfo).")
def signing_key(pem: bool) -> None:
    """Print the server's public signing key, as GET /api/v1/signing-key gives it (JSON: the
    algorithm, the key id, the 32-byte key in base64 and its PEM); made on first use. Give it to
    domino verify --key.

    \b
    Example:
      domino signing-key > signing-key.json
    """
    from referee.service import Signer, SigningKeyError

    try:
        published = Signer().published()
    except SigningKeyError as error:  # the key file cannot be read or made
        raise click.ClickException(error.message) from None
    click.echo(published["pem"].rstrip("\n") if pem else json.dumps(published))
