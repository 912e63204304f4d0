"""The group's statistics and the league's standings, worked out from the finished games or
read from their cache.

The result entries are the truth; a row of stats_cache is only a copy, believed when it was
worked out at the history's version now (history_version, bumped in the transaction of every
change to what they read: a result written or taken back, a game deleted or moved to another
group, a season added or removed). The statistics' key ends with the rules' fingerprint, so
two versions of warledger on one database keep a row each. Reading a valid row costs two
lookups and reads no result; a cache that cannot be written is simply not written. A row of
an older version goes forward by the games finished since, where storage/ratings_store.py
finds that no change reached back before its last game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, overload

from sqlalchemy import Connection, Engine, delete, insert, select, update

from storage.core import STATS_T, now
from storage.groups import Scope
from storage.records import LeagueRow

if TYPE_CHECKING:
    from rules.stats import GroupStats

LEAGUE_SHAPE = 2  # the league rows' JSON in the cache: a new shape, new keys
# The newest versions whose notes of what changed are kept (storage/ratings_store.py): a
# row of the cache older than them can no longer go forward, and goes.
NOTES_KEPT = 2_000


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
    ratings' courses, most of what is kept and read only for a player's chart, are kept
    as a JSON text each and read when first looked at (Course)."""
    payload = read_payload(conn, stats_key(scope), version)
    return None if payload is None else _stats_of(payload)


def _stats_of(payload: Any) -> GroupStats | None:
    from rules.stats import GroupStats

    try:
        stats = GroupStats.from_json({**payload["stats"], "rating_history": {}})
        stats.history = {str(scope): {str(player): Course(str(text))
                                      for player, text in courses.items()}
                         for scope, courses in payload["courses"].items()}
    except Exception:  # noqa: BLE001 - a copy that cannot be read is worked out again
        return None
    return stats


Point = tuple[datetime, float]  # a course's point: when, and the conservative figure then


class Course(Sequence[Point]):
    """A player's rating course in one scope ((when, figure) points) as the cache keeps it:
    its JSON text, read when first looked at, and written back as it was unless it went
    on (most players' courses, after one more game)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._points: list[tuple[datetime, float]] | None = None

    def _read(self) -> list[tuple[datetime, float]]:
        if self._points is None:
            self._points = [(datetime.fromisoformat(when), float(x))
                            for when, x in json.loads(self.text)]
        return self._points

    @overload
    def __getitem__(self, at: int) -> Point: ...
    @overload
    def __getitem__(self, at: slice) -> list[Point]: ...
    def __getitem__(self, at: int | slice) -> Point | list[Point]:
        return self._read()[at]

    def __len__(self) -> int:
        return len(self._read())

    def __iter__(self) -> Iterator[tuple[datetime, float]]:
        return iter(self._read())

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, Sequence) else NotImplemented

    def __repr__(self) -> str:
        return repr(self._read())


def course_text(course: Sequence[Point]) -> str:
    """A course as the cache keeps it (as `stats --json` writes its moments)."""
    if isinstance(course, Course):
        return course.text
    return json.dumps([[when.isoformat(timespec="seconds"), x] for when, x in course],
                      separators=(",", ":"))


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


def read_state(conn: Connection, scope: Scope) -> tuple[GroupStats, dict[str, Any], int] | None:
    """The statistics cached for the scope at whatever version they were worked out, whole
    (their courses read), with what was kept besides to go forward from them and that
    version (storage/ratings_store.py); None when there are none or they cannot be read."""
    row = conn.execute(select(STATS_T.c.version, STATS_T.c.payload)
                       .where(STATS_T.c.key == stats_key(scope))).one_or_none()
    if row is None:
        return None
    stats = _stats_of(row.payload)
    try:
        besides = dict(row.payload["besides"])
    except Exception:  # noqa: BLE001 - as above
        return None
    if stats is None:
        return None
    return stats, besides, row.version


def read_league_state(conn: Connection, game: str | None,
                      scope: Scope) -> tuple[list[LeagueRow], dict[str, Any], int] | None:
    """The standings cached at whatever version, with the last game they counted."""
    row = conn.execute(select(STATS_T.c.version, STATS_T.c.payload)
                       .where(STATS_T.c.key == league_key(game, scope))).one_or_none()
    if row is None:
        return None
    try:
        rows = [LeagueRow(str(r["player"]), *(int(r[k]) for k in (
            "played", "wins", "draws", "losses", "points"))) for r in row.payload["rows"]]
        return rows, dict(row.payload["besides"]), row.version
    except Exception:  # noqa: BLE001 - as above
        return None


def keep_stats(engine: Engine, scope: Scope, version: int, stats: GroupStats,
               besides: dict[str, Any] | None = None) -> None:
    """Keep the statistics worked out at `version`, with what going forward from them
    needs besides (storage/ratings_store.py: the last game rated, the winning runs)."""
    def content() -> tuple[int, Any]:
        history, stats.history = stats.history, {}
        try:
            said = stats.to_json()
        finally:
            stats.history = history
        said.pop("rating_history")
        courses = {scope: {player: course_text(course) for player, course in by.items()}
                   for scope, by in history.items()}
        return stats.games, {"stats": said, "courses": courses, "besides": besides or {}}

    keep(engine, lambda: stats_key(scope), version, content)


def keep_league(engine: Engine, game: str | None, scope: Scope, version: int,
                rows: list[LeagueRow], besides: dict[str, Any] | None = None) -> None:
    # `games` is the number of players' rows here
    keep(engine, lambda: league_key(game, scope), version,
         lambda: (len(rows), {"rows": [row.to_json() for row in rows],
                              "besides": besides or {}}))


def keep(engine: Engine, key: Callable[[], str], version: int,
         content: Callable[[], tuple[int, Any]]) -> None:
    """Keep what was worked out at `version` (rows too old to go forward go). A failure is ignored: the cache is never the only copy."""
    try:
        games, payload = content()
        row = {"version": version, "games": games, "payload": payload, "computed_at": now()}
        with engine.begin() as conn:
            # Rows of older versions stay while they can go forward (ratings_store.py):
            # another scope's figures at the version before need only the games since.
            conn.execute(delete(STATS_T).where(STATS_T.c.version <= version - NOTES_KEPT))
            if not conn.execute(update(STATS_T).where(STATS_T.c.key == key()), row).rowcount:
                conn.execute(insert(STATS_T), {"key": key(), **row})
    except Exception:  # noqa: BLE001 - busy, read-only, another terminal's row first
        return
