"""``svc.clubs.set_name`` (``domino club set --name``): an admin renames a club, its slug kept;
and ``svc.recording.import_log``'s refusal of an event the referee refuses, which says which
line to mark ``"disputed": true`` (nothing stored)."""

from __future__ import annotations

import json

import pytest

from referee.service import Forbidden, IllegalEvent, Invalid, Service


def test_an_admin_renames_a_club_and_its_slug_stays(service: Service, club: str) -> None:
    renamed = service.clubs.set_name(club, "Casino Domino Club de Ponce")  # as create_club keeps it
    assert renamed["slug"] == club and renamed["name"] == "Casino Domino Club de Ponce"
    assert service.clubs.get_club(club)["name"] == "Casino Domino Club de Ponce"
    admin = service.tokens.authenticate(service.tokens.create_token(club, "admin"))
    assert service.clubs.set_name(club, "Casino", who=admin)["name"] == "Casino"


@pytest.mark.parametrize("name", ["", "   ", "x" * 1000, "tab\there"])
def test_a_bad_club_name_is_refused_and_nothing_changes(service: Service, club: str,
                                                        name: str) -> None:
    with pytest.raises(Invalid):
        service.clubs.set_name(club, name)
    assert service.clubs.get_club(club)["name"] == "Casino Domino Club"


def test_only_an_admin_renames_a_club(service: Service, club: str) -> None:
    referee = service.tokens.authenticate(service.tokens.create_token(club, "referee"))
    with pytest.raises(Forbidden):
        service.clubs.set_name(club, "Mine", who=referee)
    assert service.clubs.get_club(club)["name"] == "Casino Domino Club"


def test_an_import_refused_for_an_event_names_the_line_to_mark(service: Service, club: str) -> None:
    hands = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
             ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"]]
    lines = [{"format": "domino-log/1", "rules": "mano-a-mano", "players": ["Ana", "Beto"]},
             {"type": "deal", "hands": hands}, {"type": "play", "seat": 0, "tile": "6-6"},
             {"type": "pass", "seat": 1}]  # Beto holds 6-4 and 6-3: a renege
    text = "".join(json.dumps(line) + "\n" for line in lines)
    with pytest.raises(IllegalEvent) as refused:
        service.recording.import_log(club, text)
    assert refused.value.violation.seq == 3 and refused.value.violation.code == "renege"
    assert refused.value.message.startswith("event 3 (line 4): renege: ")
    assert refused.value.message.endswith('mark that line "disputed": true')
    assert refused.value.params["line"] == 4
    assert service.reading.list_matches(club)[1] == 0
    lines[3]["disputed"] = True
    stored = service.recording.import_log(club, "".join(json.dumps(line) + "\n" for line in lines))
    report = service.reading.report(stored["id"])
    assert [(d["seq"], d["code"], d["ruling"]) for d in report["disputes"]] == [(3, "renege", None)]
