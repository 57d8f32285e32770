"""``domino league``: a club's league seasons, their divisions, teams and squads, fixtures, legs,
results, tables and averages (the service does the work, ``svc.leagues``; docs/leagues.md).
Every listing takes ``--json``, which prints what the API answers."""

from __future__ import annotations

from typing import Any

import click

from referee.core.vocab import SIDES
from words import N_, _

from .connection import connect
from .listing import echo_json, echo_rows, output_format
from .options import DATE, NAME, Whole, club_option, csv_option, json_option, json_value

season_argument = click.argument("season", metavar="SEASON")
fixture_argument = click.argument("fixture", type=Whole(1), metavar="FIXTURE")
reason_option = click.option("--reason", type=NAME, required=True,
                             help=N_("Why, as the fixture's history keeps it."))
on_option = click.option("--on", type=DATE, default=None, metavar="YYYY-MM-DD",
                         help=N_("The day (default: today)."))


def _json_value(text: str | None, option: str) -> Any:
    return None if text is None else json_value(text, option)


@click.group(help=N_("""\
Leagues: seasons of divisions of teams, fixtures, legs, results, tables, averages.

\b
Example:
  domino league new 2027 --club casino --name "Liga 2027" --singles 6 --pairs 3 \\
      --first-day 2027-01-07
  domino league division 2027 one --club casino --name "Division One"
  domino league team 2027 one crown --club casino --name "The Crown"
  domino league squad 2027 crown Ana Beto Carla --club casino
  domino league generate 2027 --club casino
  domino league table 2027 one --club casino"""))
def league() -> None:
    pass


@league.command("new", help=N_("""\
Create a season (admin: the league's secretary): its fixture format, points, calendar.

\b
Example:
  domino league new 2027 --club casino --name "Liga 2027" --singles 6 --pairs 3 \\
      --first-day 2027-01-07 --week-off 2027-04-01 --promotion 1 --relegation 1"""))
@season_argument
@club_option
@click.option("--name", type=NAME, required=True, help=N_("The season's name."))
@click.option("--singles", type=Whole(0, 30), default=0,
              help=N_("Singles legs a fixture."))
@click.option("--pairs", type=Whole(0, 30), default=0, help=N_("Pairs legs a fixture."))
@click.option("--best-of", type=Whole(1, 9), default=1, show_default=True,
              help=N_("Games a leg is the best of."))
@click.option("--format", "format_text", default=None, metavar="JSON",
              help=N_("The fixture format as JSON, instead of --singles, --pairs, --best-of."))
@click.option("--first-day", type=DATE, required=True, metavar="YYYY-MM-DD",
              help=N_("The first fixture day; its weekday is the season's."))
@click.option("--week-off", "weeks_off", type=DATE, multiple=True, metavar="YYYY-MM-DD",
              help=N_("A fixture day with no round (repeat the option)."))
@click.option("--last-day", type=DATE, default=None, metavar="YYYY-MM-DD",
              help=N_("The season's last day."))
@click.option("--points", "points_text", default=None, metavar="JSON",
              help=N_("The points rule as JSON: win, draw, loss, per_leg, bonus, bonus_margin."))
@click.option("--leg-rules", "rules_text", default=None, metavar="JSON",
              help=N_("Each kind of leg's rules as JSON: {\"singles\": ..., \"pairs\": ...}."))
@click.option("--promotion", type=Whole(0, 64), default=0,
              help=N_("Places promoted in each division."))
@click.option("--relegation", type=Whole(0, 64), default=0,
              help=N_("Places relegated in each division."))
@click.option("--min-legs", type=Whole(1, 1000), default=1, show_default=True,
              help=N_("Legs a player plays to be ranked in the averages."))
@json_option
def league_new(season: str, club_slug: str, name: str, singles: int, pairs: int, best_of: int,
               format_text: str | None, first_day: str, weeks_off: tuple[str, ...],
               last_day: str | None, points_text: str | None, rules_text: str | None,
               promotion: int, relegation: int, min_legs: int, as_json: bool) -> None:
    format_ = (_json_value(format_text, "--format") if format_text is not None
               else {"singles": singles, "pairs": pairs, "best_of": best_of})
    with connect() as service:
        made = service.leagues.create_season(
            club_slug, season, name, format=format_, first_day=first_day,
            weeks_off=list(weeks_off), last_day=last_day,
            points=_json_value(points_text, "--points"),
            leg_rules=_json_value(rules_text, "--leg-rules"), promotion=promotion,
            relegation=relegation, min_legs=min_legs)
    if as_json:
        echo_json(made)
        return
    click.echo(_("created season %(slug)s: %(name)s", slug=made["slug"], name=made["name"]))


@league.command("list", help=N_("""\
The club's seasons, newest first.

\b
Example:
  domino league list --club casino --json"""))
@club_option
@json_option
@csv_option
def league_list(club_slug: str, as_json: bool, as_csv: bool) -> None:
    how = output_format(as_json, as_csv)
    with connect() as service:
        found = service.leagues.seasons(club_slug)
    if echo_rows(how, found, ("slug", "name")):
        return
    for row in found:
        click.echo(f"{row['slug']}: {row['name']}")


@league.command("show", help=N_("""\
A season: its settings, divisions, teams and squads.

\b
Example:
  domino league show 2027 --club casino"""))
@season_argument
@club_option
@json_option
def league_show(season: str, club_slug: str, as_json: bool) -> None:
    with connect() as service:
        shown = service.leagues.season(club_slug, season)
    if as_json:
        echo_json(shown)
        return
    click.echo(f"{shown['name']} ({shown['slug']})")
    for division in shown["divisions"]:
        click.echo(f"{division['name']} ({division['slug']})")
        for team in division["teams"]:
            click.echo(f"  {team['name']} ({team['slug']}): {', '.join(team['squad'])}")
    for moved in shown["transfers"]:
        click.echo(_("transfer: %(player)s to %(team)s on %(day)s (%(reason)s)",
                     player=moved["player"], team=moved["to"], day=moved["on"],
                     reason=moved["reason"]))


@league.command("division", help=N_("""\
Add a division (admin), below the season's others.

\b
Example:
  domino league division 2027 one --name "Division One" --club casino"""))
@season_argument
@click.argument("slug", metavar="DIVISION")
@club_option
@click.option("--name", type=NAME, required=True, help=N_("The division's name."))
def league_division(season: str, slug: str, club_slug: str, name: str) -> None:
    with connect() as service:
        service.leagues.add_division(club_slug, season, slug, name)
    click.echo(_("added division %(slug)s", slug=slug))


@league.command("team", help=N_("""\
Add a team to a division (admin).

\b
Example:
  domino league team 2027 one crown --name "The Crown" --venue "High St" --club casino"""))
@season_argument
@click.argument("division", metavar="DIVISION")
@click.argument("slug", metavar="TEAM")
@club_option
@click.option("--name", type=NAME, required=True, help=N_("The team's name."))
@click.option("--venue", type=NAME, default=None, help=N_("Where it plays at home."))
def league_team(season: str, division: str, slug: str, club_slug: str, name: str,
                venue: str | None) -> None:
    with connect() as service:
        service.leagues.add_team(club_slug, season, division, slug, name, venue=venue)
    click.echo(_("added team %(slug)s", slug=slug))


@league.command("division-edit", help=N_("""\
Rename a division (admin), at any time: its slug, place and fixtures stay.

\b
Example:
  domino league division-edit 2027 one --name "Premier" --club casino"""))
@season_argument
@click.argument("division", metavar="DIVISION")
@club_option
@click.option("--name", type=NAME, required=True, help=N_("The division's new name."))
def league_division_edit(season: str, division: str, club_slug: str, name: str) -> None:
    with connect() as service:
        service.leagues.edit_division(club_slug, season, division, name=name)
    click.echo(_("renamed division %(slug)s: %(name)s", slug=division, name=name))


@league.command("division-remove", help=N_("""\
Remove a division (admin) before the fixtures are made, once it has no team.

\b
Example:
  domino league division-remove 2027 three --club casino"""))
@season_argument
@click.argument("division", metavar="DIVISION")
@club_option
def league_division_remove(season: str, division: str, club_slug: str) -> None:
    with connect() as service:
        service.leagues.remove_division(club_slug, season, division)
    click.echo(_("removed division %(slug)s", slug=division))


@league.command("team-edit", help=N_("""\
Change a team (admin): its name or venue at any time, its division before the fixtures are
made (it is numbered after that division's teams).

\b
Example:
  domino league team-edit 2027 crown --name "The Crown Inn" --venue "Quay St" --club casino
  domino league team-edit 2027 crown --division two --club casino"""))
@season_argument
@click.argument("team", metavar="TEAM")
@club_option
@click.option("--name", type=NAME, default=None, help=N_("The team's new name."))
@click.option("--venue", type=NAME, default=None, help=N_("Where it plays at home now."))
@click.option("--no-venue", is_flag=True, help=N_("It has no venue any more."))
@click.option("--division", default=None, metavar="DIVISION",
              help=N_("The division it moves to."))
def league_team_edit(season: str, team: str, club_slug: str, name: str | None,
                     venue: str | None, no_venue: bool, division: str | None) -> None:
    changes: dict[str, Any] = {"name": name, "division": division}
    if venue is not None or no_venue:
        changes["venue"] = None if no_venue else venue
    with connect() as service:
        done = service.leagues.edit_team(club_slug, season, team, **changes)
    click.echo(_("team %(slug)s: %(name)s, division %(division)s", slug=team,
                 name=done["name"], division=done["division"]))


@league.command("team-remove", help=N_("""\
Remove a team (admin) before the fixtures are made, with its squad; its captains' tokens are
revoked.

\b
Example:
  domino league team-remove 2027 oak --club casino"""))
@season_argument
@click.argument("team", metavar="TEAM")
@club_option
def league_team_remove(season: str, team: str, club_slug: str) -> None:
    with connect() as service:
        service.leagues.remove_team(club_slug, season, team)
    click.echo(_("removed team %(slug)s", slug=team))


@league.command("squad", help=N_("""\
Add players to a team's squad (admin).

\b
Example:
  domino league squad 2027 crown Ana Beto Carla --club casino --on 2027-01-01"""))
@season_argument
@click.argument("team", metavar="TEAM")
@click.argument("players", nargs=-1, required=True, type=NAME, metavar="PLAYER...")
@club_option
@on_option
def league_squad(season: str, team: str, players: tuple[str, ...], club_slug: str,
                 on: str | None) -> None:
    with connect() as service:
        added = service.leagues.add_players(club_slug, season, team, list(players), on=on)
    click.echo(_("added to %(team)s: %(players)s", team=team, players=", ".join(added)))


@league.command("transfer", help=N_("""\
Move a player to another team's squad (admin).

\b
Example:
  domino league transfer 2027 Carla anchor --reason "moved house" --club casino"""))
@season_argument
@click.argument("player", type=NAME, metavar="PLAYER")
@click.argument("team", metavar="TEAM")
@club_option
@reason_option
@on_option
def league_transfer(season: str, player: str, team: str, club_slug: str, reason: str,
                    on: str | None) -> None:
    with connect() as service:
        moved = service.leagues.transfer(club_slug, season, player, team, reason=reason, on=on)
    click.echo(_("%(player)s moved from %(from)s to %(to)s on %(day)s", player=moved["player"],
                 to=moved["to"], day=moved["on"], **{"from": moved["from"]}))


@league.command("captain", help=N_("""\
Issue a captain's token for a team (admin); printed alone, once.

\b
Example:
  domino league captain 2027 crown --club casino"""))
@season_argument
@click.argument("team", metavar="TEAM")
@club_option
@click.option("--label", type=NAME, default=None, help=N_("What the token is called."))
def league_captain(season: str, team: str, club_slug: str, label: str | None) -> None:
    with connect() as service:
        click.echo(service.leagues.captain(club_slug, season, team, label))


@league.command("deduct", help=N_("""\
A points deduction the league ruled (admin).

\b
Example:
  domino league deduct 2027 crown 1 --reason "late result sheet" --club casino"""))
@season_argument
@click.argument("team", metavar="TEAM")
@click.argument("points", type=Whole(1, 1000), metavar="POINTS")
@club_option
@reason_option
def league_deduct(season: str, team: str, points: int, club_slug: str, reason: str) -> None:
    with connect() as service:
        service.leagues.deduct(club_slug, season, team, points, reason=reason)
    click.echo(_("%(points)s points deducted from %(team)s", points=points, team=team))


@league.command("generate", help=N_("""\
Generate every division's fixtures (admin), once.

\b
Example:
  domino league generate 2027 --club casino"""))
@season_argument
@club_option
@json_option
def league_generate(season: str, club_slug: str, as_json: bool) -> None:
    with connect() as service:
        made = service.leagues.generate(club_slug, season)
    if as_json:
        echo_json(made)
        return
    click.echo(_("generated %(count)s fixtures", count=made["fixtures"]))


def _line(f: dict[str, Any]) -> str:
    score = f"{f['legs_won']['home']}-{f['legs_won']['away']}"
    state = (_("walkover") if f["walkover_by"] else _("complete") if f["complete"] else "")
    return (f"{f['id']:>5}  {f['date']}  {f['division']}  {f['round']:>2}  "
            f"{f['home']} v {f['away']}  {score}" + (f"  {state}" if state else ""))


@league.command("fixtures", help=N_("""\
The season's fixtures (a division's, a team's, a round's).

\b
Example:
  domino league fixtures 2027 --club casino --team crown --json"""))
@season_argument
@club_option
@click.option("--division", default=None, help=N_("A division's only."))
@click.option("--team", default=None, help=N_("A team's only."))
@click.option("--round", "round_", type=Whole(1), default=None,
              help=N_("A round's only."))
@json_option
def league_fixtures(season: str, club_slug: str, division: str | None, team: str | None,
                    round_: int | None, as_json: bool) -> None:
    with connect() as service:
        found = service.leagues.fixtures(club_slug, season, division=division, team=team,
                                         round=round_)
    if as_json:
        echo_json(found)
        return
    for f in found:
        click.echo(_line(f))


@league.command("fixture", help=N_("""\
A fixture: its legs, games, history and sheet.

\b
Example:
  domino league fixture 2027 14 --club casino"""))
@season_argument
@fixture_argument
@club_option
@json_option
def league_fixture(season: str, fixture: int, club_slug: str, as_json: bool) -> None:
    with connect() as service:
        shown = service.leagues.fixture(club_slug, season, fixture)
    if as_json:
        echo_json(shown)
        return
    click.echo(_line(shown))
    for leg in shown["legs"]:
        players = f"{' & '.join(leg['home']) or '-'} v {' & '.join(leg['away']) or '-'}"
        games = ", ".join(str(g["match"]) for g in leg["games"])
        click.echo(f"  {leg['leg']}. {leg['kind']}: {players}  {leg['status']}"
                   + (f" ({leg['winner']})" if leg["winner"] else "")
                   + (f"  [{games}]" if games else ""))
    for line in shown["history"]:
        click.echo(f"  {line['at']}  {line['kind']}")


@league.command("postpone", help=N_("""\
Move a fixture to a new date (admin).

\b
Example:
  domino league postpone 2027 14 2027-03-02 --reason "the pub flooded" --club casino"""))
@season_argument
@fixture_argument
@click.argument("to", type=DATE, metavar="YYYY-MM-DD")
@club_option
@reason_option
def league_postpone(season: str, fixture: int, to: str, club_slug: str, reason: str) -> None:
    with connect() as service:
        moved = service.leagues.postpone(club_slug, season, fixture, to, reason=reason)
    click.echo(_("fixture %(fixture)s moved from %(was)s to %(to)s", fixture=fixture,
                 was=moved["was"], to=moved["date"]))


@league.command("swap", help=N_("""\
Swap a fixture's home and away (admin): the two teams' meetings exchange their dates.

\b
Example:
  domino league swap 2027 14 --reason "the pub is shut that week" --club casino"""))
@season_argument
@fixture_argument
@club_option
@reason_option
def league_swap(season: str, fixture: int, club_slug: str, reason: str) -> None:
    with connect() as service:
        swapped = service.leagues.swap(club_slug, season, fixture, reason=reason)
    click.echo(_("fixture %(fixture)s moved to %(date)s and fixture %(other)s to %(other_date)s: "
                 "home and away swapped", **swapped))


@league.command("concede", help=N_("""\
Concede a leg (a captain for its team, or admin).

\b
Example:
  domino league concede 2027 14 3 --side away --reason "no player" --club casino"""))
@season_argument
@fixture_argument
@click.argument("leg", type=Whole(1), metavar="LEG")
@click.option("--side", type=click.Choice(SIDES), required=True,
              help=N_("The team that concedes it."))
@club_option
@reason_option
def league_concede(season: str, fixture: int, leg: int, side: str, club_slug: str,
                   reason: str) -> None:
    with connect() as service:
        service.leagues.concede(club_slug, season, fixture, leg, side, reason=reason)
    click.echo(_("leg %(leg)s of fixture %(fixture)s conceded", leg=leg, fixture=fixture))


@league.command("walkover", help=N_("""\
Award a fixture as a walkover (admin).

\b
Example:
  domino league walkover 2027 14 --by away --reason "did not turn up" --club casino"""))
@season_argument
@fixture_argument
@click.option("--by", type=click.Choice(SIDES), required=True,
              help=N_("The team that did not turn up."))
@club_option
@reason_option
def league_walkover(season: str, fixture: int, by: str, club_slug: str, reason: str) -> None:
    with connect() as service:
        service.leagues.walkover(club_slug, season, fixture, by, reason=reason)
    click.echo(_("fixture %(fixture)s awarded as a walkover", fixture=fixture))


@league.command("leg", help=N_("""\
Start a leg's next game as a new match (--home and --away players), or tag a match recorded
already (--match). Its events are then recorded as any match's.

\b
Example:
  domino league leg 2027 14 1 --home Ana --away Dani --club casino
  domino league leg 2027 14 2 --match 231 --club casino"""))
@season_argument
@fixture_argument
@click.argument("leg", type=Whole(1), metavar="LEG")
@click.option("--home", multiple=True, type=NAME, help=N_("A home player (repeat the option)."))
@click.option("--away", multiple=True, type=NAME, help=N_("An away player (repeat the option)."))
@click.option("--match", "match_id", type=Whole(1), default=None,
              help=N_("A match recorded already."))
@club_option
@json_option
def league_leg(season: str, fixture: int, leg: int, home: tuple[str, ...],
               away: tuple[str, ...], match_id: int | None, club_slug: str,
               as_json: bool) -> None:
    if match_id is not None and (home or away):
        raise click.UsageError(_("give --home and --away, or --match, not both"))
    with connect() as service:
        if match_id is not None:
            game = service.leagues.attach_leg(club_slug, season, fixture, leg, match_id)
        else:
            game = service.leagues.record_leg(club_slug, season, fixture, leg,
                                              home=list(home), away=list(away))
    if as_json:
        echo_json(game)
        return
    click.echo(_("leg %(leg)s, game %(game)s: match %(match)s", leg=leg, game=game["game"],
                 match=game["match"]))


@league.command("confirm", help=N_("""\
Confirm a fixture's result for a team (home or away).

\b
Example:
  domino league confirm 2027 14 --side home --club casino"""))
@season_argument
@fixture_argument
@click.option("--side", type=click.Choice(SIDES), required=True,
              help=N_("The team confirmed for."))
@club_option
def league_confirm(season: str, fixture: int, side: str, club_slug: str) -> None:
    with connect() as service:
        done = service.leagues.confirm(club_slug, season, fixture, side=side)
    click.echo(_("fixture %(fixture)s confirmed for %(side)s", fixture=fixture, side=side))
    if done["sheet"] is not None:
        click.echo(_("result sheet %(number)s signed", number=done["sheet"]["number"]))


@league.command("sheet", help=N_("""\
Print a fixture's signed result sheet (JSON).

\b
Example:
  domino league sheet 2027 14 --club casino > sheet-14.json"""))
@season_argument
@fixture_argument
@club_option
def league_sheet(season: str, fixture: int, club_slug: str) -> None:
    with connect() as service:
        echo_json(service.leagues.sheet(club_slug, season, fixture))


@league.command("table", help=N_("""\
A division's table.

\b
Example:
  domino league table 2027 one --club casino --json"""))
@season_argument
@click.argument("division", metavar="DIVISION")
@club_option
@json_option
def league_table(season: str, division: str, club_slug: str, as_json: bool) -> None:
    with connect() as service:
        table = service.leagues.table(club_slug, season, division)
    if as_json:
        echo_json(table)
        return
    click.echo(_("pos  team  P  W  D  L  F  A  diff  pts  form"))
    for r in table["rows"]:
        click.echo(f"{r['place']:>3}  {r['name']}  {r['played']}  {r['won']}  {r['drawn']}  "
                   f"{r['lost']}  {r['legs_for']}  {r['legs_against']}  "
                   f"{r['leg_difference']:+}  {r['points']}  {''.join(x[0] for x in r['form'])}"
                   + (f"  {r['zone']}" if r["zone"] else ""))


@league.command("averages", help=N_("""\
The players' averages (the season's, or a division's).

\b
Example:
  domino league averages 2027 --division one --club casino"""))
@season_argument
@click.option("--division", default=None, help=N_("A division's only."))
@club_option
@json_option
def league_averages(season: str, division: str | None, club_slug: str, as_json: bool) -> None:
    with connect() as service:
        found = service.leagues.averages(club_slug, season, division=division)
    if as_json:
        echo_json(found)
        return
    for a in found:
        rank = a["rank"] if a["rank"] is not None else "-"
        click.echo(f"{rank:>3}  {a['player']}  {a['legs_won']}/{a['legs_played']}  "
                   f"{a['win_rate']:.3f}")


@league.command("team-page", help=N_("""\
A team: squad, fixtures, its line of the table.

\b
Example:
  domino league team-page 2027 crown --club casino"""))
@season_argument
@click.argument("team", metavar="TEAM")
@club_option
@json_option
def league_team_page(season: str, team: str, club_slug: str, as_json: bool) -> None:
    with connect() as service:
        page = service.leagues.team(club_slug, season, team)
    if as_json:
        echo_json(page)
        return
    click.echo(f"{page['name']} ({page['team']}), {page['division']}: "
               + ", ".join(page["squad"]))
    for f in page["fixtures"]:
        click.echo(_line(f))


from .cups import cup  # noqa: E402  (domino league cup ...: cli/cups.py)

league.add_command(cup)
