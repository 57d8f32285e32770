"""Players, on SQLite and PostgreSQL: names normalised and matched by key ("ana" is Ana), "did
you mean ...?" for a new name close to a player's unless confirmed, renames and merges recorded
in player_events (append-only) with the history following, and migration 0003's backfill."""

from __future__ import annotations

import itertools
import random
import threading
import unicodedata

import pytest
from sqlalchemy import insert, select, text
from sqlalchemy.exc import DBAPIError
from template_helpers import at_revision

from migrations import runner
from referee import write_log
from referee.core.log import make_log
from referee.core.simulate import random_match
from referee.service import (
    Caller,
    Duplicate,
    Forbidden,
    Invalid,
    NotFound,
    Service,
    Unconfirmed,
    checks,
)
from referee.store.db import reading, writing
from referee.store.schema import clubs, match_players, player_events, players

DECOMPOSED_JOSE = "Jose\u0301"  # "José" as e + COMBINING ACUTE ACCENT
COMPOSED_JOSE = "Jos\u00e9"


def finished_log(names: list[str], seed: int = 1, preset: str = "mano-a-mano") -> str:
    header, events = random_match(preset, names, random.Random(seed))
    return write_log(make_log(header, events))


def seat_ids(service: Service, match_id: int) -> list[int]:
    with reading(service.engine) as conn:
        return list(conn.execute(select(match_players.c.player_id)
                                 .where(match_players.c.match_id == match_id)
                                 .order_by(match_players.c.seat)).scalars())


def player_id(service: Service, club: str, name: str) -> int:
    found = service.players.find(club, name)
    assert found is not None, name
    return found["id"]


def standing(service: Service, club: str, name: str) -> dict:
    lines = [r for r in service.standings.table(club) if r["player"] == name]
    assert len(lines) == 1, service.standings.table(club)
    return lines[0]


# --------------------------------------------------------------------------- the normaliser

def test_a_name_is_normalised() -> None:
    assert checks.player_name("  Ana   María \u00a0Pérez ") == "Ana María Pérez"
    assert checks.player_name(DECOMPOSED_JOSE) == COMPOSED_JOSE
    assert unicodedata.is_normalized("NFC", checks.player_name("Zoe\u0308"))
    assert checks.player_name("x" * 200 + "   ") == "x" * 200  # the length is the normalised one
    assert checks.name_key("Straße") == checks.name_key("STRASSE") == "strasse"
    assert checks.name_key(checks.player_name("ANA ")) == checks.name_key("ana") == "ana"


@pytest.mark.parametrize("bad", [
    "", "   ", None, 7, "x" * 201, "An\x00a", "Ana\tMaría", "Ana\nMaría", "Ana\x7f", "\udc00",
    "\u202eanA", "Ana\u202d", "\u2066Ana\u2069", "Ana\u200e", "Ana\u200f", "\u202aAna\u202c",
    "Ana\u061c",
])
def test_a_name_that_is_not_one_is_refused(bad) -> None:
    with pytest.raises(Invalid):
        checks.player_name(bad)


CLOSE_NAMES = [
    ("ana pérez", "ana perez"), ("josé", "jose"), ("beto", "betto"), ("carla", "calra"),
    ("dani", "dany"), ("ana maría pérez", "ana maria peres"), ("o'brien", "obrien"),
    ("guillermo rodríguez", "guillermo rodrigues"),
]
NAMES_NOT_CLOSE = [
    ("a", "b"), ("ana", "ada"), ("ana", "eva"), ("ana", "ana maría"), ("mesa 1", "mesa 2"),
    ("ana1", "ana"), ("p1", "p2"), ("carla", "carlos"), ("carla", "clara"), ("beto", "dani"),
]


CLUBS = itertools.count(1)  # a new club for each pair of names


def _refusal(service: Service, first: str, then: str) -> dict[str, list[str]] | None:
    """Register ``first`` alone in a new club, then ``then``: the suggestions it is refused
    with (None: it is registered)."""
    club = f"club-{next(CLUBS)}"
    service.clubs.create_club(club, club)
    service.players.create(club, first)
    try:
        service.players.create(club, then)
    except Unconfirmed as refused:
        return refused.suggestions
    return None


def test_close_names(service: Service) -> None:
    for a, b in CLOSE_NAMES:
        assert _refusal(service, a, b) == {b: [a]}
        assert _refusal(service, b, a) == {a: [b]}


def test_not_close_names(service: Service) -> None:
    for a, b in NAMES_NOT_CLOSE:
        assert _refusal(service, a, b) is None
        assert _refusal(service, b, a) is None


# --------------------------------------------------------------------------- one person

def test_ana_and_ana_are_one_player(service: Service, club: str) -> None:
    ana = service.players.create(club, "  Ana ")
    assert ana["name"] == "Ana"
    for same in ("ana", "Ana", "Ana  ", "ANA", "\u00a0ana"):
        with pytest.raises(Duplicate):
            service.players.create(club, same)
        assert service.players.find(club, same)["id"] == ana["id"]
    m = service.recording.create_match(club, "mano-a-mano", ["ana ", "Beto"])
    assert m["players"] == ["ana ", "Beto"]  # the match keeps the names as typed
    beto = player_id(service, club, "beto")
    assert seat_ids(service, m["id"]) == [ana["id"], beto]
    assert [p["name"] for p in service.players.list(club)[0]] == ["Ana", "Beto"]
    for typed in ("Ana", "ANA  ", "ana"):
        found, total = service.reading.list_matches(club, player=typed)
        assert total == 1 and found[0]["id"] == m["id"]
    with pytest.raises(Invalid, match="seated twice"):
        service.recording.create_match(club, "mano-a-mano", ["Ana", "ana "])
    with pytest.raises(Invalid):
        service.reading.list_matches(club, player="\u202eanA")


def test_composed_and_decomposed_are_one_player(service: Service, club: str) -> None:
    jose = service.players.create(club, DECOMPOSED_JOSE)
    assert jose["name"] == COMPOSED_JOSE
    with pytest.raises(Duplicate):
        service.players.create(club, COMPOSED_JOSE)
    m = service.recording.create_match(club, "mano-a-mano", [COMPOSED_JOSE, "Beto"])
    log = finished_log([DECOMPOSED_JOSE, "Beto"])
    imported = service.recording.import_log(club, log)
    assert seat_ids(service, m["id"])[0] == seat_ids(service, imported["id"])[0] == jose["id"]
    assert imported["players"][0] == DECOMPOSED_JOSE  # as the log has it
    assert service.reading.list_matches(club, player=DECOMPOSED_JOSE)[1] == 2
    assert standing(service, club, COMPOSED_JOSE)["played"] == 1


def test_a_bidi_override_is_refused_everywhere(service: Service, club: str) -> None:
    evil = "\u202eoniN"
    with pytest.raises(Invalid, match="bidi"):
        service.players.create(club, evil)
    with pytest.raises(Invalid, match="bidi"):
        service.recording.create_match(club, "mano-a-mano", [evil, "Beto"])
    with pytest.raises(Invalid, match="bidi") as refused:
        service.recording.import_log(club, finished_log([evil, "Beto"]))
    assert refused.value.line == 1
    service.players.create(club, "Nino")
    with pytest.raises(Invalid, match="bidi"):
        service.players.rename(club, player_id(service, club, "Nino"), evil, "test")
    assert service.players.list(club) == (service.players.list(club)[0], 1)
    assert service.reading.list_matches(club)[1] == 0


def test_concurrent_new_names_register_one_player(service: Service, club: str) -> None:
    errors: list[BaseException] = []

    def create(i: int) -> None:
        try:
            service.recording.create_match(club, "mano-a-mano", [["Nuevo", "nuevo "][i % 2],
                                                                 f"Rival {i}"])
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=create, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    nuevo = player_id(service, club, "NUEVO")
    assert service.reading.list_matches(club, player="nuevo")[1] == 8
    assert service.players.get(club, nuevo)["matches"] == 8


# --------------------------------------------------------------------------- did you mean

def test_a_close_new_name_is_refused_until_confirmed(service: Service, club: str) -> None:
    service.players.create(club, "Ana Pérez")
    with pytest.raises(Unconfirmed, match=r"did you mean Ana Pérez\?") as refused:
        service.players.create(club, "Ana Perez")
    assert refused.value.suggestions == {"Ana Perez": ["Ana Pérez"]}
    assert isinstance(refused.value, Invalid)
    perez = service.players.create(club, "Ana Perez", confirm_new=True)
    assert {p["name"] for p in service.players.list(club)[0]} == {"Ana Pérez", "Ana Perez"}
    # An exact key is never "close": it is the player.
    m = service.recording.create_match(club, "mano-a-mano", ["ana perez", "Beto"])
    assert seat_ids(service, m["id"])[0] == perez["id"]


def test_a_match_seating_a_close_new_name(service: Service, club: str) -> None:
    service.players.create(club, "Guillermo")
    service.players.create(club, "Beto")
    before = service.players.list(club)
    with pytest.raises(Unconfirmed, match="did you mean Guillermo") as refused:
        service.recording.create_match(club, "mano-a-mano", ["Guilermo", "Beto"])
    assert refused.value.line == 1
    with pytest.raises(Unconfirmed) as refused:
        service.recording.create_match(club, "mano-a-mano", ["Guilermo", "Betto"])
    assert refused.value.suggestions == {"Guilermo": ["Guillermo"], "Betto": ["Beto"]}
    with pytest.raises(Unconfirmed):  # an idempotent create too
        service.recording.create_match(club, "mano-a-mano", ["Guilermo", "Beto"], client_key="k1")
    assert service.players.list(club) == before and service.reading.list_matches(club)[1] == 0
    m = service.recording.create_match(club, "mano-a-mano", ["Guilermo", "Beto"],
                                       confirm_new=True, client_key="k1")
    again = service.recording.create_match(club, "mano-a-mano", ["Guilermo", "Beto"],
                                           confirm_new=True, client_key="k1")
    assert again.replayed and again["id"] == m["id"]
    assert {p["name"] for p in service.players.list(club)[0]} == {"Guillermo", "Guilermo", "Beto"}
    # Far names are no question at all.
    service.recording.create_match(club, "mano-a-mano", ["Zulema", "Beto"])
    with pytest.raises(Invalid):
        service.recording.create_match(club, "mano-a-mano", ["X", "Y"], confirm_new="yes")


def test_an_import_with_a_close_new_name(service: Service, club: str) -> None:
    service.players.create(club, "Carla Gómez")
    log = finished_log(["Carla Gomes", "Beto"])
    with pytest.raises(Unconfirmed, match="did you mean Carla Gómez") as refused:
        service.recording.import_log(club, log)
    assert refused.value.line == 1
    assert service.reading.list_matches(club)[1] == 0
    imported = service.recording.import_log(club, log, confirm_new=True)
    assert imported["players"] == ["Carla Gomes", "Beto"]
    assert service.players.find(club, "carla gomes")["name"] == "Carla Gomes"


def test_a_merged_alias_is_close_too(service: Service, club: str) -> None:
    service.players.create(club, "Ana Pérez")
    service.players.create(club, "Anita", confirm_new=True)
    service.players.merge(club, "Anita", "Ana Pérez", "nickname")
    with pytest.raises(Unconfirmed, match="did you mean Ana Pérez"):
        service.players.create(club, "Anitta")  # close to the alias: the player is suggested
    with pytest.raises(Duplicate, match="merged into"):
        service.players.create(club, "anita")


# --------------------------------------------------------------------------- rename

def test_rename_records_and_matches_keep_their_names(service: Service, club: str) -> None:
    m = service.recording.import_log(club, finished_log(["Ana Perz", "Beto"]))
    ana = player_id(service, club, "Ana Perz")
    renamed = service.players.rename(club, ana, " Ana  Pérez", "spelling", who=_admin(service, club))
    assert renamed["name"] == "Ana Pérez" and renamed["id"] == ana
    [event] = renamed["history"]
    assert event["kind"] == "rename" and event["player"] == ana
    assert (event["old_name"], event["new_name"], event["reason"]) == ("Ana Perz", "Ana Pérez",
                                                                      "spelling")
    assert event["recorded_by"] == "casino admin (token %d)" % _admin(service, club).token_id
    assert event["into"] is None and event["moved"] is None and event["recorded_at"]
    assert service.players.history(club, ana) == renamed["history"]
    assert service.reading.get_match(m["id"])["players"] == ["Ana Perz", "Beto"]  # as recorded
    assert '"Ana Perz"' in service.reading.export_log(m["id"]).splitlines()[0]
    assert standing(service, club, "Ana Pérez")["played"] == 1  # the current name
    assert service.reading.list_matches(club, player="ana pérez")[1] == 1
    # the old key is free again
    assert service.players.find(club, "Ana Perz") is None
    # a change of case only, then the name it has (nothing to record)
    assert service.players.rename(club, ana, "ANA PÉREZ", "caps")["name"] == "ANA PÉREZ"
    assert len(service.players.rename(club, ana, "ANA PÉREZ", "again")["history"]) == 2
    assert service.players.get(club, ana)["history"] == service.players.history(club, "ana pérez")


def test_rename_refusals(service: Service, club: str) -> None:
    ana = service.players.create(club, "Ana")["id"]
    service.players.create(club, "Beto")
    with pytest.raises(Duplicate, match="merge"):
        service.players.rename(club, ana, "beto", "clash")
    for reason in ("", "  ", None, "x" * 1001, "bad\x00"):
        with pytest.raises(Invalid):
            service.players.rename(club, ana, "Anita", reason)
    with pytest.raises(NotFound):
        service.players.rename(club, 999, "Anita", "none")
    with pytest.raises(NotFound):
        service.players.rename(club, "Nadie", "Anita", "none")
    with pytest.raises(Invalid):
        service.players.rename(club, 0, "Anita", "none")
    service.clubs.create_club("other", "Other")
    with pytest.raises(NotFound):
        service.players.rename("other", ana, "Anita", "another club's player")
    for role in ("viewer", "scorekeeper", "referee"):
        who = service.tokens.authenticate(service.tokens.create_token(club, role))
        with pytest.raises(Forbidden):
            service.players.rename(club, ana, "Anita", "not mine", who=who)
        with pytest.raises(Forbidden):
            service.players.create(club, "Zoe", who=who)
        assert service.players.history(club, ana, who=who) == []
    assert service.players.get(club, ana)["name"] == "Ana"
    with reading(service.engine) as conn:
        assert conn.execute(select(player_events)).all() == []


# --------------------------------------------------------------------------- merge

def test_merge_moves_the_history(service: Service, club: str) -> None:
    a1 = service.recording.import_log(club, finished_log(["Ana Pérez", "Beto"], seed=1))
    a2 = service.recording.import_log(club, finished_log(["Anita P", "Carla"], seed=2))
    a3 = service.recording.import_log(club, finished_log(["Anita P", "Dani"], seed=3))
    ana, anita = player_id(service, club, "Ana Pérez"), player_id(service, club, "Anita P")
    assert standing(service, club, "Anita P")["played"] == 2
    merged = service.players.merge(club, anita, ana, "one person", who=_admin(service, club))
    assert merged["id"] == ana and merged["matches"] == 3
    assert merged["aliases"] == [{"id": anita, "name": "Anita P"}]
    [event] = merged["history"]
    assert (event["kind"], event["player"], event["into"]) == ("merge", anita, ana)
    assert (event["old_name"], event["new_name"], event["reason"]) == ("Anita P", "Ana Pérez",
                                                                      "one person")
    assert event["moved"] == [a2["id"], a3["id"]]
    # match lists and standings count them as one, by either name
    for typed in ("Ana Pérez", "anita p", "ANITA  P"):
        found, total = service.reading.list_matches(club, player=typed)
        assert total == 3 and {m["id"] for m in found} == {a1["id"], a2["id"], a3["id"]}
    line = standing(service, club, "Ana Pérez")
    assert line["played"] == 3 and line["rating_games"] == 3  # one player, rated over all three
    assert [r["games"] for r in service.standings.rating_history(club, ana)] == [1, 2, 3]
    assert service.standings.rating_history(club, anita) == []
    table = service.standings.table(club)
    service.rebuild()  # what a merge leaves is what the projections recomputed say
    assert service.standings.table(club) == table
    # the records are not edited: the matches keep the names they were recorded with
    assert service.reading.get_match(a2["id"])["players"] == ["Anita P", "Carla"]
    # the alias: out of the list, its name finds the player, its id shows where it went
    assert "Anita P" not in [p["name"] for p in service.players.list(club)[0]]
    assert service.players.list(club)[1] == 4
    assert service.players.find(club, "anita p")["id"] == ana
    gone = service.players.get(club, anita)
    assert gone["merged_into"] == ana and gone["matches"] == 0
    assert gone["history"] == merged["history"] == service.players.history(club, "Anita P")
    m = service.recording.create_match(club, "mano-a-mano", ["anita p", "Eva"])
    assert seat_ids(service, m["id"])[0] == ana
    with pytest.raises(Invalid, match="seated twice"):
        service.recording.create_match(club, "mano-a-mano", ["Anita P", "Ana Pérez"])
    # a merged player is no target any more, by id; by name it is the player it went into
    with pytest.raises(Invalid, match="was merged into"):
        service.players.rename(club, anita, "Anita Pérez", "no")
    with pytest.raises(Invalid, match="was merged into"):
        service.players.merge(club, anita, player_id(service, club, "Beto"), "no")
    with pytest.raises(Invalid, match="one player already"):
        service.players.merge(club, "Anita P", "Ana Pérez", "again")


def test_standings_leave_out_merged_players(service: Service, club: str) -> None:
    service.recording.import_log(club, finished_log(["Ana Pérez", "Beto"], seed=1))
    service.recording.import_log(club, finished_log(["Anita P", "Carla"], seed=2))
    service.players.merge(club, "Anita P", "Ana Pérez", "one person")
    assert "Anita P" not in [r["player"] for r in service.standings.table(club)]


def test_rating_history_finds_a_player_by_key(service: Service, club: str) -> None:
    service.recording.import_log(club, finished_log(["Ana Pérez", "Beto"], seed=1))
    assert len(service.standings.rating_history(club, "ana pérez")) == 1


def test_merge_chains_and_renames_follow(service: Service, club: str) -> None:
    a = service.players.create(club, "Alfa")["id"]
    b = service.players.create(club, "Bravo")["id"]
    c = service.players.create(club, "Charlie")["id"]
    service.recording.create_match(club, "mano-a-mano", ["Alfa", "Zed"])
    service.recording.create_match(club, "mano-a-mano", ["Bravo", "Zed"])
    service.players.rename(club, a, "Alfa Uno", "full name")
    service.players.merge(club, a, b, "same")
    merged = service.players.merge(club, b, c, "same again")
    assert merged["matches"] == 2
    assert {x["id"] for x in merged["aliases"]} == {a, b}
    assert [e["kind"] for e in merged["history"]] == ["rename", "merge", "merge"]
    for typed in ("alfa uno", "Bravo", "charlie"):
        assert service.players.find(club, typed)["id"] == c
        assert service.reading.list_matches(club, player=typed)[1] == 2
    with reading(service.engine) as conn:
        assert dict(conn.execute(select(players.c.id, players.c.merged_into)
                                 .where(players.c.id.in_([a, b]))).all()) == {a: c, b: c}


def test_merge_refusals(service: Service, club: str) -> None:
    service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"])
    ana, beto = player_id(service, club, "Ana"), player_id(service, club, "Beto")
    with pytest.raises(Invalid, match="sat in one match"):
        service.players.merge(club, ana, beto, "two people")
    with pytest.raises(Invalid, match="one player already"):
        service.players.merge(club, ana, "ana", "self")
    with pytest.raises(NotFound):
        service.players.merge(club, ana, 9999, "nobody")
    with pytest.raises(Invalid):
        service.players.merge(club, ana, 3.5, "a float")
    with pytest.raises(Invalid):
        service.players.merge(club, ana, beto, "")
    viewer = service.tokens.authenticate(service.tokens.create_token(club, "referee"))
    with pytest.raises(Forbidden):
        service.players.merge(club, ana, beto, "referee", who=viewer)
    assert service.players.get(club, ana)["matches"] == service.players.get(club, beto)["matches"] == 1


def test_merge_hooks_run_in_its_transaction(service: Service, club: str) -> None:
    service.players.create(club, "Uno")
    service.players.create(club, "Unos", confirm_new=True)
    calls = []

    def hook(conn, club_id, source, into, moved):
        calls.append((club_id, source, into, moved))
        raise RuntimeError("the projection failed")

    service.players.merge_hooks.append(hook)
    with pytest.raises(RuntimeError):
        service.players.merge(club, "Unos", "Uno", "test")
    assert len(calls) == 1
    assert service.players.get(club, "Unos")["merged_into"] is None  # rolled back, audit too
    assert service.players.history(club, "Uno") == []


# --------------------------------------------------------------------------- the audit

def test_the_audit_is_append_only(service: Service, club: str) -> None:
    ana = service.players.create(club, "Ana")["id"]
    service.players.rename(club, ana, "Ana María", "full name")
    for statement in ("UPDATE player_events SET reason = 'x'", "DELETE FROM player_events"):
        with pytest.raises(DBAPIError, match="append-only"):
            with service.engine.begin() as conn:
                conn.execute(text(statement))
    assert [e["reason"] for e in service.players.history(club, ana)] == ["full name"]


def _admin(service: Service, club: str) -> Caller:
    cached = getattr(service, "_test_admin", None)
    if cached is None:
        cached = service.tokens.authenticate(service.tokens.create_token(club, "admin",
                                                                         label="casino admin"))
        service._test_admin = cached  # type: ignore[attr-defined]
    return cached


# --------------------------------------------------------------------------- migration 0003

def test_the_backfill_keeps_clashing_names_apart(engine) -> None:
    at_revision(engine, "0002")
    from referee.store.codec import utcnow

    now = utcnow()
    with writing(engine) as conn:
        conn.execute(insert(clubs).values(id=1, slug="casino", name="Casino", created_at=now))
        conn.execute(insert(clubs).values(id=2, slug="other", name="Other", created_at=now))
        # the old schema knew nothing of keys: three spellings of Ana, and Ana elsewhere
        for pid, club_id, name in ((1, 1, "Ana"), (2, 1, "ana "), (3, 1, "Beto"),
                                   (4, 1, "ANA"), (5, 2, "ana"), (6, 1, "Ana  María")):
            conn.execute(text("INSERT INTO players (id, club_id, name, created_at) "
                              "VALUES (:id, :club, :name, :at)"),
                         {"id": pid, "club": club_id, "name": name, "at": now})
    runner.upgrade(engine)
    with reading(engine) as conn:
        keys = dict(conn.execute(select(players.c.id, players.c.name_key)).all())
        names = dict(conn.execute(select(players.c.id, players.c.name)).all())
    assert keys == {1: "ana", 2: "ana\t#2", 3: "beto", 4: "ana\t#4", 5: "ana", 6: "ana maría"}
    assert names == {1: "Ana", 2: "ana ", 3: "Beto", 4: "ANA", 5: "ana", 6: "Ana  María"}
    service = Service(engine)
    service.seal.run(again=True)  # the rows from before the row MACs, as an upgrade does
    assert service.players.find("casino", "ana")["id"] == 1
    assert service.players.find("casino", "ana maría")["id"] == 6
    assert service.players.find("other", "Ana")["id"] == 5
    # the later ones are reached by id, and merged (or renamed) through the audit
    service.players.merge("casino", 2, 1, "one Ana")
    service.players.rename("casino", 4, "Ana Tercera", "another Ana")
    assert [p["name"] for p in service.players.list("casino")[0]] == [
        "Ana", "Ana  María", "Ana Tercera", "Beto"]
    runner.downgrade(engine, "0002")
    runner.upgrade(engine)


def test_racing_three_way_merges_queue_and_never_deadlock(service: Service, club: str) -> None:
    """Eight rounds of three merges at once around a ring (A into B, B into C, C into A), each
    player with matches of their own: each merge either happens or is refused because its
    player was merged away meanwhile; never a deadlock or another database error."""
    for round_ in range(8):
        names = [f"Ring {round_} {n}" for n in "ABC"]
        for index, name in enumerate(names):  # finished: standings and ratings follow a merge
            service.players.create(club, name, confirm_new=True)
            service.recording.import_log(club, finished_log([name, "Rival"], seed=index))
        ids = [player_id(service, club, name) for name in names]
        barrier = threading.Barrier(3)
        outcomes: list[object] = []

        def merge(source: int, into: int) -> None:
            barrier.wait(timeout=30)
            try:
                service.players.merge(club, source, into, "race")
                outcomes.append("merged")
            except Invalid as refused:
                outcomes.append(refused)
            except BaseException as error:  # noqa: BLE001 - a deadlock, reported below
                outcomes.append(("failed", error))

        threads = [threading.Thread(target=merge, args=(ids[i], ids[(i + 1) % 3]))
                   for i in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        failed = [o for o in outcomes if isinstance(o, tuple)]
        assert not failed and len(outcomes) == 3, outcomes
        assert 1 <= outcomes.count("merged") <= 2  # the last of a ring would merge into itself
        survivors = {service.players.get(club, name)["id"] for name in names}
        assert len(survivors) == 3 - outcomes.count("merged")
