"""The auditor's matrix, on the database itself (svc.audit, ``domino db audit``): every way a
database writer could change a result, with and without lifting the append-only triggers, and
the key file's life; each is caught by the audit, or by a monitor holding an old tree head.
Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from db_helpers import lifted, own_keys, record_all, sample_match, sql
from sqlalchemy import Engine, text
from template_helpers import seeded

from referee.core import chain
from referee.seal import documents
from referee.seal.keys import read_keys
from referee.service import RecordBroken, RowForged, Service

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


@pytest.fixture
def signed(service: Service, club: str, tmp_path: Path,
           monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """Two finished matches of the club, each acta signed into its log. Built once a session
    and copied (template_helpers.seeded: seconds of recording a test before), with the club's
    key file copied into the test's own keys folder (db_helpers.own_keys: a test removes it)."""
    name = service.clubs.get_club(club)["name"]

    def build(engine: Engine) -> tuple[int, int]:
        built = Service(engine)
        built.clubs.create_club(club, name)
        built.keys.init(club)
        ids = []
        for seed in (4, 5):
            _, evs = sample_match("parejas", seed=seed)
            m = built.recording.create_match(club, "parejas", PLAYERS, event="Otoño")["id"]
            record_all(built, m, evs)
            ids.append(m)
        built.notifier.close()
        return ids[0], ids[1]

    ids = seeded(service.engine, "audit's signed matches", build)
    own_keys(service, [club], tmp_path / "keys", monkeypatch)
    assert service.audit.run().problems == []
    return ids


def found(service: Service) -> list[str]:
    return [p.line() for p in service.audit.run().problems]


def events_of(service: Service, m: int) -> list[tuple[int, str]]:
    with service.engine.connect() as conn:
        return conn.execute(text("SELECT seq, data FROM events WHERE match_id = :m ORDER BY seq"),
                            {"m": m}).all()


def test_an_event_changed_behind_the_trigger(service: Service, signed: tuple[int, int]) -> None:
    m, _ = signed
    with lifted(service, "events"):
        sql(service, "UPDATE events SET data = :d WHERE match_id = :m AND seq = 5",
            d=json.dumps({"type": "note", "text": "forged"}), m=m)
    problems = found(service)
    assert any(f"match {m}, event 5: the stored digest" in p for p in problems), problems
    assert f"events row, match {m}, event 5: fails its MAC" in " ".join(problems)
    with pytest.raises(RecordBroken, match="event 5"):
        service.rebuild()  # refused, nothing changed
    assert service.rebuild(force=True) == 2


def test_an_event_changed_and_every_digest_computed_again(service: Service,
                                                          signed: tuple[int, int]) -> None:
    m, _ = signed
    rows = events_of(service, m)
    values = [json.loads(d) for _, d in rows]
    values[4] = {"type": "note", "text": "forged"}
    with service.engine.connect() as conn:
        header = json.loads(conn.execute(text("SELECT header FROM matches WHERE id = :m"),
                                         {"m": m}).scalar_one())
    links = chain.links(header, values)
    with lifted(service, "events"):
        with service.engine.begin() as conn:
            for (seq, _), value, link in zip(rows, values, links[1:]):
                conn.execute(text("UPDATE events SET data = :d, digest = :g WHERE match_id = :m "
                                  "AND seq = :s"), {"d": json.dumps(value), "g": link.hex(),
                                                    "m": m, "s": seq})
    problems = found(service)
    assert any(f"match {m}, event {len(rows)}: the record up to event {len(rows)} is not the "
               f"one signed as leaf" in p for p in problems), problems


def test_a_forged_ruling_inserted_with_its_right_digest(service: Service,
                                                        signed: tuple[int, int]) -> None:
    """No trigger stands in the way of an INSERT: the record holds together, and the audit
    finds a result changed that no acta was signed for; once signed, the club's log shows a new
    version of the match, which every monitor sees."""
    m, _ = signed
    before = service.transparency.head("casino")
    report = service.reading.report(m)
    rows = events_of(service, m)
    last = len(rows)
    forged = {"type": "forfeit", "side": report["winner"], "reason": "forged"}
    with service.engine.connect() as conn:
        link = conn.execute(text("SELECT digest FROM events WHERE match_id = :m AND seq = :s"),
                            {"m": m, "s": last}).scalar_one()
    digest = chain.extend(link, [forged])[0]
    sql(service, "INSERT INTO events (match_id, seq, type, data, recorded_at, digest) VALUES "
                 "(:m, :s, 'forfeit', :d, CURRENT_TIMESTAMP, :g)",
        m=m, s=last + 1, d=json.dumps(forged), g=digest)
    sql(service, "UPDATE matches SET last_seq = :s, winner = :w WHERE id = :m",
        s=last + 1, w=1 - report["winner"], m=m)
    problems = found(service)
    assert any(f"match {m}, event {last + 1}: finished, but no acta is signed" in p
               for p in problems), problems
    # The row carries no MAC the writer could make: named, never read, never signed.
    assert f"events row, match {m}, event {last + 1}: carries no MAC" in " ".join(problems)
    assert f"matches row, match {m}: fails its MAC" in " ".join(problems)
    signed_now, failed = service.transparency.sign_due()
    assert signed_now == [] and len(failed) == 1 and "fails its check" in failed[0]
    assert service.transparency.head("casino") == before
    with pytest.raises(RowForged):
        service.reading.report(m)


def test_a_header_column_changed(service: Service, signed: tuple[int, int]) -> None:
    m, _ = signed
    sql(service, "UPDATE matches SET header = :h WHERE id = :m", m=m, h=json.dumps(
        {"format": "domino-log/1", "rules": "parejas", "players": PLAYERS, "club": "casino",
         "event": "Copa Casino"}))
    problems = found(service)
    assert any(f"match {m}, event 1: the stored digest" in p and "from the header" in p
               for p in problems), problems


def test_the_seating_columns_changed(service: Service, signed: tuple[int, int]) -> None:
    m, _ = signed
    sql(service, "UPDATE matches SET players = :p WHERE id = :m", m=m,
        p=json.dumps(["Mallory"] * 4))
    problems = found(service)
    assert any(f"match {m}: the matches row says players" in p for p in problems), problems
    # a projection (the header, under the row's MAC, names the players): never signed
    assert [p["name"] for p in service.actas.acta(m)["players"]] == PLAYERS
    assert service.reading.get_match(m)["players"] == PLAYERS


def test_the_head_column_changed_and_rebuilt(service: Service, signed: tuple[int, int]) -> None:
    """The row's head is what an append chains on from (referee.store.events): one that is not
    the last event's digest is found, and a rebuild writes it again from the events."""
    m, _ = signed
    sql(service, "UPDATE matches SET head = :h WHERE id = :m", m=m, h="0" * 64)
    problems = found(service)
    assert any(f"match {m}: the matches row says head '{'0' * 64}'" in p for p in problems), problems
    with pytest.raises(RowForged):  # the head is under the row's MAC
        service.rebuild()
    service.rebuild(force=True)  # the head written again from the events: its MAC holds again
    assert found(service) == []


def test_an_event_deleted_behind_the_trigger(service: Service, signed: tuple[int, int]) -> None:
    m, _ = signed
    with lifted(service, "events"):
        sql(service, "DELETE FROM events WHERE match_id = :m AND seq = 3", m=m)
    problems = found(service)
    assert any(f"match {m}, event 4: event 3 is missing" in p for p in problems), problems


def test_a_trigger_dropped_and_left_so(service: Service, signed: tuple[int, int]) -> None:
    if service.engine.dialect.name == "postgresql":
        sql(service, "ALTER TABLE events DISABLE TRIGGER events_append_only")
        expected = "events: the trigger events_append_only is disabled"
    else:
        sql(service, "DROP TRIGGER events_no_delete")
        expected = "events: the trigger events_no_delete is missing"
    assert any(expected in p for p in found(service)), found(service)


def test_a_leaf_rewritten_behind_the_trigger(service: Service, signed: tuple[int, int]) -> None:
    m, _ = signed
    with service.engine.connect() as conn:
        acta = json.loads(conn.execute(text("SELECT acta FROM acta_leaves WHERE match_id = :m"),
                                       {"m": m}).scalar_one())
    forged = {**acta, "winner": 1 - acta["winner"]}
    with lifted(service, "acta_leaves"):
        sql(service, "UPDATE acta_leaves SET acta = :a WHERE match_id = :m", m=m,
            a=documents.leaf(forged).decode())
    problems = found(service)
    assert any("leaf 0's stored hash is not the hash of its acta" in p for p in problems)
    assert any("the signature does not match the acta of leaf 0" in p for p in problems)


def test_the_last_result_removed_from_the_tree(service: Service,
                                               signed: tuple[int, int]) -> None:
    """The last leaf and its head deleted, the triggers lifted: what is left holds together,
    but the audit finds the match unsigned, and a monitor holding the old head finds the tree
    the club shows now (once it signs again) does not extend it."""
    _, m = signed
    kept = service.transparency.head("casino")
    with lifted(service, "acta_leaves"), lifted(service, "tree_heads"):
        sql(service, "DELETE FROM acta_leaves WHERE match_id = :m", m=m)
        sql(service, "DELETE FROM tree_heads WHERE id = (SELECT MAX(id) FROM tree_heads)")
    assert any(f"match {m}" in p and "no acta is signed" in p for p in found(service))
    seq = service.reading.get_match(m)["last_seq"]
    service.recording.record_event(m, {"type": "note", "text": "quietly"}, expected_seq=seq)
    now = service.transparency.head("casino")
    assert now["size"] == kept["size"]
    proof = service.transparency.consistency("casino", kept["size"], now["size"])
    assert documents.consistency_problems(kept, now, proof)  # the same size, another root


def test_the_key_file_removed_or_opened_up(service: Service, signed: tuple[int, int]) -> None:
    m, _ = signed
    key_id = service.keys.listing("casino")["keys"][0]["key_id"]
    path = service.keys.ring.path("casino", key_id)
    os.chmod(path, 0o644)
    assert any("can be read by others (mode 0644)" in p and "chmod 600" in p
               for p in found(service))
    seq = service.reading.get_match(m)["last_seq"]
    service.recording.record_event(m, {"type": "note", "text": "x"}, expected_seq=seq)  # recorded
    assert service.transparency.sign_due()[0] == []  # nothing signed with an exposed key
    saved = path.read_bytes()
    path.unlink()
    problems = found(service)
    assert any("has no private key file" in p and "domino key rotate" in p for p in problems)
    assert any("no acta is signed" in p for p in problems)
    path.write_bytes(saved)
    os.chmod(path, 0o600)
    assert service.transparency.sign_due()[1] == [] and found(service) == []


def test_a_stored_public_key_replaced(service: Service, signed: tuple[int, int]) -> None:
    from referee.seal.keys import PrivateKey

    other = PrivateKey.generate()
    sql(service, "UPDATE signing_keys SET public_key = :p",
        p=documents.sheet.encode(other.public.raw))
    assert any("the signing_keys row was changed" in p for p in found(service))


def test_rotation_keeps_what_was_signed_valid(service: Service, signed: tuple[int, int]) -> None:
    m, _ = signed
    old = service.actas.acta(m)
    service.keys.rotate("casino")
    seq = service.reading.get_match(m)["last_seq"]
    service.recording.record_event(m, {"type": "note", "text": "after"}, expected_seq=seq)
    new = service.actas.acta(m)
    keys = read_keys(json.dumps(service.keys.listing("casino")))
    assert old["key_id"] != new["key_id"]
    for acta in (old, new):
        assert documents.signature_problems(acta, keys, "the acta") == []
    assert found(service) == []
    # An old key cannot sign past its end: an acta dated after it fails against the listing.
    assert documents.signature_problems({**old, "signed_at": new["signed_at"]}, keys, "the acta")


def test_a_standing_row_or_rating_changed(service: Service, signed: tuple[int, int]) -> None:
    """The standings and ratings carry no MAC: the audit computes them again from the records
    (in memory, by the code that writes them) and names each row that differs, changing
    nothing."""
    m, _ = signed
    with service.engine.connect() as conn:
        months = conn.execute(text("SELECT * FROM standing_months ORDER BY 1, 2, 3, 4, 5")).all()
        player, points = conn.execute(text(
            "SELECT player_id, points_for FROM standing_rows WHERE match_id = :m AND seat = 0"),
            {"m": m}).one()
    sql(service, "UPDATE standing_rows SET points_for = points_for + 100 "
                 "WHERE match_id = :m AND seat = 0", m=m)
    sql(service, "UPDATE current_ratings SET mu = 99.5 WHERE player_id = :p", p=player)
    problems = found(service)
    assert any(p.startswith(f"standing_rows row: match_id={m}, seat=0: points_for is "
                            f"{points + 100}, the records give {points}") for p in problems), \
        problems
    assert any(p.startswith(f"current_ratings row: player_id={player}: mu is 99.5, the records "
                            "give ") for p in problems), problems
    assert len(problems) == 2, problems  # the months were left alone: nothing else differs
    with service.engine.connect() as conn:  # the audit changed nothing
        assert conn.execute(text("SELECT mu FROM current_ratings WHERE player_id = :p"),
                            {"p": player}).scalar() == 99.5
        assert conn.execute(text("SELECT * FROM standing_months ORDER BY 1, 2, 3, 4, 5")
                            ).all() == months


def test_a_standing_month_removed(service: Service, signed: tuple[int, int]) -> None:
    with service.engine.connect() as conn:
        row = conn.execute(text("SELECT * FROM standing_months ORDER BY 1, 2, 3, 4 LIMIT 1")
                           ).mappings().one()
    sql(service, "DELETE FROM standing_months WHERE club_id = :c AND player_id = :p "
                 "AND partner_id = :q AND month = :mo AND event = :e", c=row["club_id"],
        p=row["player_id"], q=row["partner_id"], mo=row["month"], e=row["event"])
    problems = found(service)
    assert problems == [f"standing_months row: club_id={row['club_id']}, "
                        f"player_id={row['player_id']}, partner_id={row['partner_id']}, "
                        f"month={row['month']}, event={row['event']}: missing, the records give "
                        "one (domino db rebuild writes it)"], problems
