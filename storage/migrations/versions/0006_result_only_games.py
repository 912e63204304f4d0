"""result-only games: plays imported from BoardGameGeek or BG Stats, with their players,
winners and scores but no steps; `game_session.source` says where each came from
("bgg:123", "bgstats:<uuid>"), unique, so a play is imported once

A downgrade forgets the imported games (the schema before has no game without steps):
their results go from the league and the ratings; the files they came from still hold them.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 14:50:00
"""

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None

SESSIONS = sa.table('game_session', sa.column('id', sa.Integer()),
                    sa.column('source', sa.String()))
RESULTS = sa.table('game_result', sa.column('id', sa.Integer()),
                   sa.column('session_id', sa.Integer()))
ENTRIES = sa.table('result_entry', sa.column('result_id', sa.Integer()))
VERSION = sa.table('history_version', sa.column('id', sa.Integer()),
                   sa.column('version', sa.Integer()))


def upgrade() -> None:
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.add_column(sa.Column('source', sqlmodel.sql.sqltypes.AutoString(),
                                      nullable=True))
        batch_op.create_index(batch_op.f('ix_game_session_source'), ['source'], unique=True)


def downgrade() -> None:
    conn = op.get_bind()
    imported = sa.select(SESSIONS.c.id).where(SESSIONS.c.source.is_not(None))
    if conn.execute(imported.limit(1)).first() is not None:
        results = sa.select(RESULTS.c.id).where(RESULTS.c.session_id.in_(imported))
        conn.execute(sa.delete(ENTRIES).where(ENTRIES.c.result_id.in_(results)))
        conn.execute(sa.delete(RESULTS).where(RESULTS.c.session_id.in_(imported)))
        for table in ('seat_total', 'seat', 'step', 'draft', 'fold_snapshot'):
            rows = sa.table(table, sa.column('session_id', sa.Integer()))
            conn.execute(sa.delete(rows).where(rows.c.session_id.in_(imported)))
        conn.execute(sa.delete(SESSIONS).where(SESSIONS.c.source.is_not(None)))
        conn.execute(sa.update(VERSION).where(VERSION.c.id == 1)
                     .values(version=VERSION.c.version + 1))
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_session_source'))
        batch_op.drop_column('source')
