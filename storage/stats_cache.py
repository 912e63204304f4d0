"""The group's statistics and the league's standings, worked out from the finished games or
read from their cache.

The result entries are the truth; a row of stats_cache is only a copy, believed when it was
worked out at the history's version now (history_version, bumped in the transaction of every
change to what they read: a result written or taken back, a game deleted or moved to another
group, a season added or removed). The statistics' key ends with the rules' fingerprint, so
two versions of warledger on one database keep a row each. Reading a valid row costs two
lookups and reads no result; a cache that cannot be written is simply not written.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, delete, insert, select, update

from storage.core import STATS_T, now
from storage.groups import Scope
from storage.league import finished_games
from storage.records import LeagueRow

if TYPE_CHECKING:
    from rules.stats import GroupStats

LEAGUE_SHAPE = 1  # the league rows' JSON in the cache: a new shape, new keys


def stats_key(scope: Scope) -> str:
    from storage.snapshots import rules_version

    return f"stats/{scope.key}/{rules_version()}"


def league_key(game: str | None, scope: Scope) -> str:
    return f"league{LEAGUE_SHAPE}/{game or '*'}/{scope.key}"


def read_payload(conn: Connection, key: str, version: int) -> Any | None:
    """What the cache holds under `key`, if it was kept at this version of the history."""
    row = conn.execute(select(STATS_T.c.version, STATS_T.c.payload)
                       .where(STATS_T.c.key == key)).one_or_none()
    return row.payload if row is not None and row.version == version else None


def read_stats(conn: Connection, scope: Scope, version: int) -> GroupStats | None:
    """The statistics cached for the scope at this version of the history, if any. Their
    ratings' courses, most of what is kept and read only for a player's chart, are kept as
    JSON text in the JSON and read when first looked at (LazyCourses)."""
    payload = read_payload(conn, stats_key(scope), version)
    if payload is None:
        return None
    from rules.stats import GroupStats

    try:
        stats = GroupStats.from_json({**payload["stats"], "rating_history": {}})
        stats.history = LazyCourses(str(payload["rating_history"]))
    except Exception:  # noqa: BLE001 - a copy that cannot be read is worked out again
        return None
    return stats


class LazyCourses(Mapping[str, dict[str, list[tuple[datetime, float]]]]):
    """The ratings' courses (scope -> player -> [(when, figure)]) of cached statistics,
    read from their JSON text when first looked at, as GroupStats.from_json reads them."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._courses: Mapping[str, dict[str, list[tuple[datetime, float]]]] | None = None

    def _read(self) -> Mapping[str, dict[str, list[tuple[datetime, float]]]]:
        if self._courses is None:
            from rules.stats import GroupStats

            self._courses = GroupStats.from_json({
                "games": 0, "ratings": {}, "rating_history": json.loads(self._text),
                "head_to_head": {}, "balance": {}, "players": {}}).history
        return self._courses

    def __getitem__(self, scope: str) -> dict[str, list[tuple[datetime, float]]]:
        return self._read()[scope]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())

    def __repr__(self) -> str:
        return repr(self._read())


def read_league(conn: Connection, game: str | None, scope: Scope,
                version: int) -> list[LeagueRow] | None:
    payload = read_payload(conn, league_key(game, scope), version)
    if payload is None:
        return None
    try:
        return [LeagueRow(str(r["player"]), *(int(r[k]) for k in (
            "played", "wins", "draws", "losses", "points"))) for r in payload["rows"]]
    except Exception:  # noqa: BLE001 - as above
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


def keep_stats(engine: Engine, scope: Scope, version: int, stats: GroupStats) -> None:
    def content() -> tuple[int, Any]:
        said = stats.to_json()
        courses = json.dumps(said.pop("rating_history"), separators=(",", ":"))
        return stats.games, {"stats": said, "rating_history": courses}

    keep(engine, lambda: stats_key(scope), version, content)


def keep_league(engine: Engine, game: str | None, scope: Scope, version: int,
                rows: list[LeagueRow]) -> None:
    # `games` is the number of players' rows here
    keep(engine, lambda: league_key(game, scope), version,
         lambda: (len(rows), {"rows": [row.to_json() for row in rows]}))


def keep(engine: Engine, key: Callable[[], str], version: int,
         content: Callable[[], tuple[int, Any]]) -> None:
    """Keep what was worked out at `version` (rows of older versions go: they can never be
    believed again). A failure is ignored: the cache is never the only copy."""
    try:
        games, payload = content()
        row = {"version": version, "games": games, "payload": payload, "computed_at": now()}
        with engine.begin() as conn:
            conn.execute(delete(STATS_T).where(STATS_T.c.version < version))
            if not conn.execute(update(STATS_T).where(STATS_T.c.key == key()), row).rowcount:
                conn.execute(insert(STATS_T), {"key": key(), **row})
    except Exception:  # noqa: BLE001 - busy, read-only, another terminal's row first
        return
