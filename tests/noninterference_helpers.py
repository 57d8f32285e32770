"""The non-interference property (tests/service/test_service_noninterference.py, and many more
cases in tests/resilience/test_noninterference.py).

Non-interference (docs/visibility.md, "The promise"): everything a caller gets back is a function of
the record as that caller may see it.

Two worlds are recorded side by side, each in a database of its own (SQLite, or a PostgreSQL
schema) with the same clock: in world *open* scorekeeper A types the round in play's deal and
draws with their tiles; in world *closed* A records the same events as the table saw them
(hands and drawn tiles left out). Earlier rounds are the same in both (their hands are seen once
they are over). Then another scorekeeper, B, plays the round on to its end from its own screen:
leads and plays of tiles it cannot see anywhere (which a hand typed in world open may hold:
the event is stored there unsighted), draws unseen and in sight (B's own tile), passes, events
its record refuses, each previewed, appended and retried; A types a draw in sight now and then;
B undoes its last entry now and then, the one that ended the round too (where both worlds
offer it: once the round is over, its hands may have ended the match in one world only).

After every step, B, a viewer and the public reader ask every channel (the answer, the screen
now and at an earlier event, the events, the report, the log, the lines, the disputes, the
listing, the chain head, the match page and its log page, the scoreboard JSON and its stream's
catch-up). While the round is in play every answer, refusals included, must be the same in
both worlds. Once it is over the table has seen every hand and the worlds may differ in them,
but not in what the table saw: that the round is over (in the whole record too), the line, the
ends, the counts and the boneyard. :class:`Tally` counts what was compared.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
import re
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import pytest
from db_helpers import PG_URL
from hypothesis import strategies as st
from template_helpers import migrate, schema_pool

from api import create_app
from referee.core.events import as_table_saw_it
from referee.core.simulate import random_match
from referee.service import Caller, Service, ServiceError
from referee.service.live import Scoreboard
from referee.service.pages import Pages
from referee.store.db import make_engine

PRESETS = {"mano-a-mano": ["Ana", "Beto"], "veracruz": ["Ana", "Beto", "Carla"],
           "parejas": ["Ana", "Beto", "Carla", "Dani"]}
# The points family's (scored during play: the count, the arms, each play's total said): fixed
# cases of the quick suite; the resilience suite's random ones draw from PRESETS alone, so that
# its run seed names the same cases as before.
POINTS = {"fives-and-threes": ["Ana", "Beto", "Carla", "Dani"], "all-fives": ["Ana", "Beto"]}
START = dt.datetime(2026, 12, 1, 20, 0, tzinfo=dt.timezone.utc)
TILES = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]
CALLERS = ("second", "viewer", "public")
DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not PG_URL, reason="DOMINO_TEST_DATABASE_URL is not set"))]


def _clock() -> Callable[[], dt.datetime]:
    ticks = itertools.count()
    return lambda: START + dt.timedelta(milliseconds=next(ticks))


@dataclass
class World:
    service: Service
    board: Scoreboard
    typist: Caller
    second: Caller
    viewer: Caller
    club: str = "casino"
    http: Any = None  # the API's test client over the world's service
    secrets: dict[str, str] = field(default_factory=dict)  # caller -> its token's secret

    def who(self, caller: str) -> Caller | None:
        """The caller named (None: the public reader)."""
        return {"typist": self.typist, "second": self.second, "viewer": self.viewer,
                "public": None}[caller]


@dataclass
class Tally:
    """What a run compared: answers (each channel of each caller, each append, retry, preview
    and undo counts one), round ends, the undos of a round's last play among them, cases."""

    answers: int = 0
    round_ends: int = 0
    undone_ends: int = 0
    unsighted: int = 0  # events stored unsighted (a typed hand contradicts them)
    # round ends B's undo could take back in one world only (the match over in the other: the
    # hands, seen then, decided it; Case.undo_by_second), so not undone
    kept_ends: int = 0
    cases: int = 0

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


def _club(service: Service, club: str) -> dict[str, str]:
    """A new public club, and its tokens' secrets: A's, B's and a viewer's."""
    service.clubs.create_club(club, club.title())
    service.clubs.set_public(club, True)
    return {name: service.tokens.create_token(club, role, label=label)
            for name, role, label in (("typist", "scorekeeper", "table 1"),
                                      ("second", "scorekeeper", "second phone"),
                                      ("viewer", "viewer", "club screen"))}


def _in_club(service: Service, board: Scoreboard, http: Any, club: str) -> World:
    secrets = _club(service, club)
    callers = [service.tokens.authenticate(secrets[name]) for name in ("typist", "second",
                                                                       "viewer")]
    return World(service, board, *callers, club=club, http=http, secrets=secrets)


def _world(url: str) -> World:
    service = Service(make_engine(url), clock=_clock())
    migrate(service.engine)
    app = create_app({"DATABASE_URL": url, "ADMIN_TOKEN": "twin-admin-secret"}, service=service)
    return _in_club(service, Scoreboard(service), app.test_client(), "casino")


# Each case's club is new to the worlds, whichever test (and Tally) ran a case in them before.
_NIGHTS = itertools.count()


def in_new_club(world: World, club: str) -> World:
    """The world with a club of its own for a case (its scoreboard holds that case's match
    alone, however many cases came before)."""
    return _in_club(world.service, world.board, world.http, club)


@contextmanager
def world_pair(database: str, folder: Any) -> Iterator[tuple[World, World]]:
    """Both worlds on ``database`` ("sqlite": files in ``folder``; "postgresql": two scratch
    schemas); closed afterwards."""
    with ExitStack() as stack:
        if database == "sqlite":
            urls = [f"sqlite:///{folder / name}" for name in ("open.db", "closed.db")]
        else:
            urls = [stack.enter_context(schema_pool(PG_URL).scratch(prefix="twin"))
                    for _ in range(2)]
        pair = (_world(urls[0]), _world(urls[1]))
        try:
            yield pair
        finally:
            for world in pair:
                world.board.hub.close()
                world.service.close()
                world.service.engine.dispose()


def make_worlds(request: pytest.FixtureRequest,
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[World, World]]:
    """A module fixture's worlds, on the database its parameter names."""
    with world_pair(request.param, tmp_path_factory.mktemp("noninterference")) as pair:
        yield pair


def answer_of(call: Callable[[], Any]) -> Any:
    """What a call gives back, a refusal included (its kind and what it says)."""
    try:
        value = call()
    except ServiceError as error:
        violation = getattr(error, "violation", None)
        return ("refused", type(error).__name__, error.message,
                violation.as_dict() if violation is not None else None)
    if hasattr(value, "as_dict"):
        return value.as_dict()
    if hasattr(value, "screen"):  # Recorded
        return {"seq": value.seq, "event": value.event, "duplicate": value.duplicate,
                "violation": value.violation.as_dict() if value.violation else None,
                "screen": value.screen.as_dict()}
    return value


def _first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two answers first differ (a path into them), None when they are equal."""
    if type(a) is not type(b):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: present in one only"
            if (found := _first_difference(a[key], b[key], f"{path}.{key}")) is not None:
                return found
        return None
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)}: {a!r} != {b!r}"
        for i, (x, y) in enumerate(zip(a, b)):
            if (found := _first_difference(x, y, f"{path}[{i}]")) is not None:
                return found
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


def assert_same(answers: list[Any], what: Any) -> None:
    found = _first_difference(answers[0], answers[1])
    assert found is None, f"{what}: {found}"


def channels(world: World, match_id: int, who: Caller | None,
             names: Any = None) -> dict[str, Any]:
    """Everything ``who`` (None: the public reader) may ask of the match, as it answers (the
    channels ``names``, None: all)."""
    svc = world.service
    reader = who if who is not None else svc.clubs.public_reader(world.club)
    read: dict[str, Callable[[], Any]] = {
        "summary": lambda: svc.reading.get_match(match_id, who=reader),
        "screen": lambda: svc.reading.screen(match_id, who=reader),
        "screen at 1": lambda: svc.reading.screen(match_id, at=1, who=reader),
        "events": lambda: svc.reading.list_events(match_id, who=reader),
        "report": lambda: svc.reading.report(match_id, who=reader),
        "log": lambda: svc.reading.export_log(match_id, who=reader),
        "lines": lambda: svc.reading.lines(match_id, who=reader),
        "disputes": lambda: svc.disputes.for_match(match_id, who=reader),
        # (the club's other matches may have ended their rounds: their hands are seen)
        "club disputes": lambda: [d for d in svc.disputes.for_club(
            world.club, status="all", who=reader)[0] if d["match"] == match_id],
        "listing": lambda: [m for m in svc.reading.list_matches(world.club, who=reader)[0]
                            if m["id"] == match_id],
        "head": lambda: svc.actas.head(match_id, who=reader),
        "page": lambda: Pages(svc).match(world.club, match_id, who=who),
        "log page": lambda: Pages(svc).log(world.club, match_id, who=who),
        "scoreboard": lambda: [r for r in world.board.board(world.club, who=reader)["rows"]
                               if r["match"] == match_id],
        # what a stream sends: the rows changed since its Last-Event-ID (0: all of tonight's)
        "stream": lambda: [r for r in world.board.changed(world.club, 0, who=reader)
                           if r["match"] == match_id],
    }
    caller = next((name for name in ("typist", "second", "viewer")
                   if who is not None and getattr(world, name) is who), None)
    headers = {"Authorization": f"Bearer {world.secrets[caller]}"} if caller else {}
    api = f"/api/v1/matches/{match_id}"
    for name, path in (("GET match", api), ("GET /events", f"{api}/events"),
                       ("GET /report", f"{api}/report"), ("GET /log", f"{api}/log"),
                       ("GET page", f"/clubs/{world.club}/matches/{match_id}"),
                       ("GET page JSON", f"/api/v1/pages/clubs/{world.club}/matches/{match_id}")):
        read[name] = lambda path=path: _http(world.http, path, headers)
    read["GET /scoreboard"] = lambda: _http(world.http, f"/api/v1/clubs/{world.club}/scoreboard",
                                            headers, match_id)
    return {name: answer_of(call) for name, call in read.items()
            if names is None or name in names}


def _http(client: Any, path: str, headers: dict[str, str],
          row_of: int | None = None) -> dict[str, Any]:
    """An HTTP answer as a caller reads it: status, the headers that say something of the
    match, and the body (a page's per-answer nonce taken out; of a scoreboard, the row of match
    ``row_of``)."""
    response = client.get(path, headers=headers)
    body: Any = response.get_data(as_text=True)
    if row_of is not None and response.status_code == 200:
        body = [r for r in response.get_json()["rows"] if r["match"] == row_of]
        return {"status": 200, "body": body}
    return {"status": response.status_code,
            **{name: response.headers.get(name) for name in ("ETag", "Vary", "Content-Type")},
            "body": re.sub(r'nonce="[^"]*"|nonce-[A-Za-z0-9+/=_-]+', "nonce", body)}


CHANNELS = ("summary", "screen", "screen at 1", "events", "report", "log", "lines", "disputes",
            "club disputes", "listing", "head", "page", "log page", "scoreboard", "stream",
            "GET match", "GET /events", "GET /report", "GET /log", "GET /scoreboard",
            "GET page", "GET page JSON")


def _over(phase: Any) -> bool:
    return phase != "in_progress"


def table_part(answer: Any) -> Any:
    """What the table saw, in an answer given once the round is over (its hands are seen then,
    and may differ between the worlds; whether the round is over, the line, the ends, the
    counts, the boneyard may not)."""
    if not isinstance(answer, dict):
        return answer  # a refusal: said on the caller's record, before the round ended
    if "screen" in answer and isinstance(answer["screen"], dict):  # an append's answer
        # (its violation too: a retry is told it as the caller sees the record now, whole)
        return {"seq": answer["seq"], "screen": table_part(answer["screen"])}
    return {"over": _over(answer.get("phase")),
            **{k: answer[k] for k in ("line", "ends", "counts", "boneyard", "seq", "round")
               if k in answer}}


def _table_channels(world: World, match_id: int, who: Caller | None) -> dict[str, Any]:
    svc = world.service
    reader = who if who is not None else svc.clubs.public_reader(world.club)
    rows = [r for r in world.board.board(world.club, who=reader)["rows"] if r["match"] == match_id]
    return {"screen": table_part(answer_of(lambda: svc.reading.screen(match_id, who=reader))),
            "events seen": len(svc.reading.list_events(match_id, who=reader)),
            "scoreboard": [{"over": _over(r["phase"]), "seq": r["seq"]} for r in rows]}


def _in_play(world: World, match_id: int) -> bool:
    """Whether the round the worlds differ in is still in play in the whole record."""
    state = world.service.reading.state(match_id)
    return state.phase == "in_progress" and not state.finished


class Case:
    """One case: a match in both worlds, played on by B to the end of its round."""

    def __init__(self, worlds: tuple[World, World], match_id: int, rng: random.Random,
                 tally: Tally) -> None:
        self.worlds, self.match_id, self.rng, self.tally = worlds, match_id, rng, tally

    def each(self, ask: Callable[[World], Any]) -> list[Any]:
        return [answer_of(lambda: ask(world)) for world in self.worlds]

    def in_play(self) -> bool:
        """Whether the round is in play; the whole records of both worlds agree on it."""
        found = [_in_play(w, self.match_id) for w in self.worlds]
        assert found[0] == found[1], f"the round is over in one world only: {found}"
        return found[0]

    def same(self, answers: list[Any], what: Any, over: bool) -> None:
        if over:
            answers = [table_part(a) for a in answers]
        assert_same(answers, what)
        self.tally.answers += 1

    def compare_channels(self, what: Any, every: bool = True) -> None:
        """Each caller's channels (``every``), or some channels of one caller (a step in the
        middle of a round: the cases go further for the time)."""
        if self.in_play():
            callers, names = CALLERS, None
            if not every:
                callers = (self.rng.choice(CALLERS),)
                names = self.rng.sample(CHANNELS, 5)
            for caller in callers:
                found = [channels(w, self.match_id, w.who(caller), names) for w in self.worlds]
                assert_same(found, (what, caller))
                self.tally.answers += len(found[0])
            return
        for caller in CALLERS:
            found = [_table_channels(w, self.match_id, w.who(caller)) for w in self.worlds]
            assert_same(found, (what, caller, "the round over"))
            self.tally.answers += len(found[0])

    def last_seq(self) -> int:
        return self.worlds[0].service.reading.get_match(self.match_id)["last_seq"]

    def record_by_second(self, event: dict[str, Any]) -> bool:
        """B previews, appends and retries ``event``; whether the round ended with it."""
        worlds, match_id = self.worlds, self.match_id
        self.same(self.each(lambda w: w.service.disputes.preview(match_id, [event],
                                                                 who=w.second)),
                  ("preview", event), over=False)
        last = self.last_seq()
        key = f"b-{last}-{self.rng.random()}"
        answers = [self.each(lambda w: w.service.recording.record_event(
            match_id, event, expected_seq=last, client_event_id=key, who=w.second))
            for _ in ("append", "retry")]
        over = not self.in_play()
        for what, answer in zip(("append", "retry"), answers):
            self.same(answer, (what, event), over=over)
        stored = worlds[0].service.reading.list_events(match_id)
        if len(stored) > last and stored[last]["event"].get("unsighted"):
            self.tally.unsighted += 1
        self.compare_channels(("after", event), every=over)
        return over

    def draw_in_sight(self) -> None:
        """A types a draw for the seat on turn, with its tile in world open (one its screen
        shows unseen), without it in world closed, when world open takes it."""
        open_world, closed_world = self.worlds
        screen = open_world.service.reading.screen(self.match_id, who=open_world.typist)
        if screen.position.turn is None or not screen.position.legal["draw"] or not screen.unseen:
            return
        event = {"type": "draw", "seat": screen.position.turn,
                 "tile": self.rng.choice(screen.unseen)}
        preview = open_world.service.disputes.preview(self.match_id, [event],
                                                      who=open_world.typist)
        if preview["events"][0]["violation"] is not None:
            return  # the hand A typed holds a tile that fits: A may not draw for it
        last = self.last_seq()
        for world, shown in zip(self.worlds, (event, as_table_saw_it(event))):
            world.service.recording.record_event(self.match_id, shown, expected_seq=last,
                                                 who=world.typist)
        self.compare_channels(("A's draw in sight", event), every=False)

    def undo_by_second(self) -> bool:
        """B takes back its last entry, when its screen offers it in both worlds; whether it
        did. While the round is in play the two screens are the same. Once it is over B sees
        every hand, and whether the round's end ended the match too may differ: a round scored
        at its end (the pips left known) can reach the target in one world while the other
        waits for a reveal. Neither record need know more than the other: a play that a hand
        known whole does not hold makes the whole record forget that hand (the typed hand gives
        way, referee.core.moves), and with it a tile B saw drawn that B's record still places
        there. An undo the match's end forbids in one world only is then not tried (the two
        answers would both be right, each on a record B sees whole): the case ends there."""
        offered = [w.service.reading.screen(self.match_id, who=w.second).undo
                   for w in self.worlds]
        was_over = not self.in_play()
        assert was_over or offered[0] == offered[1], ("B's undo offered", offered)
        undo = offered[0]
        if undo is None or offered[1] != undo:
            self.tally.kept_ends += offered != [None, None]
            return False
        last = self.last_seq()
        undone = self.each(lambda w: w.service.recording.record_event(
            self.match_id, {"type": "void", "target": undo, "reason": "undo"},
            expected_seq=last, who=w.second))
        over = not self.in_play()
        self.same(undone, ("undo", undo), over=over or was_over)
        if was_over and not over:
            self.tally.undone_ends += 1
        self.compare_channels(("after the undo of", undo))
        return True

    def next_event(self) -> dict[str, Any]:
        """A move B might record now, from its screen (the same in both worlds while the round
        is in play): mostly what its record allows, sometimes anything at all."""
        rng = self.rng
        screen = self.worlds[0].service.reading.screen(self.match_id, who=self.worlds[0].second)
        pos = screen.as_dict()
        seats = len(pos["counts"])
        if rng.random() < 0.1:  # anything: a seat, a tile, a move, the record may refuse it
            return rng.choice([{"type": "play", "seat": rng.randrange(seats),
                                "tile": rng.choice(TILES)},
                               {"type": "pass", "seat": rng.randrange(seats)},
                               {"type": "draw", "seat": rng.randrange(seats)}])
        if pos["leads"]:
            lead = rng.choice(pos["leads"])
            return {"type": "play", "seat": lead["seat"], "tile": lead["tile"]}
        turn = pos["turn"]
        if turn is None:
            return {"type": "play", "seat": rng.randrange(seats), "tile": rng.choice(TILES)}
        plays = list(pos["unseen_plays"]) + list(pos["legal"]["plays"] or [])
        moves: list[dict[str, Any]] = []
        if plays and rng.random() < 0.85:
            play = rng.choice(plays)
            move = {"type": "play", "seat": turn, "tile": play["tile"]}
            if play["end"] is not None and rng.random() < 0.7:
                move["end"] = play["end"]
            return move
        if pos["legal"]["draw"]:
            moves.append({"type": "draw", "seat": turn})
            if pos["unseen"]:  # B saw the tile drawn: its own secret
                moves.append({"type": "draw", "seat": turn, "tile": rng.choice(pos["unseen"])})
        if pos["legal"]["pass"]:
            moves.append({"type": "pass", "seat": turn})
        if plays:
            play = rng.choice(plays)
            moves.append({"type": "play", "seat": turn, "tile": play["tile"]})
        return rng.choice(moves) if moves else {"type": "pass", "seat": turn}


CASES = {"seed": st.integers(0, 10**6), "preset": st.sampled_from(sorted(PRESETS)),
         "depth": st.floats(0.0, 1.0)}


def same_answers(worlds: tuple[World, World], seed: int, preset: str, depth: float,
                 tally: Tally | None = None, steps: int = 40) -> None:
    """One case of the property (tests/resilience runs many more)."""
    tally = tally if tally is not None else Tally()
    players = {**PRESETS, **POINTS}[preset]
    _, events = random_match(preset, players, random.Random(seed), max_rounds=3)
    deals = [i for i, e in enumerate(events) if e["type"] == "deal"]
    start = deals[-1]  # the last round's deal: the round in play once cut inside it
    cut = start + 1 + int(depth * (len(events) - start - 1))
    rng = random.Random(seed)
    club = f"night-{next(_NIGHTS)}"
    worlds = (in_new_club(worlds[0], club), in_new_club(worlds[1], club))
    ids = []
    for number, world in enumerate(worlds):
        match_id = world.service.recording.create_match(world.club, preset, players)["id"]
        ids.append(match_id)
        for seq, event in enumerate(events[:cut]):
            shown = as_table_saw_it(event) if number == 1 and seq >= start else event
            world.service.recording.record_event(match_id, shown, expected_seq=seq,
                                                 who=world.typist)
    assert ids[0] == ids[1]
    case = Case(worlds, ids[0], rng, tally)
    tally.cases += 1
    case.compare_channels("before")
    if not case.in_play():
        return
    for _ in range(steps):
        if rng.random() < 0.1:
            case.draw_in_sight()
        if case.record_by_second(case.next_event()):
            tally.round_ends += 1
            if rng.random() < 0.3 and case.undo_by_second() and case.in_play():
                continue  # the round is on again: its hands are hidden again
            return
        if rng.random() < 0.08:
            case.undo_by_second()
