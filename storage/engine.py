"""The one engine factory: SQLite in the user data dir by default, any SQLAlchemy URL by
choice, and the schema brought up to date by Alembic before first use.

A SQLite file is looked at read-only before the engine touches it: something that is not a
warledger database, a read-only file or folder, or a database of a newer warledger is
refused with a StorageError, and the file is left exactly as it was. Those checks need no
SQLAlchemy, which is imported only to make an engine (storage/glance.py reads the saved
games before it is)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from i18n import _

# Shared with storage.migrate, which must not import this module (it is imported from here).
from storage.connection import StorageError, sqlite_path, writer
from storage.migrate import check_schema, upgrade

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

__all__ = ["StorageError", "data_dir", "database_url", "make_engine", "sqlite_path", "writer"]

ENV_VAR = "WARLEDGER_DB"
BUSY_ENV_VAR = "WARLEDGER_BUSY_TIMEOUT_MS"
BUSY_TIMEOUT_MS = 5000
SQLITE_MAGIC = b"SQLite format 3\x00"
PRIVATE_FOLDER = 0o700  # the data folder
PRIVATE_FILE = 0o600  # a new database; SQLite gives its -wal and -shm the same mode


def data_dir() -> Path:
    """Where warledger keeps its database and host key: a folder only its owner can open
    (0700). The folder is warledger's own, so one made looser by an older version is
    tightened."""
    from platformdirs import user_data_dir

    path = Path(user_data_dir("warledger", appauthor=False))
    path.mkdir(mode=PRIVATE_FOLDER, parents=True, exist_ok=True)
    if path.stat().st_mode & 0o777 != PRIVATE_FOLDER:
        path.chmod(PRIVATE_FOLDER)
    return path


def chosen_database(db: str | None = None) -> str | Path:
    """The database to use: `--db`, then WARLEDGER_DB, then SQLite in the user data dir.
    A URL (str) as given; a plain path means a SQLite file (Path)."""
    db = db or os.environ.get(ENV_VAR) or str(data_dir() / "warledger.db")
    return db if "://" in db else Path(db).expanduser().resolve()


def database_url(db: str | None = None) -> str:
    """The URL of the database to use (see `chosen_database`)."""
    chosen = chosen_database(db)
    if isinstance(chosen, str):
        return chosen
    from sqlalchemy.engine import URL

    # Rendered by SQLAlchemy, so a '?', '#' or '%' in a file name stays part of the name.
    return URL.create("sqlite", database=str(chosen)).render_as_string()


def busy_timeout_ms() -> int:
    """How long a writer waits for another terminal's write before giving up:
    WARLEDGER_BUSY_TIMEOUT_MS, else 5 seconds."""
    raw = os.environ.get(BUSY_ENV_VAR, "").strip()
    if not raw:
        return BUSY_TIMEOUT_MS
    if not raw.isdigit():
        # TRANSLATORS: {variable} is WARLEDGER_BUSY_TIMEOUT_MS, {given} its value, quoted.
        raise StorageError(_("{variable} must be a whole number of milliseconds, not "
                             "{given}").format(variable=BUSY_ENV_VAR, given=repr(raw)))
    return int(raw)


def make_engine(db: str | None = None, *, migrate: bool = True, bulk: bool = False) -> Engine:
    """An engine for `db` (see `database_url`), migrated to the current schema.
    StorageError if the database is not one warledger may use.
    `bulk` (a command storing many files, one transaction each): on PostgreSQL a commit
    does not wait for the WAL's flush (Ledger.make_durable waits once, after the last) and a
    connection is not pinged before each transaction; each was a round trip a file."""
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    url = make_url(database_url(db))
    timeout = busy_timeout_ms()
    if url.get_backend_name() == "sqlite":
        path = sqlite_path(url)
        if path is not None:
            check_sqlite_file(path)
            create_private(path)
        engine = create_engine(url, connect_args={"timeout": timeout / 1000})
        _tune_sqlite(engine, timeout)
    else:
        if bulk and url.get_backend_name() == "postgresql":
            # Beside the URL's own options (a schema's search_path, say).
            given = url.query.get("options", ())
            given = (given,) if isinstance(given, str) else given
            url = url.update_query_dict(
                {"options": " ".join([*given, "-c synchronous_commit=off"])})
        engine = create_engine(url, pool_pre_ping=not bulk)
        if url.get_backend_name() == "postgresql":
            _tune_postgresql(engine, timeout)
    if migrate:
        try:
            upgrade(engine)
        except BaseException:
            engine.dispose()
            raise
    return engine


def check_sqlite_file(path: Path) -> str | None:
    """Refuse, before anything is written, a file warledger must not touch. Returns the
    file's schema revision (None for a new database)."""
    folder = path.parent
    if path.is_dir():
        raise StorageError(_("{path} is a folder, not a database file").format(path=path))
    # A device, a pipe or a socket is no database: SQLite would write its journal beside it
    # (/dev/null-journal) and then call it damaged. Only a regular file, or a new one.
    if path.exists() and not stat.S_ISREG(path.stat().st_mode):
        raise StorageError(_("{path} is not a database file (only a regular file, or a new "
                             "one in a folder); nothing was changed").format(path=path))
    if not folder.is_dir():
        raise StorageError(_("cannot create {path}: the folder {folder} does not "
                             "exist").format(path=path, folder=folder))
    # SQLite keeps its write-ahead journal next to the database, so the folder must be
    # writable too, even when the file is.
    if not os.access(folder, os.W_OK | os.X_OK, effective_ids=_effective_ids()):
        raise StorageError(_("the folder {folder} is read-only: warledger writes the "
                             "database and its journal there; nothing was changed").format(
                                 folder=folder))
    if not path.exists() or path.stat().st_size == 0:
        return None  # a new database
    # Asked of the kernel, not by opening the file: this process may have it open with
    # SQLite already (a second engine, the home screen's glance), and closing any descriptor
    # of a file drops every POSIX lock the process holds on it. Without its lock another
    # process takes itself for the database's last user as it closes, and deletes the
    # write-ahead log and its index from under this one's connections: their writes and the
    # others' are never seen across again. SQLite's own opens and closes keep the locks.
    if not os.access(path, os.R_OK | os.W_OK, effective_ids=_effective_ids()):
        raise StorageError(_("the database file {path} is read-only: warledger writes every "
                             "step the moment it is confirmed (make it writable, or copy "
                             "it); nothing was changed").format(path=path))
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                              timeout=busy_timeout_ms() / 1000)
        try:
            tables = {r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            revision = None
            if "alembic_version" in tables:
                row = con.execute("SELECT version_num FROM alembic_version").fetchone()
                revision = row[0] if row else None
        finally:
            con.close()
    except sqlite3.OperationalError as e:
        if "locked" in str(e) or "busy" in str(e):  # another program writing, not damage
            raise StorageError(_("the database {path} stayed locked while warledger looked "
                                 "at it (another program is writing to it); nothing was "
                                 "changed: start again when it is done").format(
                                     path=path)) from None
        raise StorageError(damaged(path, e)) from None
    except sqlite3.DatabaseError as e:
        if e.sqlite_errorcode == sqlite3.SQLITE_NOTADB and not has_sqlite_magic(path):
            raise StorageError(_("{path} is not a warledger database (not a SQLite file); "
                                 "nothing was changed").format(path=path)) from None
        raise StorageError(damaged(path, e)) from None
    check_schema(tables, revision, where=str(path))
    return revision


def has_sqlite_magic(path: Path) -> bool:
    """Whether the file starts as a SQLite file does. Opens the file itself: only for one
    SQLite has refused (no connection of this process holds a lock on it)."""
    with contextlib.suppress(OSError), path.open("rb") as f:
        return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    return False


def damaged(path: Path, e: Exception) -> str:
    # TRANSLATORS: {error} is SQLite's own words (file is not a database).
    return _("{path} is damaged or not a warledger database ({error}); nothing was "
             "changed").format(path=path, error=e)


def create_private(path: Path) -> None:
    """Create a new database file readable by its owner only (0600), before SQLite does
    (SQLite would use 0644 less the umask). SQLite creates the -wal and -shm files with the
    database file's mode, so they are private too. An existing file is left as it is."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))


def _effective_ids() -> bool:
    return os.access in os.supports_effective_ids


def _tune_sqlite(engine: Engine, timeout_ms: int) -> None:
    from sqlalchemy import event

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's begin event issue BEGIN itself (pysqlite's own is deferred).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {timeout_ms}")
        cursor.execute("PRAGMA foreign_keys = ON")
        if cursor.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            cursor.execute("PRAGMA journal_mode = WAL")
        # NORMAL in WAL mode: a commit survives the process being killed (not a power cut).
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: Connection) -> None:
        immediate = conn.get_execution_options().get("warledger_writer")
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _tune_postgresql(engine: Engine, timeout_ms: int) -> None:
    from sqlalchemy import event

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # The same patience as SQLite's busy timeout: a lock held longer is told, not waited on.
        with dbapi_connection.cursor() as cursor:
            cursor.execute(f"SET lock_timeout = {max(1, int(timeout_ms))}")  # 0 would wait forever
        dbapi_connection.commit()
