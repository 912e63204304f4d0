"""groups of friends and their seasons; each player's finish in a finished game (seat, side,
place, won, score) for ratings and the group's statistics; a cache of those statistics kept
with the version of the history it was worked out from

Every game of an older database goes to one group, "Our table". The new columns of the
result entries of finished games are filled from each game's report, its steps folded with
the rules of this warledger (or the game's fold snapshot, when those rules wrote it).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02 10:40:00
"""

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op
from sqlalchemy.engine import Connection

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

DEFAULT_GROUP = 'Our table'  # storage.ledger.DEFAULT_GROUP when this was written
SESSION_GROUP_FK = 'fk_game_session_group_id_game_group'

GROUPS = sa.table('game_group', sa.column('id', sa.Integer()), sa.column('name', sa.String()),
                  sa.column('created_at', sqlmodel.sql.sqltypes.UTCDateTime()))
SESSIONS = sa.table('game_session', sa.column('id', sa.Integer()), sa.column('game', sa.String()),
                    sa.column('settings', sa.JSON()), sa.column('head_seq', sa.Integer()),
                    sa.column('group_id', sa.Integer()))
SEATS = sa.table('seat', sa.column('session_id', sa.Integer()),
                 sa.column('player_id', sa.Integer()), sa.column('position', sa.Integer()),
                 sa.column('setup', sa.JSON()))
STEPS = sa.table('step', sa.column('session_id', sa.Integer()), sa.column('seq', sa.Integer()),
                 sa.column('payload', sa.JSON()))
SNAPSHOTS = sa.table('fold_snapshot', sa.column('session_id', sa.Integer()),
                     sa.column('seq', sa.Integer()), sa.column('rules_version', sa.String()),
                     sa.column('state', sa.LargeBinary()))
RESULTS = sa.table('game_result', sa.column('id', sa.Integer()),
                   sa.column('session_id', sa.Integer()), sa.column('result', sa.String()),
                   sa.column('winners', sa.JSON()))
ENTRIES = sa.table('result_entry', sa.column('id', sa.Integer()),
                   sa.column('result_id', sa.Integer()), sa.column('player_id', sa.Integer()),
                   sa.column('outcome', sa.String()), sa.column('seat', sa.Integer()),
                   sa.column('side', sa.String()), sa.column('place', sa.Integer()),
                   sa.column('won', sa.Boolean()), sa.column('score', sa.Integer()))
VERSION = sa.table('history_version', sa.column('id', sa.Integer()),
                   sa.column('version', sa.Integer()))


def upgrade() -> None:
    op.create_table('game_group',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name')
    )
    op.create_table('season',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('starts', sa.Date(), nullable=False),
    sa.Column('ends', sa.Date(), nullable=False),
    sa.Column('carry_over', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['game_group.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('group_id', 'name')
    )
    with op.batch_alter_table('season', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_season_group_id'), ['group_id'], unique=False)
    op.create_table('stats_cache',
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('computed_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )
    op.create_table('history_version',
    sa.Column('id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    conn = op.get_bind()
    conn.execute(sa.insert(VERSION).values(id=1, version=0))

    # Added empty, filled, then required (SQLite copies the table for that: storage/migrate.py
    # turns its foreign keys off meanwhile).
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.add_column(sa.Column('group_id', sa.Integer(), nullable=True))
    with op.batch_alter_table('result_entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seat', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('side', sqlmodel.sql.sqltypes.AutoString(),
                                      nullable=True))
        batch_op.add_column(sa.Column('place', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('won', sa.Boolean(), nullable=True))
        batch_op.add_column(sa.Column('score', sa.Integer(), nullable=True))

    if conn.execute(sa.select(SESSIONS.c.id).limit(1)).first() is not None:
        conn.execute(sa.insert(GROUPS).values(name=DEFAULT_GROUP, created_at=datetime.now(UTC)))
        group = conn.execute(sa.select(GROUPS.c.id)
                             .where(GROUPS.c.name == DEFAULT_GROUP)).scalar_one()
        conn.execute(sa.update(SESSIONS).values(group_id=group))
    fill_finishes(conn)

    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.alter_column('group_id', existing_type=sa.Integer(), nullable=False)
        batch_op.create_index(batch_op.f('ix_game_session_group_id'), ['group_id'],
                              unique=False)
        batch_op.create_foreign_key(SESSION_GROUP_FK, 'game_group', ['group_id'], ['id'])
    with op.batch_alter_table('result_entry', schema=None) as batch_op:
        for name, kind in (('seat', sa.Integer()), ('place', sa.Integer()),
                           ('won', sa.Boolean())):
            batch_op.alter_column(name, existing_type=kind, nullable=False)


def downgrade() -> None:
    with op.batch_alter_table('result_entry', schema=None) as batch_op:
        for name in ('score', 'won', 'place', 'side', 'seat'):
            batch_op.drop_column(name)
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.drop_constraint(SESSION_GROUP_FK, type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_game_session_group_id'))
        batch_op.drop_column('group_id')
    op.drop_table('history_version')
    op.drop_table('stats_cache')
    with op.batch_alter_table('season', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_season_group_id'))
    op.drop_table('season')
    op.drop_table('game_group')


# ---------------------------------------------------------------- the finishes

def fill_finishes(conn: Connection) -> None:
    """Each result entry's seat, side, place, won and score, from its game's report. A game
    these rules no longer fold to its end (none should) gets what its stored result says:
    its seat, won if among the winners, place 1 for a win or draw and 2 for a loss."""
    results = conn.execute(sa.select(RESULTS.c.id, RESULTS.c.session_id, SESSIONS.c.game,
                                     SESSIONS.c.settings, SESSIONS.c.head_seq)
                           .join_from(RESULTS, SESSIONS, SESSIONS.c.id == RESULTS.c.session_id)
                           .order_by(RESULTS.c.id)).all()
    rows = []
    for result_id, session_id, game, settings, head in results:
        try:
            rows += _finishes(conn, result_id, session_id, game, settings, head)
        except Exception:  # noqa: BLE001 - kept as the stored result says (below)
            continue
    if rows:
        conn.execute(sa.update(ENTRIES).where(ENTRIES.c.result_id == sa.bindparam('r_id'),
                                              ENTRIES.c.player_id == sa.bindparam('p_id'))
                     .values(seat=sa.bindparam('v_seat'), side=sa.bindparam('v_side'),
                             place=sa.bindparam('v_place'), won=sa.bindparam('v_won'),
                             score=sa.bindparam('v_score')), rows)
    _fill_the_rest(conn)


def _finishes(conn: Connection, result_id: int, session_id: int, game: str,
              settings_json: Any, head: int) -> list[dict[str, Any]]:
    from rules.fields import stored_rows
    from rules.game import rules_for
    from rules.played import finishes_of
    from rules.timeline import Timeline, read_step

    rules = rules_for(game)
    seated = conn.execute(sa.select(SEATS.c.position, SEATS.c.player_id, SEATS.c.setup)
                          .where(SEATS.c.session_id == session_id)
                          .order_by(SEATS.c.position)).all()
    with stored_rows():  # as the game's own fold reads them (storage/ledger.py)
        settings = rules.read_settings(settings_json)
        seats = rules.read_players([setup for _, _, setup in seated], settings)
        state = _snapshot(conn, session_id, head)
        if state is None:
            timeline = Timeline(rules, rules.start(settings, seats))
            for payload in conn.execute(sa.select(STEPS.c.payload).where(
                    STEPS.c.session_id == session_id, STEPS.c.seq <= head)
                    .order_by(STEPS.c.seq)).scalars():
                timeline = timeline.then(read_step(rules, payload))
            state = timeline.state
    report = rules.report(state)
    if not report.finished:
        return []
    position = {seat.name: n for n, seat in enumerate(seats)}
    player_at = {n: player_id for n, player_id, _ in seated}
    return [{'r_id': result_id, 'p_id': player_at[f.seat], 'v_seat': f.seat, 'v_side': f.side,
             'v_place': f.place, 'v_won': f.won, 'v_score': f.score}
            for f in finishes_of(report, position)]


def _snapshot(conn: Connection, session_id: int, head: int) -> Any:
    """The game's state after its last step from its fold snapshot, if these rules wrote it."""
    from storage.snapshots import load_state, rules_version

    row = conn.execute(sa.select(SNAPSHOTS.c.seq, SNAPSHOTS.c.rules_version, SNAPSHOTS.c.state)
                       .where(SNAPSHOTS.c.session_id == session_id)).one_or_none()
    if row is None or row.seq != head or row.rules_version != rules_version():
        return None
    try:
        return load_state(row.state)
    except Exception:  # noqa: BLE001 - a snapshot that cannot be read: the steps are folded
        return None


def _fill_the_rest(conn: Connection) -> None:
    rest = conn.execute(
        sa.select(ENTRIES.c.id, ENTRIES.c.outcome, RESULTS.c.result, SEATS.c.position)
        .join_from(ENTRIES, RESULTS, RESULTS.c.id == ENTRIES.c.result_id)
        .join(SEATS, sa.and_(SEATS.c.session_id == RESULTS.c.session_id,
                             SEATS.c.player_id == ENTRIES.c.player_id), isouter=True)
        .where(ENTRIES.c.place.is_(None))).all()
    rows = []
    for entry_id, outcome, result, position in rest:
        ahead = outcome in ('win', 'draw')
        rows.append({'e_id': entry_id, 'v_seat': position or 0, 'v_place': 1 if ahead else 2,
                     'v_won': outcome == 'win' or (outcome == 'draw' and result == 'shared')})
    if rows:
        conn.execute(sa.update(ENTRIES).where(ENTRIES.c.id == sa.bindparam('e_id'))
                     .values(seat=sa.bindparam('v_seat'), place=sa.bindparam('v_place'),
                             won=sa.bindparam('v_won')), rows)
