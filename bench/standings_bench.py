"""How fast standings read from their projection, and what keeping it costs an append.

For each database (a fresh SQLite file always; PostgreSQL with --pg URL or when
DOMINO_TEST_DATABASE_URL is set, in a scratch schema dropped afterwards):

- a club of --matches (100,000) finished matches among 60 players, half in partnerships (four
  seats) and half head to head, over three years and three events, built straight through the
  store: bulk inserts of the matches, match_players and standing_rows rows (random results, no
  replay), then the club's ratings computed once in finishing order (the time is printed: it is
  what a ruling on the club's first match would cost);
- reading the standings (the median of --reads), per player and per partnership, with a
  period filter (one year) and a period and event filter, and the CSV (goal: each at most
  100 ms);
- the club's home page, /clubs/big, rendered by the real app (flask's test client): with a
  viewer's token, with a period, and public without a token (goal: each at most 150 ms);
- an append to one of the big club's matches against the same append in an empty club
  (medians of --appends note events, in alternation; goal: the ratio at most 1), and the
  append that finishes a match, rating it, in each club (medians over --finishes matches);
- a ruling (a penalty turning the result) on the club's first finished match, a real one
  recorded before the bulk: the append's time, and the time until the ratings of every match
  after it are recomputed by the worker and a reader gets the standings.

    python bench/standings_bench.py [--pg URL] [--skip-sqlite] [--matches 100000] [--reads 15]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func, insert, select  # noqa: E402

from migrations.runner import upgrade  # noqa: E402
from referee import store  # noqa: E402
from referee.core import chain  # noqa: E402
from referee.core.rules import resolve_rules  # noqa: E402
from referee.core.simulate import random_match  # noqa: E402
from referee.service import Service  # noqa: E402
from referee.service.ratings import rate_from  # noqa: E402
from referee.store import db  # noqa: E402
from referee.store.db import make_engine, scratch_schema  # noqa: E402
from referee.store.schema import clubs, match_players, matches, players, standing_rows  # noqa: E402
from referee.store.standings import event_key, rebuild_months  # noqa: E402

PLAYERS = [f"Player {n:02d}" for n in range(60)]
EVENTS = [None, "liga", "copa", "torneo"]
START = dt.date(2023, 1, 1)
CHUNK = 5_000


# A real match recorded first, so that it is the club's first finished one: Ana wins 9-0 with
# a renege the record proves; the penalty below turns it into Beto's win (the ruling timed).
SMALL = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none", "target": 5}
RENEGE = [{"type": "deal"}, {"type": "play", "seat": 0, "tile": "6-6"},
          {"type": "pass", "seat": 1}, {"type": "play", "seat": 0, "tile": "6-5"},
          {"type": "play", "seat": 1, "tile": "6-4"}, {"type": "play", "seat": 0, "tile": "5-5"},
          {"type": "reveal", "seat": 1, "tiles": ["3-3", "2-1"]}]
PENALTY = {"type": "penalty", "side": 1, "points": 50, "target": 3, "reason": "renege"}


def build(service: Service, club: str, count: int, seed: int = 1) -> tuple[float, int]:
    """The club's ``count`` finished matches, inserted in bulk after one recorded for real
    (its first, to be ruled on); returns the seconds the ratings took and that match's id."""
    service.clubs.create_club(club, "Big club")
    early = open_match(service, club, ["Ana", "Beto"], RENEGE, SMALL)
    for n in range(0, len(PLAYERS), 4):  # registers the players (these matches stay open)
        service.recording.create_match(club, "parejas", PLAYERS[n:n + 4])
    club_id = _club_id(service, club)
    with db.reading(service.engine) as conn:
        ids = dict(conn.execute(select(players.c.name, players.c.id)
                                .where(players.c.club_id == club_id)).all())
    rules = {"parejas": resolve_rules("parejas", 4), "mano-a-mano": resolve_rules("mano-a-mano", 2)}
    rng = random.Random(seed)
    now = store.utcnow() - dt.timedelta(days=2)
    seq = 1  # the early match's
    for start in range(0, count, CHUNK):
        match_rows, seats, outcomes = [], [], []
        for n in range(start, min(start + CHUNK, count)):
            preset = "parejas" if n % 2 else "mano-a-mano"
            names = rng.sample(PLAYERS, 4 if preset == "parejas" else 2)
            day = (START + dt.timedelta(days=n * 1095 // count)).isoformat()
            event = rng.choice(EVENTS)
            header = {"format": "domino-log/1", "rules": preset, "players": names, "date": day,
                      "club": club, **({"event": event} if event else {})}
            winner = rng.randrange(2)
            totals = [0, 0]
            totals[winner] = rng.randrange(100, 160)
            totals[1 - winner] = rng.randrange(0, 100)
            at = now + dt.timedelta(seconds=n)
            match_rows.append({"club_id": club_id, "header": store.dump_json(header),
                               "played_on": day, "rules": rules[preset].as_dict(),
                               "players": names, "status": "finished", "round": 7,
                               "totals": totals, "winner": winner, "last_seq": 120,
                               "violations": int(rng.random() < 0.01), "created_at": at,
                               "updated_at": at,
                               # no events are stored for these: the header's link stands in
                               "head": chain.root(header).hex()})
            seats.append((names, rules[preset]))
            outcomes.append((totals, winner, event, day, at, rng.randrange(3, 8)))
        with db.writing(service.engine) as conn:
            new_ids = conn.execute(insert(matches).returning(matches.c.id,
                                                             sort_by_parameter_order=True),
                                   match_rows).scalars().all()
            mp, sr = [], []
            for match_id, (names, rule), (totals, winner, event, day, at, rounds), row in zip(
                    new_ids, seats, outcomes, match_rows):
                seq += 1
                for seat, name in enumerate(names):
                    side = rule.side_of(seat)
                    mates = [names[s] for s in rule.seats_of(side) if s != seat]
                    mp.append({"match_id": match_id, "seat": seat, "player_id": ids[name],
                               "side": side})
                    sr.append({"match_id": match_id, "seat": seat, "club_id": club_id,
                               "player_id": ids[name],
                               "partner_id": ids[mates[0]] if mates else None, "side": side,
                               "played_on": day, "event": event_key(event),
                               "won": int(winner == side), "lost": int(winner != side),
                               "rounds_won": rounds if winner == side else rounds // 2,
                               "points_for": totals[side], "points_against": totals[1 - side],
                               "flagged": row["violations"], "place": int(winner != side),
                               "finish_seq": seq, "finished_at": at})
            conn.execute(insert(match_players), mp)
            conn.execute(insert(standing_rows), sr)
    with db.writing(service.engine) as conn:
        rebuild_months(conn, club_id)
        if service.engine.dialect.name == "postgresql":
            # The bench's tables only (a bare ANALYZE reads every schema of the database), with
            # no statement timeout: on a busy machine it takes longer than a request may.
            conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
            conn.exec_driver_sql("ANALYZE matches, match_players, standing_rows, "
                                 "standing_months, player_ratings, current_ratings")
    began = time.perf_counter()
    with db.writing(service.engine) as conn:
        rate_from(conn, club_id, 1)
    return time.perf_counter() - began, early


def median_ms(fn: Callable[[], Any], times: int) -> float:
    fn()  # warm
    took = []
    for _ in range(times):
        began = time.perf_counter()
        fn()
        took.append(time.perf_counter() - began)
    return 1000 * statistics.median(took)


def pages(service: Service, url: str, reads: int) -> None:
    """The club's home page (standings and latest matches) rendered by the real app through
    flask's test client, as a viewer's token and as anyone (the club made public)."""
    from api import create_app  # here: the store benches above need no flask
    from api.context import EXTENSION

    app = create_app({"DATABASE_URL": url, "ACCESS_LOG": False})
    client = app.test_client()
    token = service.tokens.create_token("big", "viewer", label="bench")
    viewer = {"Authorization": f"Bearer {token}"}

    def get(path: str, headers: dict[str, str] | None = None) -> Callable[[], Any]:
        def fetch() -> None:
            response = client.get(path, headers=headers or {})
            assert response.status_code == 200, (path, response.status_code)
            assert b'id="standings"' in response.data
        return fetch

    figures = {
        "page /clubs/big (a viewer's token)": get("/clubs/big", viewer),
        "page /clubs/big?from=2024-01-15&to=2024-06-14": get(
            "/clubs/big?from=2024-01-15&to=2024-06-14", viewer),
    }
    service.clubs.set_public("big", True)
    figures["page /clubs/big (public, no token)"] = get("/clubs/big")
    try:
        for label, fn in figures.items():
            ms = median_ms(fn, reads)
            print(f"  {label:46} median of {reads}: {ms:7.1f} ms  "
                  f"(ratio to the 150 ms goal {ms / 150:.2f}: {'ok' if ms <= 150 else 'OVER'})")
    finally:
        service.clubs.set_public("big", False)
        app.extensions[EXTENSION].close()


def open_match(service: Service, club: str, players_: list[str], events: list[Any],
               rules: Any = "mano-a-mano") -> int:
    match_id = service.recording.create_match(club, rules, players_)["id"]
    for seq, event in enumerate(events):
        service.recording.record_event(match_id, event, expected_seq=seq)
    return match_id


def bench(name: str, url: str, args: argparse.Namespace) -> None:
    service = Service(make_engine(url))
    try:
        upgrade(service.engine)
        print(f"\n{name}: building a club of {args.matches:,} finished matches ...", flush=True)
        began = time.perf_counter()
        rating_s, early = build(service, "big", args.matches)
        print(f"  built in {time.perf_counter() - began:.1f} s; rating them all in finishing "
              f"order: {rating_s:.1f} s")
        svc = service.standings
        reads = {
            "standings (players)": lambda: svc.table("big"),
            "standings (partnerships)": lambda: svc.table("big", group="partnerships"),
            "standings, period filter (2024)": lambda: svc.table(
                "big", date_from="2024-01-01", date_to="2024-12-31"),
            "standings, period mid-month to mid-month": lambda: svc.table(
                "big", date_from="2024-01-15", date_to="2024-06-14"),
            "partnerships, period filter (2024)": lambda: svc.table(
                "big", group="partnerships", date_from="2024-01-01", date_to="2024-12-31"),
            "standings, period and event": lambda: svc.table(
                "big", date_from="2024-01-01", date_to="2024-12-31", event="liga"),
            "standings CSV": lambda: svc.csv("big"),
            "standings CSV, period filter": lambda: svc.csv(
                "big", date_from="2024-01-01", date_to="2024-12-31"),
        }
        for label, fn in reads.items():
            ms = median_ms(fn, args.reads)
            print(f"  {label:46} median of {args.reads}: {ms:7.1f} ms  "
                  f"(ratio to the 100 ms goal {ms / 100:.2f}: {'ok' if ms <= 100 else 'OVER'})")
        assert len(svc.table("big")) == len(PLAYERS) + 2  # and Ana and Beto, of the early match
        pages(service, url, args.reads)

        # Appends: a note to an open match of the big club and of an empty club, alternating.
        service.clubs.create_club("empty", "Empty club")
        header, events = random_match("mano-a-mano", ["Ana", "Beto"], random.Random(3))
        big = open_match(service, "big", ["Ana", "Beto"], events[:5])
        empty = open_match(service, "empty", ["Ana", "Beto"], events[:5])
        seqs = {big: 5, empty: 5}
        took: dict[int, list[float]] = {big: [], empty: []}
        for n in range(args.appends):
            for match_id in ((big, empty) if n % 2 else (empty, big)):
                began = time.perf_counter()
                service.recording.record_event(match_id, {"type": "note", "text": f"n{n}"},
                                               expected_seq=seqs[match_id])
                took[match_id].append(time.perf_counter() - began)
                seqs[match_id] += 1
        b, e = (1000 * statistics.median(took[m]) for m in (big, empty))
        print(f"  append (a note), big club {b:.2f} ms vs empty club {e:.2f} ms: ratio "
              f"{b / e:.2f} ({'ok' if b / e <= 1.05 else 'OVER'} the goal of 1, noise 5%)")

        # The append that finishes a match (its standing rows written, it rated), per club.
        rng = random.Random(5)
        finishing: dict[str, list[float]] = {"big": [], "empty": []}
        for n in range(args.finishes):
            _, events = random_match("mano-a-mano", ["Ana", "Beto"], rng)
            for club in (("big", "empty") if n % 2 else ("empty", "big")):
                match_id = open_match(service, club, ["Ana", "Beto"], events[:-1])
                began = time.perf_counter()
                service.recording.record_event(match_id, events[-1],
                                               expected_seq=len(events) - 1)
                finishing[club].append(time.perf_counter() - began)
        b, e = (1000 * statistics.median(finishing[c]) for c in ("big", "empty"))
        print(f"  the finishing append, big club {b:.2f} ms vs empty club {e:.2f} ms: ratio "
              f"{b / e:.2f}")

        ruling(service, early, b)
    finally:
        service.close()


def ruling(service: Service, early: int, finishing_ms: float) -> None:
    """A penalty that turns the result of the club's first finished match: the append's time
    (the standings rows rewritten, the ratings after it marked stale), against the append that
    finishes a match in the big club (``finishing_ms``), then how long until the worker has
    every later match rated again and a reader gets the standings."""
    from referee.service import ratings

    club_id = _club_id(service, "big")
    before = {r["player"]: r for r in service.standings.table("big")}
    began = time.perf_counter()
    service.recording.record_event(early, PENALTY, expected_seq=len(RENEGE))
    append_s = time.perf_counter() - began
    after = {r["player"]: r for r in service.standings.table("big")}  # waits for the worker
    fresh_s = time.perf_counter() - began
    assert after["Beto"]["won"] == before["Beto"]["won"] + 1
    assert ratings.wait_rated(service.units, club_id, 0)
    print(f"  a ruling on the first of {finished_count(service, club_id):,} matches: the append "
          f"{1000 * append_s:.1f} ms ({1000 * append_s / finishing_ms:.1f}x the finishing append "
          f"in the big club); the ratings after it re-rated by the worker and the standings "
          f"read {fresh_s:.1f} s after it")


def _club_id(service: Service, club: str) -> int:
    with db.reading(service.engine) as conn:
        return conn.execute(select(clubs.c.id).where(clubs.c.slug == club)).scalar_one()


def finished_count(service: Service, club_id: int) -> int:
    with db.reading(service.engine) as conn:
        return conn.execute(select(func.count(func.distinct(standing_rows.c.match_id)))
                            .where(standing_rows.c.club_id == club_id)).scalar_one()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pg", default=os.environ.get("DOMINO_TEST_DATABASE_URL"),
                        help="a PostgreSQL URL (postgresql+psycopg://...); default "
                             "DOMINO_TEST_DATABASE_URL; a scratch schema is made and dropped")
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--reads", type=int, default=15)
    parser.add_argument("--appends", type=int, default=200)
    parser.add_argument("--finishes", type=int, default=20)
    parser.add_argument("--skip-sqlite", action="store_true", help="PostgreSQL only")
    args = parser.parse_args()
    if not args.skip_sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            bench("SQLite", f"sqlite:///{Path(tmp) / 'bench.db'}", args)
    if args.pg:
        with scratch_schema(args.pg, prefix="bench") as url:
            bench("PostgreSQL", url, args)


if __name__ == "__main__":
    main()
