"""fold snapshot (the state after the last step, so opening a long game folds nothing) and
an index the league sums from

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 06:29:01.457391
"""

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A cache only: existing games get theirs at their next step, and fold as before until then.
    op.create_table('fold_snapshot',
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('depth', sa.Integer(), nullable=False),
    sa.Column('can_redo', sa.Boolean(), nullable=False),
    sa.Column('rules_version', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('state', sa.LargeBinary(), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['game_session.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('session_id')
    )
    with op.batch_alter_table('result_entry', schema=None) as batch_op:
        batch_op.create_index('ix_result_entry_standing', ['player_id', 'outcome', 'points'],
                              unique=False)


def downgrade() -> None:
    with op.batch_alter_table('result_entry', schema=None) as batch_op:
        batch_op.drop_index('ix_result_entry_standing')
    op.drop_table('fold_snapshot')
