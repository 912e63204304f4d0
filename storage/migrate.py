"""Alembic, run from inside the package: the schema is brought to head at start."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config(connection=None):
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Apply every migration the database lacks (none, on the usual start)."""
    if current_revision(engine) == head_revision():
        return
    from alembic import command

    from storage.engine import writer

    # One migrator at a time: SQLite's write lock (BEGIN IMMEDIATE) or a PostgreSQL advisory
    # lock; Alembic then reads the version again inside the lock and does only what is left.
    with writer(engine).begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(2026113001)")
        command.upgrade(alembic_config(conn), "head")


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
