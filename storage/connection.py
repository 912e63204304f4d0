"""What the engine factory and the migrations share, below both: the storage error, the
writer option, where a SQLite database lives, and what another writer holding the lock
looks like."""

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


def is_busy(exc: BaseException) -> bool:
    """Whether `exc` is another connection holding the lock a write needs: worth waiting
    for and trying again, nothing broken."""
    from sqlalchemy.exc import DBAPIError

    if not isinstance(exc, DBAPIError):
        return False
    low = (str(exc.orig) if exc.orig is not None else str(exc)).lower()
    return any(w in low for w in ("locked", "busy", "lock timeout", "deadlock",
                                  "could not serialize"))
