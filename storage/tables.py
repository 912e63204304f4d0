"""The SQLModel tables: the schema's definition, which Alembic migrates the database to. The
step log is the truth; seat_total, the session summary and game_result are projections
written in the same transaction as the step that changed them. The ledger reads and writes
them through their Core reading in storage/core.py (no pydantic there)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, Column, Index, LargeBinary, UniqueConstraint
from sqlmodel import Field, SQLModel

from storage.core import new_uid, now


class Player(SQLModel, table=True):
    """A person, known by name across games."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)


class BoardProfile(SQLModel, table=True):
    """A group's Struggle of Empires board: the printed VP values of each region."""

    __tablename__ = "board_profile"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    regions: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    updated_at: datetime = Field(default_factory=now)


class GameGroup(SQLModel, table=True):
    """A table of friends: every game belongs to one group, and a group has its seasons."""

    __tablename__ = "game_group"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    created_at: datetime = Field(default_factory=now)


class Season(SQLModel, table=True):
    """A group's named stretch of calendar days (inclusive, in the host's local time). A
    finished game falls in it by when it finished. `carry_over`: ratings go on from the
    group's earlier games (else they start afresh at the season's start)."""

    __table_args__ = (UniqueConstraint("group_id", "name"),)
    id: int | None = Field(default=None, primary_key=True)
    group_id: int = Field(foreign_key="game_group.id", index=True, ondelete="CASCADE")
    name: str
    starts: date
    ends: date
    carry_over: bool = False


class GameSession(SQLModel, table=True):
    """One game at the table."""

    __tablename__ = "game_session"
    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(index=True)
    title: str
    settings: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    status: str = "in_progress"
    head_seq: int = 0
    summary: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=now)
    updated_at: datetime = Field(default_factory=now, index=True)
    # The game's own id, the same in every database it is exported to and replayed in
    # (the session file's "id"): a game is stored once.
    uid: str = Field(default_factory=new_uid, unique=True, index=True)
    # The group of friends it was played by (migration 0005 put older games in "Our table").
    group_id: int = Field(foreign_key="game_group.id", index=True)
    # Where a result-only game came from ("bgg:123", "bgstats:<uuid>": migration 0006): it
    # has players, winners and scores but no steps. None for a game played here step by step.
    source: str | None = Field(default=None, unique=True, index=True)


class Seat(SQLModel, table=True):
    """A player's place in a game, with what they brought to it (power or colour, mission)."""

    __table_args__ = (UniqueConstraint("session_id", "position"),)
    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="game_session.id", index=True, ondelete="CASCADE")
    player_id: int = Field(foreign_key="player.id")
    position: int
    setup: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))


class Step(SQLModel, table=True):
    """One confirmed entry of a game's log; (session, seq) is unique, which is also the guard
    against two terminals recording the same next step."""

    __table_args__ = (UniqueConstraint("session_id", "seq"),)
    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="game_session.id", index=True, ondelete="CASCADE")
    seq: int
    kind: str
    payload: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    author: str | None = None
    created_at: datetime = Field(default_factory=now)


class SeatTotal(SQLModel, table=True):
    """Projection: a seat's current totals, as the fold of the steps gives them."""

    __tablename__ = "seat_total"
    session_id: int = Field(foreign_key="game_session.id", primary_key=True, ondelete="CASCADE")
    position: int = Field(primary_key=True)
    totals: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))


class FoldSnapshot(SQLModel, table=True):
    """A cache of a game's fold after its last step, so opening a long game folds nothing.
    The steps stay the truth: a snapshot from other rules (`rules_version`) is ignored and
    the steps are folded again."""

    __tablename__ = "fold_snapshot"
    session_id: int = Field(foreign_key="game_session.id", primary_key=True, ondelete="CASCADE")
    seq: int  # the step it was taken after
    depth: int  # how many steps undo can take back
    can_redo: bool
    rules_version: str
    state: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


class GameResult(SQLModel, table=True):
    """The result of a finished game, for history and the league."""

    __tablename__ = "game_result"
    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="game_session.id", unique=True, ondelete="CASCADE")
    game: str = Field(index=True)
    result: str
    format: str
    players: int
    rounds: int
    winners: list[str] = Field(sa_column=Column(JSON, nullable=False))
    finished_at: datetime = Field(default_factory=now)


class ResultEntry(SQLModel, table=True):
    """One player's outcome in one finished game, with league points."""

    __tablename__ = "result_entry"
    # The league sums these columns per player straight from this index.
    __table_args__ = (Index("ix_result_entry_standing", "player_id", "outcome", "points"),)
    id: int | None = Field(default=None, primary_key=True)
    result_id: int = Field(foreign_key="game_result.id", index=True, ondelete="CASCADE")
    player_id: int = Field(foreign_key="player.id", index=True)
    outcome: str  # win, draw or loss
    points: int
    # Where they finished, for ratings and the group's statistics (rules.played.Finish).
    seat: int  # 0 for the first seat
    side: str | None = None  # the power or colour they played, by its stored id
    place: int  # 1 for the best; level players share a place
    won: bool  # among the winners (a shared win too)
    score: int | None = None  # final VP, a Risk score; None where the game has none


class Draft(SQLModel, table=True):
    """What was typed into a form but not yet confirmed; cleared when a step is recorded."""

    session_id: int = Field(foreign_key="game_session.id", primary_key=True, ondelete="CASCADE")
    payload: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    updated_at: datetime = Field(default_factory=now)


class StepPart(SQLModel, table=True):
    """A seated player's own part of the step the game is at (their units at upkeep): typed
    on their terminal, shown to the table as it changes, and `ready` once they pressed
    Enter. Believed only while the game's head is still `seq`; the step made of the parts
    is recorded when every seat's part is ready (storage/parts.py)."""

    __tablename__ = "step_part"
    session_id: int = Field(foreign_key="game_session.id", primary_key=True, ondelete="CASCADE")
    player: str = Field(primary_key=True)
    seq: int
    phase: str
    payload: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    ready: bool
    updated_at: datetime = Field(default_factory=now)


class StatsCache(SQLModel, table=True):
    """A cache of a group's statistics for one season (or all time), as GroupStats JSON.
    Believed only when `version` is the history's version now (HistoryVersion): every
    change to finished games, groups of games or seasons bumps it in its own transaction.
    The result entries stay the truth."""

    __tablename__ = "stats_cache"
    key: str = Field(primary_key=True)  # which group and season, and which rules
    version: int
    games: int
    payload: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    computed_at: datetime = Field(default_factory=now)


class HistoryVersion(SQLModel, table=True):
    """One row: a number bumped whenever what the statistics read changes."""

    __tablename__ = "history_version"
    id: int = Field(default=1, primary_key=True)
    version: int = 0
