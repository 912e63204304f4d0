"""Watching one game for steps recorded by other terminals, and the list of saved games for
games set up, moved on, finished or deleted elsewhere, cheaply enough to look several times
a second.

On SQLite, `PRAGMA data_version` on a connection kept for the watch changes only when
another connection has committed: most looks cost that one pragma and no query, so a look
waiting for a change repeats it every few hundredths of a second. On PostgreSQL a step's
transaction notifies (`tell_watchers`) and a waiting look sleeps on LISTEN until then; a
look reads the game's head sequence, one indexed row. Whatever changes the saved games' list
(a game set up, a step, a title, a deletion, plays imported) notifies too; the list's watch
reads the list again only when something may have changed (data_version moved, or a
notification came).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from sqlalchemy import Connection, Engine, PoolProxiedConnection, text

if TYPE_CHECKING:
    import psycopg

CHANNEL = "warledger_steps"  # PostgreSQL's notification channel for recorded steps
SQLITE_EVERY = 0.02  # seconds between two looks at data_version while waiting


def tell_watchers(conn: Connection, session_id: int | None = None) -> None:
    """Inside a transaction that records a step or changes the saved games: PostgreSQL
    tells every listening terminal at commit (and never, if it rolls back). SQLite's
    watchers see data_version move by themselves."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_notify(:channel, :game)"),
                     {"channel": CHANNEL, "game": str(session_id or "")})


class Game(Protocol):
    """What a watch on one game needs of the ledger (storage.ledger.Ledger, or the
    scoreboard's Onlooker)."""

    engine: Engine

    def head(self, session_id: int) -> int: ...

    def load(self, session_id: int) -> Any: ...


class Games(Game, Protocol):
    """What the saved games' watch needs of the ledger (storage.ledger.Ledger)."""

    def games(self) -> list[Any]: ...


Watched = TypeVar("Watched", bound=Game)


class Watch(Generic[Watched]):
    """What both watches share: the connection kept (data_version on SQLite, LISTEN on
    PostgreSQL), the wait between looks, and the close."""

    def __init__(self, ledger: Watched) -> None:
        self.ledger = ledger
        # the connection kept: data_version on SQLite, LISTEN on PostgreSQL
        self._raw: PoolProxiedConnection | None = None
        self._version: int | None = None
        self._closed = False
        self._listening: psycopg.Connection[Any] | None = None
        self._told = False  # PostgreSQL: a notification came since the last look
        # A look starting to listen and a close in another thread: one after the other, so
        # a listener is either made before the close (which then wakes it) or not at all.
        self._lock = threading.Lock()

    @property
    def _sqlite(self) -> bool:
        return self.ledger.engine.dialect.name == "sqlite"

    def _pause(self, left: float) -> None:
        """Until something may have changed, at most `left` seconds."""
        if self._sqlite or self.ledger.engine.dialect.name != "postgresql":
            time.sleep(min(left, SQLITE_EVERY))
            return
        listener = self._listener()
        if listener is None:
            return  # closed meanwhile
        for _ in listener.notifies(timeout=left, stop_after=1):
            self._told = True  # any step of any game: the look that follows asks

    def _listener(self) -> psycopg.Connection[Any] | None:
        """A connection of its own LISTENing for steps (psycopg's, out of the pool); None once
        the watch is closed."""
        with self._lock:
            if self._closed:
                return None
            if self._raw is None:
                self._make_listener()
            return self._listening

    def _make_listener(self) -> None:
        raw = self.ledger.engine.raw_connection()
        listener = raw.driver_connection
        assert listener is not None  # a connection just checked out has its driver's
        raw.detach()  # LISTEN stays with the connection: it never goes back to the pool
        listener.autocommit = True
        listener.execute(f"LISTEN {CHANNEL}")
        self._raw, self._listening = raw, listener

    def _data_version(self) -> int | None:
        # Under the lock: a close in another thread waits for the pragma (sqlite3 crashed
        # the process when a connection was closed while another thread used it).
        with self._lock:
            if self._closed:
                return self._version  # nothing moved: the look ends
            if self._raw is None:
                self._raw = self.ledger.engine.raw_connection()
            cursor = self._raw.cursor()
            try:
                version: int = cursor.execute("PRAGMA data_version").fetchone()[0]
                return version
            finally:
                cursor.close()

    def close(self) -> None:
        """Give the kept connection back; a look waiting in another thread ends (on
        PostgreSQL it is woken by a notification of our own). Talks to the database: call it
        from a worker thread."""
        with self._lock:
            self._closed = True
        if self._listening is not None:
            with self.ledger.engine.begin() as conn:
                tell_watchers(conn, getattr(self, "session_id", None))
        with self._lock:  # a look's pragma in another thread is done first
            raw, self._raw = self._raw, None
        if raw is not None:
            raw.close()


class GameWatch(Watch[Game]):
    """Asks 'did this game move past `seq`?' for one game; `close` when done."""

    def __init__(self, ledger: Game, session_id: int) -> None:
        super().__init__(ledger)
        self.session_id = session_id

    def newer_than(self, seq: int, wait: float = 0.0) -> Any | None:
        """The game as it stands if its head moved past `seq` (another terminal recorded a
        step), else None; waits up to `wait` seconds for that. Runs in a worker thread,
        never on the event loop."""
        deadline = time.monotonic() + wait
        while not self._closed:
            found = self._look(seq)
            left = deadline - time.monotonic()
            if found is not None or left <= 0:
                return found
            self._pause(left)
        return None

    def _look(self, seq: int) -> Any | None:
        if self._sqlite:
            version = self._data_version()
            if version == self._version:
                return None
            self._version = version
        if self.ledger.head(self.session_id) == seq:
            return None
        return self.ledger.load(self.session_id)


class GamesWatch(Watch[Games]):
    """Asks 'is the list of saved games other than the one shown?' (a game set up, moved
    on, finished, renamed or deleted, here or on another terminal); `close` when done."""

    def changed_from(self, shown: Any, wait: float = 0.0,
                     read: Callable[[], Any] | None = None) -> Any | None:
        """What `read` reads (the games the screen shows: a page or the pages it has
        listed, Ledger.games_page; by default all of them, Ledger.games) if it differs from
        `shown`, else None; waits up to `wait` seconds for that. It is read again only when
        something may have changed: on SQLite data_version moved, on PostgreSQL a
        notification came (and at the first look, which also starts listening). Runs in a
        worker thread, never on the event loop."""
        read = read or self.ledger.games
        deadline = time.monotonic() + wait
        while not self._closed:
            if self._moved():
                games = read()
                if games != shown:
                    return games
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self._pause(left)
        return None

    def _moved(self) -> bool:
        """Whether anything may have changed since the last look (the first: always)."""
        if self._sqlite:
            version = self._data_version()
            moved, self._version = version != self._version, version
            return moved
        if self.ledger.engine.dialect.name != "postgresql":
            return True
        first = self._raw is None
        listener = self._listener()  # listening from the first look on
        if listener is None:
            return False
        told, self._told = self._told, False
        for _ in listener.notifies(timeout=0):  # those queued: one look answers them all
            told = True
        return first or told
