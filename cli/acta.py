"""``domino acta``: a finished match's signed score sheet, as its club's transparency log
holds it (signed now if it is due and the club's key can sign: run it where the keys are,
docs/verify.md)."""

from __future__ import annotations

import json

import click

from words import N_, _

from .connection import connect
from .options import match_argument, output_option, write_output


@click.command(help=N_("""\
Print the signed acta (domino-acta/2) of finished match MATCH: players and sides, table,
event, round, start and end, each round's points, the rulings, totals and winner, the chain
head, its leaf in the club's transparency log, and the club's Ed25519 signature. A match
still in play has none yet; a record that fails its chain check gets none (it says why).

\b
Example:
  domino acta 12 -o acta-12.json
  domino verify --acta acta-12.json --key keys.json table12.jsonl"""))
@match_argument
@output_option
def acta(match_id: str, output: str | None) -> None:
    from referee.service import ActaPending

    with connect() as service:
        try:
            signed = service.actas.signed(match_id)
        except ActaPending as error:
            raise click.ClickException(error.reason) from None
    text = json.dumps(signed, ensure_ascii=False, indent=2) + "\n"
    write_output(text, output, _("wrote the acta of match %(match)s (leaf %(leaf)s of club "
                                 "%(club)s's log) to %(path)s", match=match_id,
                                 leaf=signed["leaf_index"], club=signed["club"], path=output))
