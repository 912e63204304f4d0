"""The group's statistics, worked out from the finished games or read from their cache.

The result entries are the truth; a row of stats_cache is only a copy, believed when it was
worked out at the history's version now (history_version, bumped in the transaction of every
change to what the statistics read: a result written or taken back, a game deleted or moved
to another group, a season added or removed) and by these rules (the key ends with their
fingerprint, so two versions of warledger on one database keep a row each). Reading a valid
row costs two lookups and no result; a cache that cannot be written is simply not written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, delete, insert, select, update

from storage.core import STATS_T, now
from storage.groups import Scope
from storage.league import finished_games
from storage.snapshots import rules_version

if TYPE_CHECKING:
    from rules.stats import GroupStats


def cache_key(scope: Scope) -> str:
    return f"{scope.key}/{rules_version()}"


def read_cached(conn: Connection, scope: Scope, version: int) -> GroupStats | None:
    """The statistics cached for the scope at this version of the history, if any."""
    row = conn.execute(select(STATS_T.c.version, STATS_T.c.payload)
                       .where(STATS_T.c.key == cache_key(scope))).one_or_none()
    if row is None or row.version != version:
        return None
    from rules.stats import GroupStats

    try:
        return GroupStats.from_json(row.payload)
    except Exception:  # noqa: BLE001 - a copy that cannot be read is worked out again
        return None


def worked_out(conn: Connection, scope: Scope) -> GroupStats:
    """The statistics of the scope's finished games; the ratings from the games they rest
    on (a carry-over season's: every game of its group up to its end), in date order."""
    from rules.ratings import rate
    from rules.stats import group_stats

    games = finished_games(conn, scope)
    carried = scope.season is not None and scope.season.carry_over
    rated = finished_games(conn, scope, rating=True) if carried else games
    return group_stats(games, rate(rated))


def write_cached(engine: Engine, scope: Scope, version: int, stats: GroupStats) -> None:
    """Keep the statistics worked out at `version` (rows of older versions go: they can
    never be believed again). A failure is ignored: the cache is never the only copy."""
    row = {"version": version, "games": stats.games, "payload": stats.to_json(),
           "computed_at": now()}
    key = cache_key(scope)
    try:
        with engine.begin() as conn:
            conn.execute(delete(STATS_T).where(STATS_T.c.version < version))
            if not conn.execute(update(STATS_T).where(STATS_T.c.key == key), row).rowcount:
                conn.execute(insert(STATS_T), {"key": key, **row})
    except Exception:  # noqa: BLE001 - busy, read-only, another terminal's row first
        return
