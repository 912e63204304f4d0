"""The SQLModel tables: the schema's definition, which Alembic migrates the database to. The
step log is the truth; seat_total, the session summary and game_result are projections
written in the same transaction as the step that changed them. The ledger reads and writes
them through their Core reading in storage/core.py (no pydantic there)."""

from __future__ import annotations

from datetime import datetime
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


class Draft(SQLModel, table=True):
    """What was typed into a form but not yet confirmed; cleared when a step is recorded."""

    session_id: int = Field(foreign_key="game_session.id", primary_key=True, ondelete="CASCADE")
    payload: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    updated_at: datetime = Field(default_factory=now)
