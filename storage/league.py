"""The league's statements: standings summed in SQL over result entries (a covering index
holds every column they read), one player's finished games, and the finished games of a
group and season as ratings and statistics read them."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import ColumnElement, Connection, Select, and_, bindparam, case, func, or_, select

from rules.played import Finish, FinishedGame
from storage.core import ENTRY_T, PLAYER_T, RESULT_T, SESSION_T
from storage.groups import Scope

if TYPE_CHECKING:
    from typing import TypeAlias

    Rows: TypeAlias = Select[*tuple[Any, ...]]  # a statement of any columns

Query = TypeVar("Query", bound="Rows")


def _results(query: Query, *, group: bool, since: bool, until: bool) -> Query:
    """`query` (over game_result) kept to the group in `gid` and the moments [lo, hi)."""
    if group:
        query = (query.join(SESSION_T, SESSION_T.c.id == RESULT_T.c.session_id)
                 .where(SESSION_T.c.group_id == bindparam("gid")))
    if since:
        query = query.where(RESULT_T.c.finished_at >= bindparam("lo"))
    if until:
        query = query.where(RESULT_T.c.finished_at < bindparam("hi"))
    return query


@cache
def league_query(game: bool = False, group: bool = False, season: bool = False) -> Rows:
    """Each player's figures summed over result entries alone (an index covers the columns),
    then named: over every finished game, or those of the game in `game`, of the group in
    `gid`, finished in [lo, hi). Built once per kind (a statement built per call costs more
    than running it)."""
    outcome = ENTRY_T.c.outcome
    entries = select(ENTRY_T.c.player_id, func.count().label("played"),
                     *(func.sum(case((outcome == word, 1), else_=0)).label(label)
                       for word, label in (("win", "wins"), ("draw", "draws"),
                                           ("loss", "losses"))),
                     func.sum(ENTRY_T.c.points).label("points")).group_by(ENTRY_T.c.player_id)
    if game or group or season:
        results = select(RESULT_T.c.id)
        if game:
            results = results.where(RESULT_T.c.game == bindparam("game"))
        results = _results(results, group=group, since=season, until=season)
        entries = entries.where(ENTRY_T.c.result_id.in_(results))
    agg = entries.subquery()
    return (select(PLAYER_T.c.name, agg.c.played, agg.c.wins, agg.c.draws, agg.c.losses,
                   agg.c.points)
            .join_from(agg, PLAYER_T, PLAYER_T.c.id == agg.c.player_id)
            .order_by(agg.c.points.desc(), agg.c.wins.desc(), PLAYER_T.c.name))


LEAGUE, LEAGUE_OF_GAME = league_query(), league_query(game=True)


def league_parameters(game: str | None, scope: Scope) -> tuple[Rows, dict[str, object]]:
    """The league's statement for a game (None: every game) in a scope, and its values."""
    lo, hi = scope.moments
    query = league_query(bool(game), scope.group_id is not None, scope.season is not None)
    return query, {"game": game, "gid": scope.group_id, "lo": lo, "hi": hi}


def history_query(player: str, game: str | None = None, scope: Scope | None = None
                  ) -> Rows:
    """A player's finished games, newest first: (session, game, title, outcome, points,
    format, finished_at, summary) rows; of one game, and of one group and season, if
    given."""
    result, entry = RESULT_T.c, ENTRY_T.c
    query = (select(result.session_id, result.game, SESSION_T.c.title, entry.outcome,
                    entry.points, result.format, result.finished_at, SESSION_T.c.summary)
             .join_from(RESULT_T, ENTRY_T, entry.result_id == result.id)
             .join(PLAYER_T, PLAYER_T.c.id == entry.player_id)
             .join(SESSION_T, SESSION_T.c.id == result.session_id)
             .where(PLAYER_T.c.name == player)
             .order_by(result.finished_at.desc(), result.id.desc()))
    if game:
        query = query.where(result.game == game)
    if scope is not None and scope.group_id is not None:
        query = query.where(SESSION_T.c.group_id == scope.group_id)
    if scope is not None and scope.season is not None:
        lo, hi = scope.moments
        query = query.where(result.finished_at >= lo, result.finished_at < hi)
    return query


@cache
def _finished_queries(group: bool, since: bool, until: bool, after: bool = False
                      ) -> tuple[Rows, Rows]:
    """The finished games (id, number, game, finished_at) in date order, then number; and
    their players' finishes (in no order: a game's few are put in seat order after). Two
    statements: a game's moment is read once, not once per player."""
    games = _results(select(RESULT_T.c.id, RESULT_T.c.session_id, RESULT_T.c.game,
                            RESULT_T.c.finished_at),
                     group=group, since=since, until=until)
    if after:  # only those finished after the game finished at `at`, numbered `key`
        games = games.where(_after())
    entry = ENTRY_T.c
    finishes = (select(entry.result_id, PLAYER_T.c.name, entry.seat, entry.side, entry.place,
                       entry.outcome, entry.won, entry.score)
                .join_from(ENTRY_T, PLAYER_T, PLAYER_T.c.id == entry.player_id))
    if group or since or until or after:
        chosen = _results(select(RESULT_T.c.id), group=group, since=since, until=until)
        finishes = finishes.where(entry.result_id.in_(
            chosen.where(_after()) if after else chosen))
    return (games.order_by(RESULT_T.c.finished_at, RESULT_T.c.session_id), finishes)


def _after() -> ColumnElement[bool]:
    at, key = RESULT_T.c.finished_at, RESULT_T.c.session_id
    return or_(at > bindparam("at"), and_(at == bindparam("at"), key > bindparam("key")))


def finished_games(conn: Connection, scope: Scope, *, rating: bool = False,
                   after: tuple[datetime, int] | None = None) -> list[FinishedGame]:
    """The finished games of a scope in date order (then by number). `rating`: the games its
    ratings rest on (a season that carries over: every game of the group up to its end).
    `after`: only those after the game finished at that moment with that number."""
    lo, hi = scope.moments
    if rating:
        lo = scope.rated_from
    games, finishes = _finished_queries(scope.group_id is not None, lo is not None,
                                        hi is not None, after is not None)
    values = {"gid": scope.group_id, "lo": lo, "hi": hi}
    if after is not None:
        values.update(at=after[0], key=after[1])
    rows = conn.execute(games, values).all()
    # Plain values only (no column needs SQLAlchemy's processing but `won`, which bool()
    # reads on both databases): the driver's rows as they come, a fifth of the time.
    result = conn.execute(finishes, values)
    try:
        entries = result.cursor.fetchall()
    finally:
        result.close()
    by_result: dict[int, list[Finish]] = defaultdict(list)
    for result_id, name, seat, side, place, outcome, won, score in entries:
        by_result[result_id].append(Finish(name, seat, side, place, outcome, bool(won), score))
    # (A game undone between the two statements, on PostgreSQL, has no finishes: left out.)
    return [FinishedGame(key, game, finished_at,
                         tuple(sorted(by_result[result_id], key=_seat)))
            for result_id, key, game, finished_at in rows if result_id in by_result]


def _seat(finish: Finish) -> int:
    return finish.seat
