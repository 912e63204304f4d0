"""Watching one game for steps recorded by other terminals, cheaply enough to look several
times a second.

On SQLite, `PRAGMA data_version` on a connection kept for the watch changes only when
another connection has committed: most looks cost that one pragma and no query. On other
databases (PostgreSQL) a look reads the game's head sequence, one indexed row.
"""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy import Engine


class Games(Protocol):
    """What a watch needs of the ledger (storage.ledger.Ledger)."""

    engine: Engine

    def head(self, session_id: int) -> int: ...

    def load(self, session_id: int) -> Any: ...


class GameWatch:
    """Asks 'did this game move past `seq`?' for one game; `close` when done."""

    def __init__(self, ledger: Games, session_id: int) -> None:
        self.ledger = ledger
        self.session_id = session_id
        self._raw = None  # the SQLite connection kept for data_version
        self._version: int | None = None

    def newer_than(self, seq: int) -> Any | None:
        """The game as it stands if its head moved past `seq` (another terminal recorded a
        step), else None. Runs in a worker thread, never on the event loop."""
        if self.ledger.engine.dialect.name == "sqlite":
            version = self._data_version()
            if version == self._version:
                return None
            self._version = version
        if self.ledger.head(self.session_id) == seq:
            return None
        return self.ledger.load(self.session_id)

    def _data_version(self) -> int:
        if self._raw is None:
            self._raw = self.ledger.engine.raw_connection()
        cursor = self._raw.cursor()
        try:
            return cursor.execute("PRAGMA data_version").fetchone()[0]
        finally:
            cursor.close()

    def close(self) -> None:
        """Give the kept connection back."""
        raw, self._raw = self._raw, None
        if raw is not None:
            raw.close()
