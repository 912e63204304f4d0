"""Ratings, statistics and standings that move forward (issue 48).

Every change to what they read bumps the history's version (history_version) and, in the
same transaction, says what it changed: which groups, and from which moment on (a game
finished, undone past its end, deleted or moved: when it finished; a late import: its
earliest play; a season added or removed: from the group's start). That note is a row of
stats_cache (`changed/<version>`), so the schema does not change; like the cache it is
only ever a shortcut.

A group's statistics (or standings) cached at an older version go forward when every
change since then is noted and none of those touching the group reaches back to the last
game they counted: the games finished after that one are read and counted on (one game
is one rating call, not the whole history again). Anything else (a change in the middle of
history, a note missing, a cache that cannot be read) works them out again from the
result entries, which stay the truth; tests/test_history_forward.py checks, over random
histories, that going forward gives what working out again gives.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Connection,
    String,
    and_,
    cast,
    delete,
    insert,
    literal,
    or_,
    select,
    type_coerce,
    update,
)
from sqlalchemy.sql.dml import Insert

from storage.core import ENTRY_T, PLAYER_T, RESULT_T, SESSION_T, STATS_T, VERSION_T, now
from storage.groups import Scope
from storage.league import finished_games
from storage.plays import CHUNK
from storage.records import LeagueRow
from storage.stats_cache import NOTES_KEPT

if TYPE_CHECKING:
    from rules.played import FinishedGame
    from rules.ratings import RatingBook
    from rules.stats import GroupStats

Besides = dict[str, Any]  # what the cache keeps besides, to go forward from it

CHANGED = "changed/"  # a note's key: CHANGED + the version it made
BUMP = update(VERSION_T).where(VERSION_T.c.id == 1).values(version=VERSION_T.c.version + 1)
VERSION = select(VERSION_T.c.version).where(VERSION_T.c.id == 1)


def history_changed(conn: Connection, groups: Iterable[int | None] = (),
                    since: datetime | None = None, *, everything: bool = False) -> None:
    """Bump the history's version and note what changed: the games of `groups` from the
    moment `since` on (None: from their start); `everything`: every group's."""
    note = {"groups": None if everything else sorted({g for g in groups if g is not None}),
            "since": None if since is None else since.isoformat()}
    at = now()
    version: int | None = None
    if conn.dialect.name == "postgresql":  # the bump and its note in one round trip
        version = conn.execute(_bumped_and_noted(note, at)).scalar_one_or_none()
    if version is None:  # SQLite; or no version yet
        if conn.dialect.update_returning:  # the new version in the same round trip
            version = conn.execute(BUMP.returning(VERSION_T.c.version)).scalar_one_or_none()
        else:  # a SQLite older than 3.35
            version = conn.execute(VERSION).scalar_one() if conn.execute(BUMP).rowcount \
                else None
        if version is None:
            conn.execute(insert(VERSION_T).values(id=1, version=1))
            version = 1
        conn.execute(insert(STATS_T), {"key": f"{CHANGED}{version}", "version": version,
                                       "games": 0, "payload": note, "computed_at": at})
    if version % 100 == 0:  # now and then, the notes no cache can need
        conn.execute(delete(STATS_T).where(STATS_T.c.key.like(f"{CHANGED}%"),
                                           STATS_T.c.version <= version - NOTES_KEPT))


def _bumped_and_noted(note: dict[str, Any], at: datetime) -> Insert:
    """PostgreSQL: the version bumped and the note of the new version written, in one
    statement (a data-modifying WITH); it gives the new version, or no row when the
    history has no version yet."""
    bumped = BUMP.returning(VERSION_T.c.version).cte("bumped")
    return insert(STATS_T).from_select(
        ["key", "version", "games", "payload", "computed_at"],
        select(literal(CHANGED) + cast(bumped.c.version, String), bumped.c.version,
               literal(0), type_coerce(note, STATS_T.c.payload.type),
               literal(at, STATS_T.c.computed_at.type))).returning(STATS_T.c.version)


def version_now(conn: Connection) -> int:
    return conn.execute(VERSION).scalar_one_or_none() or 0


def _when(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def goes_forward(conn: Connection, scope: Scope, cached: int, version: int,
                 last: datetime | None) -> bool:
    """Whether what was worked out for `scope` at version `cached`, up to the game that
    finished at `last`, still holds for every game up to that one now (`version`)."""
    if last is None or cached >= version or version - cached > NOTES_KEPT:
        return False
    notes = conn.execute(select(STATS_T.c.payload).where(
        STATS_T.c.key.in_([f"{CHANGED}{v}" for v in range(cached + 1, version + 1)]))
    ).scalars().all()
    if len(notes) != version - cached:
        return False  # a change noted nowhere (an older warledger, a note lost)
    for note in notes:
        try:
            groups, since = note["groups"], _when(note["since"])
        except (KeyError, TypeError, ValueError):
            return False
        touches = groups is None or scope.group_id is None or scope.group_id in groups
        if touches and (since is None or since <= last):
            return False
    return True


# ---------------------------------------------------------------- statistics

def stats_of(conn: Connection, scope: Scope, version: int) -> tuple[GroupStats, Besides]:
    """The scope's statistics at `version`, gone forward from an older cache where that
    holds, else worked out; and what the cache keeps besides (the last game rated, each
    player's winning run)."""
    from storage.stats_cache import read_state

    state = read_state(conn, scope)
    if state is not None:
        stats, besides, cached = state
        last = _when(besides.get("last"))
        if goes_forward(conn, scope, cached, version, last):
            assert last is not None  # goes_forward needs the last game counted
            return _forward(conn, scope, stats, besides, last)
    return worked_out(conn, scope)


def worked_out(conn: Connection, scope: Scope) -> tuple[GroupStats, Besides]:
    """The statistics of the scope's finished games; the ratings from the games they rest
    on (a carry-over season's: every game of its group up to its end), in date order."""
    from rules.ratings import RatingBook
    from rules.stats import GroupStats

    rated = finished_games(conn, scope, rating=True)
    stats = GroupStats()
    return _counted(scope, stats, RatingBook(), {}, rated, None)


def _forward(conn: Connection, scope: Scope, stats: GroupStats, besides: Besides,
             last: datetime) -> tuple[GroupStats, Besides]:
    from rules.ratings import RatingBook

    book = RatingBook(stats.ratings, dict(stats.history))
    runs = {str(k): int(v) for k, v in besides.get("runs", {}).items()}
    after = (last, int(besides["last_key"]))
    newer = finished_games(conn, scope, rating=True, after=after)
    return _counted(scope, stats, book, runs, newer, besides)


def _counted(scope: Scope, stats: GroupStats, book: RatingBook, runs: dict[str, int],
             rated: list[FinishedGame], besides: Besides | None) -> tuple[GroupStats, Besides]:
    """`stats` and `book` gone on with `rated` (in date order): each rated, and counted
    where it falls in the scope's own days (a carry-over season rates earlier games)."""
    from rules.stats import went_on

    lo = scope.moments[0]
    for game in rated:
        book.add(game)
    went_on(stats, runs, [g for g in rated if lo is None or g.finished_at >= lo])
    stats.ratings, stats.history = book.ratings, book.history
    last: str | None  # the last game counted: when it finished (ISO), and its key
    key: int | None
    if rated:
        last, key = rated[-1].finished_at.isoformat(), rated[-1].key
    elif besides is not None:
        last, key = besides.get("last"), besides.get("last_key")
    else:
        last, key = None, None
    return stats, {"last": last, "last_key": key, "runs": runs}


# ---------------------------------------------------------------- standings

def league_rows(conn: Connection, game: str | None, scope: Scope, version: int,
                query: Any, values: dict[str, Any]) -> tuple[list[LeagueRow], Besides]:
    """The standings at `version`: an older cache's rows with the games finished since
    added where that holds, else summed in SQL (`query`, `values`); and the last game."""
    from storage.stats_cache import read_league_state

    state = read_league_state(conn, game, scope)
    if state is not None:
        rows, besides, cached = state
        last = _when(besides.get("last"))
        if goes_forward(conn, scope, cached, version, last):
            assert last is not None  # goes_forward needs the last game counted
            went = _league_forward(conn, game, scope, rows, (last, int(besides["last_key"])))
            if went is not None:
                return went
    rows = [LeagueRow(name, *(int(x) for x in figures))
            for name, *figures in conn.execute(query, values).all()]
    return rows, _last_of(conn, game, scope)


def _in_scope(query: Any, game: str | None, scope: Scope) -> Any:
    if game:
        query = query.where(RESULT_T.c.game == game)
    if scope.group_id is not None:
        query = query.where(SESSION_T.c.group_id == scope.group_id)
    lo, hi = scope.moments
    if lo is not None:
        query = query.where(RESULT_T.c.finished_at >= lo, RESULT_T.c.finished_at < hi)
    return query


def _last_of(conn: Connection, game: str | None, scope: Scope) -> Besides:
    row = conn.execute(_in_scope(
        select(RESULT_T.c.finished_at, RESULT_T.c.session_id)
        .join(SESSION_T, SESSION_T.c.id == RESULT_T.c.session_id), game, scope)
        .order_by(RESULT_T.c.finished_at.desc(), RESULT_T.c.session_id.desc()).limit(1)).first()
    return {"last": row[0].isoformat() if row else None, "last_key": row[1] if row else None}


def _league_forward(conn: Connection, game: str | None, scope: Scope, rows: list[LeagueRow],
                    after: tuple[datetime, int]) -> tuple[list[LeagueRow], Besides] | None:
    at, key = after
    # The games first (game_result alone), then their entries by the index on result_id:
    # one statement joining them all had the planner read every entry.
    results = {r.id: (r.finished_at, r.session_id) for r in conn.execute(_in_scope(
        select(RESULT_T.c.id, RESULT_T.c.finished_at, RESULT_T.c.session_id)
        .join(SESSION_T, SESSION_T.c.id == RESULT_T.c.session_id), game, scope)
        .where(or_(RESULT_T.c.finished_at > at,
                   and_(RESULT_T.c.finished_at == at, RESULT_T.c.session_id > key))))}
    if not results:
        return rows, {"last": at.isoformat(), "last_key": key}
    if len(results) > CHUNK:
        return None  # many games since: summed again in SQL
    newer = [(name, outcome, points, *results[result_id]) for result_id, name, outcome, points
             in conn.execute(select(ENTRY_T.c.result_id, PLAYER_T.c.name, ENTRY_T.c.outcome,
                                    ENTRY_T.c.points)
                             .join_from(ENTRY_T, PLAYER_T, PLAYER_T.c.id == ENTRY_T.c.player_id)
                             .where(ENTRY_T.c.result_id.in_(list(results))))]
    figures = {r.player: [r.played, r.wins, r.draws, r.losses, r.points] for r in rows}
    for name, outcome, points, _at, _key in newer:
        got = figures.setdefault(name, [0, 0, 0, 0, 0])
        got[0] += 1
        got[{"win": 1, "draw": 2, "loss": 3}[outcome]] += 1
        got[4] += int(points)
    # Level players in the database's own order of names, as the league's SQL puts them.
    named = conn.execute(select(PLAYER_T.c.name).where(PLAYER_T.c.name.in_(list(figures)))
                         .order_by(PLAYER_T.c.name)).scalars().all()
    place = {name: n for n, name in enumerate(named)}
    ordered = sorted(figures.items(), key=lambda kv: (-kv[1][4], -kv[1][1], place[kv[0]]))
    last = max(((when, k) for _n, _o, _p, when, k in newer))
    return ([LeagueRow(name, *got) for name, got in ordered],
            {"last": last[0].isoformat(), "last_key": last[1]})

