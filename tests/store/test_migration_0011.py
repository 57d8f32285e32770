"""Migration 0011 from a 0010 database, on SQLite and PostgreSQL: headers that did not name
their club (an old import) or named another now name it and their matches are chained again,
every other match keeps its digests; nothing is signed until the club has a key, and then every
finished match's acta is; the server's old key adopted, an acta it signed (domino-acta/1)
verifies against the club's listing."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from types import ModuleType

from db_helpers import record_all, sample_match
from sqlalchemy import Engine, text
from template_helpers import at_revision

from migrations import runner
from referee.core import acta as sheet
from referee.core import chain
from referee.seal import documents
from referee.seal.keys import PrivateKey, read_keys
from referee.service import Service

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


def digests(engine: Engine, m: int) -> list[str]:
    with engine.connect() as conn:
        return list(conn.execute(text("SELECT digest FROM events WHERE match_id = :m ORDER BY seq"),
                                 {"m": m}).scalars())


def as_before_club_keys(engine: Engine, m: int, header: dict) -> None:
    """Store ``header`` for match ``m`` and chain its events from it, as 0010 stored a log
    imported with that header."""
    pg = engine.dialect.name == "postgresql"
    with engine.begin() as conn:
        rows = conn.execute(text("SELECT seq, data FROM events WHERE match_id = :m ORDER BY seq"),
                            {"m": m}).all()
        links = chain.links(header, [json.loads(r.data) for r in rows])
        conn.execute(text("ALTER TABLE events DISABLE TRIGGER events_append_only") if pg
                     else text("DROP TRIGGER events_no_update"))
        conn.execute(text("UPDATE matches SET header = :h WHERE id = :m"),
                     {"h": json.dumps(header), "m": m})
        for r, link in zip(rows, links[1:]):
            conn.execute(text("UPDATE events SET digest = :d WHERE match_id = :m AND seq = :s"),
                         {"d": link.hex(), "m": m, "s": r.seq})
        conn.execute(text("ALTER TABLE events ENABLE TRIGGER events_append_only") if pg else text(
            "CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
            "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"))


LATER_COLUMNS = (("clubs", "unranked", "VARCHAR(8)"), ("matches", "created_by", "INTEGER"),
                 ("clubs", "default_rules", "VARCHAR(32)"), ("clubs", "default_target", "INTEGER"),
                 ("matches", "head", "VARCHAR(64)"), ("clubs", "timezone", "VARCHAR(64)"),
                 ("events", "mac", "VARCHAR(64)"), ("matches", "mac", "VARCHAR(64)"),
                 ("matches", "head_mac", "VARCHAR(64)"), ("clubs", "mac", "VARCHAR(64)"),
                 ("players", "mac", "VARCHAR(64)"), ("match_players", "mac", "VARCHAR(64)"),
                 ("player_events", "mac", "VARCHAR(64)"))


def later_club_columns(engine: Engine, *, add: bool) -> None:
    """The service of today reads and writes every column its model has; the ones migrations
    after 0011 add (0013's clubs.unranked, 0014's matches.created_by, 0015's
    clubs.default_rules and default_target, 0016's matches.head, 0018's clubs.timezone) are
    lent to the 0010 database while it plays the old server, and taken back before the upgrade
    adds them for real; on PostgreSQL so is 0028's procedure, which appends one event."""
    procedure = _migration("0028_append_procedure")
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql" and not add:
            conn.execute(text(procedure.DROP))
        for table, column, kind in LATER_COLUMNS:
            conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {column} {kind}") if add
                         else text(f"ALTER TABLE {table} DROP COLUMN {column}"))
        if engine.dialect.name == "postgresql" and add:
            conn.execute(text(procedure.CREATE))


def _migration(name: str) -> ModuleType:
    """A revision's module, as alembic loads it (a file name that is no module name)."""
    spec = importlib.util.spec_from_file_location(name, Path(runner.__file__).parent
                                                  / "versions" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_upgrade_from_0010(engine: Engine, tmp_path, monkeypatch) -> None:
    at_revision(engine, "0010")
    later_club_columns(engine, add=True)
    old = Service(engine)
    # 0010 signed nothing when a match finished, and had no leagues whose legs' results to keep
    old.recording.projectors = tuple(p for p in old.recording.projectors
                                     if p.name not in ("acta", "league legs"))
    old.clubs.create_club("casino", "Casino")
    ids = []
    for seed in (4, 5, 6):
        _, evs = sample_match("parejas", seed=seed)
        m = old.recording.create_match("casino", "parejas", PLAYERS, event="Otoño")["id"]
        record_all(old, m, evs)
        ids.append(m)
    created, unnamed, misnamed = ids
    header = {"format": "domino-log/1", "rules": "parejas", "players": PLAYERS, "event": "Otoño"}
    as_before_club_keys(engine, unnamed, header)
    as_before_club_keys(engine, misnamed, {**header, "club": "rival"})
    kept = digests(engine, created)

    later_club_columns(engine, add=False)
    runner.upgrade(engine)
    service = Service(engine)
    service.seal.run(again=True)  # the rows from before the MACs (0020), as an upgrade does
    assert digests(engine, created) == kept  # its header named its club: untouched
    for m in (unnamed, misnamed):
        exported = service.reading.export_log(m).splitlines()
        assert json.loads(exported[0])["club"] == "casino"
        values = [json.loads(x) for x in exported]
        assert digests(engine, m)[-1] == chain.head(values[0], values[1:])
    audit = service.audit.run()
    assert audit.unsigned == 3 and all("no acta is signed" in p.what for p in audit.problems)

    # The server's old key, adopted: what it signed as domino-acta/1 verifies.
    legacy = PrivateKey.generate()
    path = tmp_path / "domino-signing-key.pem"
    path.write_bytes(legacy.pem())
    os.chmod(path, 0o600)
    monkeypatch.setenv("DOMINO_SIGNING_KEY", str(path))
    old_acta = {**sheet.from_log(header | {"club": "casino"}, [], _nothing(), form=sheet.LEGACY_FORMAT),
                "match": created, "key_id": legacy.key_id}
    old_acta["signature"] = sheet.encode(legacy.sign(sheet.legacy_bytes(old_acta)))
    adopted = service.keys.init("casino", adopt=True)
    assert adopted["key_id"] == legacy.key_id and adopted["adopted"]
    listing = read_keys(json.dumps(service.keys.listing("casino")))
    assert documents.signature_problems(old_acta, listing, "the acta") == []

    signed, failed = service.transparency.sign_due()
    assert failed == [] and sorted(m for m, _ in signed) == sorted(ids)
    assert service.audit.run().problems == []


def _nothing():  # the replay of a log without events, for a sheet to sign
    from referee.core.replay import replay
    from referee.core.rules import resolve_rules

    return replay(resolve_rules("parejas", 4), tuple(PLAYERS), [])
