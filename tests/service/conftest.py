"""Fixtures of the service tests beyond tests/conftest.py's: a clock set by hand, and a service
on it with two clubs."""

from __future__ import annotations

import pytest
from clock_helpers import Clock
from sqlalchemy import Engine
from template_helpers import migrate

from referee.service import Service


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def svc(engine: Engine, clock: Clock) -> Service:
    """A service on ``clock`` with the clubs ``casino`` and ``other``."""
    service = Service(engine, clock=clock)
    migrate(service.engine)
    service.clubs.create_club("casino", "Casino")
    service.clubs.create_club("other", "Other")
    return service
