"""Opening the ledger for the CLI and the TUI, and database errors in players' words.

Light to import (SQLAlchemy only once a ledger is opened or an error explained): the TUI
imports it on its event loop for every ledger call."""

from __future__ import annotations

from typing import TYPE_CHECKING

from i18n import N_, _
from storage.connection import is_busy
from storage.engine import StorageError, make_engine

if TYPE_CHECKING:
    from storage.ledger import Ledger

__all__ = ["BUSY", "explain", "is_busy", "open_ledger"]

BUSY = N_("the database is busy (another terminal is writing); try again in a moment")


def open_ledger(db: str | None = None, *, bulk: bool = False) -> Ledger:
    """The ledger on `db` (see storage.engine.database_url), migrated and ready; `bulk`:
    for storing many files at once (storage.engine.make_engine)."""
    from storage.ledger import Ledger

    return Ledger(make_engine(db, bulk=bulk), bulk=bulk)


def explain(exc: BaseException) -> str:
    """One line a player can act on, for any failure of the database layer."""
    from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

    if isinstance(exc, StorageError):
        return str(exc)
    if isinstance(exc, NoSuchModuleError | ArgumentError):
        # TRANSLATORS: {error} is SQLAlchemy's own words.
        return _("cannot use that database URL: {error}").format(error=exc)
    if isinstance(exc, ModuleNotFoundError) and (exc.name or "").startswith("psycopg"):
        return _("PostgreSQL needs the psycopg driver: install warledger[postgres]")
    if isinstance(exc, DBAPIError):
        text = str(exc.orig) if exc.orig is not None else str(exc)
        low = text.lower()
        first = (text.strip().splitlines() or [type(exc.orig).__name__])[0]
        if is_busy(exc):
            return _(BUSY)
        if "readonly" in low or "read-only" in low:
            return _("the database file is read-only; nothing was written")
        if ("disk" in low and "full" in low) or "no space left" in low:
            return _("the disk is full; nothing was written")
        if "not a database" in low:
            return _("that file is not a warledger database")
        # TRANSLATORS: {error} is the database's own words (its first line).
        if "malformed" in low or "disk i/o" in low:
            return _("the database file is damaged ({error}); restore a backup copy").format(
                error=first)
        if "unable to open" in low:
            return _("cannot open the database file (check the folder exists and is "
                     "writable)")
        if "connection" in low or "could not connect" in low or "server" in low:
            return _("cannot reach the database server: {error}").format(error=first)
        return _("the database refused: {error}").format(error=first)
    if isinstance(exc, MemoryError):
        return _("out of memory")
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}"
    return f"{type(exc).__name__}: {exc}"
