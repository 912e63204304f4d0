"""a saved game's summary says where it stands in one shape for every game (unit, number,
phase, whether the phase is named, leader) instead of a war or a round of its own

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02 04:20:00
"""

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None

GAMES = sa.table('game_session', sa.column('id', sa.Integer()), sa.column('summary', sa.JSON()))


def _rewrite(change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.select(GAMES.c.id, GAMES.c.summary)).all()
    changed = [{'game_id': game_id, 'new_summary': change(summary)}
               for game_id, summary in rows if isinstance(summary, dict)]
    if changed:
        conn.execute(sa.update(GAMES).where(GAMES.c.id == sa.bindparam('game_id'))
                     .values(summary=sa.bindparam('new_summary', type_=sa.JSON())), changed)


def _to_progress(old: dict[str, Any]) -> dict[str, Any]:
    # As the games' rules now say it (rules/soe/ending.py, rules/risk/scoring.py `progress`):
    # a Struggle of Empires war is its own number; a Risk round in play is the one after the
    # rounds closed, and while a tie waits (or once over) the last one closed.
    phase, leader = old.get('phase', ''), old.get('leader')
    if 'war' in old:
        return {'unit': 'war', 'number': old['war'] or 1, 'phase': phase, 'named': True,
                'leader': leader}
    if 'round' in old:
        closed = old['round'] or 0
        number = closed + 1 if phase == 'round' else closed
        return {'unit': 'round', 'number': max(number, 1), 'phase': phase,
                'named': phase != 'round', 'leader': leader}
    return old


def _from_progress(new: dict[str, Any]) -> dict[str, Any]:
    phase, leader, number = new.get('phase', ''), new.get('leader'), new.get('number', 1)
    if new.get('unit') == 'war':
        return {'phase': phase, 'war': number, 'leader': leader}
    if new.get('unit') == 'round':
        return {'phase': phase, 'round': number - 1 if phase == 'round' else number,
                'leader': leader}
    return new


def upgrade() -> None:
    _rewrite(_to_progress)


def downgrade() -> None:
    _rewrite(_from_progress)
