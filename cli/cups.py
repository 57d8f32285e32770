"""``domino league cup``: a club's cups, knockouts of a season's teams or of the club's players
or pairs: created, drawn from a recorded seed, their ties' matches started or their results
recorded from matches, the bracket shown (the service does the work, ``svc.leagues``;
docs/leagues.md). Every listing takes ``--json``, which prints what the API answers."""

from __future__ import annotations

from typing import Any

import click

from referee.core.vocab import CUP_ENTRANTS, CUP_FORMATS, SIDES
from words import N_, _

from .connection import connect
from .listing import echo_json, echo_rows, output_format
from .options import NAME, Whole, club_option, csv_option, json_option, json_value

cup_argument = click.argument("cup", metavar="CUP")
tie_argument = click.argument("tie", metavar="TIE")
STATUS = {"waiting": N_("waiting"), "ready": N_("ready"), "played": N_("played"),
          "bye": N_("bye"), "empty": N_("empty"), "not_needed": N_("not needed")}
AWARD = {"conceded": N_("conceded by %(entrant)s"),
         "walkover": N_("a walkover: %(entrant)s did not turn up")}


@click.group(help=N_("""\
Cups: knockouts of a season's teams, or of the club's players or pairs.

\b
Example:
  domino league cup new ko crown anchor bell swan --club casino --name "Cup" --season 2027
  domino league cup draw ko --club casino --seeded 2
  domino league cup fixture ko W1-1 --on 2027-03-04 --club casino
  domino league cup show ko --club casino"""))
def cup() -> None:
    pass


@cup.command("new", help=N_("""\
Create a cup (admin: the secretary), its entrants in pot order, best first: team slugs of
--season, player names (--kind players), or pairs as NAME+NAME (--kind pairs).

\b
Example:
  domino league cup new ko crown anchor bell --club casino --name "Cup" --season 2027
  domino league cup new open Ana Beto Carla --club casino --name "Open" --kind players \\
      --format double_elimination --best-of 3"""))
@cup_argument
@click.argument("entrants", nargs=-1, required=True, metavar="ENTRANT...")
@club_option
@click.option("--name", type=NAME, required=True, help=N_("The cup's name."))
@click.option("--season", default=None, help=N_("The season whose cup it is."))
@click.option("--kind", type=click.Choice(CUP_ENTRANTS), default="teams", show_default=True,
              help=N_("Who the entrants are."))
@click.option("--format", "format_", type=click.Choice(CUP_FORMATS),
              default="single_elimination", show_default=True, help=N_("The knockout."))
@click.option("--best-of", type=Whole(1), default=1, show_default=True,
              help=N_("The matches a tie is the best of."))
@click.option("--rules", default=None, metavar="JSON",
              help=N_("The matches' rules by kind, as a season's leg rules."))
@json_option
def cup_new(cup: str, entrants: tuple[str, ...], club_slug: str, name: str,
            season: str | None, kind: str, format_: str, best_of: int, rules: str | None,
            as_json: bool) -> None:
    pot: list[Any] = ([e.split("+") for e in entrants] if kind == "pairs" else list(entrants))
    parsed = None
    if rules is not None:
        parsed = json_value(rules, "--rules")
    with connect() as service:
        made = service.leagues.create_cup(club_slug, cup, name, entrants=pot, kind=kind,
                                          season=season, format=format_, best_of=best_of,
                                          rules=parsed)
    if as_json:
        echo_json(made)
        return
    click.echo(_("created cup %(slug)s: %(name)s, %(count)s entrants", slug=made["slug"],
                 name=made["name"], count=len(made["entrants"])))


@cup.command("list", help=N_("""\
The club's cups (or a season's), newest first.

\b
Example:
  domino league cup list --club casino --json"""))
@club_option
@click.option("--season", default=None, help=N_("Only this season's cups."))
@json_option
@csv_option
def cup_list(club_slug: str, season: str | None, as_json: bool, as_csv: bool) -> None:
    how = output_format(as_json, as_csv)
    with connect() as service:
        found = service.leagues.cups(club_slug, season=season)
    if echo_rows(how, found, ("slug", "name", "season", "kind", "format", "best_of",
                              "entrants", "drawn", "champion", "champion_name")):
        return
    for row in found:
        champion = row["champion_name"] or "-"
        click.echo(f"{row['slug']}: {row['name']}  {row['entrants']}  {champion}")


@cup.command("draw", help=N_("""\
Make the cup's draw (admin), recorded with its seed: the first --seeded of the pot seeded,
the rest drawn from --seed (a new one when none is given); --rank or --by-table put the best
first. Again while no tie has a match.

\b
Example:
  domino league cup draw ko --club casino --seeded 2 --seed 2025"""))
@cup_argument
@club_option
@click.option("--seed", type=Whole(0, 2**64 - 1), default=None,
              help=N_("The seed the draw is made from."))
@click.option("--seeded", type=Whole(0), default=0, show_default=True,
              help=N_("The first of the pot seeded, in its order."))
@click.option("--rank", "ranking", multiple=True, metavar="ENTRANT",
              help=N_("An entrant put first, best first (repeat the option)."))
@click.option("--by-table", is_flag=True,
              help=N_("A team cup: rank the pot by the season's tables."))
@json_option
def cup_draw(cup: str, club_slug: str, seed: int | None, seeded: int, ranking: tuple[str, ...],
             by_table: bool, as_json: bool) -> None:
    if ranking and by_table:
        raise click.UsageError(_("give --rank or --by-table, not both"))
    ranked: Any = "table" if by_table else (list(ranking) or None)
    with connect() as service:
        drawn = service.leagues.draw(club_slug, cup, seed=seed, seeded=seeded, ranking=ranked)
    if as_json:
        echo_json(drawn)
        return
    click.echo(_("drawn with seed %(seed)s", seed="-" if drawn["seed"] is None
                 else drawn["seed"]))
    for number, entrant in enumerate(drawn["order"], start=1):
        click.echo(f"{number:>3}  {entrant}")


@cup.command("show", help=N_("""\
A cup: its draw and every tie of its bracket, with the matches each side won.

\b
Example:
  domino league cup show ko --club casino"""))
@cup_argument
@club_option
@json_option
def cup_show(cup: str, club_slug: str, as_json: bool) -> None:
    with connect() as service:
        shown = service.leagues.cup(club_slug, cup)
    if as_json:
        echo_json(shown)
        return
    seed = "-" if shown["seed"] is None else shown["seed"]
    click.echo(f"{shown['name']} ({shown['slug']}), {seed}")
    for tie in shown["ties"]:
        home, away = tie["home"] or "-", tie["away"] or "-"
        given = [a for a in tie["awards"] if a["counts"]]
        award = f", {_(AWARD[given[-1]['kind']], entrant=given[-1]['entrant'])}" if given else ""
        fixture = tie["fixture"]
        if fixture is not None and fixture["counts"]:  # a team cup's tie: the legs won
            won = fixture["legs_won"]
            award += ", " + _("fixture %(fixture)s", fixture=fixture["id"])
        else:
            won = tie["won"]
        click.echo(f"{tie['id']:>6}  {home} {won['home']}-{won['away']} {away}"
                   f"  {_(STATUS[tie['status']])}{award}")
    if shown["champion"]:
        click.echo(_("champion: %(entrant)s", entrant=shown["champion_name"]))


@cup.command("fixture", help=N_("""\
Make a team cup's tie a fixture of its season (admin), once its two teams are known: the
draw's home team at home, on --on. Its legs are then played as the season's fixture's
(domino league leg ...).

\b
Example:
  domino league cup fixture ko W1-1 --on 2027-03-04 --club casino"""))
@cup_argument
@tie_argument
@click.option("--on", "on", required=True, metavar="YYYY-MM-DD",
              help=N_("Its date, inside the season."))
@club_option
@json_option
def cup_fixture(cup: str, tie: str, on: str, club_slug: str, as_json: bool) -> None:
    with connect() as service:
        made = service.leagues.fixture_tie(club_slug, cup, tie, on=on)
    if as_json:
        echo_json(made)
        return
    click.echo(_("%(tie)s: fixture %(fixture)s of %(season)s, %(home)s v %(away)s on %(date)s",
                 **{k: made[k] for k in ("tie", "fixture", "season", "home", "away", "date")}))


@cup.command("play", help=N_("""\
Start a tie's next match (a team cup: the deciding match of a level fixture, --home and
--away players of the squads). Its events are then recorded as any match's.

\b
Example:
  domino league cup play ko W1-2 --home Ana --away Dani --club casino"""))
@cup_argument
@tie_argument
@click.option("--home", multiple=True, type=NAME, help=N_("A home player (repeat the option)."))
@click.option("--away", multiple=True, type=NAME, help=N_("An away player (repeat the option)."))
@club_option
@json_option
def cup_play(cup: str, tie: str, home: tuple[str, ...], away: tuple[str, ...],
             club_slug: str, as_json: bool) -> None:
    with connect() as service:
        game = service.leagues.play_tie(club_slug, cup, tie, home=list(home), away=list(away))
    if as_json:
        echo_json(game)
        return
    click.echo(_("%(tie)s, match %(game)s: match %(match)s", tie=tie, game=game["game"],
                 match=game["match"]))


@cup.command("result", help=N_("""\
A tie's result from matches recorded already, in order; with --winner, refused unless they
give it the tie.

\b
Example:
  domino league cup result open W1-2 231 --winner Carla --club casino"""))
@cup_argument
@tie_argument
@click.argument("matches", nargs=-1, required=True, type=Whole(1), metavar="MATCH...")
@click.option("--winner", default=None, help=N_("The entrant the matches give the tie to."))
@club_option
@json_option
def cup_result(cup: str, tie: str, matches: tuple[int, ...], winner: str | None,
               club_slug: str, as_json: bool) -> None:
    with connect() as service:
        done = service.leagues.record_tie(club_slug, cup, tie, matches=list(matches),
                                          winner=winner)
    if as_json:
        echo_json(done)
        return
    click.echo(f"{tie}: {_(STATUS[done['status']])}"
               + (f", {done['winner']}" if done["winner"] else ""))


def _award(use: str, cup: str, tie: str, by: str, reason: str, club_slug: str,
           as_json: bool) -> None:
    with connect() as service:
        done = getattr(service.leagues, use)(club_slug, cup, tie, by, reason=reason)
    if as_json:
        echo_json(done)
        return
    click.echo(_("%(tie)s: %(winner)s goes through (%(entrant)s: %(reason)s)", tie=tie,
                 winner=done["winner"], entrant=done["entrant"], reason=done["reason"]))


@cup.command("concede", help=N_("""\
Concede a tie for one side (admin), without a match or after some: the other goes through.

\b
Example:
  domino league cup concede open W1-2 --by away --reason "injured" --club casino"""))
@cup_argument
@tie_argument
@click.option("--by", type=click.Choice(SIDES), required=True,
              help=N_("The side that concedes."))
@click.option("--reason", type=NAME, required=True, help=N_("Why, for the record."))
@club_option
@json_option
def cup_concede(cup: str, tie: str, by: str, reason: str, club_slug: str,
                as_json: bool) -> None:
    _award("concede_tie", cup, tie, by, reason, club_slug, as_json)


@cup.command("walkover", help=N_("""\
Give a tie as a walkover (admin): --by did not turn up, the other goes through.

\b
Example:
  domino league cup walkover open W1-2 --by home --reason "did not turn up" --club casino"""))
@cup_argument
@tie_argument
@click.option("--by", type=click.Choice(SIDES), required=True,
              help=N_("The side that did not turn up."))
@click.option("--reason", type=NAME, required=True, help=N_("Why, for the record."))
@club_option
@json_option
def cup_walkover(cup: str, tie: str, by: str, reason: str, club_slug: str,
                 as_json: bool) -> None:
    _award("walkover_tie", cup, tie, by, reason, club_slug, as_json)
