"""The store's tables built by concern (referee.store.schema.LATER): each table a ``schema_*``
module builds is named in LATER under that module, and each name in LATER is one of its
module's tables, so that ``from .schema import NAME`` builds the right group and no table is
left out of the map."""

from __future__ import annotations

import importlib

from sqlalchemy import Table

from referee.store import schema


def tables(module: object) -> set[str]:
    return {name for name, value in vars(module).items() if isinstance(value, Table)}


def test_later_names_each_groups_tables_and_no_other() -> None:
    eager = tables(schema) - set(schema.LATER)  # schema.py's own (every command's)
    built = {name: group for group in set(schema.LATER.values())
             for name in tables(importlib.import_module(f"referee.store.{group}")) - eager}
    assert built == schema.LATER
    assert {table.name for table in schema.metadata.tables.values()} >= set(schema.LATER)
