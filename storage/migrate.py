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

    with engine.begin() as conn:
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
