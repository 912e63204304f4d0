"""The saved games a page at a time, newest first, and found by what a player types.

The home screen shows the games played last at once and the rest as the player scrolls or
searches, so what it reads does not grow with the club's history: a page is one indexed
query in the list's order (`updated_at`, then `id`, both descending) that starts after the
last game of the page before (keyset pagination: no OFFSET to walk past), and one query for
the page's players.

A search is words; a game is found when every word is in its title, a player's name or its
group's name (case aside), or names its game or its status (`Word.games`, `Word.statuses`:
the screen knows the names a player sees, in their language).

One statement text for SQLite and PostgreSQL, run either by the standard library's sqlite3
(storage/glance.py, before SQLAlchemy is imported) or by a SQLAlchemy connection: `run` is
what runs a statement with named parameters and gives back its rows.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from rules.progress import Progress, Summary

PAGE = 60  # games a page: more than a tall terminal shows
Run = Callable[[str, dict[str, Any]], Iterable[Sequence[Any]]]


@dataclass(frozen=True)
class GameListing:
    """One line of the saved-games list."""

    id: int
    game: str
    title: str
    status: str
    players: list[str]
    progress: Progress
    leader: str | None
    updated_at: datetime

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "title": self.title, "status": self.status,
                "players": self.players, "phase": self.progress.phase,
                "updated_at": self.updated_at.isoformat(timespec="seconds")}


def listings(games: Iterable[Any], seats: Iterable[Any]) -> list[GameListing]:
    """The saved-games list from game_session rows (id, game, title, status, summary,
    updated_at) in the list's order, and (game id, player name) rows in seat order."""
    names: dict[int, list[str]] = {}
    for game_id, name in seats:
        names.setdefault(game_id, []).append(name)
    listed = []
    for game_id, game, title, status, summary, updated_at in games:
        said = Summary.from_json(summary if isinstance(summary, dict) else {})
        listed.append(GameListing(game_id, game, title, status, names.get(game_id, []),
                                  said.progress, said.leader, updated_at))
    return listed


class Word(NamedTuple):
    """One word of a search, and the games and statuses whose names hold it."""

    text: str
    games: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()


class Page(NamedTuple):
    """Some of the saved games in the list's order, and where the next page starts (None:
    this is the last)."""

    games: list[GameListing]
    after: tuple[Any, int] | None


def _like(text: str) -> str:
    """`text` as a LIKE pattern found anywhere, its own % and _ taken as they are."""
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def page_statement(words: Sequence[Word], after: tuple[Any, int] | None,
                   size: int) -> tuple[str, dict[str, Any]]:
    """The statement of one page and its parameters."""
    where: list[str] = []
    params: dict[str, Any] = {"size": size + 1}  # one more: is there a next page?
    if after is not None:
        where.append("(updated_at < :at OR (updated_at = :at AND id < :id))")
        params["at"], params["id"] = after
    for n, word in enumerate(words):
        w = f"w{n}"
        params[w] = _like(word.text)
        found = [f"lower(title) LIKE :{w} ESCAPE '\\'",
                 # The players found first, then their seats in one pass: a word found
                 # nowhere read 50,000 games' seats one game at a time (0.56 s; 0.13 s).
                 "id IN (SELECT session_id FROM seat WHERE player_id IN (SELECT id FROM "
                 f"player WHERE lower(name) LIKE :{w} ESCAPE '\\'))",
                 f"group_id IN (SELECT id FROM game_group WHERE lower(name) LIKE :{w} "
                 "ESCAPE '\\')"]
        for column, values in (("game", word.games), ("status", word.statuses)):
            if values:
                names = []
                for k, value in enumerate(values):
                    params[f"{w}{column[0]}{k}"] = value
                    names.append(f":{w}{column[0]}{k}")
                found.append(f"{column} IN ({', '.join(names)})")
        where.append(f"({' OR '.join(found)})")
    sql = ("SELECT id, game, title, status, summary, updated_at FROM game_session"
           + (f" WHERE {' AND '.join(where)}" if where else "")
           + " ORDER BY updated_at DESC, id DESC LIMIT :size")
    return sql, params


def seats_statement(ids: Sequence[int]) -> tuple[str, dict[str, Any]]:
    """The players of the games numbered `ids`, in seat order."""
    params = {f"g{k}": game for k, game in enumerate(ids)}
    marks = ", ".join(f":{name}" for name in params) or "NULL"
    return ("SELECT seat.session_id, player.name FROM seat JOIN player ON player.id = "
            f"seat.player_id WHERE seat.session_id IN ({marks}) "
            "ORDER BY seat.session_id, seat.position", params)


def moment(value: Any) -> datetime:
    """A stored moment as the ledger reads it (storage.core.UTCDateTime): SQLite keeps the
    UTC time as text without a zone; PostgreSQL hands back a datetime."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    when: datetime = value  # a datetime, read from the text or as the driver gave it
    return when.replace(tzinfo=UTC) if when.utcoffset() is None else when.astimezone(UTC)


def read_page(run: Run, *, words: Sequence[Word] = (), after: tuple[Any, int] | None = None,
              size: int | None = None) -> Page:
    """A page of `size` (None: PAGE) saved games found by `words` (all of them: none),
    newest first, starting after `after` (a Page's own `after`; None: from the newest)."""
    size = size or PAGE
    rows = [tuple(row) for row in run(*page_statement(words, after, size))]
    more = len(rows) > size
    rows = rows[:size]
    seats = run(*seats_statement([row[0] for row in rows])) if rows else []
    games = [(game_id, game, title, status,
              json.loads(summary) if isinstance(summary, str) else summary, moment(updated))
             for game_id, game, title, status, summary, updated in rows]
    # The next page starts after the last row, compared as it is stored (SQLite's text).
    after_last = (rows[-1][5], rows[-1][0]) if more else None
    return Page(listings(games, seats), after_last)


def sqlalchemy_run(conn: Any) -> Run:
    """`run` on a SQLAlchemy connection."""
    from sqlalchemy import text

    return lambda sql, params: conn.execute(text(sql), params).all()
