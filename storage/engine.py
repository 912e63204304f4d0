"""The one engine factory: SQLite in the user data dir by default, any SQLAlchemy URL by
choice, and the schema brought up to date by Alembic before first use."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url

ENV_VAR = "WARLEDGER_DB"
BUSY_TIMEOUT_MS = 5000


def data_dir() -> Path:
    """Where warledger keeps its database and host key."""
    from platformdirs import user_data_dir

    path = Path(user_data_dir("warledger", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def database_url(db: str | None = None) -> str:
    """The URL to use: `--db`, then WARLEDGER_DB, then SQLite in the user data dir.
    A plain path means a SQLite file."""
    db = db or os.environ.get(ENV_VAR) or str(data_dir() / "warledger.db")
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).expanduser().resolve()}"


def make_engine(db: str | None = None, *, migrate: bool = True) -> Engine:
    """An engine for `db` (see `database_url`), migrated to the current schema."""
    url = make_url(database_url(db))
    if url.get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
        _tune_sqlite(engine)
    else:
        engine = create_engine(url, pool_pre_ping=True)
    if migrate:
        from storage.migrate import upgrade

        upgrade(engine)
    return engine


def writer(engine: Engine) -> Engine:
    """The same engine, but its transactions take SQLite's write lock at BEGIN, so two
    writers queue instead of failing half-way."""
    return engine.execution_options(warledger_writer=True)


def _tune_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record) -> None:
        # Let SQLAlchemy's begin event issue BEGIN itself (pysqlite's own is deferred).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys = ON")
        if cursor.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn) -> None:
        immediate = conn.get_execution_options().get("warledger_writer")
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
