"""Groups of friends and their seasons, as the ledger keeps them (the Ledger's part for
them: storage/ledger.py). A change to what the statistics read notes it
(storage/ratings_store.history_changed)."""

from __future__ import annotations

from datetime import date

from sqlalchemy import Connection, Engine, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from i18n import _
from rules.errors import RuleError
from storage.core import GROUP_T, RESULT_T, SEASON_T, SESSION_T, new_id, now
from storage.engine import StorageError
from storage.groups import (
    DEFAULT_GROUP,
    a_day,
    check_season,
    find_group,
    group_id,
    group_name,
    group_taken,
    refuse_look_alike,
    scope,
    season_name,
    season_rows,
)
from storage.ratings_store import history_changed
from storage.records import GroupRow, SeasonRow


class GroupsAndSeasons:
    """A Ledger's groups and seasons (its `engine`, and `_writer` to write)."""

    engine: Engine
    _writer: Engine

    def groups(self) -> list[GroupRow]:
        """Every group, by name, with how many games it holds."""
        games = (select(SESSION_T.c.group_id, func.count().label("games"))
                 .group_by(SESSION_T.c.group_id).subquery())
        with self.engine.connect() as conn:
            rows = conn.execute(select(GROUP_T.c.name, func.coalesce(games.c.games, 0))
                                .join_from(GROUP_T, games, games.c.group_id == GROUP_T.c.id,
                                           isouter=True).order_by(GROUP_T.c.name)).all()
        return [GroupRow(name, int(games)) for name, games in rows]

    def default_group(self) -> str:
        """The group a new game goes in unless told: that of the game created last, else
        DEFAULT_GROUP ("Our table", created with the first game in it)."""
        with self.engine.connect() as conn:
            return self._default_group(conn)

    def add_group(self, name: str) -> str:
        """A new group (RuleError for a bad name or one taken); returns its name as stored."""
        name = group_name(name)
        with self._writer.begin() as conn:
            refuse_look_alike(conn, name)
            self._new_group(conn, name)
        return name

    def rename_group(self, old: str, new: str) -> str:
        """Give a group a new name (RuleError for a bad or taken one, StorageError for a
        group not known); returns the new name as stored."""
        new = group_name(new)
        with self._writer.begin() as conn:
            gid = group_id(conn, old)
            refuse_look_alike(conn, new, but=gid)
            try:
                with conn.begin_nested():
                    conn.execute(update(GROUP_T).where(GROUP_T.c.id == gid).values(name=new))
            except IntegrityError:
                raise RuleError(group_taken(new)) from None
        return new

    def seasons(self, group: str | None = None) -> list[SeasonRow]:
        """A group's seasons (every group's when None), by group then first day."""
        with self.engine.connect() as conn:
            gid = None if group is None else group_id(conn, group)
            return [row for _id, row in season_rows(conn, gid)]

    def add_season(self, group: str, name: str, starts: date, ends: date,
                   carry_over: bool = False) -> SeasonRow:
        """A new season of a group: calendar days `starts` to `ends` (included, host's local
        time), its ratings afresh at its start or carried over. Refused in one line
        (RuleError) when it ends before it starts, its name is taken in the group, or it
        overlaps another of the group's seasons; StorageError for a group not known (but
        DEFAULT_GROUP, made by its first season as by its first game)."""
        name = season_name(name)
        starts = a_day(starts, _("The first day"))
        ends = a_day(ends, _("The last day"))
        with self._writer.begin() as conn:
            if group == DEFAULT_GROUP:  # the default group is made when first needed
                gid, _name = self._group_for(conn, group)
            else:
                gid = group_id(conn, group)
            stored = conn.execute(select(GROUP_T.c.name)
                                  .where(GROUP_T.c.id == gid)).scalar_one()
            check_season(conn, gid, stored, name, starts, ends)
            try:
                with conn.begin_nested():
                    conn.execute(insert(SEASON_T).values(group_id=gid, name=name,
                                                         starts=starts, ends=ends,
                                                         carry_over=bool(carry_over)))
            except IntegrityError:  # another terminal added it first
                raise RuleError(_("The group {group} has a season named {season} "
                                  "already").format(group=stored, season=name)) from None
            history_changed(conn, [gid])  # its scopes are new; the group's from its start
        return SeasonRow(stored, name, starts, ends, bool(carry_over))

    def remove_season(self, group: str, name: str) -> None:
        """Forget a season (its games stay, in the group). StorageError if there is none."""
        with self._writer.begin() as conn:
            found = scope(conn, group, name)
            conn.execute(delete(SEASON_T).where(SEASON_T.c.id == found.season_id))
            history_changed(conn, [found.group_id])

    def move_game(self, session_id: int, group: str) -> str:
        """Move a game to another group (created if not known yet); returns its name."""
        with self._writer.begin() as conn:
            gid, name = self._group_for(conn, group)
            was = conn.execute(select(SESSION_T.c.group_id, RESULT_T.c.finished_at)
                               .join_from(SESSION_T, RESULT_T,
                                          RESULT_T.c.session_id == SESSION_T.c.id, isouter=True)
                               .where(SESSION_T.c.id == session_id)).one_or_none()
            if was is None or not conn.execute(update(SESSION_T).where(
                    SESSION_T.c.id == session_id).values(group_id=gid)).rowcount:
                raise StorageError(_("There is no game {game}").format(game=session_id))
            # A game in progress moves no figure: only a finished one leaves and joins.
            history_changed(conn, [was.group_id, gid] if was.finished_at else [],
                            was.finished_at)
        return name

    def group_of(self, session_id: int) -> str:
        """The name of the group a game belongs to."""
        with self.engine.connect() as conn:
            name: str | None = conn.execute(select(GROUP_T.c.name)
                                .join_from(SESSION_T, GROUP_T,
                                           GROUP_T.c.id == SESSION_T.c.group_id)
                                .where(SESSION_T.c.id == session_id)).scalar_one_or_none()
        if name is None:
            raise StorageError(_("There is no game {game}").format(game=session_id))
        return name

    def _default_group(self, conn: Connection) -> str:
        found = self._newest_games_group(conn)
        return found[1] if found is not None else DEFAULT_GROUP

    @staticmethod
    def _newest_games_group(conn: Connection) -> tuple[int, str] | None:
        """(id, name) of the group of the game created last, if there is a game."""
        # The newest game is the highest number (SQLite reuses only the newest's, deleted).
        row = conn.execute(select(GROUP_T.c.id, GROUP_T.c.name)
                           .join_from(SESSION_T, GROUP_T, GROUP_T.c.id == SESSION_T.c.group_id)
                           .order_by(SESSION_T.c.id.desc()).limit(1)).one_or_none()
        return (row.id, row.name) if row is not None else None

    def _group_for(self, conn: Connection, name: str | None) -> tuple[int, str]:
        """(id, name) of the group named (the default group when None), created if needed."""
        if name is None:  # the newest game's group, in one look
            found = self._newest_games_group(conn)
            if found is not None:
                return found
            name = DEFAULT_GROUP
        else:
            name = group_name(name)
        found = find_group(conn, name)
        if found is not None:
            return found
        try:
            refuse_look_alike(conn, name)
        except RuleError:
            found = find_group(conn, name)  # this very group, just added by another terminal
            if found is not None:
                return found
            raise
        gid = self._insert_group(conn, name)
        # None: another terminal added the same group right now (PostgreSQL)
        return (gid, name) if gid is not None else (group_id(conn, name), name)

    def _new_group(self, conn: Connection, name: str) -> int:
        gid = self._insert_group(conn, name)
        if gid is None:
            raise RuleError(group_taken(name))
        return gid

    @staticmethod
    def _insert_group(conn: Connection, name: str) -> int | None:
        try:
            with conn.begin_nested():
                return new_id(conn.execute(insert(GROUP_T).values(name=name,
                                                                  created_at=now())))
        except IntegrityError:
            return None
