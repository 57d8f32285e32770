"""``domino standings``: a club's table over its finished matches, and ``domino club set``: its
settings (how its standings break ties, the language of its pages, the rules a new match starts
from on the phone...), changed together by one use case (docs/standings.md, docs/cli.md)."""

from __future__ import annotations

from typing import Any, Callable

import click

from referee.core.rules import PRESETS
from referee.core.vocab import (
    MAX_DEFAULT_TARGET,
    STANDING_GROUPS,
    TIE_BREAKERS,
    UNRANKED,
    side_name,
)
from words import LANGUAGES, N_, _
from words.terms import term, terms

from .connection import connect
from .listing import echo_json, output_format, wide_option
from .options import DATE, NAME, club_option, csv_option, json_option


@click.command(help=N_("""\
A club's standings: per player, finished matches played, won, lost, and points for.

Also rounds won, points against, their difference, the win rate, the rating (OpenSkill,
mu - 3 sigma, over every finished match of the club), how many matches it is made of, how
many matches counted still have an open dispute (flagged), and whether the rating is still
provisional. Ranked by the club's tie-breakers (domino club set --tie-breakers); rows tied
on all of them share a rank.

--json and --csv print one row per player: rank, player, played, won, lost, rounds_won,
points_for, points_against, difference, win_rate, rating, rating_games, flagged,
provisional (--group partnerships: partners, or partner_1 and partner_2 in CSV).

The table fits the terminal: in 80 columns games, points against, rounds and the win rate
are left out (a line on standard error says which); --wide shows them all.

\b
Example:
  domino standings --club casino
  domino standings --club casino --from 2026-01-01 --to 2026-03-31 --event liga
  domino standings --club casino --group partnerships --csv > parejas.csv"""))
@club_option
@click.option("--group", type=click.Choice(STANDING_GROUPS), default="players",
              show_default=True, help=N_("Per player, or per fixed partnership (the same two partners)."))
@click.option("--from", "date_from", type=DATE, default=None, metavar="YYYY-MM-DD",
              help=N_("Only matches played on or after this day."))
@click.option("--to", "date_to", type=DATE, default=None, metavar="YYYY-MM-DD",
              help=N_("Only matches played on or before this day."))
@click.option("--event", default=None, help=N_("Only matches whose log header names this event."))
@json_option
@csv_option
@wide_option
def standings(club_slug: str, group: str, date_from: str | None, date_to: str | None,
              event: str | None, as_json: bool, as_csv: bool, wide: bool) -> None:
    how = output_format(as_json, as_csv)
    filters = {"group": group, "date_from": date_from, "date_to": date_to, "event": event}
    with connect() as service:
        if how == "csv":
            # the service writes the CSV
            click.echo(service.standings.csv(club_slug, **filters), nl=False)
            return
        rows = service.standings.table(club_slug, **filters)
    if how == "json":
        echo_json(rows)
        return
    from words import formats
    from words.collation import by_name

    from .listing import Col, print_table

    # In 80 columns the least needed go first: games (how many matches the rating is made
    # of), points against (for and the difference say it), rounds won, the win rate, and for
    # a long name the count of flagged matches (the disputes listing says which they are).
    name = "partners" if group == "partnerships" else "player"
    shown = {"rank": Col(_("rank"), right=True), name: Col(_("partners") if name == "partners" else _("player"), wrap=True),
             "played": Col(_("played"), right=True), "won": Col(_("won"), right=True),
             "lost": Col(_("lost"), right=True), "rounds_won": Col(_("rounds"), True, drop=3),
             "points_for": Col(_("for"), right=True),
             "points_against": Col(_("against"), True, drop=4),
             "difference": Col(_("diff"), right=True), "win_rate": Col(_("win %"), True, drop=2),
             "rating": Col(_("rating"), right=True),
             "rating_games": Col(_("games"), True, drop=5),
             "flagged": Col(_("flagged"), right=True, drop=1)}
    title = (_("%(club)s: standings (partnerships)", club=club_slug) if group == "partnerships"
             else _("%(club)s: standings", club=club_slug))
    period = _("%(start)s to %(end)s", start=formats.date(date_from) if date_from else "…",
               end=formats.date(date_to) if date_to else "…") if date_from or date_to else None
    caption = ", ".join(x for x in (period, event and _("event %(event)s", event=event)) if x)
    # ties (a shared rank) in the order the language sorts names
    rows = by_name(rows, lambda r: r.get("player") or " ".join(r.get("partners") or ()),
                   within=lambda r: r["rank"])
    cells = []
    for row in rows:
        line = []
        for column in shown:
            value = row[column]
            if column == "partners":
                value = side_name(value)
            elif column == "win_rate":
                value = formats.decimal(100 * value, 1)
            elif column == "rank" and value is None:
                value = "-"  # listed apart: played no counted match
            elif column == "rating":
                value = formats.number(value) + ("?" if row["provisional"] else "")
            line.append(str(value))
        cells.append(line)
    print_table(title, list(shown.values()), cells, wide=wide, caption=caption or None)
    if any(row["provisional"] for row in rows):
        click.echo(_("?: provisional rating (too few matches yet)"))


class Target(click.ParamType):
    """A default target: a whole number of points from 1 to MAX_DEFAULT_TARGET, or "none" (the
    preset's own), given to the command as the number or None."""

    name = "points"

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> int | None:
        if value is None or isinstance(value, int):
            return value
        text = str(value).strip()
        if text == "none":
            return None
        if text.isascii() and text.isdigit() and 1 <= int(text) <= MAX_DEFAULT_TARGET:
            return int(text)
        self.fail(_("%(value)s: give a whole number of points from 1 to %(most)s, or none",
                    value=repr(text), most=MAX_DEFAULT_TARGET), param, ctx)


@click.command("set", help=N_("""\
Change a club's settings: its name, whether its pages are public, how its standings
break ties, where they put the players who did not play, the language of its pages, the
rules and target the phone's start form preselects for a new match, its time zone. Only
the settings given change, all together or none; one line on standard output tells each
new setting.

\b
Example:
  domino club set casino --tie-breakers won,head_to_head,difference
  domino club set casino --tie-breakers default
  domino club set casino --public --language es
  domino club set casino --name "Casino Domino Club de Ponce"
  domino club set casino --unranked hidden
  domino club set casino --rules parejas --target 100
  domino club set casino --timezone America/Puerto_Rico"""))
@click.argument("slug")
@click.option("--name", type=NAME, default=None,
              help=N_("The club's name, as people write it (its slug stays)."))
@click.option("--public/--private", "public", default=None,
              help=N_("Whether anyone may read the club's pages without a token."))
@click.option("--tie-breakers", "tie_breakers", default=None, metavar="NAME,NAME,...",
              # the codes written out for the catalogs (tests/cli/test_cli_help_languages.py
              # holds them to TIE_BREAKERS and DEFAULT_TIE_BREAKERS)
              help=N_("How standings break ties, in order: some of won, win_rate, difference, "
                      "points_for, points_against, rounds_won, rating, head_to_head; or 'default' "
                      "(won,difference,points_for,head_to_head)."))
@click.option("--language", type=click.Choice([*LANGUAGES, "none"]), default=None,
              help=N_("The language of the club's pages for a reader who picked none in their "
                      "menu; none: each reader's browser decides."))
@click.option("--unranked", type=click.Choice(UNRANKED), default=None,
              help=N_("Where the standings put the players who played no counted match in the "
                      "period: apart (listed after the ranked, without a rank; the default) or "
                      "hidden (not listed)."))
@click.option("--rules", "default_rules", type=click.Choice([*PRESETS, "none"]), default=None,
              help=N_("The preset the phone's start form preselects for a new match; none: no "
                      "preset preselected (the form's first)."))
@click.option("--target", "default_target", type=Target(), default=None, metavar="POINTS",
              help=N_("The target the start form fills in for a new match, 1 to 10000 points; "
                      "none: the preset's own."))
@click.option("--timezone", default=None, metavar="ZONE",
              help=N_("The club's time zone, an IANA name (Europe/Madrid, America/Mexico_City): "
                      "the times its pages, desk and actas show are said in it; none: UTC."))
def club_set(slug: str, name: str | None, public: bool | None, tie_breakers: str | None,
             language: str | None, unranked: str | None, default_rules: str | None,
             default_target: int | None, timezone: str | None) -> None:
    # click gives None for an option not given; "--target none" is told apart by the source
    ctx = click.get_current_context()
    target_given = ctx.get_parameter_source("default_target") is click.core.ParameterSource.COMMANDLINE
    given = {"tie_breakers": tie_breakers, "unranked": unranked, "language": language,
             "public": public, "name": name, "default_rules": default_rules,
             "timezone": timezone}
    changes: dict[str, object] = {key: _NONE.get(key, lambda v: v)(value)
                                  for key, value in given.items() if value is not None}
    if target_given:
        changes["default_target"] = default_target
    if not changes:
        raise click.UsageError(_("give --name, --public or --private, --tie-breakers, "
                                 "--unranked, --language, --rules, --target or --timezone"))
    with connect() as service:
        club = service.clubs.settings(slug, **changes)
    for key, line in _TOLD.items():
        if key in changes:
            click.echo(line(club))


def _tie_breakers_option(text: str) -> list[str] | None:
    """--tie-breakers: the names, comma-separated, or "default" (None)."""
    if text.strip() == "default":
        return None
    chosen = [name.strip() for name in text.split(",")]
    unknown = [name for name in chosen if name not in TIE_BREAKERS]
    if unknown or not chosen:
        raise click.BadParameter(
            _("%(names)s: give some of %(known)s, comma-separated, or default",
              names=", ".join(repr(n) for n in unknown) or _("nothing"),
              known=", ".join(TIE_BREAKERS)), param_hint="'--tie-breakers'")
    if len(set(chosen)) != len(chosen):
        raise click.BadParameter(_("a tie-breaker is named twice"), param_hint="'--tie-breakers'")
    return chosen


def _none_is_null(value: str) -> str | None:
    return None if value == "none" else value


# How an option's text becomes the setting ("none": the setting's default).
_NONE: dict[str, Callable[[Any], Any]] = {
    "tie_breakers": _tie_breakers_option, "language": _none_is_null,
    "default_rules": _none_is_null, "timezone": _none_is_null}

# One line on standard output for each setting changed, saying it as it now stands.
_TOLD: dict[str, Callable[[dict[str, Any]], str]] = {
    "tie_breakers": lambda club: _("%(club)s: tie-breakers %(names)s", club=club["slug"],
                                   names=", ".join(terms("tie_breaker", club["tie_breakers"]))),
    "unranked": lambda club: _("%(club)s: players with no counted match %(where)s", club=club["slug"],
                               where=_("listed apart") if club["unranked"] == "apart"
                               else _("not listed")),
    "language": lambda club: _("%(club)s: language of its pages %(language)s", club=club["slug"],
                               language=club["language"] or _("none (each reader's browser decides)")),
    "public": lambda club: (_("%(club)s: its pages are public", club=club["slug"]) if club["public"]
                            else _("%(club)s: its pages are private (a token is needed)",
                                   club=club["slug"])),
    "name": lambda club: _("%(club)s: name %(name)s", club=club["slug"], name=club["name"]),
    "default_rules": lambda club: _("%(club)s: rules preselected for a new match %(preset)s",
                                    club=club["slug"],
                                    preset=term("preset", club["default_rules"]) if club["default_rules"]
                                    else _("none (the form's first preset)")),
    "default_target": lambda club: _("%(club)s: target preselected for a new match %(target)s",
                                     club=club["slug"],
                                     target=club["default_target"] or _("the preset's own")),
    "timezone": lambda club: _("%(club)s: time zone %(zone)s", club=club["slug"],
                               zone=club["timezone"] or _("UTC (none set)")),
}
