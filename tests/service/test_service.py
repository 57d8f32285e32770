"""The service contract (docs/service.md), on both databases."""

from __future__ import annotations

import hashlib

import pytest
from db_helpers import PRESET_PLAYERS, record_all, sample_match
from sqlalchemy import select, update

from referee import Violation, build_report, position, replay, resolve_rules, write_log
from referee.core.log import make_log
from referee.service import (
    Caller,
    Conflict,
    Duplicate,
    Forbidden,
    IllegalEvent,
    Invalid,
    NotFound,
    Recorded,
    Service,
    Unauthorized,
)
from referee.store.db import reading, writing
from referee.store.schema import events, match_players, matches, players, tokens

PLAYERS = PRESET_PLAYERS["parejas"]


def log_text(header: dict, events: list) -> str:
    return write_log(make_log(header, events))


def expected_summary(header: dict, events: list) -> dict:
    rules = resolve_rules(header["rules"], len(header["players"]))
    result = replay(rules, header["players"], events)
    m = result.match
    return {"status": "finished" if m.finished else "in_progress",
            "round": m.round.number if m.round else None, "totals": list(m.totals),
            "winner": m.winner, "last_seq": len(events), "violations": len(result.violations)}


def projection(summary: dict) -> dict:
    return {k: summary[k] for k in ("status", "round", "totals", "winner", "last_seq",
                                    "violations")}


# --------------------------------------------------------------------------- clubs and players

def test_clubs(service: Service) -> None:
    club = service.clubs.create_club("la-esquina", "La Esquina")
    assert club["slug"] == "la-esquina" and club["name"] == "La Esquina" and club["created_at"]
    assert service.clubs.get_club("la-esquina") == club
    with pytest.raises(Duplicate):
        service.clubs.create_club("la-esquina", "Another")
    with pytest.raises(NotFound):
        service.clubs.get_club("nowhere")
    for slug in ("", "Upper", "with space", "-dash", "x" * 65, None):
        with pytest.raises(Invalid):
            service.clubs.create_club(slug, "Name")
    with pytest.raises(Invalid):
        service.clubs.create_club("ok", "bad\x00name")


def test_players(service: Service, club: str) -> None:
    ana = service.players.create(club, "Ana")
    assert ana["name"] == "Ana"
    with pytest.raises(Duplicate):
        service.players.create(club, "Ana")
    for name in ("Beto", "Carla", "Dani"):
        service.players.create(club, name)
    page, total = service.players.list(club, limit=2, offset=1)
    assert total == 4 and [p["name"] for p in page] == ["Beto", "Carla"]
    with pytest.raises(NotFound):
        service.players.create("nowhere", "Ana")
    with pytest.raises(Invalid):
        service.players.create(club, " ")
    with pytest.raises(Invalid):
        service.players.list(club, limit=-1)


def test_tokens(service: Service, club: str) -> None:
    service.clubs.create_club("other", "Other")
    token = service.tokens.create_token(club, "referee", label="Saturday referee")
    info = service.tokens.authenticate(token)
    assert info == Caller(club, "referee", info.token_id, "Saturday referee")
    with pytest.raises(Forbidden):
        service.clubs.get_club("other", who=info)
    with pytest.raises(Forbidden):
        service.tokens.create_token(club, "viewer", who=info)
    for bad in ("", "dr_nope", token + "x", None):
        with pytest.raises(Unauthorized):
            service.tokens.authenticate(bad)
    with pytest.raises(Invalid):
        service.tokens.create_token(club, "emperor")
    with pytest.raises(NotFound):
        service.tokens.create_token("nowhere", "viewer")
    with reading(service.engine) as conn:
        stored = conn.execute(select(tokens.c.hash)).scalar_one()
    assert stored == hashlib.sha256(token.encode()).hexdigest() and token not in stored


# -------------------------------------------------------------------------------------- matches

def test_create_match(service: Service, club: str) -> None:
    m = service.recording.create_match(club, {"preset": "parejas", "target": 100}, PLAYERS,
                             date="2024-05-01T19:30:00", table="3", event="Copa")
    assert m["club"] == club and m["players"] == PLAYERS
    assert m["rules"] == resolve_rules({"preset": "parejas", "target": 100}, 4).as_dict()
    assert list(m["rules"]) == list(resolve_rules("parejas", 4).as_dict())  # parameter order
    assert projection(m) == {"status": "in_progress", "round": None, "totals": [0, 0],
                             "winner": None, "last_seq": 0, "violations": 0}
    assert (m["date"], m["table"], m["event"]) == ("2024-05-01T19:30:00", "3", "Copa")
    assert service.reading.get_match(m["id"]) == m
    assert service.reading.get_match(str(m["id"])) == m
    assert sorted(p["name"] for p in service.players.list(club)[0]) == sorted(PLAYERS)
    header = service.reading.export_log(m["id"]).splitlines()[0]
    assert '"target": 100' in header and '"club": "casino"' in header


@pytest.mark.parametrize("rules, players", [
    ("nonsense", PLAYERS), ("parejas", PLAYERS[:3]), ({"preset": "parejas", "bogus": 1}, PLAYERS),
    ("parejas", ["Ana", "Ana", "Carla", "Dani"]), ("parejas", ["Ana", "Beto", "Carla", ""]),
    ("parejas", ["Ana", "Beto", "Carla", "D\x00ni"]), ("parejas", "Ana,Beto,Carla,Dani"),
])
def test_create_match_refuses_bad_input(service: Service, club: str, rules, players) -> None:
    with pytest.raises(Invalid):
        service.recording.create_match(club, rules, players)
    assert service.reading.list_matches(club) == ([], 0)


def test_create_match_refuses_unknown_header_fields_and_clubs(service: Service, club: str) -> None:
    with pytest.raises(Invalid):
        service.recording.create_match(club, "parejas", PLAYERS, venue="bar")
    with pytest.raises(Invalid):
        service.recording.create_match(club, "parejas", PLAYERS, date="yesterday")
    with pytest.raises(NotFound):
        service.recording.create_match("nowhere", "parejas", PLAYERS)


@pytest.mark.parametrize("match_id", [0, -1, 2**40, "abc", "", None, "1.0", True])
def test_unknown_matches(service: Service, club: str, match_id) -> None:
    for call in (service.reading.get_match, service.reading.report, service.reading.export_log,
                 service.reading.state, service.reading.list_events, service.reading.screen):
        with pytest.raises(NotFound):
            call(match_id)
    with pytest.raises(NotFound):
        service.recording.record_event(match_id, {"type": "note", "text": "x"}, expected_seq=0)


# ------------------------------------------------------------------------------- recording play

@pytest.mark.parametrize("preset", list(PRESET_PLAYERS))
@pytest.mark.parametrize("hidden", [(), (0, 1)])
def test_recorded_matches_project_what_the_report_says(service: Service, club: str, preset: str,
                                                      hidden: tuple) -> None:
    header, evs = sample_match(preset, seed=7, hidden=hidden)
    m = service.recording.create_match(club, preset, PRESET_PLAYERS[preset])
    for seq, event in enumerate(evs):
        recorded = service.recording.record_event(m["id"], event, expected_seq=seq, recorded_by="tester")
        assert isinstance(recorded, Recorded) and recorded.seq == seq + 1
        assert recorded.violation is None and recorded.event == event
    summary = service.reading.get_match(m["id"])
    assert projection(summary) == expected_summary(header, evs)
    report = service.reading.report(m["id"])
    rules = resolve_rules(preset, len(PRESET_PLAYERS[preset]))
    assert report == build_report(replay(rules, PRESET_PLAYERS[preset], evs))
    assert report["valid"] and report["finished"] == (summary["status"] == "finished")
    listed = service.reading.list_events(m["id"])
    assert [e["event"] for e in listed] == evs and listed[0]["recorded_by"] == "tester"
    assert [e["seq"] for e in service.reading.list_events(m["id"], after=5, limit=3)] == [6, 7, 8]
    # Export gives the same events back, under the header as created.
    exported = service.reading.export_log(m["id"])
    assert exported.splitlines()[1:] == log_text(header, evs).splitlines()[1:]


def test_state_now_and_at_any_seq(service: Service, club: str) -> None:
    header, evs = sample_match("mano-a-mano", seed=3)
    m = service.recording.create_match(club, "mano-a-mano", PRESET_PLAYERS["mano-a-mano"])
    record_all(service, m["id"], evs[:40])
    rules = resolve_rules("mano-a-mano", 2)
    for at in (0, 1, 17, 40):
        assert service.reading.state(m["id"], at=at) == position(replay(rules, header["players"],
                                                                evs[:at]).match)
    assert service.reading.state(m["id"]) == service.reading.state(m["id"], at=40)
    fresh = Service(service.engine)  # no cache: replays
    assert fresh.reading.state(m["id"]) == service.reading.state(m["id"])
    with pytest.raises(Invalid):
        service.reading.state(m["id"], at=41)
    with pytest.raises(Invalid):
        service.reading.state(m["id"], at=-1)


def test_an_illegal_event_is_refused_and_nothing_is_stored(service: Service, club: str) -> None:
    header, evs = sample_match("parejas", seed=5)
    m = service.recording.create_match(club, "parejas", PLAYERS)
    record_all(service, m["id"], evs[:3])
    before = service.reading.get_match(m["id"])
    wrong_turn = dict(evs[3], seat=(evs[3]["seat"] + 1) % 4)
    for bad in (wrong_turn, {"type": "play", "seat": 9, "tile": "6-6"}, {"type": "shout"},
                ["not", "an", "object"], {"type": "deal"}):
        with pytest.raises(IllegalEvent) as caught:
            service.recording.record_event(m["id"], bad, expected_seq=3)
        assert isinstance(caught.value.violation, Violation)
        assert caught.value.violation.seq == 4 and caught.value.message
    assert service.reading.get_match(m["id"]) == before
    assert len(service.reading.list_events(m["id"])) == 3
    # The refusal did not disturb the record: the right event is accepted, judged correctly.
    record_all(service, m["id"], evs[3:], start=3)
    assert projection(service.reading.get_match(m["id"])) == expected_summary(header, evs)


def test_stale_expected_seq_is_a_conflict(service: Service, club: str) -> None:
    m = service.recording.create_match(club, "parejas", PLAYERS)
    service.recording.record_event(m["id"], {"type": "note", "text": "a"}, expected_seq=0)
    with pytest.raises(Conflict) as caught:
        service.recording.record_event(m["id"], {"type": "note", "text": "b"}, expected_seq=0)
    assert caught.value.current_seq == 1
    with pytest.raises(Conflict) as caught:
        service.recording.record_event(m["id"], {"type": "note", "text": "b"}, expected_seq=5)
    assert caught.value.current_seq == 1
    for bad in (-1, True, "1", 1.0):
        with pytest.raises(Invalid):
            service.recording.record_event(m["id"], {"type": "note", "text": "b"}, expected_seq=bad)
    assert service.recording.record_event(m["id"], {"type": "note", "text": "c"}, expected_seq=None).seq == 2


def test_events_that_are_not_json_are_invalid(service: Service, club: str) -> None:
    m = service.recording.create_match(club, "parejas", PLAYERS)
    for bad in ({"type": "note", "text": float("nan")}, {"type": "note", "text": object()}):
        with pytest.raises(Invalid):
            service.recording.record_event(m["id"], bad, expected_seq=0)
    assert service.reading.get_match(m["id"])["last_seq"] == 0


def test_disputed_events_are_stored_with_their_violation(service: Service, club: str) -> None:
    header, evs = sample_match("parejas", seed=11)
    m = service.recording.create_match(club, "parejas", PLAYERS)
    record_all(service, m["id"], evs[:5])
    wrong = dict(evs[5], seat=(evs[5]["seat"] + 2) % 4, disputed=True)
    recorded = service.recording.record_event(m["id"], wrong, expected_seq=5)
    assert recorded.seq == 6 and recorded.violation.code == "out_of_turn"
    assert recorded.event == wrong
    # Applied as the table played it: the turn goes on from the seat that played.
    assert recorded.screen.position.turn == (wrong["seat"] + 1) % 4
    assert service.reading.get_match(m["id"])["violations"] == 1
    report = service.reading.report(m["id"])
    assert not report["valid"] and [v["seq"] for v in report["violations"]] == [6]
    # The referee strikes the disputed one: the round is replayed without it, clean again, in
    # the answer too.
    void = service.recording.record_event(m["id"], {"type": "void", "target": 6, "reason": "misrecorded"},
                                expected_seq=6)
    assert void.violation is None and void.screen.summary["violations"] == 0
    assert void.screen.position.turn == evs[5]["seat"]
    summary = service.reading.get_match(m["id"])
    assert summary["violations"] == 0 and service.reading.report(m["id"])["valid"]
    # A disputed event that is legal after all is simply stored.
    legal = service.recording.record_event(m["id"], dict(evs[5], disputed=True), expected_seq=7)
    assert legal.violation is None
    record_all(service, m["id"], evs[6:], start=8)
    stored = [e["event"] for e in service.reading.list_events(m["id"])]
    assert projection(service.reading.get_match(m["id"])) == {
        **expected_summary(header, stored), "last_seq": len(stored)}


def test_voids_and_a_void_of_a_void(service: Service, club: str) -> None:
    header, evs = sample_match("mano-a-mano", seed=2)
    m = service.recording.create_match(club, "mano-a-mano", PRESET_PLAYERS["mano-a-mano"])
    record_all(service, m["id"], evs[:10])
    # Striking the deal leaves the plays after it hanging: the void is legal, the record is not.
    service.recording.record_event(m["id"], {"type": "void", "target": 1, "reason": "x"}, expected_seq=10)
    assert service.reading.get_match(m["id"])["violations"] > 0
    service.recording.record_event(m["id"], {"type": "void", "target": 11, "reason": "undo"},
                         expected_seq=11)
    assert service.reading.get_match(m["id"])["violations"] == 0
    record_all(service, m["id"], evs[10:], start=12)
    stored = [e["event"] for e in service.reading.list_events(m["id"])]
    assert projection(service.reading.get_match(m["id"])) == expected_summary(header, stored)
    assert service.reading.report(m["id"])["totals"] == expected_summary(header, evs)["totals"]


def test_two_services_on_one_database_judge_alike(service: Service, club: str) -> None:
    # Each keeps its own cache; interleaved appends make every cached match stale in turn.
    other = Service(service.engine)
    header, evs = sample_match("veracruz", seed=4)
    m = service.recording.create_match(club, "veracruz", PRESET_PLAYERS["veracruz"])
    for seq, event in enumerate(evs):
        (service if seq % 3 else other).recording.record_event(m["id"], event, expected_seq=seq)
    assert projection(service.reading.get_match(m["id"])) == expected_summary(header, evs)


# ------------------------------------------------------------------------------------- import

def test_an_import_naming_another_club_is_refused(service: Service, club: str) -> None:
    header, evs = sample_match("mano-a-mano", seed=3)
    text = log_text({**header, "club": "rival", "event": "Copa Rival"}, evs)
    with pytest.raises(Invalid, match="names club 'rival', not 'casino'") as refused:
        service.recording.import_log(club, text)
    assert refused.value.line == 1
    assert service.reading.list_matches(club)[1] == 0


def test_import_and_export_round_trip(service: Service, club: str) -> None:
    header, evs = sample_match("puerto-rico", seed=9, hidden=(1, 3))
    header = {**header, "date": "2024-06-01", "table": 4, "extra": {"kept": True}}
    text = log_text(header, evs)
    m = service.recording.import_log(club, text, recorded_by="importer")
    assert projection(m) == expected_summary(header, evs)
    assert m["date"] == "2024-06-01" and m["table"] == 4
    # Stored as the club keeps it: the header names the club (link 0 of the chain, the acta's).
    assert service.reading.export_log(m["id"]) == log_text({**header, "club": club}, evs)
    assert service.recording.import_log(club, text.encode("utf-8"))["last_seq"] == len(evs)
    # The imported match goes on like any other.
    more = service.recording.record_event(m["id"], {"type": "note", "text": "after"}, expected_seq=len(evs))
    assert more.seq == len(evs) + 1


def nothing_stored(service: Service) -> None:
    with reading(service.engine) as conn:
        for table in (matches, events, players, match_players):
            assert conn.execute(select(table)).first() is None, table.name


def test_import_with_an_unreadable_line_in_the_middle_stores_nothing(service: Service,
                                                                     club: str) -> None:
    header, evs = sample_match("parejas", seed=1)
    lines = log_text(header, evs).splitlines()
    lines[30] = '{"type": "play", "seat": 1, '
    with pytest.raises(Invalid) as caught:
        service.recording.import_log(club, "\n".join(lines))
    assert caught.value.line == 31
    nothing_stored(service)
    with pytest.raises(Invalid) as caught:
        service.recording.import_log(club, b'{"format": "domino-log/1", "rules": "parejas"}\n')
    assert caught.value.line == 1
    with pytest.raises(Invalid):
        service.recording.import_log(club, b"\xff\xfe")
    nothing_stored(service)


def test_import_with_an_illegal_event_in_the_middle_stores_nothing(service: Service,
                                                                   club: str) -> None:
    header, evs = sample_match("parejas", seed=1)
    # An extra event: a pass out of turn, which (refused, or disputed and so not applied: there
    # is no pass out of turn to apply) leaves the rest legal.
    bad = evs[:40] + [{"type": "pass", "seat": (evs[40]["seat"] + 1) % 4}] + evs[40:]
    with pytest.raises(IllegalEvent) as caught:
        service.recording.import_log(club, log_text(header, bad))
    assert caught.value.violation.seq == 41
    nothing_stored(service)
    with pytest.raises(NotFound):
        service.recording.import_log("nowhere", log_text(header, evs))
    nothing_stored(service)
    # Marked disputed, the same log is taken as the table played it.
    bad[40]["disputed"] = True
    m = service.recording.import_log(club, log_text(header, bad))
    assert m["violations"] >= 1 and m["last_seq"] == len(bad)
    assert projection(m) == expected_summary(header, bad)


def test_import_judges_each_event_as_it_was_recorded(service: Service, club: str) -> None:
    # An illegal event voided later must still have been disputed when it was recorded.
    header, evs = sample_match("mano-a-mano", seed=6)
    wrong = {"type": "pass", "seat": 0}
    log = evs[:1] + [wrong, {"type": "void", "target": 2, "reason": "no"}] + evs[1:]
    with pytest.raises(IllegalEvent) as caught:
        service.recording.import_log(club, log_text(header, log))
    assert caught.value.violation.seq == 2
    log[1] = {**wrong, "disputed": True}
    m = service.recording.import_log(club, log_text(header, log))
    assert m["violations"] == 0
    assert m["totals"] == expected_summary(header, evs)["totals"]


# -------------------------------------------------------------------------- listings, standings

def test_list_matches_filters(service: Service, club: str) -> None:
    ids = {}
    for n, (preset, date) in enumerate([("parejas", "2024-01-10"), ("mano-a-mano", "2024-02-10"),
                                        ("parejas", "2024-03-10T20:00:00+01:00")]):
        header, evs = sample_match(preset, seed=n)
        header["date"] = date
        finished = n != 1
        ids[n] = service.recording.import_log(club, log_text(header, evs if finished else evs[:5]))["id"]
    assert service.reading.list_matches(club)[1] == 3
    assert [m["id"] for m in service.reading.list_matches(club)[0]] == [ids[2], ids[1], ids[0]]
    assert [m["id"] for m in service.reading.list_matches(club, status="in_progress")[0]] == [ids[1]]
    assert service.reading.list_matches(club, status="finished")[1] == 2
    assert [m["id"] for m in service.reading.list_matches(club, player="Carla")[0]] == [ids[2], ids[0]]
    assert service.reading.list_matches(club, player="Nobody") == ([], 0)
    assert [m["id"] for m in service.reading.list_matches(
        club, date_from="2024-02-01", date_to="2024-03-10")[0]] == [ids[2], ids[1]]
    page, total = service.reading.list_matches(club, limit=1, offset=1)
    assert total == 3 and [m["id"] for m in page] == [ids[1]]
    with pytest.raises(Invalid):
        service.reading.list_matches(club, status="paused")
    with pytest.raises(Invalid):
        service.reading.list_matches(club, date_from="last week")
    with pytest.raises(NotFound):
        service.reading.list_matches("nowhere")


def test_standings_count_finished_matches(service: Service, club: str) -> None:
    expected: dict[str, dict] = {}
    for seed in range(4):
        header, evs = sample_match("parejas", seed=seed)
        m = service.recording.import_log(club, log_text(header, evs))
        assert m["status"] == "finished"
        for seat, name in enumerate(header["players"]):
            line = expected.setdefault(name, {"player": name, "played": 0, "won": 0, "lost": 0,
                                              "points_for": 0})
            side = seat % 2
            line["played"] += 1
            line["points_for"] += m["totals"][side]
            line["won" if m["winner"] == side else "lost"] += 1
    header, evs = sample_match("mano-a-mano", seed=1)
    service.recording.import_log(club, log_text(header, evs[:3]))  # unfinished: does not count
    table = service.standings.table(club)
    assert {r["player"]: {k: r[k] for k in ("player", "played", "won", "lost", "points_for")}
            for r in table} == expected
    assert [r["won"] for r in table] == sorted((r["won"] for r in table), reverse=True)


# ------------------------------------------------------------------------------------ rebuild

def test_rebuild_recomputes_identical_projections(service: Service, club: str) -> None:
    for seed, preset in enumerate(PRESET_PLAYERS):
        header, evs = sample_match(preset, seed=seed, hidden=(0,) if seed % 2 else ())
        service.recording.import_log(club, log_text(header, evs[: 20 + 30 * seed]))
    m = service.recording.create_match(club, "parejas", PLAYERS)
    header, evs = sample_match("parejas", seed=8)
    record_all(service, m["id"], evs[:12])
    service.recording.record_event(m["id"], dict(evs[12], seat=(evs[12]["seat"] + 1) % 4, disputed=True),
                         expected_seq=12)
    service.recording.record_event(m["id"], {"type": "void", "target": 3, "reason": "x"}, expected_seq=13)
    service.recording.create_match(club, "sircle", ["Ana", "Beto"])  # no events at all

    def snapshot() -> list:
        with reading(service.engine) as conn:
            return [tuple(r) for r in conn.execute(select(matches).order_by(matches.c.id))]

    before = snapshot()
    with writing(service.engine) as conn:
        # (not last_seq: it is under the row's MAC, which no rebuild writes again)
        conn.execute(update(matches).values(status="finished", round=99, totals=[7, 7],
                                            winner=0, violations=5, rules={}))
    assert snapshot() != before
    assert service.rebuild() == 7
    assert snapshot() == before
    service.rebuild()
    assert snapshot() == before


def test_struck_names_what_the_voids_strike_now(service: Service, club: str) -> None:
    match_id = service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"])["id"]
    for event in ({"type": "note", "text": "a"}, {"type": "void", "target": 1, "reason": "x"},
                  {"type": "void", "target": 2, "reason": "undo the void"}):
        service.recording.record_event(match_id, event, expected_seq=None)
    assert service.reading.struck(match_id) == frozenset({2})


@pytest.mark.parametrize("player", ["a\x00b", "\x1a", " ", ""])
def test_a_player_filter_that_cannot_be_a_name_is_refused(service: Service, club: str,
                                                            player: str) -> None:
    with pytest.raises(Invalid, match="player"):
        service.reading.list_matches(club, player=player)
