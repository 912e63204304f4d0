"""The tables as the ledger's SQLAlchemy Core statements see them: names, columns, types,
keys. storage/tables.py (SQLModel) stays the schema's definition, the one Alembic migrates
to; this is its reading for the ledger, without SQLModel and pydantic, whose import costs a
command more than all of its work. tests/test_light_imports.py checks, column by column,
that the two agree."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Date,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    TypeDecorator,
    insert,
)
from sqlalchemy.engine import Connection, CursorResult


def now() -> datetime:
    return datetime.now(UTC)


def new_id(result: CursorResult[Any]) -> int:
    """The id the database gave the one row an INSERT added."""
    key = result.inserted_primary_key
    assert key is not None  # an INSERT of one row (not of many) has its key
    added: int = key[0]
    return added


def new_ids(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> list[int]:
    """The ids the database gave the rows an INSERT into `table` added, in the rows' order:
    one multi-row INSERT ... RETURNING a page of rows (SQLAlchemy's "insertmanyvalues"), not
    a round trip per row; one INSERT per row where the database cannot return them in order
    (a SQLite older than 3.35, where a row costs no round trip anyway)."""
    if not rows:
        return []
    if conn.dialect.insert_executemany_returning_sort_by_parameter_order:
        added = insert(table).returning(table.c.id, sort_by_parameter_order=True)
        return list(conn.execute(added, rows).scalars())
    return [new_id(conn.execute(insert(table), row)) for row in rows]


def insert_rows(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """`rows` into `table` in one statement, INSERT ... VALUES (...), (...) RETURNING
    (SQLAlchemy's "insertmanyvalues", made once for the table): psycopg runs a plain
    executemany as a statement per row in a pipeline, which took half as long again for a
    game's few seats on PostgreSQL. A plain executemany where there is no such statement."""
    if not rows:
        return
    if conn.dialect.insert_executemany_returning:
        conn.execute(insert(table).returning(*table.primary_key.columns), rows)
    else:
        conn.execute(insert(table), rows)


def new_uid() -> str:
    """A new game's own id: a random UUID, as the session file carries it."""
    return str(uuid.uuid4())


class UTCDateTime(TypeDecorator[datetime]):
    """A moment in UTC, as SQLModel stores a `datetime` field: refused without a time zone,
    written in UTC, read back in UTC (SQLite keeps no zone: its text is UTC)."""

    impl = DateTime
    cache_ok = True

    def __init__(self) -> None:
        super().__init__(timezone=True)

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.utcoffset() is None:
            raise ValueError("a moment without a time zone cannot be stored")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.utcoffset() is None else value.astimezone(UTC)


def _id() -> Column[Any]:
    return Column("id", Integer, primary_key=True)


def _game(primary_key: bool = False) -> Column[Any]:
    return Column("session_id", Integer, ForeignKey("game_session.id", ondelete="CASCADE"),
                  primary_key=primary_key, nullable=False)


def _text(name: str, nullable: bool = False) -> Column[Any]:
    return Column(name, String, nullable=nullable)


def _number(name: str, primary_key: bool = False) -> Column[Any]:
    return Column(name, Integer, primary_key=primary_key, nullable=False)


def _json(name: str) -> Column[Any]:
    return Column(name, JSON, nullable=False)


def _moment(name: str) -> Column[Any]:
    return Column(name, UTCDateTime, nullable=False)


METADATA = MetaData()

PLAYER_T = Table("player", METADATA, _id(), _text("name"))
GROUP_T = Table("game_group", METADATA, _id(), _text("name"), _moment("created_at"))
SEASON_T = Table("season", METADATA, _id(),
                 Column("group_id", Integer, ForeignKey("game_group.id", ondelete="CASCADE"),
                        nullable=False),
                 _text("name"), Column("starts", Date, nullable=False),
                 Column("ends", Date, nullable=False),
                 Column("carry_over", Boolean, nullable=False))
BOARD_T = Table("board_profile", METADATA, _id(), _text("name"), _json("regions"),
                _moment("updated_at"))
SESSION_T = Table("game_session", METADATA, _id(), _text("game"), _text("title"),
                  _json("settings"), _text("status"), _number("head_seq"), _json("summary"),
                  _moment("created_at"), _moment("updated_at"), _text("uid"),
                  Column("group_id", Integer, ForeignKey("game_group.id"), nullable=False),
                  _text("source", nullable=True))
SEAT_T = Table("seat", METADATA, _id(), _game(),
               Column("player_id", Integer, ForeignKey("player.id"), nullable=False),
               _number("position"), _json("setup"))
STEP_T = Table("step", METADATA, _id(), _game(), _number("seq"), _text("kind"),
               _json("payload"), _text("author", nullable=True), _moment("created_at"))
TOTAL_T = Table("seat_total", METADATA, _game(primary_key=True),
                _number("position", primary_key=True), _json("totals"))
SNAPSHOT_T = Table("fold_snapshot", METADATA, _game(primary_key=True), _number("seq"),
                   _number("depth"), Column("can_redo", Boolean, nullable=False),
                   _text("rules_version"), Column("state", LargeBinary, nullable=False))
RESULT_T = Table("game_result", METADATA, _id(), _game(), _text("game"), _text("result"),
                 _text("format"), _number("players"), _number("rounds"), _json("winners"),
                 _moment("finished_at"))
ENTRY_T = Table("result_entry", METADATA, _id(),
                Column("result_id", Integer, ForeignKey("game_result.id", ondelete="CASCADE"),
                       nullable=False),
                Column("player_id", Integer, ForeignKey("player.id"), nullable=False),
                _text("outcome"), _number("points"), _number("seat"),
                _text("side", nullable=True), _number("place"),
                Column("won", Boolean, nullable=False), Column("score", Integer, nullable=True))
DRAFT_T = Table("draft", METADATA, _game(primary_key=True), _json("payload"),
                _moment("updated_at"))
PART_T = Table("step_part", METADATA, _game(primary_key=True),
               Column("player", String, primary_key=True, nullable=False), _number("seq"),
               _text("phase"), _json("payload"), Column("ready", Boolean, nullable=False),
               _moment("updated_at"))
STATS_T = Table("stats_cache", METADATA, Column("key", String, primary_key=True),
                _number("version"), _number("games"), _json("payload"),
                _moment("computed_at"))
VERSION_T = Table("history_version", METADATA,
                  Column("id", Integer, primary_key=True, autoincrement=False),
                  _number("version"))
