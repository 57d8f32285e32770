"""The database dialects' own constructs, imported when a statement first asks for one.

``sqlalchemy.dialects.postgresql`` costs a command on SQLite more than any module of the store
(its package imports every PostgreSQL driver's dialect, asyncpg's among them). The store names
the two dialects as the modules (``postgresql.insert(...)``, ``sqlite.insert(...)``), as before;
each name here loads its module on the first attribute read, so a process imports only the
dialect of the database it works on.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyDialect:
    """``sqlalchemy.dialects.<name>``, imported on first use."""

    def __init__(self, name: str) -> None:
        self.name = name

    def module(self) -> ModuleType:
        return importlib.import_module(f"sqlalchemy.dialects.{self.name}")

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):  # copy, pickle and the like ask for these: not the module's
            raise AttributeError(attr)
        return getattr(self.module(), attr)


postgresql = LazyDialect("postgresql")
sqlite = LazyDialect("sqlite")
