"""Alembic environment: migrations run on the connection warledger hands over."""

from alembic import context
from sqlmodel import SQLModel

import storage.tables  # noqa: F401 - registers the tables on SQLModel.metadata

connection = context.config.attributes.get("connection")
context.configure(connection=connection, target_metadata=SQLModel.metadata,
                  render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
