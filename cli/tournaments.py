"""``domino tournament``: a club's tournaments, their entrants, rounds and event standings (the
service does the work, ``svc.tournaments``; docs/tournaments.md#running-a-tournament)."""

from __future__ import annotations

from typing import Any

import click

from referee.core.vocab import TOURNAMENT_FORMATS, side_name
from words import N_, _, message, say
from words.terms import term

from .connection import connect
from .listing import echo_json, echo_rows, output_format, wide_option
from .matches import NEW_HINT, _rules, seating_new_option
from .options import DATE, NAME, Whole, club_option, csv_option, json_option

slug_argument = click.argument("slug", metavar="TOURNAMENT")


@click.group(help=N_("""\
Tournaments: create one, enter players, pair rounds, event standings.

\b
Example:
  domino tournament new noche --club casino --name "Noche de parejas" --format rotating \\
      --rules parejas --rounds 3 --player Ana --player Beto --player Carla --player Dani
  domino tournament pair noche --club casino
  domino tournament standings noche --club casino --csv"""))
def tournament() -> None:
    pass


def _unconfirmed(call: Any) -> Any:
    from referee.service import Unconfirmed

    try:
        return call()
    except Unconfirmed as error:
        raise click.ClickException(message(error) + _(NEW_HINT)) from None


@tournament.command("new", help=N_("""\
Create a tournament (admin), with its first entrants.

\b
Example:
  domino tournament new copa --club casino --name Copa --format pairs --rules parejas \\
      --rounds 4 --pair Ana,Beto --pair Carla,Dani --pair Eva,Fede --bye-points 50"""))
@slug_argument
@club_option
@click.option("--name", type=NAME, required=True, help=N_("Its name; its matches' header event."))
@click.option("--format", "format_", type=click.Choice(TOURNAMENT_FORMATS), required=True,
              help=N_("pairs: fixed partnerships, Swiss; rotating: players, new partners each "
                      "round; round_robin: fixed partnerships, everyone meets everyone."))
@click.option("--rules", "rules_text", required=True, metavar="PRESET|JSON",
              help=N_("Its matches' rules: a partnership preset (parejas, puerto-rico) or JSON."))
@click.option("--rounds", type=Whole(1, 100), required=True, help=N_("How many rounds."))
@click.option("--from", "starts_on", type=DATE, default=None, metavar="YYYY-MM-DD",
              help=N_("The first day."))
@click.option("--to", "ends_on", type=DATE, default=None, metavar="YYYY-MM-DD",
              help=N_("The last day."))
@click.option("--bye-points", type=Whole(0, 10_000), default=0, show_default=True,
              help=N_("Points for that a bye earns."))
@click.option("--bye-not-won", "bye_not_won", is_flag=True,
              help=N_("A bye counts as a match played but not won (default: won)."))
@click.option("--player", "players", type=NAME, multiple=True,
              help=N_("A rotating entrant (repeat the option)."))
@click.option("--pair", "pairs", multiple=True, metavar="NAME,NAME",
              help=N_("A partnership, for pairs and round_robin (repeat the option)."))
@seating_new_option
@json_option
def tournament_new(slug: str, club_slug: str, name: str, format_: str, rules_text: str,
                   rounds: int, starts_on: str | None, ends_on: str | None, bye_points: int,
                   bye_not_won: bool, players: tuple[str, ...], pairs: tuple[str, ...],
                   confirm_new: bool, as_json: bool) -> None:
    if players and pairs:
        raise click.UsageError(_("give --player (rotating) or --pair (pairs, round_robin), not both"))
    entrants: list[Any] = list(players) or [_pair(p) for p in pairs]
    with connect() as service:
        made = _unconfirmed(lambda: service.tournaments.create(
            club_slug, slug, name, rules=_rules(rules_text), format=format_, rounds=rounds,
            starts_on=starts_on, ends_on=ends_on, bye_won=not bye_not_won,
            bye_points=bye_points, entrants=entrants, confirm_new=confirm_new))
    if as_json:
        echo_json(made)
        return
    # formats and statuses are codes here, as the tournament's commands take them
    click.echo(_("created tournament %(slug)s: %(name)s, %(format)s, %(rounds)s rounds, "
                 "%(entrants)s entrants", slug=made["slug"], name=made["name"],
                 format=made["format"], rounds=made["rounds"], entrants=len(made["entrants"])))


def _pair(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",")]
    if len(names) != 2 or not all(names):
        raise click.BadParameter(_("%(text)r: a partnership is two names, NAME,NAME", text=text),
                                 param_hint="'--pair'")
    return names


LIST_COLUMNS = ("slug", "name", "format", "status", "rounds", "rounds_paired", "starts_on",
                "ends_on", "created_at")


@tournament.command("list", help=N_("""\
The club's tournaments, newest first.

--json prints each as the API lists it; --csv one row each: slug, name, format, status,
rounds, rounds_paired, starts_on, ends_on, created_at.

\b
Example:
  domino tournament list --club casino --csv"""))
@club_option
@json_option
@csv_option
def tournament_list(club_slug: str, as_json: bool, as_csv: bool) -> None:
    how = output_format(as_json, as_csv)
    with connect() as service:
        found = service.tournaments.list(club_slug)
    if echo_rows(how, found, LIST_COLUMNS):
        return
    for t in found:
        click.echo(_("%(slug)s: %(name)s (%(format)s), round %(paired)s of %(rounds)s, "
                     "%(status)s", slug=t["slug"], name=t["name"], format=t["format"],
                     paired=t["rounds_paired"], rounds=t["rounds"],
                     status=term("tournament", t["status"])))


@tournament.command("show", help=N_("""\
A tournament: its settings, entrants, and each round's tables, matches and byes, and why.

\b
Example:
  domino tournament show noche --club casino"""))
@slug_argument
@club_option
@json_option
def tournament_show(slug: str, club_slug: str, as_json: bool) -> None:
    with connect() as service:
        shown = service.tournaments.show(club_slug, slug)
    if as_json:
        echo_json(shown)
        return
    starts, ends = shown["starts_on"], shown["ends_on"]
    dates = (_("%(start)s to %(end)s", start=starts, end=ends) if starts and ends
             else starts or ends or "")
    click.echo(_("%(name)s (%(slug)s): %(format)s, %(rounds)s rounds%(dates)s; %(status)s",
                 name=shown["name"], slug=shown["slug"], format=shown["format"],
                 rounds=shown["rounds"], dates=", " + dates if dates else "",
                 status=term("tournament", shown["status"])))
    bye = shown["bye"]
    click.echo(_("a bye: won, %(points)s points", points=bye["points"]) if bye["won"]
               else _("a bye: not won, %(points)s points", points=bye["points"]))
    click.echo(_("entrants:"))
    for e in shown["entrants"]:
        note = []
        if e["entered"] > 1:
            note.append(_("from round %(round)s", round=e["entered"]))
        if e["withdrawn"] is not None:
            note.append(_("withdrawn from round %(round)s", round=e["withdrawn"]))
        click.echo(f"  {e['number']}. {e['name']}" + (f" ({', '.join(note)})" if note else ""))
    if shown["constraints"]:
        click.echo(_("the director's constraints:"))
        for c in shown["constraints"]:
            click.echo(f"  {c['id']}. {_constraint_text(c)}")
    for r in shown["paired_rounds"]:
        _echo_round(r)


def _echo_round(r: dict[str, Any], as_json: bool = False) -> None:
    if as_json:
        echo_json(r)
        return
    click.echo("\n" + _("round %(number)s: %(status)s", number=r["number"],
                         status=term("tournament_round", r["status"])))
    for t in r["tables"]:
        click.echo("  " + _("table %(table)s: match %(match)s, %(one)s v %(other)s",
                            table=t["table"], match=t["match"], one=t["sides"][0]["name"],
                            other=t["sides"][1]["name"])
                   + (f", {t['totals'][0]}-{t['totals'][1]} {term('status', t['status'])}"
                      if t["totals"] is not None else ""))
    click.echo("")
    click.echo(say(r["text"]))  # the pairing and its reasons, in the output's language


@tournament.command("enter", help=N_("""\
Enter a player (rotating) or a partnership (two players) from the next round not started.

\b
Example:
  domino tournament enter noche Juan --club casino
  domino tournament enter copa "Ana Pérez" Beto --club casino --new"""))
@slug_argument
@click.argument("players", nargs=-1, required=True, type=NAME, metavar="PLAYER [PARTNER]")
@club_option
@seating_new_option
def tournament_enter(slug: str, players: tuple[str, ...], club_slug: str,
                     confirm_new: bool) -> None:
    with connect() as service:
        entrant = _unconfirmed(lambda: service.tournaments.enter(
            club_slug, slug, list(players), confirm_new=confirm_new))
    click.echo(_("entrant %(number)s: %(name)s, from round %(round)s", number=entrant["number"],
                 name=entrant["name"], round=entrant["entered"]))
    if entrant["repair"] is not None:
        click.echo(_("round %(round)s was paired before they came: they have a bye in it until "
                     "it is re-paired", round=entrant["repair"]))
        _re_pair_hint(slug, club_slug, entrant["repair"])


@tournament.command("withdraw", help=N_("""\
Withdraw an entrant (its number or a player's name) from the next round not started.

\b
Example:
  domino tournament withdraw noche Ana --club casino
  domino tournament withdraw copa 3 --club casino"""))
@slug_argument
@click.argument("entrant", metavar="ENTRANT")
@club_option
def tournament_withdraw(slug: str, entrant: str, club_slug: str) -> None:
    with connect() as service:
        gone = service.tournaments.withdraw(club_slug, slug, entrant)
    click.echo(_("%(name)s withdrawn from round %(round)s", name=gone["name"],
                 round=gone["withdrawn"]))
    if gone["repair"] is not None:
        click.echo(_("round %(round)s seats them and has not started", round=gone["repair"]))
        _re_pair_hint(slug, club_slug, gone["repair"])


def _re_pair_hint(slug: str, club_slug: str, number: int) -> None:
    click.echo(_("re-pair it with: domino tournament pair %(slug)s --club %(club)s --repair "
                 "%(round)s", slug=slug, club=club_slug, round=number))


@tournament.command("pair", help=N_("""\
Pair the next round (referee) and create its matches; print its tables and why.

\b
Example:
  domino tournament pair noche --club casino
  domino tournament pair noche --club casino --repair 2"""))
@slug_argument
@club_option
@click.option("--repair", "repair", type=Whole(1, 100), default=None, metavar="ROUND",
              help=N_("Re-pair this round: pair it again with the field and constraints as they "
                      "now are (the last round, before any of its matches has an event)."))
@json_option
def tournament_pair(slug: str, club_slug: str, repair: int | None, as_json: bool) -> None:
    with connect() as service:
        if repair is None:
            paired = service.tournaments.pair(club_slug, slug)
        else:
            paired = service.tournaments.re_pair(club_slug, slug, repair)
    _echo_round(paired, as_json)


@tournament.command("round", help=N_("""\
A round: its tables (match, players, score) and byes, and why.

\b
Example:
  domino tournament round noche 2 --club casino --json"""))
@slug_argument
@click.argument("number", type=Whole(1, 100), metavar="ROUND")
@club_option
@json_option
def tournament_round(slug: str, number: int, club_slug: str, as_json: bool) -> None:
    with connect() as service:
        found = service.tournaments.round(club_slug, slug, number)
    _echo_round(found, as_json)


@tournament.command("standings", help=N_("""\
The event standing: players in rotating, partnerships otherwise, by the club's tie-breakers.

--json and --csv print one row per entrant: rank, entrant, player (partners; partner_1 and
partner_2 in CSV), played, won, lost, byes, rounds_won, points_for, points_against,
difference, win_rate, rating, rating_games, flagged, provisional, withdrawn.

\b
Example:
  domino tournament standings noche --club casino
  domino tournament standings copa --club casino --after 2 --csv > copa.csv"""))
@slug_argument
@club_option
@click.option("--after", type=Whole(0, 100), default=None, metavar="ROUND",
              help=N_("The standing after this round (default: every round)."))
@json_option
@csv_option
@wide_option
def tournament_standings(slug: str, club_slug: str, after: int | None, as_json: bool,
                         as_csv: bool, wide: bool) -> None:
    how = output_format(as_json, as_csv)
    with connect() as service:
        if how == "csv":
            click.echo(service.tournaments.standings_csv(club_slug, slug, after=after), nl=False)
            return
        rows = service.tournaments.standings(club_slug, slug, after=after)
    if how == "json":
        echo_json(rows)
        return
    from .listing import Col, print_table

    # In 80 columns byes go first, then points against (for and the difference say it).
    columns = [Col(_("rank"), right=True), Col(_("entrant"), wrap=True, least=16),
               Col(_("played"), right=True), Col(_("won"), right=True), Col(_("lost"), right=True),
               Col(_("byes"), right=True, drop=2), Col(_("for"), right=True),
               Col(_("against"), right=True, drop=1), Col(_("diff"), right=True)]
    keys = ("rank", "name", "played", "won", "lost", "byes", "points_for", "points_against",
            "difference")
    from words.collation import by_name

    cells = []
    # rows tied on a rank by name, as the language sorts names
    for row in by_name(rows, lambda r: r.get("player") or side_name(r["partners"]),
                       within=lambda r: r["rank"]):
        name = row.get("player") or side_name(row["partners"])
        if row["withdrawn"] is not None:
            name += " " + _("(withdrawn from round %(round)s)", round=row["withdrawn"])
        cells.append([name if c == "name" else str(row[c]) for c in keys])
    title = (_("%(tournament)s: standings after round %(round)s", tournament=slug, round=after)
             if after else _("%(tournament)s: standings", tournament=slug))
    print_table(title, columns, cells, wide=wide)


CONSTRAINT_COLUMNS = ("id", "kind", "entrant", "name", "other", "other_name", "table", "round",
                      "scope", "note", "created_at")
note_option = click.option("--note", default=None, type=NAME,
                           help=N_("Why (shown on the table or bye the constraint shapes)."))
entrant_argument = click.argument("entrant", metavar="ENTRANT")


@tournament.command("constraints", help=N_("""\
The director's constraints the pairing honours: fixed tables, forbidden pairings,
requested byes.

--json prints each as the API lists it; --csv one row each: id, kind, entrant, name, other,
other_name, table, round, scope, note, created_at.

\b
Example:
  domino tournament constraints copa --club casino --json"""))
@slug_argument
@club_option
@json_option
@csv_option
def tournament_constraints(slug: str, club_slug: str, as_json: bool, as_csv: bool) -> None:
    how = output_format(as_json, as_csv)
    with connect() as service:
        found = service.tournaments.constraints(club_slug, slug)
    if echo_rows(how, found, CONSTRAINT_COLUMNS):
        return
    for c in found:
        click.echo(f"{c['id']}. {_constraint_text(c)}")


def _constraint_text(c: dict[str, Any]) -> str:
    if c["kind"] == "fixed_table":
        text = _("%(name)s always at table %(table)s", name=c["name"], table=c["table"])
    elif c["kind"] == "forbidden":
        text = (_("%(name)s and %(other)s never partners", name=c["name"], other=c["other_name"])
                if c["scope"] == "partners" else
                _("%(name)s and %(other)s never at one table", name=c["name"],
                  other=c["other_name"]))
    else:
        text = _("%(name)s sits out round %(round)s (requested)", name=c["name"],
                 round=c["round"])
    return text + (f": {c['note']}" if c["note"] else "")


def _constraint_made(made: dict[str, Any], slug: str, club_slug: str, as_json: bool,
                     verb: str = "set") -> None:
    if as_json:
        echo_json(made)
        return
    line = (_("constraint %(id)s lifted: %(text)s", id=made["id"], text=_constraint_text(made))
            if verb == "lifted" else
            _("constraint %(id)s set: %(text)s", id=made["id"], text=_constraint_text(made)))
    click.echo(line)
    if made["repair"] is not None:
        click.echo(_("round %(round)s is paired and has not started", round=made["repair"]))
        _re_pair_hint(slug, club_slug, made["repair"])


@tournament.command("fix", help=N_("""\
Fix an entrant (its number or a player's name) at a table, every round (referee).

\b
Example:
  domino tournament fix noche Ana 1 --club casino --note "wheelchair access\""""))
@slug_argument
@entrant_argument
@click.argument("table", type=Whole(1, 1000), metavar="TABLE")
@club_option
@note_option
@json_option
def tournament_fix(slug: str, entrant: str, table: int, club_slug: str, note: str | None,
                   as_json: bool) -> None:
    with connect() as service:
        made = service.tournaments.add_constraint(club_slug, slug, "fixed_table", entrant,
                                                  table=table, note=note)
    _constraint_made(made, slug, club_slug, as_json)


@tournament.command("forbid", help=N_("""\
Forbid a pairing (referee): two entrants never at one table (or, --partners, never
partners).

\b
Example:
  domino tournament forbid noche Ana Beto --club casino --note "a couple\""""))
@slug_argument
@entrant_argument
@click.argument("other", metavar="OTHER")
@club_option
@click.option("--partners", is_flag=True,
              help=N_("rotating: never partners, but they may face each other (default: never "
                      "at one table)."))
@note_option
@json_option
def tournament_forbid(slug: str, entrant: str, other: str, club_slug: str, partners: bool,
                      note: str | None, as_json: bool) -> None:
    with connect() as service:
        made = service.tournaments.add_constraint(
            club_slug, slug, "forbidden", entrant, other=other,
            scope="partners" if partners else "table", note=note)
    _constraint_made(made, slug, club_slug, as_json)


@tournament.command("bye", help=N_("""\
Grant a requested bye (referee): the entrant sits out that round (one not started),
scored as any bye.

\b
Example:
  domino tournament bye copa 3 2 --club casino --note "a wedding\""""))
@slug_argument
@entrant_argument
@click.argument("number", type=Whole(1, 100), metavar="ROUND")
@club_option
@note_option
@json_option
def tournament_bye(slug: str, entrant: str, number: int, club_slug: str, note: str | None,
                   as_json: bool) -> None:
    with connect() as service:
        made = service.tournaments.add_constraint(club_slug, slug, "bye", entrant, round=number,
                                                  note=note)
    _constraint_made(made, slug, club_slug, as_json)


@tournament.command("lift", help=N_("""\
Lift a constraint (its id, as `domino tournament constraints` lists it).

\b
Example:
  domino tournament lift noche 2 --club casino"""))
@slug_argument
@click.argument("constraint_id", type=Whole(1), metavar="ID")
@club_option
@json_option
def tournament_lift(slug: str, constraint_id: int, club_slug: str, as_json: bool) -> None:
    with connect() as service:
        lifted = service.tournaments.lift_constraint(club_slug, slug, constraint_id)
    _constraint_made(lifted, slug, club_slug, as_json, verb="lifted")
