"""Alembic, run from inside the package: the schema is brought to head at start.

Alembic itself (a third of a second to import) is only imported when there is a migration to
run: the usual start reads the database's revision with one query and the newest revision
from the migration files as text.

Before a SQLite database with games in it is migrated, a copy is taken next to it
(`<db>.backup-<revision>-<timestamp>`, through SQLite's backup API, 0600 as the database is).
PostgreSQL runs the
whole migration in one transaction, so a failed migration leaves the schema as it was;
back it up with pg_dump as you would any server database.

Several processes starting on a database that needs migrating (eight terminals on a new
file) migrate one at a time: the first takes the lock (SQLite's write lock, a PostgreSQL
advisory lock) and migrates; the others wait for it, then find the schema at head. Each
try waits as long as any write does (the busy timeout), and the tries go on until
MIGRATION_WAIT has passed; then the start fails with one line saying why.
"""

from __future__ import annotations

import os
import re
import time
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from i18n import _

if TYPE_CHECKING:  # the revision checks are used before SQLAlchemy is (storage/glance.py)
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from sqlalchemy import Connection, Engine

MIGRATIONS = Path(__file__).with_name("migrations")
ADVISORY_LOCK = 2026113001  # PostgreSQL: one migrator at a time across machines
VERSION_TABLE = "alembic_version"
BACKUP_MODE = 0o600  # a backup holds what the database holds: its owner's only
MIGRATION_WAIT = 120.0  # seconds a start waits, in all, for another process's migration
RETRY_EVERY = 0.05  # seconds between two tries for the lock


def alembic_config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def _scripts() -> ScriptDirectory:
    return _scripts_in(str(MIGRATIONS))


@lru_cache
def _scripts_in(folder: str) -> ScriptDirectory:
    # Read once per process (Alembic's own reading, for migrating and for a broken history).
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config())


def head_revision() -> str:
    """The newest schema revision this version of warledger ships."""
    heads = _revisions_in(str(MIGRATIONS))[1]
    if len(heads) != 1:
        return str(_scripts().get_current_head())  # Alembic says what is wrong with the history
    return heads[0]


def known_revisions() -> set[str]:
    """Every schema revision this version of warledger ships."""
    return set(_revisions_in(str(MIGRATIONS))[0])


@lru_cache
def _revisions_in(folder: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """Every revision of the migration files in `folder`, and the heads (the revisions no
    other revision follows), read from each file's `revision = ...` and `down_revision = ...`
    lines as Alembic reads them, without importing Alembic or the files."""
    follows: dict[str, tuple[str, ...]] = {}
    for path in sorted(Path(folder, "versions").glob("*.py")):
        if path.name.startswith(("__init__", ".#")):  # what Alembic skips too
            continue
        found = _revision_lines(path.read_text(encoding="utf-8"))
        if found is None:  # written some other way: the whole file read as Python
            found = _revision_nodes(path.read_bytes(), str(path))
        if isinstance(found.get("revision"), str):
            down = found.get("down_revision")
            follows[found["revision"]] = (down,) if isinstance(down, str) else tuple(down or ())
    earlier = {down for downs in follows.values() for down in downs}
    return frozenset(follows), tuple(sorted(set(follows) - earlier))


# `revision = '0006'`, `down_revision: str | None = '0005'`: a line at the file's top level.
PLAIN_STRING = re.compile(r"""(['"])([^'"\\]*)\1""")  # no escapes, no other quote
REVISION_LINE = re.compile(r"^(revision|down_revision)\s*(?::[^=\n]*)?=\s*(.+?)\s*$",
                           re.MULTILINE)


def _revision_lines(text: str) -> dict[str, Any] | None:
    """A migration's `revision` and `down_revision` from their own lines (the TUI asks at
    every start, in a thread beside Textual's import: parsing each whole file took tens of
    milliseconds of the interpreter); None when a value is not one literal on its line."""
    found: dict[str, Any] = {}
    for name, value in REVISION_LINE.findall(text):
        if value == "None":
            found[name] = None
        elif (quoted := PLAIN_STRING.fullmatch(value)) is not None:
            found[name] = quoted.group(2)
        else:
            return None
    return found


def _revision_nodes(source: bytes, filename: str) -> dict[str, Any]:
    """The same, from the file parsed whole as Alembic would import it."""
    import ast

    found = {}
    for node in ast.parse(source, filename).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id in ("revision", "down_revision"):
            found[target.id] = ast.literal_eval(value)
    return found


def current_revision(engine: Engine) -> str | None:
    """The database's schema revision (None for a database without one)."""
    with engine.connect() as conn:
        return _revision_of(conn)


def _revision_of(conn: Connection) -> str | None:
    from sqlalchemy import inspect, text

    if not inspect(conn).has_table(VERSION_TABLE):
        return None
    versions = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars().all()
    if len(versions) > 1:  # branches: Alembic says what to do
        from alembic.runtime.migration import MigrationContext

        return MigrationContext.configure(conn).get_current_revision()
    return versions[0] if versions else None


def check_schema(tables: set[str], revision: str | None, *, where: str | None = None) -> None:
    """Refuse a database warledger must not write to: someone else's tables (no
    alembic_version), or a schema revision from a newer warledger. `where` names it (a
    file's path), else "the database"."""
    from storage.connection import StorageError

    if revision is None:
        others = sorted(t for t in tables if not t.startswith("sqlite_"))
        if others:
            shown = ", ".join(others[:4]) + (", …" if len(others) > 4 else "")
            # TRANSLATORS: {where} is a file's path or "the database"; {tables} table names.
            raise StorageError(_("{where} is not a warledger database: it holds other tables "
                                 "({tables}) and warledger will not add its own to them; "
                                 "choose another file or database with --db").format(
                                     where=where or _("the database"), tables=shown))
        return
    if revision not in known_revisions():
        # TRANSLATORS: {revision} is the schema's id (a3f9c2).
        raise StorageError(_("this database was written by a newer warledger (schema "
                             "{revision}); update warledger to open it; nothing was "
                             "changed").format(revision=revision))


def upgrade(engine: Engine, target: str = "head") -> None:
    """Apply every migration the database lacks (none, on the usual start), after checking
    the database is warledger's and taking a backup copy of a SQLite file with data. Another
    process migrating the same database is waited for, up to MIGRATION_WAIT seconds."""
    _waiting(engine, target, down=False)


def downgrade(engine: Engine, target: str) -> None:
    """Take the schema back to revision `target` (for an older warledger, and the migration
    tests), as `upgrade` goes forward: checked, backed up, one migrator at a time (waited
    for as `upgrade` waits), SQLite's foreign keys off while tables are copied. What the
    later revisions added is dropped."""
    _waiting(engine, target, down=True)


def _waiting(engine: Engine, target: str, *, down: bool) -> None:
    from storage.connection import StorageError

    deadline = time.monotonic() + MIGRATION_WAIT
    while True:
        try:
            _upgrade(engine, target, down=down)
            return
        except Exception as e:
            if not _locked(e):
                raise
            if time.monotonic() >= deadline:
                raise StorageError(_(
                    "the database stayed locked for over {seconds} s (another warledger, or "
                    "another program, is writing to it), so its schema could not be brought "
                    "up to date; nothing was changed: start again when it is done").format(
                        seconds=f"{MIGRATION_WAIT:g}")) from None
        time.sleep(RETRY_EVERY)


def _locked(error: BaseException) -> bool:
    # What another process holding the lock looks like (SQLite's "database is locked",
    # PostgreSQL's lock timeout), told apart from a real failure as every write does.
    from storage.connection import is_busy

    return is_busy(error)


def _upgrade(engine: Engine, target: str, *, down: bool = False) -> None:
    if target == "head" and current_revision(engine) == head_revision():
        return
    from alembic import command
    from alembic.runtime.migration import MigrationContext
    from sqlalchemy import inspect

    # What the migrations import (SQLModel and the tables: seconds, on a loaded machine
    # without bytecode) is imported before the lock, so others wait only for the DDL.
    import storage.tables  # noqa: F401
    from storage.connection import StorageError, writer

    with writer(engine).connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            # A batch migration copies and drops tables: with foreign keys on, dropping
            # game_session would cascade to every step. Off outside the transaction (SQLite
            # ignores the pragma inside one), checked by foreign_key_check before the commit.
            dbapi_connection(conn).execute("PRAGMA foreign_keys = OFF")
        try:
            # One migrator at a time: SQLite's write lock (BEGIN IMMEDIATE) or a PostgreSQL
            # advisory lock; the version is read again inside the lock, only what is left done.
            with conn.begin():
                if conn.dialect.name == "postgresql":
                    conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({ADVISORY_LOCK})")
                current = MigrationContext.configure(conn).get_current_revision()
                check_schema(set(inspect(conn).get_table_names()), current)
                wanted = head_revision() if target == "head" else target
                if current == wanted:
                    return
                if current is not None and sqlite:
                    backup_sqlite(conn, current)
                (command.downgrade if down else command.upgrade)(alembic_config(conn), target)
                if sqlite and conn.exec_driver_sql("PRAGMA foreign_key_check").first():
                    raise StorageError(_("the migration to {revision} would break links "
                                         "between tables; nothing was changed").format(
                                             revision=wanted))
        finally:
            if sqlite:
                dbapi_connection(conn).execute("PRAGMA foreign_keys = ON")


def dbapi_connection(conn: Connection) -> Any:
    """The driver's own connection under `conn`, which a checked-out connection always has."""
    driver = conn.connection.dbapi_connection
    assert driver is not None
    return driver


def backup_sqlite(conn: Connection, revision: str) -> Path | None:
    """Copy the database next to itself before migrating it (nothing for a file without
    games, or an in-memory database). Returns the copy's path."""
    import sqlite3

    from sqlalchemy import text

    from storage.connection import sqlite_path

    path = sqlite_path(conn.engine.url)
    if path is None:
        return None
    tables = set(conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'table'"))
                 .scalars())
    if not any(conn.execute(text(f"SELECT count(*) FROM {t}")).scalar()
               for t in ("game_session", "board_profile") if t in tables):
        return None  # no game and no board profile: nothing a player would miss
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    copy = path.with_name(f"{path.name}.backup-{revision}-{stamp}")
    # As private as the database (0600): made before SQLite opens it, which would use 0644.
    os.close(os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, BACKUP_MODE))
    source = sqlite3.connect(path)
    target = sqlite3.connect(copy)
    try:
        source.backup(target)
    finally:
        target.close()
        source.close()
    return copy


def new_revision(message: str) -> None:
    """Write a migration for the difference between the tables and the current head."""
    import tempfile

    from alembic import command
    from sqlalchemy import create_engine

    with tempfile.TemporaryDirectory() as scratch:
        engine = create_engine(f"sqlite:///{scratch}/head.db")
        upgrade(engine)
        with engine.begin() as conn:
            command.revision(alembic_config(conn), message=message, autogenerate=True)
        engine.dispose()


if __name__ == "__main__":
    import sys

    new_revision(" ".join(sys.argv[1:]) or "schema change")
