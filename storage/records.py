"""What the ledger hands back: a game as its steps fold (a line of the saved-games list is
storage/listing.py's), a league row, a player's finished game, and the refusal of a step another terminal beat."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from i18n import _
from rules.outcome import Report
from storage.connection import StorageError

if TYPE_CHECKING:  # annotations only: the home screen's glance imports this module early
    from rules.ruleset import GameRules
    from rules.timeline import Timeline


class StaleGame(StorageError):
    """Another terminal recorded a step first; `game` is the game as it now stands."""

    def __init__(self, message: str, game: LoadedGame) -> None:
        super().__init__(message)
        self.game = game


class AlreadyStored(StorageError):
    """A session file of a game this database holds already (the same id): nothing was
    stored. `game_id` is the stored game's number, `title` its title as stored."""

    def __init__(self, game_id: int, title: str) -> None:
        super().__init__(_("already stored as game {game}").format(game=game_id))
        self.game_id = game_id
        self.title = title


@dataclass(frozen=True)
class LoadedGame:
    """A game as the fold of its steps gives it."""

    id: int
    title: str
    rules: GameRules
    settings: Any
    seats: tuple[Any, ...]
    timeline: Timeline
    seq: int  # the last recorded sequence number (every step, undo and redo included)
    updated_at: datetime

    @property
    def game(self) -> str:
        return self.rules.game

    @property
    def state(self) -> Any:
        return self.timeline.state

    def report(self) -> Report:
        return self.rules.report(self.state)


@dataclass(frozen=True)
class LeagueRow:
    player: str
    played: int
    wins: int
    draws: int
    losses: int
    points: int

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class GroupRow:
    """A group of friends and how many games it has played (finished or not)."""

    name: str
    games: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "games": self.games}


@dataclass(frozen=True)
class SeasonRow:
    """A group's season: calendar days of the host's local time, `starts` and `ends`
    included. `carry_over`: its ratings go on from the group's earlier games (else they
    start afresh at its start)."""

    group: str
    name: str
    starts: date
    ends: date
    carry_over: bool

    def holds(self, moment: datetime) -> bool:
        """Whether a game finished at `moment` falls in the season (by the local day)."""
        return self.starts <= moment.astimezone().date() <= self.ends

    def to_json(self) -> dict[str, Any]:
        return {"group": self.group, "name": self.name, "starts": self.starts.isoformat(),
                "ends": self.ends.isoformat(), "carry_over": self.carry_over}


@dataclass(frozen=True)
class HistoryEntry:
    """A finished game as one player lived it."""

    session_id: int
    game: str
    title: str
    outcome: str
    points: int
    format: str
    finished_at: datetime
    stalemate: bool = False  # it ended in a stalemate (its summary says)


@dataclass(frozen=True)
class LoggedStep:
    """One recorded step as the game's history lists it: who recorded it, when (UTC; SQLite
    gives it back without a time zone), and what it did in the players' words."""

    seq: int
    kind: str
    author: str | None
    recorded_at: datetime
    said: str
