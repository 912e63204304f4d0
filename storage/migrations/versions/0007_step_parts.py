"""step parts: each seated player's own part of the step the game is at (their units at
upkeep), kept until the step made of the parts is recorded

A downgrade forgets the parts not recorded yet (typing, never a step).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05 21:30:00
"""

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('step_part',
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('player', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('phase', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('ready', sa.Boolean(), nullable=False),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['game_session.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('session_id', 'player')
    )


def downgrade() -> None:
    op.drop_table('step_part')
