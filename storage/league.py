"""The league's statements: standings summed in SQL over result entries (a covering index
holds every column they read), and one player's finished games."""

from __future__ import annotations

from sqlalchemy import bindparam, case, func, select

from storage.core import ENTRY_T, PLAYER_T, RESULT_T, SESSION_T


def _league(game: bool):
    """Each player's figures summed over result entries alone (an index covers the columns),
    then named: the statement for every game, or for the game in the `game` parameter."""
    outcome = ENTRY_T.c.outcome
    entries = select(ENTRY_T.c.player_id, func.count().label("played"),
                     *(func.sum(case((outcome == word, 1), else_=0)).label(label)
                       for word, label in (("win", "wins"), ("draw", "draws"),
                                           ("loss", "losses"))),
                     func.sum(ENTRY_T.c.points).label("points")).group_by(ENTRY_T.c.player_id)
    if game:
        entries = entries.where(ENTRY_T.c.result_id.in_(
            select(RESULT_T.c.id).where(RESULT_T.c.game == bindparam("game"))))
    agg = entries.subquery()
    return (select(PLAYER_T.c.name, agg.c.played, agg.c.wins, agg.c.draws, agg.c.losses,
                   agg.c.points)
            .join_from(agg, PLAYER_T, PLAYER_T.c.id == agg.c.player_id)
            .order_by(agg.c.points.desc(), agg.c.wins.desc(), PLAYER_T.c.name))


LEAGUE, LEAGUE_OF_GAME = _league(False), _league(True)


def history_query(player: str, game: str | None = None):
    """A player's finished games, newest first: (session, game, title, outcome, points,
    format, finished_at) rows."""
    result, entry = RESULT_T.c, ENTRY_T.c
    query = (select(result.session_id, result.game, SESSION_T.c.title, entry.outcome,
                    entry.points, result.format, result.finished_at)
             .join_from(RESULT_T, ENTRY_T, entry.result_id == result.id)
             .join(PLAYER_T, PLAYER_T.c.id == entry.player_id)
             .join(SESSION_T, SESSION_T.c.id == result.session_id)
             .where(PLAYER_T.c.name == player)
             .order_by(result.finished_at.desc(), result.id.desc()))
    return query.where(result.game == game) if game else query
