"""Several processes starting at once on a database that needs migrating (storage/migrate.py):
one migrates, the others wait for it and find the schema at head; a lock held past
MIGRATION_WAIT fails the start with one line, and changes nothing. On SQLite and, with
WARLEDGER_TEST_PG, on PostgreSQL.

The children wait at most 100 ms in one try for another's lock, far less than a migration
takes: the way a loaded machine stretches a migration past the busy timeout, every time."""

from __future__ import annotations

import multiprocessing
import sqlite3

import pytest
from reliability import workers
from sqlalchemy import create_engine, inspect

from storage.connection import StorageError
from storage.engine import make_engine
from storage.migrate import ADVISORY_LOCK, current_revision, head_revision

STARTING = 6  # processes starting at the same moment
ONE_TRY_MS = 100  # how long a child waits for a lock in one try


@pytest.fixture(scope="module")
def mp():
    """Children forked from a server that has warledger imported already, so they start
    together (workers.PRELOAD: as the reliability tests do)."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(workers.PRELOAD)
    return ctx


def test_processes_starting_together_on_a_new_database_all_migrate_it(empty_db_url, mp):
    go, told = mp.Event(), mp.Queue()
    children = [mp.Process(target=workers.migrate, args=(empty_db_url, go, ONE_TRY_MS, told))
                for _ in range(STARTING)]
    for child in children:
        child.start()
    go.set()
    answers = [told.get(timeout=120) for _ in children]
    for child in children:
        child.join(30)
        assert child.exitcode == 0
    assert answers == [("ok", head_revision())] * STARTING
    engine = make_engine(empty_db_url, migrate=False)
    try:
        assert current_revision(engine) == head_revision()
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM alembic_version").scalar() == 1
            assert "game_session" in inspect(conn).get_table_names()
    finally:
        engine.dispose()


def test_a_lock_held_past_the_wait_fails_the_start_in_one_line(empty_db_url, monkeypatch):
    monkeypatch.setattr("storage.migrate.MIGRATION_WAIT", 0.5)
    monkeypatch.setenv("WARLEDGER_BUSY_TIMEOUT_MS", str(ONE_TRY_MS))
    holder = create_engine(empty_db_url, isolation_level="AUTOCOMMIT")
    try:
        with holder.connect() as conn:
            if conn.dialect.name == "sqlite":  # another program writing, and staying
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            else:  # another warledger migrating, and staying
                conn.exec_driver_sql(f"SELECT pg_advisory_lock({ADVISORY_LOCK})")
            with pytest.raises(StorageError) as refused:
                make_engine(empty_db_url)
            said = str(refused.value)
            assert said.startswith("the database stayed locked for over 0.5 s") and \
                "nothing was changed" in said and "\n" not in said
            if conn.dialect.name == "sqlite":
                conn.exec_driver_sql("ROLLBACK")
            else:
                conn.exec_driver_sql(f"SELECT pg_advisory_unlock({ADVISORY_LOCK})")
        bare = make_engine(empty_db_url, migrate=False)
        try:
            assert current_revision(bare) is None  # nothing was made
        finally:
            bare.dispose()
    finally:
        holder.dispose()


def test_the_usual_start_takes_no_lock(tmp_path):
    """At head, a start only reads: another process's write lock does not hold it up."""
    db = str(tmp_path / "at-head.db")
    make_engine(db).dispose()
    writing = sqlite3.connect(db, isolation_level=None)
    try:
        writing.execute("BEGIN IMMEDIATE")
        engine = make_engine(db)
        assert current_revision(engine) == head_revision()
        engine.dispose()
    finally:
        writing.execute("ROLLBACK")
        writing.close()


def test_a_database_locked_while_it_is_looked_at_is_said_to_be_locked(tmp_path, monkeypatch):
    """Another program holding the file's lock is no damage: the refusal says what it is."""
    import sqlite3

    from storage.connection import StorageError
    from storage.engine import check_sqlite_file, make_engine

    path = tmp_path / "locked.db"
    make_engine(str(path)).dispose()
    holder = sqlite3.connect(path)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    monkeypatch.setenv("WARLEDGER_BUSY_TIMEOUT_MS", "100")
    try:
        with pytest.raises(StorageError) as refused:
            check_sqlite_file(path)
    finally:
        holder.rollback()
        holder.close()
    assert "stayed locked" in str(refused.value) and "damaged" not in str(refused.value)
    assert check_sqlite_file(path) is not None  # and once it is let go, it is looked at
