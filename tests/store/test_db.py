"""referee.store.db: which database one setting picks."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.store.db import database_url


def test_the_url_is_the_argument_then_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMINO_DATABASE_URL", "postgresql+psycopg://u@h/db")
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"
    assert database_url() == "postgresql+psycopg://u@h/db"


def test_the_default_is_domino_db_in_the_data_dir_or_here(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    monkeypatch.delenv("DOMINO_DATABASE_URL", raising=False)
    monkeypatch.delenv("DOMINO_DATA_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    assert database_url() == f"sqlite:///{tmp_path / 'domino.db'}"
    data = tmp_path / "data" / "club"
    monkeypatch.setenv("DOMINO_DATA_DIR", str(data))
    assert database_url() == f"sqlite:///{data / 'domino.db'}"
    assert data.is_dir()  # created, so that SQLite can make its file there
