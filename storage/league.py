"""The league's statements: standings summed in SQL over result entries (a covering index
holds every column they read), and one player's finished games."""

from __future__ import annotations

from sqlalchemy import bindparam, case, func, select

from storage.tables import GameResult, GameSession, Player, ResultEntry

RESULT_T, ENTRY_T, PLAYER_T = GameResult.__table__, ResultEntry.__table__, Player.__table__


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
    query = (select(GameResult.session_id, GameResult.game, GameSession.title,
                    ResultEntry.outcome, ResultEntry.points, GameResult.format,
                    GameResult.finished_at)
             .join(ResultEntry, ResultEntry.result_id == GameResult.id)
             .join(Player, Player.id == ResultEntry.player_id)
             .join(GameSession, GameSession.id == GameResult.session_id)
             .where(Player.name == player)
             .order_by(GameResult.finished_at.desc(), GameResult.id.desc()))
    return query.where(GameResult.game == game) if game else query
