"""Opening the ledger for the CLI and the TUI, and database errors in players' words."""

from __future__ import annotations

from storage.engine import make_engine
from storage.ledger import Ledger, StorageError


def open_ledger(db: str | None = None) -> Ledger:
    """The ledger on `db` (see storage.engine.database_url), migrated and ready."""
    return Ledger(make_engine(db))


def explain(exc: BaseException) -> str:
    """One line a player can act on, for any failure of the database layer."""
    from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

    if isinstance(exc, StorageError):
        return str(exc)
    if isinstance(exc, NoSuchModuleError | ArgumentError):
        return f"cannot use that database URL: {exc}"
    if isinstance(exc, DBAPIError):
        text = str(exc.orig) if exc.orig is not None else str(exc)
        low = text.lower()
        if "locked" in low or "busy" in low:
            return "the database is busy (another terminal is writing); try again in a moment"
        if "readonly" in low or "read-only" in low:
            return "the database file is read-only; nothing was written"
        if "disk" in low and "full" in low:
            return "the disk is full; nothing was written"
        if "not a database" in low:
            return "that file is not a warledger database"
        if "unable to open" in low:
            return "cannot open the database file (check the folder exists and is writable)"
        if "connection" in low or "could not connect" in low:
            return f"cannot reach the database server: {text.splitlines()[0]}"
        return f"the database refused: {text.splitlines()[0]}"
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}"
    return f"{type(exc).__name__}: {exc}"
