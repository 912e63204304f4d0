"""The league, the group's statistics and a player's history, as the ledger reads them
(the Ledger's part that reads finished games: storage/ledger.py): standings summed in SQL
(storage/league.py), statistics and ratings worked out or gone forward from their cache
(storage/ratings_store.py, storage/stats_cache.py)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from rules.outcome import Summary
from storage.groups import Scope, scope
from storage.league import finished_games, history_query, league_parameters
from storage.ratings_store import VERSION, league_rows, stats_of
from storage.records import HistoryEntry, LeagueRow

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from rules.played import FinishedGame
    from rules.stats import GroupStats

CHART_POINTS = 240  # the league chart's moments at most: no screen is wider


def history_entry(row: Any) -> HistoryEntry:
    """A row of storage.league.history_query as a player's finished game."""
    session_id, game, title, outcome, points, format, finished_at, summary = row
    return HistoryEntry(session_id, game, title, outcome, points, format, finished_at,
                        stalemate=Summary.from_json(summary or {}).stalemate)


class Standings:
    """The league and statistics of a Ledger (its `engine`, and `_writer` for the cache)."""

    engine: Engine
    _writer: Engine

    def league(self, game: str | None = None, group: str | None = None,
               season: str | None = None) -> list[LeagueRow]:
        """League standings over finished games, by points then wins (aggregated in SQL, or
        the cached ones with the games finished since added): of one game, group and
        season if given (group None: every group; season None: all time; a season named
        without a group is looked for in every group)."""
        from storage.stats_cache import keep_league, read_league

        with self.engine.connect() as conn:
            found = scope(conn, group, season) if group or season else Scope()
            version = conn.execute(VERSION).scalar_one_or_none() or 0
            cached = read_league(conn, game, found, version)
            if cached is not None:
                return cached
            query, values = league_parameters(game, found)
            rows, besides = league_rows(conn, game, found, version, query, values)
        keep_league(self._writer, game, found, version, rows, besides)
        return rows

    def league_chart(self, game: str | None, group: str | None, season: str | None,
                     players: list[str]) -> tuple[list[datetime], dict[str, list[int]]]:
        """`players`' league points after each game (rules.league.points_over_time), at
        most CHART_POINTS moments of it, cached as the league is: a year of games is read
        once per change, not at every look."""
        import hashlib
        import json

        from rules.league import points_over_time
        from storage.stats_cache import keep, read_payload

        with self.engine.connect() as conn:
            found = scope(conn, group, season) if group or season else Scope()
            version = conn.execute(VERSION).scalar_one_or_none() or 0
            who = hashlib.sha256(json.dumps(players).encode()).hexdigest()[:16]
            key = f"chart/{game or '*'}/{found.key}/{who}"
            cached = read_payload(conn, key, version)
            if cached is not None:
                return ([datetime.fromisoformat(when) for when in cached["dates"]],
                        {p: list(line) for p, line in cached["lines"].items()})
            histories = {p: [history_entry(r) for r in conn.execute(
                history_query(p, game, found if group or season else None)).all()]
                for p in players}
        dates, lines = points_over_time(histories, CHART_POINTS)
        keep(self._writer, lambda: key, version, lambda: (len(dates), {
            "dates": [when.isoformat() for when in dates], "lines": lines}))
        return dates, lines

    def history(self, player: str, game: str | None = None, group: str | None = None,
                season: str | None = None) -> list[HistoryEntry]:
        """A player's finished games, newest first (of one game, group and season if given)."""
        with self.engine.connect() as conn:
            found = scope(conn, group, season) if group or season else None
            return [history_entry(r) for r in conn.execute(
                history_query(player, game, found)).all()]

    def finished_games(self, group: str | None = None,
                       season: str | None = None) -> list[FinishedGame]:
        """The finished games of a group and season, in date order, as statistics read them."""
        with self.engine.connect() as conn:
            return finished_games(conn, scope(conn, group, season))

    def stats(self, group: str | None = None, season: str | None = None) -> GroupStats:
        """The group's statistics for a season (None: all time; group None: every group):
        ratings, head to head, sides and seats, each player's record. Worked out from the
        finished games (a carry-over season's ratings from every game of the group up to
        its end), or read from the cache when it was worked out at this version of the
        history and these rules, or gone forward from an older cache by the games finished
        since (storage/ratings_store.py)."""
        from storage.stats_cache import keep_stats, read_stats

        with self.engine.connect() as conn:
            found = scope(conn, group, season)
            version = conn.execute(VERSION).scalar_one_or_none() or 0
            cached = read_stats(conn, found, version)
            if cached is not None:
                return cached
            stats, besides = stats_of(conn, found, version)
        keep_stats(self._writer, found, version, stats, besides)
        return stats
