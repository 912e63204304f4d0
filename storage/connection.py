"""What the engine factory and the migrations share, below both: the storage error, the
writer option, and where a SQLite database lives."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported by what imports nothing of SQLAlchemy (storage/glance.py)
    from sqlalchemy import Engine
    from sqlalchemy.engine import URL


class StorageError(Exception):
    """The database could not do what was asked; the message says what to do."""


def writer(engine: Engine) -> Engine:
    """The same engine, but its transactions take SQLite's write lock at BEGIN, so two
    writers queue instead of failing half-way."""
    return engine.execution_options(warledger_writer=True)


def sqlite_path(url: URL) -> Path | None:
    """The file of a SQLite URL (None for an in-memory database)."""
    database = url.database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)
