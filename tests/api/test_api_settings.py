"""create_app's settings: the config dict, else the DOMINO_* environment, else the defaults."""

from __future__ import annotations

from typing import Any

import pytest

from api import create_app
from migrations.runner import upgrade
from referee.service import open_service


@pytest.fixture
def sqlite_url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path / 'domino.db'}"


def test_environment_fills_the_settings(monkeypatch: pytest.MonkeyPatch, sqlite_url: str) -> None:
    monkeypatch.setenv("DOMINO_DATABASE_URL", sqlite_url)
    monkeypatch.setenv("DOMINO_ADMIN_TOKEN", "from-env")
    monkeypatch.setenv("DOMINO_MAX_CONTENT_LENGTH", "1234")
    monkeypatch.setenv("DOMINO_TRUSTED_PROXIES", "1")
    config = create_app().config
    assert (config["DATABASE_URL"], config["ADMIN_TOKEN"]) == (sqlite_url, "from-env")
    assert config["MAX_CONTENT_LENGTH"] == 1234 and config["TRUSTED_PROXIES"] == 1


def test_config_wins_over_environment_and_defaults_fill_the_rest(
        monkeypatch: pytest.MonkeyPatch, sqlite_url: str) -> None:
    monkeypatch.setenv("DOMINO_ADMIN_TOKEN", "from-env")
    monkeypatch.delenv("DOMINO_MAX_CONTENT_LENGTH", raising=False)
    config = create_app({"DATABASE_URL": sqlite_url, "ADMIN_TOKEN": "from-config"}).config
    assert config["ADMIN_TOKEN"] == "from-config"
    assert config["MAX_CONTENT_LENGTH"] == 2 * 1024 * 1024


def test_a_body_over_the_configured_limit_is_413(sqlite_url: str) -> None:
    with open_service(sqlite_url) as service:
        upgrade(service.engine)
        service.clubs.create_club("casino", "Casino")
        token = service.tokens.create_token("casino", "referee")
    client = create_app({"DATABASE_URL": sqlite_url, "MAX_CONTENT_LENGTH": 100}).test_client()
    response = client.post("/api/v1/clubs/casino/matches/import", data="x" * 101,
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 413 and response.mimetype == "application/problem+json"
