"""``domino league swap``: a fixture's home and away swapped (its two teams' meetings exchange
their dates), said in a line; once a meeting has begun, a clear error and nothing changed."""

from __future__ import annotations

from cli_helpers import CLUB, Cli
from league_helpers import fixture_id, set_up


def test_swap_from_the_command_line(cli: Cli) -> None:
    set_up(cli.service, CLUB)
    first, back = (fixture_id(cli.service, CLUB, h, a) for h, a in (("oak", "elm"),
                                                                     ("elm", "oak")))
    dates = {f: cli.service.leagues.fixture(CLUB, "2027", f)["date"] for f in (first, back)}
    done = cli.run("league", "swap", "2027", str(first), "--reason", "the bar is shut",
                   "--club", CLUB)
    assert (f"fixture {first} moved to {dates[back]} and fixture {back} to {dates[first]}: "
            "home and away swapped") in done.output
    cli.service.leagues.record_leg(CLUB, "2027", first, 1, home=["Mara"], away=["Olga"])
    before = cli.service.leagues.fixtures(CLUB, "2027")
    refused = cli.run("league", "swap", "2027", str(back), "--reason", "again", "--club", CLUB,
                      code=1)
    assert f"fixture {first} has begun" in refused.output
    assert cli.service.leagues.fixtures(CLUB, "2027") == before
