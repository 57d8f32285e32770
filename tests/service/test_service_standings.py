"""Standings and ratings in the service, on SQLite and PostgreSQL: the projection against
results computed here from the rules core for random finished matches (players and
partnerships, with period and event filters), tie-breakers with head-to-head, flagged matches,
a ruling after the end that changes standings and ratings at once, provisional ratings, CSV
escaping, the rating history, and a rebuild that changes nothing."""

from __future__ import annotations

import csv
import io
import random
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import Engine, select
from template_helpers import seeded

from referee.core.log import make_log, write_log
from referee.core.replay import replay
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match
from referee.service import Caller, Forbidden, Invalid, NotFound, Service
from referee.service.ratings import rating_points as POINTS  # noqa: N812 (a constant-like function)
from referee.service.standings import COLUMNS, DEFAULT_TIE_BREAKERS, PARTNERSHIP_COLUMNS
from referee.store.db import reading
from referee.store.schema import current_ratings, player_ratings, standing_months, standing_rows

POOL = ["Ana", "Beto", "Carla", "Dani", "Eva", "Fede"]
PRESETS = {"parejas": 4, "mano-a-mano": 2, "veracruz": 3, "puerto-rico": 4}
DAYS = ["2025-01-05", "2025-02-10", "2025-03-15"]
EVENTS = [None, "liga", "copa"]
# The model as docs/standings.md gives it, built here again: the test checks the numbers.
MODEL = PlackettLuce(mu=25.0, sigma=25 / 3, beta=25 / 6, kappa=0.0001, tau=25 / 300)
SUMS = ("played", "won", "lost", "rounds_won", "points_for", "points_against", "flagged")

SMALL = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none", "target": 5}
# Closed: seat 1 passes at 3 on the 6s, then plays the 6-4 at 5 (a renege the record proves);
# seat 0 goes out at 6 and wins the match 9-0; seat 1 shows its last two tiles at 7.
RENEGE = [{"type": "deal"}, {"type": "play", "seat": 0, "tile": "6-6"},
          {"type": "pass", "seat": 1}, {"type": "play", "seat": 0, "tile": "6-5"},
          {"type": "play", "seat": 1, "tile": "6-4"}, {"type": "play", "seat": 0, "tile": "5-5"},
          {"type": "reveal", "seat": 1, "tiles": ["3-3", "2-1"]}]


def log_text(header: dict, events: list) -> str:
    return write_log(make_log(header, events))


def finished_log(preset: str, players: list[str], seed: int) -> tuple[dict, list]:
    """A random legal match that ends finished (the simulator caps the rounds)."""
    while True:
        header, events = random_match(preset, players, random.Random(seed))
        result = replay(resolve_rules(preset, len(players)), players, events)
        if result.match.finished:
            return header, events
        seed += 1000


def outcome(header: dict, events: list) -> dict[str, Any]:
    """What the match adds to each seat, from the rules core alone."""
    rules = resolve_rules(header["rules"], len(header["players"]))
    match = replay(rules, header["players"], events).match
    totals, winner = list(match.totals), match.winner
    rounds = [sum(r.winner == side for r in match.results()) for side in range(len(totals))]
    seats = []
    for seat, name in enumerate(header["players"]):
        side = rules.side_of(seat)
        partners = [header["players"][s] for s in rules.seats_of(side) if s != seat]
        seats.append({"player": name, "side": side, "partner": partners[0] if partners else None,
                      "won": int(winner == side), "lost": int(winner is not None and winner != side),
                      "rounds_won": rounds[side], "points_for": totals[side],
                      "points_against": sum(totals) - totals[side]})
    return {"seats": seats, "winner": winner, "sides": rules.sides,
            "date": header.get("date"), "event": header.get("event")}


def expected_table(results: list[dict], *, group: str = "players", date_from: str | None = None,
                   date_to: str | None = None, event: str | None = None,
                   everyone: list[str] = ()) -> dict[Any, dict[str, int]]:
    table: dict[Any, dict[str, int]] = {}
    if group == "players" and event is None:  # an event's table is its players' alone
        for name in everyone:
            table[name] = dict.fromkeys(SUMS, 0)
    for result in results:
        if date_from and result["date"] < date_from or date_to and result["date"] > date_to:
            continue
        if event is not None and result["event"] != event:
            continue
        for seat in result["seats"]:
            if group == "players":
                key = seat["player"]
            elif seat["partner"] is not None and seat["player"] < seat["partner"]:
                key = (seat["player"], seat["partner"])
            else:
                continue
            line = table.setdefault(key, dict.fromkeys(SUMS, 0))
            line["played"] += 1
            for k in ("won", "lost", "rounds_won", "points_for", "points_against"):
                line[k] += seat[k]
    return table


def got_table(rows: list[dict]) -> dict[Any, dict[str, int]]:
    return {(r["player"] if "player" in r else tuple(r["partners"])): {k: r[k] for k in SUMS}
            for r in rows}


def expected_ratings(results: list[dict]) -> dict[str, Any]:
    """mu, sigma and games per player, rating the matches in the order they finished."""
    state: dict[str, Any] = {}
    for result in results:
        sides: dict[int, list[str]] = {}
        for seat in result["seats"]:
            sides.setdefault(seat["side"], []).append(seat["player"])
        order = sorted(sides)
        teams = [[state.get(n, (MODEL.rating(), 0))[0] for n in sides[s]] for s in order]
        ranks = [0 if result["winner"] in (None, s) else 1 for s in order]
        new = MODEL.rate(teams, ranks=ranks)
        for s, team in zip(order, new):
            for name, rating in zip(sides[s], team):
                state[name] = (rating, state.get(name, (None, 0))[1] + 1)
    return {name: (r.mu, r.sigma, games) for name, (r, games) in state.items()}


def record_live(service: Service, club: str, header: dict, events: list) -> int:
    """The match created and recorded event by event, as a table would."""
    fields = {k: header[k] for k in ("date", "event") if header.get(k) is not None}
    match_id = service.recording.create_match(club, header["rules"], header["players"],
                                              **fields)["id"]
    for seq, event in enumerate(events):
        service.recording.record_event(match_id, event, expected_seq=seq)
    return match_id


@pytest.fixture
def season(service: Service, club: str) -> list[dict]:
    """Fourteen random finished matches of the pool, some imported whole, some recorded live,
    on three days and at two events (or none), and one unfinished match that counts nowhere.
    Built once a session (seconds of replays) and copied into each test's database
    (template_helpers.seeded): the club as the ``club`` fixture made it, then the matches."""
    name = service.clubs.get_club(club)["name"]

    def build(engine: Engine) -> list[dict]:
        built = Service(engine)
        built.clubs.create_club(club, name)
        results = played_season(built, club)
        built.notifier.close()
        return results

    return seeded(service.engine, "standings season", build)


def played_season(service: Service, club: str) -> list[dict]:
    rng = random.Random(7)
    results = []
    for n in range(14):
        preset = rng.choice(list(PRESETS))
        players = rng.sample(POOL, PRESETS[preset])
        header, events = finished_log(preset, players, seed=n)
        header["date"] = rng.choice(DAYS)
        if (event := rng.choice(EVENTS)) is not None:
            header["event"] = event
        if n % 3:
            assert service.recording.import_log(club, log_text(header, events))["status"] == "finished"
        else:
            record_live(service, club, header, events)
        results.append(outcome(header, events))
    header, events = finished_log("parejas", POOL[:4], seed=99)
    service.recording.import_log(club, log_text(header, events[:9]))  # unfinished
    return results


# ------------------------------------------------------------------------ the projection


def test_standings_are_the_results_summed(service: Service, club: str, season: list) -> None:
    rows = service.standings.table(club)
    assert got_table(rows) == expected_table(season, everyone=POOL)
    assert [list(r) for r in rows] == [list(COLUMNS)] * len(rows)
    for r in rows:
        assert r["difference"] == r["points_for"] - r["points_against"]
        assert r["win_rate"] == (round(r["won"] / r["played"], 4) if r["played"] else 0.0)
    partnerships = service.standings.table(club, group="partnerships")
    assert got_table(partnerships) == expected_table(season, group="partnerships")
    assert partnerships and all(len(r["partners"]) == 2 for r in partnerships)
    assert [list(r) for r in partnerships][0] == ["rank", "partners", *COLUMNS[2:]]


@pytest.mark.parametrize("filters", [
    {"date_from": "2025-02-01"}, {"date_to": "2025-02-10"},
    {"date_from": "2025-02-10", "date_to": "2025-02-10"}, {"event": "liga"}, {"event": "copa"},
    {"event": "liga", "date_from": "2025-03-01"}, {"event": "nowhere"},
    {"date_to": "2025-02-28"}, {"date_from": "2025-01-01", "date_to": "2025-03-31"},
    {"date_from": "2025-01-05", "date_to": "2025-03-15", "event": "copa"},
    {"date_from": "2025-01-06", "date_to": "2025-03-14"},
    # the calendar's ends: a last day with no day after it (an OverflowError, a 500 on the
    # pages), a first month after December 9999 (written "10000-01", it sorted before every
    # month and counted them all)
    {"date_to": "9999-12-31"}, {"date_from": "9999-12-02"},
    {"date_from": "0001-01-02", "date_to": "9999-12-30"}])
def test_filters(service: Service, club: str, season: list, filters: dict) -> None:
    for group in ("players", "partnerships"):
        rows = service.standings.table(club, group=group, **filters)
        everyone = POOL if group == "players" else ()
        assert got_table(rows) == expected_table(season, group=group, everyone=everyone, **filters)


def test_default_ranking(service: Service, club: str, season: list) -> None:
    rows = service.standings.table(club)
    keys = [(r["won"], r["difference"], r["points_for"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    for a, b in zip(rows, rows[1:]):
        if a["rank"] == b["rank"]:
            assert (a["won"], a["difference"], a["points_for"]) == (b["won"], b["difference"],
                                                                    b["points_for"])
        else:
            assert b["rank"] == rows.index(b) + 1  # ties share a rank: 1, 2, 2, 4


def test_ratings_follow_the_finishing_order(service: Service, club: str, season: list) -> None:
    expected = expected_ratings(season)
    rows = {r["player"]: r for r in service.standings.table(club)}
    for name, (mu, sigma, games) in expected.items():
        assert rows[name]["rating"] == POINTS(mu, sigma)
        assert rows[name]["rating_games"] == games
        assert rows[name]["provisional"] == (sigma > 7.0)
    history = service.standings.rating_history(club, "Ana")
    assert [h["games"] for h in history] == list(range(1, expected["Ana"][2] + 1))
    last = history[-1]
    assert set(last) == {"match", "played_on", "finished_at", "mu", "sigma", "rating", "games",
                         "provisional", "rating_points"}
    assert last["rating_points"] == last["rating"] == round(1000 + 40 * (last["mu"] - 3 * last["sigma"]))
    assert last["mu"] == pytest.approx(expected["Ana"][0])
    assert last["sigma"] == pytest.approx(expected["Ana"][1])
    assert last["played_on"] in DAYS
    assert service.standings.rating_history(club, _player_id(service, "Ana")) == history
    # A partnership: its partners' mean, their fewer games, provisional if either is.
    for r in service.standings.table(club, group="partnerships"):
        a, b = (rows[n] for n in r["partners"])
        assert r["rating"] == pytest.approx((a["rating"] + b["rating"]) / 2, abs=1)  # points
        assert r["rating_games"] == min(a["rating_games"], b["rating_games"])
        assert r["provisional"] == (a["provisional"] or b["provisional"])


def test_a_rebuild_changes_nothing(service: Service, club: str, season: list) -> None:
    def snapshot() -> tuple:
        with reading(service.engine) as conn:
            return tuple(sorted(tuple(r) for r in conn.execute(select(t)))
                         for t in (standing_rows, player_ratings, current_ratings,
                                   standing_months))

    before, table = snapshot(), service.standings.table(club)
    service.rebuild()
    after = snapshot()
    assert after[0] == before[0] and after[3] == before[3]
    assert [r[:4] + r[6:] for r in after[1]] == [r[:4] + r[6:] for r in before[1]]
    assert all(a[4] == pytest.approx(b[4]) and a[5] == pytest.approx(b[5])
               for a, b in zip(after[1], before[1]))
    assert service.standings.table(club) == table


def _player_id(service: Service, name: str) -> int:
    from referee.store.schema import players

    with reading(service.engine) as conn:
        return conn.execute(select(players.c.id).where(players.c.name == name)).scalar_one()


# ------------------------------------------------------------------------ tie-breakers


def _seed_won_by_seat_0() -> int:
    for seed in range(100):
        header, events = finished_log("mano-a-mano", ["X", "Y"], seed)
        if outcome(header, events)["winner"] == 0:
            return seed
    raise AssertionError("no seed")


def beat(service: Service, club: str, winner: str, loser: str, day: str = "2025-01-05") -> dict:
    header, events = finished_log("mano-a-mano", [winner, loser], _seed_won_by_seat_0())
    header["date"] = day
    service.recording.import_log(club, log_text(header, events))
    return outcome(header, events)


def test_tie_breakers_head_to_head_and_shared_ranks(service: Service, club: str) -> None:
    # Ana beats Beto, Beto beats Carla: Ana and Beto have a win each, Carla none.
    beat(service, club, "Ana", "Beto")
    beat(service, club, "Beto", "Carla")
    assert service.standings.tie_breakers(club) == list(DEFAULT_TIE_BREAKERS)
    service.standings.set_tie_breakers(club, ["won", "head_to_head"])
    rows = service.standings.table(club)
    assert [(r["rank"], r["player"]) for r in rows] == [(1, "Ana"), (2, "Beto"), (3, "Carla")]
    # On wins alone Ana and Beto share the first place, and Carla is third.
    club_row = service.standings.set_tie_breakers(club, ["won"])
    assert club_row["tie_breakers"] == ["won"] and club_row["slug"] == club
    assert [(r["rank"], r["player"]) for r in service.standings.table(club)] == [
        (1, "Ana"), (1, "Beto"), (3, "Carla")]
    # Fewer points against is better; head-to-head only among the tied.
    service.standings.set_tie_breakers(club, ["points_against", "head_to_head"])
    rows = service.standings.table(club)
    keys = [-r["points_against"] for r in rows]
    assert keys == sorted(keys, reverse=True)
    # Back to the default.
    assert service.standings.set_tie_breakers(club, None)["tie_breakers"] == list(DEFAULT_TIE_BREAKERS)
    assert service.standings.tie_breakers(club) == list(DEFAULT_TIE_BREAKERS)


def test_head_to_head_counts_only_games_among_the_tied(service: Service, club: str) -> None:
    # Ana and Beto each win two; Ana beat Beto once and Beto beat Ana twice among them, but
    # Ana's wins over Carla do not count: Beto is first.
    beat(service, club, "Ana", "Beto")
    beat(service, club, "Beto", "Ana")
    beat(service, club, "Beto", "Ana")
    beat(service, club, "Ana", "Carla")
    service.standings.set_tie_breakers(club, ["won", "head_to_head"])
    rows = service.standings.table(club)
    assert [(r["rank"], r["player"], r["won"]) for r in rows] == [
        (1, "Beto", 2), (2, "Ana", 2), (3, "Carla", 0)]
    # Within a period where they are tied and never met, they share the rank.
    beat(service, club, "Ana", "Dani", day="2025-06-01")
    beat(service, club, "Beto", "Carla", day="2025-06-01")
    rows = service.standings.table(club, date_from="2025-06-01")
    assert [(r["rank"], r["player"]) for r in rows[:2]] == [(1, "Ana"), (1, "Beto")]


def test_partnership_head_to_head(service: Service, club: str) -> None:
    # The same four, the same partners, twice: each pair wins what its seats win.
    header, events = finished_log("parejas", ["Ana", "Beto", "Carla", "Dani"], 3)
    first = outcome(header, events)
    service.recording.import_log(club, log_text(header, events))
    header, events = finished_log("parejas", ["Beto", "Ana", "Dani", "Carla"], 3)
    service.recording.import_log(club, log_text(header, events))
    service.standings.set_tie_breakers(club, ["won", "head_to_head"])
    rows = service.standings.table(club, group="partnerships")
    assert sorted(tuple(r["partners"]) for r in rows) == [("Ana", "Carla"), ("Beto", "Dani")]
    assert [r["won"] for r in rows] == [1, 1] and [r["rank"] for r in rows] == [1, 1]
    assert first["winner"] in (0, 1)


def test_tie_breakers_are_checked_and_an_admins(service: Service, club: str) -> None:
    for bad in ([], ["won", "won"], ["luck"], "won", [1]):
        with pytest.raises(Invalid):
            service.standings.set_tie_breakers(club, bad)
    with pytest.raises(Forbidden):
        service.standings.set_tie_breakers(club, ["won"], who=Caller(club, "referee", 3, "x"))
    with pytest.raises(NotFound):
        service.standings.set_tie_breakers("nowhere", ["won"])
    service.standings.set_tie_breakers(club, ["won"], who=Caller(club, "admin", 4, "y"))


def test_bad_reads(service: Service, club: str) -> None:
    with pytest.raises(Invalid):
        service.standings.table(club, group="teams")
    with pytest.raises(Invalid):
        service.standings.table(club, date_from="yesterday")
    with pytest.raises(Invalid):
        service.standings.table(club, event=7)
    with pytest.raises(NotFound):
        service.standings.table("nowhere")
    with pytest.raises(NotFound):
        service.standings.rating_history(club, "Nobody")
    with pytest.raises(Forbidden):
        service.standings.table(club, who=Caller("other", "admin", 5, "z"))


# ------------------------------------------------------------------------ disputes, rulings


def renege_match(service: Service, club: str) -> int:
    match_id = service.recording.create_match(club, SMALL, ["Ana", "Beto"],
                                              date="2025-01-05")["id"]
    for event in RENEGE:
        service.recording.record_event(match_id, event, expected_seq=None)
    return match_id


def _line(service: Service, club: str, name: str) -> dict:
    return next(r for r in service.standings.table(club) if r["player"] == name)


def test_an_open_dispute_counts_flagged_until_ruled(service: Service, club: str) -> None:
    match_id = renege_match(service, club)
    ana = _line(service, club, "Ana")
    assert (ana["played"], ana["won"], ana["points_for"], ana["flagged"]) == (1, 1, 9, 1)
    history = service.standings.rating_history(club, "Ana")
    service.recording.record_event(match_id, {"type": "stands", "target": 3, "reason": "agreed"},
                                   expected_seq=7)
    ana = _line(service, club, "Ana")
    assert (ana["played"], ana["won"], ana["flagged"]) == (1, 1, 0)
    assert service.standings.rating_history(club, "Ana") == history  # the result stood


def test_a_ruling_after_the_end_changes_standings_and_ratings_at_once(service: Service,
                                                                      club: str) -> None:
    beat(service, club, "Carla", "Ana")  # an earlier match of Ana's
    match_id = renege_match(service, club)
    beat(service, club, "Beto", "Carla")  # and a later one of Beto's
    before = {n: _line(service, club, n) for n in ("Ana", "Beto")}
    assert before["Ana"]["won"] == 1 and before["Beto"]["lost"] == 1
    penalty = {"type": "penalty", "side": 1, "points": 50, "target": 3, "reason": "renege"}
    service.recording.record_event(match_id, penalty, expected_seq=7)
    # The result turned: Beto won 50-9; the same read shows it and the ratings it makes.
    ana, beto = (_line(service, club, n) for n in ("Ana", "Beto"))
    assert (beto["won"], beto["lost"], beto["flagged"]) == (2, 0, 0)
    assert (ana["won"], ana["lost"], ana["flagged"]) == (0, 2, 0)
    # Ratings: recomputed from the ruled match on, the later match included, as if Beto had
    # won it all along.
    order = [("Carla", "Ana"), ("Beto", "Ana"), ("Beto", "Carla")]
    expected = expected_ratings([_duel(winner, loser) for winner, loser in order])
    for name in ("Ana", "Beto", "Carla"):
        mu, sigma, games = expected[name]
        line = _line(service, club, name)
        assert line["rating"] == POINTS(mu, sigma) and line["rating_games"] == games
    assert [h["match"] for h in service.standings.rating_history(club, "Beto")][0] == match_id
    # The penalty voided: Ana's win is back, and the ratings with it.
    service.recording.record_event(match_id, {"type": "void", "target": 8, "reason": "no"},
                                   expected_seq=8)
    assert _line(service, club, "Ana")["won"] == 1
    expected = expected_ratings([_duel(winner, loser) for winner, loser in
                                 [("Carla", "Ana"), ("Ana", "Beto"), ("Beto", "Carla")]])
    assert _line(service, club, "Beto")["rating"] == POINTS(*expected["Beto"][:2])
    # A void of the last play takes the match back into play: it counts nowhere, and the
    # ratings are as if it had never finished.
    service.recording.record_event(match_id, {"type": "void", "target": 6, "reason": "typo"},
                                   expected_seq=9)
    assert service.reading.get_match(match_id)["status"] == "in_progress"
    ana = _line(service, club, "Ana")
    assert (ana["played"], ana["lost"]) == (1, 1)
    expected = expected_ratings([_duel(winner, loser) for winner, loser in (order[0], order[2])])
    for name in ("Ana", "Beto", "Carla"):
        mu, sigma, games = expected[name]
        assert _line(service, club, name)["rating"] == POINTS(mu, sigma)
        assert _line(service, club, name)["rating_games"] == games
    assert match_id not in [h["match"] for h in service.standings.rating_history(club, "Ana")]


def _duel(winner: str, loser: str) -> dict:
    return {"seats": [{"player": winner, "side": 0}, {"player": loser, "side": 1}], "winner": 0}


def test_provisional_until_sigma_falls(service: Service, club: str) -> None:
    for n in range(8):
        beat(service, club, *(("Ana", "Beto") if n % 2 else ("Beto", "Ana")))
    history = service.standings.rating_history(club, "Ana")
    assert [h["provisional"] for h in history] == [h["sigma"] > 7.0 for h in history]
    assert history[0]["provisional"] and not history[-1]["provisional"]
    assert not _line(service, club, "Ana")["provisional"]
    service.players.create(club, "Zoe")  # no match: provisional, rated 0
    zoe = _line(service, club, "Zoe")
    assert (zoe["played"], zoe["rating"], zoe["rating_games"], zoe["provisional"]) == (0, 1000, 0, True)
    # no match: listed apart, not ranked; a newcomer's points are 1000
    assert (zoe["rank"], zoe["ranked"], zoe["rating_points"]) == (None, False, 1000)


# ------------------------------------------------------------------------ CSV


def test_csv_escapes_formulas_and_keeps_the_filters(service: Service, club: str) -> None:
    names = ["=cmd|' /C calc'!A0", "+Ana", "-Beto", "@Carla"]
    header, events = finished_log("parejas", names, 5)
    header["event"] = "liga"
    service.recording.import_log(club, log_text(header, events))
    rows = list(csv.reader(io.StringIO(service.standings.csv(club))))
    assert rows[0] == list(COLUMNS)
    assert sorted(r[1] for r in rows[1:]) == sorted("'" + n for n in names)
    assert {r[-1] for r in rows[1:]} == {"true"}
    pairs = list(csv.reader(io.StringIO(service.standings.csv(club, group="partnerships",
                                                              event="liga"))))
    assert pairs[0] == list(PARTNERSHIP_COLUMNS) and len(pairs) == 3
    assert {c for r in pairs[1:] for c in r[1:3]} <= {"'" + n for n in names}
    assert list(csv.reader(io.StringIO(service.standings.csv(club, group="partnerships",
                                                             event="copa")))) == [
        list(PARTNERSHIP_COLUMNS)]


def test_matches_finishing_at_once_get_places_of_their_own(service: Service, club: str) -> None:
    # Eight matches sharing a player, each finished by its last event from its own thread at
    # once: every one gets a place of its own, and the ratings are those of that order.
    import threading

    seed = _seed_won_by_seat_0()
    header, events = finished_log("mano-a-mano", ["X", "Y"], seed)
    pairs = [("Ana", name) for name in ("Beto", "Carla", "Dani", "Eva", "Fede", "Gus", "Hugo",
                                        "Ines")]
    ids = [record_live(service, club, {**header, "players": list(p)}, events[:-1]) for p in pairs]
    barrier = threading.Barrier(len(ids))
    failures: list[BaseException] = []

    def finish(match_id: int) -> None:
        try:
            barrier.wait()
            service.recording.record_event(match_id, events[-1], expected_seq=len(events) - 1)
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=finish, args=(m,)) for m in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
    with reading(service.engine) as conn:
        order = conn.execute(select(standing_rows.c.match_id, standing_rows.c.finish_seq)
                             .where(standing_rows.c.seat == 0)
                             .order_by(standing_rows.c.finish_seq)).all()
    assert len({seq for _, seq in order}) == len(ids) == len(order)
    by_id = dict(zip(ids, pairs))
    expected = expected_ratings([_duel(*by_id[m]) for m, _ in order])
    rows = {r["player"]: r for r in service.standings.table(club)}
    for name, (mu, sigma, games) in expected.items():
        assert rows[name]["rating"] == POINTS(mu, sigma) and rows[name]["rating_games"] == games


def test_a_long_event_name_is_kept_and_filtered(service: Service, club: str) -> None:
    long = "Campeonato " + "muy " * 150 + "largo"  # its key is a hash (over 200 characters)
    header, events = finished_log("parejas", POOL[:4], 11)
    header["event"] = long
    service.recording.import_log(club, log_text(header, events))
    header, events = finished_log("parejas", POOL[2:], 12)
    header["event"] = long + "!"
    service.recording.import_log(club, log_text(header, events))
    assert {r["player"] for r in service.standings.table(club, event=long) if r["played"]} == \
        set(POOL[:4])
    assert {r["player"] for r in service.standings.table(club, event=long + "!")
            if r["played"]} == set(POOL[2:])
    with pytest.raises(Invalid):  # a filter is at most 1000 characters
        service.standings.table(club, event="x" * 1001)


def test_a_merge_moves_standings_and_ratings(service: Service, club: str) -> None:
    # "Anita" was Ana recorded under another name: merged, her matches are Ana's, and Ana is
    # rated over all of them in finishing order.
    beat(service, club, "Ana", "Beto")
    beat(service, club, "Carla", "Anita")
    beat(service, club, "Anita", "Beto")
    beat(service, club, "Beto", "Carla")
    service.players.merge(club, "Anita", "Ana", "one person")
    rows = {r["player"]: r for r in service.standings.table(club)}
    assert "Anita" not in rows
    assert (rows["Ana"]["played"], rows["Ana"]["won"], rows["Ana"]["lost"]) == (3, 2, 1)
    order = [("Ana", "Beto"), ("Carla", "Ana"), ("Ana", "Beto"), ("Beto", "Carla")]
    expected = expected_ratings([_duel(winner, loser) for winner, loser in order])
    for name in ("Ana", "Beto", "Carla"):
        mu, sigma, games = expected[name]
        assert rows[name]["rating"] == POINTS(mu, sigma)
        assert rows[name]["rating_games"] == games
    assert [h["games"] for h in service.standings.rating_history(club, "Ana")] == [1, 2, 3]
    assert service.standings.table(club, date_from="2025-01-01")[0]["played"] >= 1
