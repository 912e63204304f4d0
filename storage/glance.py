"""The saved games at a glance: the TUI's home screen lists them with the standard library's
sqlite3 before the ledger is open, because SQLAlchemy alone takes most of a bare Textual
app's start to import (0.4 s), and the list is what a player opens warledger to see.

Only a SQLite file the engine factory would open as it is gets read here: the same checks
(storage.engine.check_sqlite_file: warledger's own, writable, no newer schema), and at this
version's schema. Anything else (a server database, a new file, a migration due, any error)
gives None, and the ledger lists the games instead, saying what is wrong if anything is.
It reads the first page as Ledger.games_page() does, with the same statements
(storage/listing.py); tests/test_light_imports.py holds the two equal.
"""

from __future__ import annotations

import importlib
import sqlite3
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any

from storage.engine import busy_timeout_ms, check_sqlite_file, chosen_database
from storage.listing import Page, Word, read_page
from storage.migrate import head_revision

if TYPE_CHECKING:
    from storage.ledger import Ledger

WARM_AFTER = 0.2  # seconds: the list is on the screen by then

def saved_games(db: str | None) -> Page | None:
    """The first page of the saved games of `db` (see storage.engine.chosen_database),
    newest first; None when the ledger must read them."""
    try:
        path = chosen_database(db)
        if not isinstance(path, Path) or not path.is_file():
            return None
        if check_sqlite_file(path) != head_revision():
            return None
        con = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True,
                              timeout=busy_timeout_ms() / 1000)
        try:
            return read_page(lambda sql, params: con.execute(sql, params).fetchall())
        finally:
            con.close()
    except Exception:  # noqa: BLE001 - the ledger reads them again and says what is wrong
        return None


def _load_the_ledger() -> None:
    for name in ("storage.ledger", "sqlalchemy.dialects.sqlite"):
        importlib.import_module(name)


def load_the_ledger_soon() -> None:
    """While the players read the list, the ledger's modules load (WARM_AFTER the first
    frame, not competing with it), so opening a game does not wait for them."""
    ahead = threading.Timer(WARM_AFTER, _load_the_ledger)
    ahead.daemon = True
    ahead.start()


# The saved games read by `read_ahead`, by database, until the home screen takes them.
_ahead: dict[str | None, Future[Page | None]] = {}


def read_ahead(db: str | None) -> Future[Page | None]:
    """Start reading the saved games of `db` now, in a thread, while the process imports
    Textual: the home screen then lists them in its first frame (`read_already`)."""
    found: Future[Page | None] = Future()
    _ahead[db] = found
    threading.Thread(target=lambda: found.set_result(saved_games(db)), name="glance",
                     daemon=True).start()
    return found


def read_already(db: str | None) -> Page | None:
    """The first page `read_ahead` found, if it has found it by now (this never waits);
    None when it has not, or left them to the ledger. Taken once: later lists are read
    anew."""
    found = _ahead.get(db)
    if found is None or not found.done():
        return None
    del _ahead[db]
    return found.result()


class Unopened:
    """The ledger before it is opened: `games()` at a glance when the file allows it, and
    anything else from the ledger, which `open_ledger` opens then."""

    def __init__(self, db: str | None, open_ledger: Callable[[], Ledger]) -> None:
        self.db = db
        self._open = open_ledger

    def games_page(self, words: Sequence[Word] = (), after: tuple[Any, int] | None = None,
                   size: int | None = None) -> Page:
        if words or after is not None or size is not None:  # not the first page: the ledger's
            return self._open().games_page(words, after, size)
        found = _ahead.pop(self.db, None)  # in a worker thread: it may wait for the reading
        listed = found.result() if found is not None else saved_games(self.db)
        if listed is None:
            return self._open().games_page(words, after, size)
        load_the_ledger_soon()
        return listed

    def __getattr__(self, name: str) -> Any:
        return getattr(self._open(), name)
