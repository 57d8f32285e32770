"""Brackets kept in the store hold (hypothesis), on SQLite and PostgreSQL: a cup of 2 to 9
players, single or double elimination, drawn from a recorded seed with some seeded, its ties
played through the service to the end in a random order of who wins (each tie's matches real
matches, won at once): everyone out has lost exactly once (twice in double elimination), the
champion is the one entrant never out; the draw's byes are all in the first round; the draw
made again from the recorded seed is identical (and another seed is refused once a tie is
played); the stored cup's bracket is the engine's own from the same draw and winners."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from league_helpers import win_game

from referee.service import Invalid, Service
from referee.service.leagues import bracket, draw_cup

NAMES = ["Ana", "Beto", "Carla", "Dani", "Eva", "Fede", "Gabi", "Hugo", "Ines"]
COUNTER = itertools.count()


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(n=st.integers(2, 9), seed=st.integers(0, 2**64 - 1),
       fmt=st.sampled_from(["single_elimination", "double_elimination"]), data=st.data())
def test_a_stored_cup_played_to_the_end_holds(service: Service, club: str, n: int, seed: int,
                                              fmt: str, data: st.DataObject) -> None:
    slug = f"cup-{next(COUNTER)}"
    pot = NAMES[:n]
    seeded = data.draw(st.integers(0, n), label="seeded")
    service.leagues.create_cup(club, slug, "Cup", kind="players", entrants=pot, format=fmt)
    drawn = service.leagues.draw(club, slug, seed=seed, seeded=seeded)
    engine = draw_cup(pot, seed if n - seeded > 1 else None, seeded, fmt)
    assert drawn["order"] == list(engine.order)
    cup = service.leagues.cup(club, slug)
    byes = [t for t in cup["ties"] if t["bracket"] == "winners" and t["status"] == "bye"]
    assert all(t["round"] == 1 for t in byes) and len(byes) == engine.size - n
    winners: dict[str, str] = {}
    first = True
    while cup["champion"] is None:
        ready = [t for t in cup["ties"] if t["status"] == "ready"]
        assert ready, cup["ties"]  # never stuck before the champion
        tie = data.draw(st.sampled_from(ready), label="tie")
        side = data.draw(st.sampled_from([0, 1]), label="side")
        match = service.leagues.play_tie(club, slug, tie["id"])["match"]
        win_game(service, match, side)
        winners[tie["id"]] = tie["home"] if side == 0 else tie["away"]
        if first:  # the draw is fixed from the first tie played
            first = False
            again = service.leagues.draw(club, slug, seed=seed, seeded=seeded)
            assert again == drawn
            with pytest.raises(Invalid, match="cannot be made again"):
                service.leagues.draw(club, slug, seed=(seed + 1) % 2**64, seeded=seeded)
        cup = service.leagues.cup(club, slug)
    losses = Counter(t["loser"] for t in cup["ties"] if t["status"] == "played")
    lives = 2 if fmt == "double_elimination" else 1
    out = [e for e in pot if e != cup["champion"]]
    assert all(losses[e] == lives for e in out), losses
    assert losses[cup["champion"]] < lives
    expected = bracket(engine, winners)
    assert [(t.id, t.status, t.home, t.away, t.winner) for t in expected.ties] == [
        (t["id"], t["status"], t["home"], t["away"], t["winner"]) for t in cup["ties"]]
    assert expected.champion == cup["champion"]


def _tie_by_tie(made, played, need):  # type: ignore[no-untyped-def]
    """The reference: each tie in order, against the bracket of the results before it."""
    from referee.service.seasons.cups import _winner

    results: dict[str, str] = {}
    stale: set[int] = set()
    for tie in bracket(made, {}).ties:
        if tie.id not in played:
            continue
        now = bracket(made, results).tie(tie.id)
        counted = [g for g in played[tie.id] if now.status == "ready"
                   and frozenset(g[1:3]) == frozenset((now.home, now.away))]
        stale |= {g[0] for g in played[tie.id] if g not in counted}
        if (winner := _winner(counted, need)) is not None:
            results[tie.id] = winner
    return bracket(made, results), frozenset(stale)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 24), seed=st.integers(0, 2**64 - 1),
       fmt=st.sampled_from(["single_elimination", "double_elimination"]), data=st.data())
def test_a_ruling_resolves_as_tie_by_tie(n: int, seed: int, fmt: str,
                                        data: st.DataObject) -> None:
    """A cup played some way, then rulings turn some ties' matches round: the stored cup's
    bracket (generation by generation, cups._resolved) is the one worked out tie by tie."""
    from referee.service.seasons.cups import _resolved

    made = draw_cup([f"e{i}" for i in range(n)], seed, 0, fmt)
    results: dict[str, str] = {}
    played: dict[str, list[tuple[int, str, str, str | None]]] = {}
    while len(played) < data.draw(st.integers(1, 4 * n), label="ties"):
        ready = [t for t in bracket(made, results).ties if t.status == "ready"]
        if not ready:
            break
        tie = data.draw(st.sampled_from(ready), label="tie")
        winner = data.draw(st.sampled_from([tie.home, tie.away]), label="winner")
        results[tie.id] = winner
        played[tie.id] = [(len(played), tie.home, tie.away, winner)]
    for tie_id in data.draw(st.lists(st.sampled_from(sorted(played)), max_size=3)
                            if played else st.just([]), label="ruled"):
        match, home, away, winner = played[tie_id][0]
        played[tie_id] = [(match, home, away, away if winner == home else home)]
    got, stale = _resolved(made, played, 1)
    want, want_stale = _tie_by_tie(made, played, 1)
    assert stale == want_stale
    assert [(t.id, t.status, t.home, t.away, t.winner) for t in got.ties] == [
        (t.id, t.status, t.home, t.away, t.winner) for t in want.ties]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 24), seed=st.integers(0, 2**64 - 1),
       fmt=st.sampled_from(["single_elimination", "double_elimination"]), data=st.data())
def test_concessions_and_rulings_resolve_as_tie_by_tie(n: int, seed: int, fmt: str,
                                                       data: st.DataObject) -> None:
    """As above with ties of best of three, some decided by a concession or walkover (an
    award, "award-N", given to the entrants the tie had then) after the other side won a
    match, and rulings turning a tie's matches round after: the stored cup's bracket and what
    no longer counts are the tie-by-tie reference's, and an award that still counts decides
    its tie for the entrant it names, whatever the tie's matches say."""
    from referee.service.seasons.cups import _resolved

    made = draw_cup([f"e{i}" for i in range(n)], seed, 0, fmt)
    results: dict[str, str] = {}
    played: dict[str, list[tuple[int | str, str, str, str | None]]] = {}
    count = itertools.count()
    while len(played) < data.draw(st.integers(1, 4 * n), label="ties"):
        ready = [t for t in bracket(made, results).ties if t.status == "ready"]
        if not ready:
            break
        tie = data.draw(st.sampled_from(ready), label="tie")
        winner = data.draw(st.sampled_from([tie.home, tie.away]), label="winner")
        loser = tie.away if winner == tie.home else tie.home
        results[tie.id] = winner
        if data.draw(st.booleans(), label="award"):  # the loser 1-0 up, then the award
            played[tie.id] = [(next(count), tie.home, tie.away, loser),
                              (f"award-{next(count)}", tie.home, tie.away, winner)]
        else:
            played[tie.id] = [(next(count), tie.home, tie.away, winner) for _ in range(2)]
    for tie_id in data.draw(st.lists(st.sampled_from(sorted(played)), max_size=3)
                            if played else st.just([]), label="ruled"):
        played[tie_id] = [(ref, h, a, w if isinstance(ref, str) else a if w == h else h)
                          for ref, h, a, w in played[tie_id]]
    got, stale = _resolved(made, played, 2)
    want, want_stale = _tie_by_tie(made, played, 2)
    assert stale == want_stale
    assert [(t.id, t.status, t.home, t.away, t.winner) for t in got.ties] == [
        (t.id, t.status, t.home, t.away, t.winner) for t in want.ties]
    for tie_id, games in played.items():
        ref, _, _, winner = games[-1]
        if isinstance(ref, str) and ref not in stale:
            assert got.tie(tie_id).winner == winner


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(n=st.integers(2, 9), seed=st.integers(0, 2**64 - 1),
       fmt=st.sampled_from(["single_elimination", "double_elimination"]), data=st.data())
def test_a_stored_cup_decided_partly_without_matches_holds(service: Service, club: str, n: int,
                                                           seed: int, fmt: str,
                                                           data: st.DataObject) -> None:
    """A stored cup played to the end with some ties conceded or given as walkovers instead of
    played: everyone out has lost exactly once (twice in double elimination), the champion
    never, and the bracket is the engine's own from the same draw and winners."""
    slug = f"cup-{next(COUNTER)}"
    pot = NAMES[:n]
    service.leagues.create_cup(club, slug, "Cup", kind="players", entrants=pot, format=fmt)
    service.leagues.draw(club, slug, seed=seed)
    engine = draw_cup(pot, seed if n > 1 else None, 0, fmt)
    cup = service.leagues.cup(club, slug)
    winners: dict[str, str] = {}
    while cup["champion"] is None:
        ready = [t for t in cup["ties"] if t["status"] == "ready"]
        assert ready, cup["ties"]
        tie = data.draw(st.sampled_from(ready), label="tie")
        side = data.draw(st.sampled_from([0, 1]), label="side")
        how = data.draw(st.sampled_from(["match", "concede_tie", "walkover_tie"]), label="how")
        if how == "match":
            win_game(service, service.leagues.play_tie(club, slug, tie["id"])["match"], side)
        else:
            getattr(service.leagues, how)(club, slug, tie["id"], "away" if side == 0 else "home",
                                          reason="property")
        winners[tie["id"]] = tie["home"] if side == 0 else tie["away"]
        cup = service.leagues.cup(club, slug)
    losses = Counter(t["loser"] for t in cup["ties"] if t["status"] == "played")
    lives = 2 if fmt == "double_elimination" else 1
    assert all(losses[e] == lives for e in pot if e != cup["champion"]), losses
    assert losses[cup["champion"]] < lives
    expected = bracket(engine, winners)
    assert [(t.id, t.status, t.home, t.away, t.winner) for t in expected.ties] == [
        (t["id"], t["status"], t["home"], t["away"], t["winner"]) for t in cup["ties"]]
