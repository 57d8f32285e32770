"""The ``domino`` command. Each command module holds a few click commands; this file names them,
and a command's module is imported only when that command runs (:class:`cli.lazy.LazyGroup`),
so that ``domino --help``, ``domino validate`` and ``domino show LOG`` never load the service,
SQLAlchemy, flask or alembic. The console script (:mod:`cli.entry`) runs a plain ``validate``
or ``show LOG`` without click at all, and hands every other command line to this group."""

from __future__ import annotations

from typing import Any

import click

from words import N_

from .argv import utf8
from .click_words import install
from .lazy import LazyGroup

install()  # click's own words (Usage, Options, Error: ...) and every help, through the catalogs

# name: ("module:attr", the short help --help lists; tests hold it to the command's own)
COMMANDS = {
    "validate": ("cli.logs:validate", N_("Referee whole match logs (domino-log/1) and report every violation.")),
    "show": ("cli.logs:show", N_("Draw the table of a match as it stood: the line, open ends, hands, "
                              "whose turn and what that seat may do, scores.")),
    "serve": ("cli.serve:serve", N_("Serve the HTTP API on the configured database, upgrading it first.")),
    "db": ("cli.db:db", N_("The database: schema migrations, projections, and an audit of what it holds.")),
    "club": ("cli.admin:club", N_("Clubs: create one, show one, change its settings.")),
    "player": ("cli.admin:player", N_("A club's players: add, list.")),
    "token": ("cli.admin:token", N_("Bearer tokens for the HTTP API.")),
    "match": ("cli.matches:match", N_("Matches: create, list, show, report, export, import, abandon.")),
    "table": ("cli.table:table", N_("Score a live table: type what happens, the referee checks each entry as it comes.")),
    "standings": ("cli.standings:standings", N_("A club's standings: per player, finished matches played, won, lost, and points for.")),
    "deal": ("cli.recording:deal", N_("Deal a new round, open (every --hand) or closed (no --hand: hands revealed at the end).")),
    "play": ("cli.recording:play", N_("Place a tile on the line (a lead lies as written: 5-6 puts the 5 on the left).")),
    "draw": ("cli.recording:draw", N_("Take a tile from the boneyard: name it when the table saw it, else leave it out.")),
    "pass": ("cli.recording:pass_", N_("Pass (the referee refuses a pass by a seat that could play or had to draw).")),
    "reveal": ("cli.recording:reveal", N_("After a round, show what a seat still holds: its tiles, or only their pips.")),
    "note": ("cli.recording:note", N_("Add a note to the record (free text; it changes nothing).")),
    "penalty": ("cli.rulings:penalty", N_("Award points to a side, or deduct them; it can end the match.")),
    "void": ("cli.rulings:void", N_("Strike event SEQ from the record (voiding a void restores its target).")),
    "annul": ("cli.rulings:annul", N_("Cancel the round in progress (a misdeal): no score, it is dealt again.")),
    "forfeit": ("cli.rulings:forfeit", N_("A side forfeits the match.")),
    "stands": ("cli.rulings:stands", N_("Rule that disputed event SEQ stands as recorded: the dispute is settled, nothing changes.")),
    "amend": ("cli.rulings:amend", N_("Correct event SEQ: the record reads EVENT in its place from then on.")),
    "disputes": ("cli.disputes:disputes", N_("A club's disputes, or one match's: open first, then ruled, by match and event.")),
    "dispute-sheet": ("cli.disputes:dispute_sheet", N_("Print the sheet of dispute SEQ, to hand to both sides: the match, the moment, "
                                                    "the foul and its evidence, the ruling, the score before and after.")),
    "league": ("cli.leagues:league", N_("Leagues: seasons of divisions of teams, fixtures, legs, results, tables, averages.")),
    "tournament": ("cli.tournaments:tournament", N_("Tournaments: create one, enter players, pair rounds, event standings.")),
    "verify": ("cli.verify:verify", N_("Check a match log and print its chain head; check a signed acta, its inclusion in its "
                                    "club's transparency log, and that the log today extends one kept from before.")),
    "acta": ("cli.acta:acta", N_("Print the signed acta (domino-acta/2) of finished match MATCH: players and sides, table, "
                              "event, round, start and end, each round's points, the rulings, totals and winner, the "
                              "chain head, its leaf in the club's transparency log, and the club's Ed25519 signature.")),
    "key": ("cli.keys:key", N_("Club signing keys: init, list, rotate, retire; and sign-due, the actas that wait.")),
}


def _language(ctx: click.Context, param: click.Parameter, value: str | None) -> str:
    """``--lang``, else the locale environment, else English (an unknown one: the next choice,
    quietly); the catalog read now, so that one that cannot be read is an error naming it."""
    import words

    lang = words.known(value) or words.from_environment()
    try:
        words.check_catalogs([lang])
    except words.CatalogError as error:
        raise click.ClickException(str(error)) from None
    words.use(lang)  # until the command line is answered: DominoGroup.main puts the last back
    return lang


class DominoGroup(LazyGroup):
    """The ``domino`` group: the language ``--lang`` chose holds until the command line is
    answered, click's own last words included (``Error: ...`` is printed after the command's
    context is closed), and then the one before is put back (a command run in-process, by a
    test, leaves no language behind)."""

    def main(self, args: Any = None, *rest: Any, **kwargs: Any) -> Any:
        import sys

        import words

        # The language before anything is parsed: --lang's, wherever it stands on the command
        # line (`domino --help --lang es` too: click would answer --help first), else the
        # environment's as it is now. The callback checks the catalog and says it again.
        given = list(sys.argv[1:] if args is None else args)
        token = words.use(words.known(_lang_given(given)) or words.from_environment())
        try:
            return super().main(args, *rest, **kwargs)
        finally:
            words.reset(token)


    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Refuse a command line holding bytes that are not UTF-8 (Python hands them over as
        lone surrogates, which no database, JSON or terminal takes: each was a traceback where
        it was stored or printed), naming the argument and showing its bytes."""
        for number, arg in enumerate(args, start=1):
            if not utf8(arg):
                from words import _

                shown = arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
                raise click.UsageError(_("argument %(number)s is not UTF-8 text: %(shown)s",
                                         number=number, shown=shown), ctx)
        return super().parse_args(ctx, args)


def _lang_given(args: list[str]) -> str | None:
    """The value of the group's --lang in ``args`` (before the command's name), if any."""
    for index, arg in enumerate(args):
        if arg == "--lang" and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
        if not arg.startswith("-"):
            return None  # the command's name: what follows is the command's
    return None


MAIN_HELP = N_("""domino-referee: referee and scorekeeper for real-table domino matches.

Works on the configured database (DOMINO_DATABASE_URL, by default the SQLite file domino.db) or, for validate and show, on domino-log/1 files.

\b
Example:
  domino db upgrade
  domino club create casino --name "Casino Domino Club"
  domino match new --club casino --rules mano-a-mano --player Ana --player Beto
  domino table 1""")


@click.group(cls=DominoGroup, lazy=COMMANDS, help=MAIN_HELP,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="domino-referee", help=N_("Show the version and exit."))
@click.option("--lang", metavar="LANG", callback=_language, expose_value=False, is_eager=True,
              help=N_("The language of the output: en, es or it (default: LC_ALL, LC_MESSAGES "
                      "or LANG, else en). Codes, JSON and CSV are the same in every language."))
def main() -> None:
    pass
