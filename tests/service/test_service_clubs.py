"""``svc.clubs.settings``, on SQLite and PostgreSQL: a club's settings named change together in
one transaction (PATCH /clubs/{club}, ``domino club set``, the desk), the others stay; one
refused value changes none of them; the single-setting methods are its callers; the defaults a
new match's form preselects (default_rules, default_target) are among them."""

from __future__ import annotations

from typing import Any

import pytest

from referee.service import Forbidden, Invalid, NotFound, Service
from referee.service.clubs import SETTINGS

BEFORE = {"name": "Casino Domino Club", "public": False, "language": None,
          "tie_breakers": ["won", "difference", "points_for", "head_to_head"],
          "unranked": "apart", "default_rules": None, "default_target": None, "timezone": None}


def settings_of(service: Service, club: str) -> dict[str, Any]:
    club_now = service.clubs.get_club(club)
    return {**{k: club_now[k] for k in ("name", "public", "language", "default_rules",
                                        "default_target", "timezone")},
            "tie_breakers": service.standings.tie_breakers(club),
            "unranked": service.standings.unranked(club)}


def test_every_setting_at_once_and_the_club_it_answers(service: Service, club: str) -> None:
    assert settings_of(service, club) == BEFORE
    changed = {"name": "Casino de Ponce", "public": True, "language": "es",
               "tie_breakers": ["won", "head_to_head"], "unranked": "hidden",
               "default_rules": "veracruz", "default_target": 150, "timezone": "America/Puerto_Rico"}
    assert set(changed) == set(SETTINGS)
    answer = service.clubs.settings(club, **changed)
    assert answer["slug"] == club and {k: answer[k] for k in SETTINGS} == changed
    assert settings_of(service, club) == changed
    assert service.clubs.get_club(club)["default_rules"] == "veracruz"


def test_only_the_settings_named_change(service: Service, club: str) -> None:
    service.clubs.settings(club, language="it", default_rules="parejas")
    service.clubs.settings(club, default_target=100)
    assert settings_of(service, club) == {**BEFORE, "language": "it", "default_rules": "parejas",
                                          "default_target": 100}
    # None is a value: back to the default (the preset's own target, no preset preselected)
    service.clubs.settings(club, default_rules=None, default_target=None, tie_breakers=None)
    assert settings_of(service, club) == {**BEFORE, "language": "it"}


@pytest.mark.parametrize("bad", [
    {"language": "fr"}, {"public": "yes"}, {"public": 1}, {"tie_breakers": ["won", "won"]},
    {"tie_breakers": []}, {"tie_breakers": "won"}, {"unranked": "gone"},
    {"default_rules": "poker"}, {"default_rules": ["parejas"]}, {"default_target": 0},
    {"default_target": 10_001}, {"default_target": True}, {"default_target": "50"},
    {"default_target": 50.0}, {"name": "   "}, {"name": "x" * 1000},
    {"timezone": "Europe/Atlantis"}, {"timezone": "../../etc/passwd"}, {"timezone": ""},
    {"timezone": ["Europe/Madrid"]}, {"timezone": "europe/madrid"},
])
def test_one_refused_value_changes_nothing(service: Service, club: str, bad: dict[str, Any]) -> None:
    good = {"name": "Casino de Ponce", "public": True, "default_rules": "sircle",
            "default_target": 75}
    with pytest.raises(Invalid):
        service.clubs.settings(club, **{**good, **bad})
    assert settings_of(service, club) == BEFORE


def test_a_bad_language_with_a_good_name_leaves_the_name(service: Service, club: str) -> None:
    with pytest.raises(Invalid) as refused:
        service.clubs.settings(club, name="Renamed", language="fr")
    assert "language must be one of en, es, it" in refused.value.message
    assert service.clubs.get_club(club)["name"] == "Casino Domino Club"


def test_no_setting_is_refused_and_an_unknown_club_is_not_found(service: Service,
                                                                  club: str) -> None:
    with pytest.raises(Invalid, match="name a setting to change"):
        service.clubs.settings(club)
    with pytest.raises(NotFound):
        service.clubs.settings("nowhere", name="X")


def test_only_an_admin_changes_settings(service: Service, club: str) -> None:
    for role in ("referee", "scorekeeper", "viewer"):
        who = service.tokens.authenticate(service.tokens.create_token(club, role))
        with pytest.raises(Forbidden):
            service.clubs.settings(club, default_rules="parejas", who=who)
    service.clubs.create_club("otro", "Otro Club")
    other = service.tokens.authenticate(service.tokens.create_token("otro", "admin"))
    with pytest.raises(Forbidden):
        service.clubs.settings(club, name="Mine", who=other)
    assert settings_of(service, club) == BEFORE
    admin = service.tokens.authenticate(service.tokens.create_token(club, "admin"))
    assert service.clubs.settings(club, default_target=60, who=admin)["default_target"] == 60


def test_the_single_setting_methods_go_through_settings(service: Service, club: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[str, Any]] = []
    import referee.service.clubs as clubs_module

    real = clubs_module.change_settings

    def spy(engine: Any, slug: str, changes: dict[str, Any], who: Any) -> dict[str, Any]:
        seen.append(changes)
        return real(engine, slug, changes, who)

    monkeypatch.setattr(clubs_module, "change_settings", spy)  # the standings' too: they
    # import it from .clubs when a setting changes (not at start: bench/cli_bench.py)
    service.clubs.set_name(club, "Casino Dos")
    service.clubs.set_public(club, True)
    service.clubs.set_language(club, "es")
    service.standings.set_tie_breakers(club, ["won"])
    assert service.standings.set_unranked(club, "hidden") == {"unranked": "hidden"}
    assert seen == [{"name": "Casino Dos"}, {"public": True}, {"language": "es"},
                    {"tie_breakers": ["won"]}, {"unranked": "hidden"}]
    assert settings_of(service, club) == {**BEFORE, "name": "Casino Dos", "public": True,
                                          "language": "es", "tie_breakers": ["won"],
                                          "unranked": "hidden"}


def test_the_time_zone_is_an_iana_name_and_none_is_utc(service: Service, club: str) -> None:
    assert service.clubs.settings(club, timezone="Europe/Madrid")["timezone"] == "Europe/Madrid"
    with pytest.raises(Invalid) as refused:
        service.clubs.settings(club, timezone="Madrid")
    assert "IANA name" in refused.value.message
    assert service.clubs.get_club(club)["timezone"] == "Europe/Madrid"
    assert service.clubs.settings(club, timezone=None)["timezone"] is None  # UTC
