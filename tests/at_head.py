"""New SQLite databases at the current schema, for tests that need a database but do not test
migrating one: each is a copy of a file the real migrations made once per test process.

Migrating a new file runs Alembic (loading its scripts, reflecting the tables SQLite's batch
operations copy): some 0.1 s of CPU a file, and the tests of hosting, of the web table and of
the command line made hundreds (issue 28). The migrations themselves are tested on files of
their own (test_light_imports, test_migrate_together, test_storage, test_reliability)."""

from __future__ import annotations

import atexit
import os
import shutil
import sqlite3
import tempfile
from functools import lru_cache
from pathlib import Path

PRIVATE = 0o600  # as warledger makes a new database file (storage.engine.create_private)


@lru_cache(maxsize=1)
def migrated_file() -> Path:
    """A SQLite file the real migrations brought to head, made once per process."""
    from storage.engine import make_engine

    folder = Path(tempfile.mkdtemp(prefix="warledger-head-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "head.db"
    make_engine(f"sqlite:///{path}").dispose()
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the one file copied
    con.close()
    return path


def new_database(path: str | os.PathLike) -> str:
    """A database at `path` (a new file, or one to be replaced) at the current schema, private
    as warledger makes one. Returns the path, as text."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE)
    with os.fdopen(fd, "wb") as copy, open(migrated_file(), "rb") as head:
        shutil.copyfileobj(head, copy)
    return os.fspath(path)
