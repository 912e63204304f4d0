"""every game gets its own id (game_session.uid), the one its session files carry, so a game
replayed into a database that holds it already is recognised and stored once

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 23:08:29.992808
"""

import uuid

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Added empty, each game given a fresh id of its own, then required and unique (SQLite
    # copies the table for that: storage/migrate.py turns its foreign keys off meanwhile).
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.add_column(sa.Column('uid', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
    games = sa.table('game_session', sa.column('id', sa.Integer()),
                     sa.column('uid', sa.String()))
    conn = op.get_bind()
    ids = conn.execute(sa.select(games.c.id)).scalars().all()
    if ids:
        conn.execute(sa.update(games).where(games.c.id == sa.bindparam('game_id'))
                     .values(uid=sa.bindparam('new_uid')),
                     [{'game_id': game_id, 'new_uid': str(uuid.uuid4())} for game_id in ids])
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.alter_column('uid', existing_type=sqlmodel.sql.sqltypes.AutoString(),
                              nullable=False)
        batch_op.create_index(batch_op.f('ix_game_session_uid'), ['uid'], unique=True)


def downgrade() -> None:
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_session_uid'))
        batch_op.drop_column('uid')
