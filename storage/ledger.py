"""The ledger: the only door between the screens (and the command line) and the database.

Recording a step is one transaction: the step row with the next sequence number, the
totals projection, the session summary and, when the game ends, its result. The state
is always the fold of the steps; a fold is kept per game so a step costs one apply, and a
snapshot of it is stored with each step so that opening a long game folds nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, overload

from sqlalchemy import Connection, Engine, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from i18n import _, pgettext
from rules.errors import RuleError
from rules.fields import TITLE_LIMIT, person, stored_rows, text
from rules.game import GameRules, describe_history, read_board, rules_for
from rules.league import POINTS
from rules.outcome import Report, Summary
from rules.played import FinishedGame, finishes_of
from rules.plays import Play
from rules.session_file import SessionFile, read_session, session_json
from rules.timeline import Redo, Timeline, Undo, read_step
from storage.core import (
    BOARD_T,
    DRAFT_T,
    ENTRY_T,
    GROUP_T,
    PLAYER_T,
    RESULT_T,
    SEASON_T,
    SEAT_T,
    SESSION_T,
    SNAPSHOT_T,
    STEP_T,
    TOTAL_T,
    VERSION_T,
    new_id,
    new_uid,
    now,
)
from storage.engine import StorageError, writer
from storage.groups import (
    DEFAULT_GROUP,
    Scope,
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
from storage.league import finished_games, history_query, league_parameters
from storage.plays import (
    CHUNK,
    ResultOnly,
    insert_play,
    play_of_fold,
    read_result_only,
    read_results_only,
    refuse_look_alikes,
    stored_already,
)
from storage.records import (
    AlreadyStored,
    GameListing,
    GroupRow,
    HistoryEntry,
    LeagueRow,
    LoadedGame,
    LoggedStep,
    SeasonRow,
    StaleGame,
    listings,
)
from storage.snapshots import dump_state, load_state, rules_version
from storage.watch import tell_watchers

# The ledger speaks SQLAlchemy Core (storage/core.py): a step is a handful of statements, the
# ORM's identity map and flush would cost more than all of them, and a command that only
# reads never imports SQLModel or pydantic.
# Built once: a statement built per call costs more than running it. An UPDATE sets the
# columns named in its parameters; `sid` and `pos` pick the row.
HEAD = (select(SESSION_T.c.head_seq, SESSION_T.c.created_at)
        .where(SESSION_T.c.id == bindparam("sid")))
HEAD_LOCKED = HEAD.with_for_update()
# A game_session row as storage.plays reads an imported game from it.
def history_entry(row: Any) -> HistoryEntry:
    """A row of storage.league.history_query as a player's finished game."""
    session_id, game, title, outcome, points, format, finished_at, summary = row
    return HistoryEntry(session_id, game, title, outcome, points, format, finished_at,
                        stalemate=Summary.from_json(summary or {}).stalemate)


RESULT_ONLY_ROW = select(SESSION_T.c.id, SESSION_T.c.game, SESSION_T.c.title, SESSION_T.c.uid,
                         SESSION_T.c.source, SESSION_T.c.created_at, SESSION_T.c.updated_at,
                         SESSION_T.c.settings)
ADD_STEP = insert(STEP_T)
CLEAR_DRAFT = delete(DRAFT_T).where(DRAFT_T.c.session_id == bindparam("sid"))
SET_SESSION = update(SESSION_T).where(SESSION_T.c.id == bindparam("sid"))
SET_TOTAL = update(TOTAL_T).where(TOTAL_T.c.session_id == bindparam("sid"),
                                  TOTAL_T.c.position == bindparam("pos"))
SET_SNAPSHOT = update(SNAPSHOT_T).where(SNAPSHOT_T.c.session_id == bindparam("sid"))
# The history's version: bumped in the transaction of every change to what the group's
# statistics read (a result written or taken back, a game deleted or moved, a season).
BUMP = update(VERSION_T).where(VERSION_T.c.id == 1).values(version=VERSION_T.c.version + 1)
VERSION = select(VERSION_T.c.version).where(VERSION_T.c.id == 1)
CHART_POINTS = 240  # the league chart's moments at most: no screen is wider

if TYPE_CHECKING:
    from rules.ruleset import Step
    from rules.stats import GroupStats
    from storage.watch import GamesWatch, GameWatch


class Imported(NamedTuple):
    """What an import stored: the numbers of the new games, and how many plays were in
    the database already."""

    stored: tuple[int, ...]
    already: int


__all__ = ["DEFAULT_GROUP", "AlreadyStored", "GameListing", "GroupRow", "HistoryEntry",
           "Imported", "LeagueRow", "Ledger", "LoadedGame", "LoggedStep", "SeasonRow",
           "StaleGame"]


class Ledger:
    """Games in a database: create, record, undo, redo, load, list, export, league."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._writer = writer(engine)
        self._folds: dict[int, LoadedGame] = {}
        # created_at of the row each cached fold came from: SQLite reuses the id of a
        # deleted newest game, and a fold of the deleted game must not pass for the new one.
        self._born: dict[int, datetime] = {}

    # ------------------------------------------------------------ games

    def create_game(self, game: str, title: str, settings: Any, players: Any,
                    group: str | None = None) -> LoadedGame:
        """A new game (with a new id of its own) from session-file JSON for its settings and
        players, in `group` (created if not known yet; None: the default group)."""
        session_file = read_session({"format": "warledger/1", "game": game, "title": title,
                                     "settings": settings, "players": self._as_known(players),
                                     "steps": []})
        return self._store_file(session_file, new_uid(), group)

    def replay(self, data: Any, *, copy: bool = False, group: str | None = None) -> LoadedGame:
        """Check and store a whole session file, all or nothing (RuleError if it is refused).
        A file that carries its game's id is stored under it, and AlreadyStored is raised
        instead when this database holds that game already; `copy` stores it anyway, as a
        new game with a new id. A file without an id is a new game. It goes in `group`, as
        a new game does."""
        session_file = read_session(data)
        uid = session_file.uid if session_file.uid is not None and not copy else new_uid()
        return self._store_file(session_file, uid, group)

    def find_game(self, uid: str) -> int | None:
        """The number of the game whose own id (a session file's "id") is `uid`, if stored."""
        with self.engine.connect() as conn:
            return conn.execute(select(SESSION_T.c.id)
                                .where(SESSION_T.c.uid == uid)).scalar_one_or_none()

    def load(self, session_id: int) -> LoadedGame | ResultOnly:
        """The game folded from its steps (reusing the last fold if nothing was added since);
        a game imported as a result only comes as a storage.plays.ResultOnly."""
        with self.engine.connect() as conn:
            return self._fold(conn, session_id)

    def head(self, session_id: int) -> int:
        """The last sequence number of a game: a cheap way to see whether it changed."""
        with self.engine.connect() as conn:
            seq: int | None = conn.execute(
                select(SESSION_T.c.head_seq)
                .where(SESSION_T.c.id == session_id)).scalar_one_or_none()
        if seq is None:
            raise StorageError(_("There is no game {game}").format(game=session_id))
        return seq

    def record(self, session_id: int, step: Any, *, expected_seq: int | None = None,
               author: str | None = None) -> LoadedGame:
        """Record one step (its session-file JSON, or undo/redo). RuleError if it breaks a rule,
        StaleGame if `expected_seq` is behind because another terminal recorded first."""
        typed: Undo | Redo | Step | None = step if isinstance(step, Undo | Redo) else None
        try:
            with self._writer.begin() as conn:
                game = self._fold(conn, session_id, lock=True)
                if expected_seq is not None and expected_seq != game.seq:
                    raise StaleGame(self._stale_message(conn, session_id, expected_seq), game)
                typed = typed or read_step(game.rules, step)
                updated = LoadedGame(game.id, game.title, game.rules, game.settings, game.seats,
                                     game.timeline.then(typed), game.seq + 1, now())
                conn.execute(ADD_STEP, {
                    "session_id": session_id, "seq": updated.seq, "kind": typed.kind,
                    "payload": typed.to_json(), "author": author,
                    "created_at": updated.updated_at})
                conn.execute(CLEAR_DRAFT, {"sid": session_id})
                self._project(conn, updated, was_finished=game.state.finished)
                tell_watchers(conn, session_id)
        except IntegrityError:
            self._folds.pop(session_id, None)
            fresh = self.load(session_id)
            assert isinstance(fresh, LoadedGame)  # it took steps: no result alone
            raise StaleGame(_("Another terminal recorded this step first; the game now shows "
                              "what they entered"), fresh) from None
        self._folds[session_id] = updated
        return updated

    def undo(self, session_id: int, *, expected_seq: int | None = None,
             author: str | None = None) -> LoadedGame:
        """Take back the last step (recorded as an undo step)."""
        return self.record(session_id, Undo(), expected_seq=expected_seq, author=author)

    def redo(self, session_id: int, *, expected_seq: int | None = None,
             author: str | None = None) -> LoadedGame:
        """Bring back the step last taken back (recorded as a redo step)."""
        return self.record(session_id, Redo(), expected_seq=expected_seq, author=author)

    def delete_game(self, session_id: int) -> None:
        """Remove a game and everything recorded for it."""
        with self._writer.begin() as conn:
            for table in (DRAFT_T, SNAPSHOT_T, TOTAL_T, STEP_T, SEAT_T):
                conn.execute(delete(table).where(table.c.session_id == session_id))
            result = conn.execute(select(RESULT_T.c.id).where(
                RESULT_T.c.session_id == session_id)).scalar_one_or_none()
            if result is not None:
                conn.execute(delete(ENTRY_T).where(ENTRY_T.c.result_id == result))
                conn.execute(delete(RESULT_T).where(RESULT_T.c.id == result))
                self._history_changed(conn)
            conn.execute(delete(SESSION_T).where(SESSION_T.c.id == session_id))
            tell_watchers(conn, session_id)  # the saved games' lists
        self._folds.pop(session_id, None)

    def rename_game(self, session_id: int, title: str) -> str:
        """Give a game a new title, checked like any title typed (RuleError in the players'
        words); returns the title as stored (trimmed and normalised)."""
        title = text(title, _("The title"), TITLE_LIMIT)
        with self._writer.begin() as conn:
            renamed = conn.execute(update(SESSION_T).where(SESSION_T.c.id == session_id)
                                   .values(title=title)).rowcount
            tell_watchers(conn, session_id)
        if not renamed:
            raise StorageError(_("There is no game {game}").format(game=session_id))
        self._folds.pop(session_id, None)  # the cached fold holds the old title
        return title

    def games(self) -> list[GameListing]:
        """Saved games, newest first."""
        game = SESSION_T.c
        with self.engine.connect() as conn:
            games = conn.execute(select(game.id, game.game, game.title, game.status,
                                        game.summary, game.updated_at)
                                 .order_by(game.updated_at.desc(), game.id.desc())).all()
            seats = conn.execute(select(SEAT_T.c.session_id, PLAYER_T.c.name)
                                 .join(PLAYER_T, PLAYER_T.c.id == SEAT_T.c.player_id)
                                 .order_by(SEAT_T.c.session_id, SEAT_T.c.position)).all()
        return listings(games, seats)

    def last_played(self) -> tuple[int, bool, datetime] | None:
        """The game played last: the one still in progress that a step (or its setup) moved
        last, else the last game of all; as (its number, whether it is still in progress,
        when it last moved). None when there is no game. Two indexed rows at most: the
        scoreboard asks it every look, to follow the table from game to game."""
        game = SESSION_T.c
        newest = select(game.id, game.status, game.updated_at).order_by(
            game.updated_at.desc(), game.id.desc()).limit(1)
        with self.engine.connect() as conn:
            row = (conn.execute(newest.where(game.status == "in_progress")).first()
                   or conn.execute(newest).first())
        return (row.id, row.status == "in_progress", row.updated_at) if row else None

    def export(self, session_id: int) -> dict[str, Any]:
        """The session file of a game: every recorded step, undo and redo included."""
        with self.engine.connect() as conn:
            game = self._fold(conn, session_id)
            if isinstance(game, ResultOnly):
                raise RuleError(_("Game {game} was imported as a result only: it has no "
                                  "steps for a session file (--format bgg or bgstats writes "
                                  "it)").format(game=session_id))
            payloads = conn.execute(select(STEP_T.c.payload)
                                    .where(STEP_T.c.session_id == session_id)
                                    .order_by(STEP_T.c.seq)).scalars().all()
            uid, created = conn.execute(select(SESSION_T.c.uid, SESSION_T.c.created_at)
                                        .where(SESSION_T.c.id == session_id)).one()
            finished = conn.execute(select(RESULT_T.c.finished_at)
                                    .where(RESULT_T.c.session_id == session_id)
                                    ).scalar_one_or_none()
        return session_json(game.rules, game.title, game.settings, game.seats, list(payloads),
                            uid=uid, created_at=created, finished_at=finished)

    def watch(self, session_id: int) -> GameWatch:
        """A GameWatch on one game: has another terminal recorded a step? (storage/watch.py)"""
        from storage.watch import GameWatch

        return GameWatch(self, session_id)

    def games_watch(self) -> GamesWatch:
        """A GamesWatch on the saved games: has another terminal set one up, moved one on,
        finished, renamed or deleted one? (storage/watch.py)"""
        from storage.watch import GamesWatch

        return GamesWatch(self)

    def authors(self, session_id: int) -> list[tuple[int, str, str | None]]:
        """(seq, kind, author) of every recorded step, oldest first."""
        with self.engine.connect() as conn:
            return [tuple(r) for r in conn.execute(
                select(STEP_T.c.seq, STEP_T.c.kind, STEP_T.c.author)
                .where(STEP_T.c.session_id == session_id).order_by(STEP_T.c.seq)).all()]

    def step_log(self, session_id: int) -> list[LoggedStep]:
        """Every recorded step, oldest first, undo and redo included: who recorded it, when,
        and what it did in the players' words (the steps folded again from the start)."""
        with self.engine.connect() as conn:
            game = self._fold(conn, session_id)
            if isinstance(game, ResultOnly):
                return []  # imported as a result: no steps
            rows = conn.execute(select(STEP_T.c.seq, STEP_T.c.kind, STEP_T.c.author,
                                       STEP_T.c.created_at, STEP_T.c.payload)
                                .where(STEP_T.c.session_id == session_id)
                                .order_by(STEP_T.c.seq)).all()
        with stored_rows():  # read and folded as the game's own fold does
            steps = [read_step(game.rules, row.payload) for row in rows]
            said = describe_history(game.rules, game.settings, game.seats, steps)
        return [LoggedStep(row.seq, row.kind, row.author, row.created_at, line)
                for row, line in zip(rows, said, strict=True)]

    # ------------------------------------------------------------ drafts

    def save_draft(self, session_id: int, payload: dict[str, Any]) -> None:
        """Keep what a form holds, so a crash or a dropped connection loses no typing."""
        row = {"payload": payload, "updated_at": now()}
        with self._writer.begin() as conn:
            if not conn.execute(update(DRAFT_T).where(DRAFT_T.c.session_id == session_id),
                                row).rowcount:
                conn.execute(insert(DRAFT_T), {"session_id": session_id, **row})

    def draft(self, session_id: int) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            payload = conn.execute(select(DRAFT_T.c.payload).where(
                DRAFT_T.c.session_id == session_id)).scalar_one_or_none()
        return dict(payload) if payload is not None else None

    # ------------------------------------------------------------ players and boards

    def player_names(self) -> list[str]:
        """Everyone who has played, for the setup screen to offer."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(PLAYER_T.c.name)
                                     .order_by(PLAYER_T.c.name)).scalars().all())

    def board_profiles(self) -> dict[str, dict[str, list[int]]]:
        """Board profiles by name: region -> printed values."""
        with self.engine.connect() as conn:
            return {name: dict(regions) for name, regions in conn.execute(
                select(BOARD_T.c.name, BOARD_T.c.regions).order_by(BOARD_T.c.name))}

    def save_board_profile(self, name: str, regions: dict[str, list[int]]) -> str:
        """Create or replace a board profile (checked like a game's settings); returns its
        name as stored (trimmed and normalised)."""
        name, regions = read_board(name, regions)  # the name trimmed, checked as typed
        row = {"regions": regions, "updated_at": now()}
        with self._writer.begin() as conn:
            if not conn.execute(update(BOARD_T).where(BOARD_T.c.name == name), row).rowcount:
                conn.execute(insert(BOARD_T), {"name": name, **row})
        return name

    # ------------------------------------------------------------ groups and seasons

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
            self._history_changed(conn)
        return SeasonRow(stored, name, starts, ends, bool(carry_over))

    def remove_season(self, group: str, name: str) -> None:
        """Forget a season (its games stay, in the group). StorageError if there is none."""
        with self._writer.begin() as conn:
            found = scope(conn, group, name)
            conn.execute(delete(SEASON_T).where(SEASON_T.c.id == found.season_id))
            self._history_changed(conn)

    def move_game(self, session_id: int, group: str) -> str:
        """Move a game to another group (created if not known yet); returns its name."""
        with self._writer.begin() as conn:
            gid, name = self._group_for(conn, group)
            if not conn.execute(update(SESSION_T).where(SESSION_T.c.id == session_id)
                                .values(group_id=gid)).rowcount:
                raise StorageError(_("There is no game {game}").format(game=session_id))
            self._history_changed(conn)
        return name

    def group_of(self, session_id: int) -> str:
        """The name of the group a game belongs to."""
        with self.engine.connect() as conn:
            name: str | None = conn.execute(
                select(GROUP_T.c.name)
                .join_from(SESSION_T, GROUP_T, GROUP_T.c.id == SESSION_T.c.group_id)
                .where(SESSION_T.c.id == session_id)).scalar_one_or_none()
        if name is None:
            raise StorageError(_("There is no game {game}").format(game=session_id))
        return name

    # ------------------------------------------------------------ plays kept elsewhere

    def import_plays(self, plays: Iterable[Play], group: str | None = None) -> Imported:
        """Store finished plays (rules/plays.py) as result-only games of `group` (as a new
        game goes), all or nothing; a play this database holds already (the same source,
        or a warledger game of the same id) is counted and left. RuleError (nothing stored)
        when a player's name would pass for another's."""
        plays = list(plays)
        if group is not None:
            group = group_name(group)
        try:
            return self._import(plays, group)
        except IntegrityError:  # another terminal stored some of them meanwhile: look again
            return self._import(plays, group)

    def _import(self, plays: list[Play], group: str | None) -> Imported:
        with self._writer.begin() as conn:
            refuse_look_alikes(conn, plays)
            already = stored_already(conn, plays)
            new = [play for i, play in enumerate(plays) if i not in already]
            if not new:
                return Imported((), len(already))
            gid, _name = self._group_for(conn, group)
            players = self._player_ids(
                conn, list(dict.fromkeys(p.name for play in new for p in play.people)))
            stored = tuple(insert_play(conn, play, gid, players) for play in new)
            self._history_changed(conn)
            tell_watchers(conn)  # the saved games' lists
        return Imported(stored, len(already))

    def plays(self, sessions: Iterable[int] | None = None, group: str | None = None,
              season: str | None = None) -> list[Play]:
        """Games as plays (rules/plays.py), for the files written back: the games numbered
        in `sessions`, in that order; else every game of a group (None: every group), in
        the order they were set up, and with a season only those it holds (finished)."""
        with self.engine.connect() as conn:
            query = select(SESSION_T.c.id)
            if sessions is not None:
                wanted = list(sessions)
                found = set(conn.execute(query.where(SESSION_T.c.id.in_(wanted))).scalars())
                for session_id in wanted:
                    if session_id not in found:
                        raise StorageError(_("There is no game {game}").format(
                            game=session_id))
            else:
                found_scope = scope(conn, group, season)
                if found_scope.group_id is not None:
                    query = query.where(SESSION_T.c.group_id == found_scope.group_id)
                if found_scope.season is not None:
                    lo, hi = found_scope.moments
                    query = query.where(SESSION_T.c.id.in_(select(RESULT_T.c.session_id).where(
                        RESULT_T.c.finished_at >= lo, RESULT_T.c.finished_at < hi)))
                wanted = list(conn.execute(query.order_by(SESSION_T.c.created_at,
                                                          SESSION_T.c.id)).scalars())
            imported = self._results_only(conn, wanted)
            return [imported[session_id].play() if session_id in imported
                    else self._play(conn, session_id) for session_id in wanted]

    def _play(self, conn: Connection, session_id: int) -> Play:
        game = self._fold(conn, session_id)
        if isinstance(game, ResultOnly):
            return game.play()
        uid, created = conn.execute(select(SESSION_T.c.uid, SESSION_T.c.created_at)
                                    .where(SESSION_T.c.id == session_id)).one()
        finished = conn.execute(select(RESULT_T.c.finished_at)
                                .where(RESULT_T.c.session_id == session_id)
                                ).scalar_one_or_none()
        return play_of_fold(game, uid, created, finished)

    @staticmethod
    def _result_only(conn: Connection, session_id: int) -> ResultOnly:
        row = conn.execute(RESULT_ONLY_ROW.where(SESSION_T.c.id == session_id)).one()
        return read_result_only(conn, row)

    @staticmethod
    def _results_only(conn: Connection, session_ids: list[int]) -> dict[int, ResultOnly]:
        """The imported games among `session_ids`, read together, by id."""
        rows: list[Any] = []  # RESULT_ONLY_ROW's rows
        for at in range(0, len(session_ids), CHUNK):
            rows += conn.execute(RESULT_ONLY_ROW.where(
                SESSION_T.c.id.in_(session_ids[at:at + CHUNK]),
                SESSION_T.c.source.is_not(None))).all()
        return read_results_only(conn, rows)

    # ------------------------------------------------------------ league and statistics

    def league(self, game: str | None = None, group: str | None = None,
               season: str | None = None) -> list[LeagueRow]:
        """League standings over finished games, by points then wins (aggregated in SQL): of
        one game, group and season if given (group None: every group; season None: all
        time; a season named without a group is looked for in every group)."""
        from storage.stats_cache import keep_league, read_league

        with self.engine.connect() as conn:
            found = scope(conn, group, season) if group or season else Scope()
            version = conn.execute(VERSION).scalar_one_or_none() or 0
            cached = read_league(conn, game, found, version)
            if cached is not None:
                return cached
            query, values = league_parameters(game, found)
            rows = [LeagueRow(name, *(int(x) for x in figures))
                    for name, *figures in conn.execute(query, values).all()]
        keep_league(self._writer, game, found, version, rows)
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
        history and these rules."""
        from storage.stats_cache import keep_stats, read_stats, worked_out

        with self.engine.connect() as conn:
            found = scope(conn, group, season)
            version = conn.execute(VERSION).scalar_one_or_none() or 0
            cached = read_stats(conn, found, version)
            if cached is not None:
                return cached
            stats = worked_out(conn, found)
        keep_stats(self._writer, found, version, stats)
        return stats

    # ------------------------------------------------------------ inside

    def _store_file(self, sf: SessionFile, uid: str, group: str | None = None) -> LoadedGame:
        # A file that says when its game was played keeps those moments: a game replayed
        # late takes its place in the group's history, not today's.
        created = sf.created_at or now()
        if group is not None:
            group = group_name(group)
        try:
            with self._writer.begin() as conn:
                stored = self._stored_as(conn, uid)
                if stored is not None:
                    raise stored
                gid, _name = self._group_for(conn, group)
                game = self._insert_file(conn, sf, uid, created, gid)
                born = conn.execute(select(SESSION_T.c.created_at)
                                    .where(SESSION_T.c.id == game.id)).scalar_one()
                tell_watchers(conn, game.id)  # the saved games' lists
        except IntegrityError:
            # Another terminal stored the same game between the look and the insert.
            with self.engine.connect() as conn:
                stored = self._stored_as(conn, uid)
            if stored is None:
                raise
            raise stored from None
        self._folds[game.id] = game
        self._born[game.id] = born
        return game

    @staticmethod
    def _stored_as(conn: Connection, uid: str) -> AlreadyStored | None:
        """AlreadyStored for the game of id `uid`, if this database holds it."""
        row = conn.execute(select(SESSION_T.c.id, SESSION_T.c.title)
                           .where(SESSION_T.c.uid == uid)).one_or_none()
        return AlreadyStored(row.id, row.title) if row is not None else None

    def _insert_file(self, conn: Connection, sf: SessionFile, uid: str,
                     created: datetime, gid: int) -> LoadedGame:
        session_id = new_id(conn.execute(insert(SESSION_T).values(
            game=sf.rules.game, title=sf.title, settings=sf.settings.to_json(),
            status="in_progress", head_seq=len(sf.steps), summary={},
            created_at=created, updated_at=sf.finished_at or created, uid=uid,
            group_id=gid)))
        players = self._player_ids(conn, [seat.name for seat in sf.seats])
        conn.execute(insert(SEAT_T), [
            {"session_id": session_id, "player_id": players[seat.name], "position": position,
             "setup": seat.to_json()} for position, seat in enumerate(sf.seats)])
        if sf.steps:
            conn.execute(insert(STEP_T), [
                {"session_id": session_id, "seq": seq, "kind": step.kind,
                 "payload": step.to_json(), "author": None, "created_at": created}
                for seq, step in enumerate(sf.steps, 1)])
        game = LoadedGame(session_id, sf.title, sf.rules, sf.settings, sf.seats,
                          sf.timeline, len(sf.steps), sf.finished_at or created)
        self._project(conn, game, was_finished=False, new=True)
        return game

    def _default_group(self, conn: Connection) -> str:
        # The newest game is the highest number (SQLite reuses only the newest's, deleted).
        name = conn.execute(select(GROUP_T.c.name)
                            .join_from(SESSION_T, GROUP_T, GROUP_T.c.id == SESSION_T.c.group_id)
                            .order_by(SESSION_T.c.id.desc()).limit(1)).scalar_one_or_none()
        return name if name is not None else DEFAULT_GROUP

    def _group_for(self, conn: Connection, name: str | None) -> tuple[int, str]:
        """(id, name) of the group named (the default group when None), created if needed."""
        name = self._default_group(conn) if name is None else group_name(name)
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

    @staticmethod
    def _history_changed(conn: Connection) -> None:
        """Bump the history's version (the statistics cached before no longer hold)."""
        if not conn.execute(BUMP).rowcount:
            conn.execute(insert(VERSION_T).values(id=1, version=1))

    def _as_known(self, players: Any) -> Any:
        """A new game's players (session-file JSON) with each name the league knows written
        as it knows it: `ana` typed for the player `Ana` sits as `Ana`, one person in the
        league, the games list and the game (rules.fields.person). A game with steps keeps
        the names its steps use (replay); its players are still matched case aside
        (_player_ids)."""
        if not isinstance(players, list):
            return players  # read_session says what is wrong with it
        with self.engine.connect() as conn:
            known = self._known_players(conn)
        return [dict(p, name=known[person(p["name"])][1])
                if isinstance(p, dict) and isinstance(p.get("name"), str)
                and person(p["name"]) in known else p for p in players]

    @staticmethod
    def _known_players(conn: Connection) -> dict[str, tuple[int, str]]:
        """Every player by who they are (rules.fields.person): their id and name; where an
        earlier version stored two spellings of one person, the first stored."""
        known: dict[str, tuple[int, str]] = {}
        for pid, name in conn.execute(select(PLAYER_T.c.id, PLAYER_T.c.name)
                                      .order_by(PLAYER_T.c.id)):
            known.setdefault(person(name), (pid, name))
        return known

    def _player_ids(self, conn: Connection, names: list[str]) -> dict[str, int]:
        """Each player's id, adding the players never seen before: a name is its player's
        case aside (rules.fields.person), so `ana` in a file is the player `Ana`."""
        known = self._known_players(conn)
        ids: dict[str, int] = {}
        for name in names:
            if person(name) in known:
                ids[name] = known[person(name)][0]
                continue
            try:  # another terminal may be adding the same name right now (PostgreSQL)
                with conn.begin_nested():
                    ids[name] = new_id(conn.execute(insert(PLAYER_T).values(name=name)))
            except IntegrityError:
                ids[name] = conn.execute(select(PLAYER_T.c.id)
                                         .where(PLAYER_T.c.name == name)).scalar_one()
            known[person(name)] = (ids[name], name)
        return ids

    @overload
    def _fold(self, conn: Connection, session_id: int, *, lock: Literal[True]) -> LoadedGame: ...
    @overload
    def _fold(self, conn: Connection, session_id: int, *, lock: bool = False
              ) -> LoadedGame | ResultOnly: ...
    def _fold(self, conn: Connection, session_id: int, *, lock: bool = False
              ) -> LoadedGame | ResultOnly:  # a game imported as a result only: never locked
        # FOR UPDATE makes PostgreSQL writers queue on the game row (SQLite: BEGIN IMMEDIATE).
        row = conn.execute(HEAD_LOCKED if lock else HEAD, {"sid": session_id}).one_or_none()
        if row is None:
            raise StorageError(_("There is no game {game}").format(game=session_id))
        head, born = row
        cached = self._folds.get(session_id)
        if cached is not None and self._born.get(session_id) != born:
            cached = None  # the id now belongs to another game
        if cached is not None and cached.seq == head:
            return cached
        title, game, settings_json, updated_at, source = conn.execute(
            select(SESSION_T.c.title, SESSION_T.c.game, SESSION_T.c.settings,
                   SESSION_T.c.updated_at, SESSION_T.c.source)
            .where(SESSION_T.c.id == session_id)).one()
        if source is not None:  # imported: a result, nothing to fold
            if lock:
                raise RuleError(_("This game was imported as a result only: it has no steps "
                                  "to add to or take back"))
            return self._result_only(conn, session_id)
        if cached is not None and cached.seq < head:
            rules, settings, seats = cached.rules, cached.settings, cached.seats
            timeline, start = cached.timeline, cached.seq  # only the new steps
        else:
            rules = rules_for(game)
            setups = conn.execute(select(SEAT_T.c.setup).where(SEAT_T.c.session_id == session_id)
                                  .order_by(SEAT_T.c.position)).scalars().all()
            with stored_rows():
                settings = rules.read_settings(settings_json)
                seats = rules.read_players(list(setups), settings)
            timeline, start = self._resume(conn, session_id, rules, settings, seats, head)
        timeline = self._fold_steps(conn, session_id, timeline, start, head)
        folded = LoadedGame(session_id, title, rules, settings, seats, timeline, head, updated_at)
        self._folds[session_id] = folded
        self._born[session_id] = born
        return folded

    def _resume(self, conn: Connection, session_id: int, rules: GameRules, settings: Any,
                seats: tuple[Any, ...], head: int) -> tuple[Timeline, int]:
        """The timeline of the game's snapshot and its sequence number; the start of the game
        (0) when there is no snapshot these rules can believe."""
        start = Timeline(rules, rules.start(settings, seats))
        snapshot = conn.execute(
            select(SNAPSHOT_T.c.seq, SNAPSHOT_T.c.depth, SNAPSHOT_T.c.can_redo,
                   SNAPSHOT_T.c.rules_version, SNAPSHOT_T.c.state)
            .where(SNAPSHOT_T.c.session_id == session_id)).one_or_none()
        if snapshot is None or snapshot.seq > head or snapshot.rules_version != rules_version():
            return start, 0
        try:
            state = load_state(snapshot.state)
        except Exception:  # noqa: BLE001 - a cache that cannot be read is refolded, not fatal
            return start, 0
        earlier = partial(self._fold_past, session_id, start, snapshot.seq)
        return Timeline.resume(rules, state, count=snapshot.seq, depth=snapshot.depth,
                               can_redo=snapshot.can_redo, earlier=earlier), snapshot.seq

    def _fold_past(self, session_id: int, start: Timeline, upto: int) -> Timeline:
        """The timeline up to step `upto`, folded from the start (a resumed timeline's past)."""
        with self.engine.connect() as conn:
            return self._fold_steps(conn, session_id, start, 0, upto)

    @staticmethod
    def _fold_steps(conn: Connection, session_id: int, timeline: Timeline, after: int,
                    upto: int) -> Timeline:
        payloads = conn.execute(select(STEP_T.c.payload).where(
            STEP_T.c.session_id == session_id, STEP_T.c.seq > after, STEP_T.c.seq <= upto)
            .order_by(STEP_T.c.seq)).scalars()
        rules = timeline.rules
        with stored_rows():  # steps an earlier version accepted are read as they were
            for payload in payloads:
                timeline = timeline.then(read_step(rules, payload))
        return timeline

    def _project(self, conn: Connection, game: LoadedGame, *, was_finished: bool,
                 new: bool = False) -> None:
        """Write what the fold says: seat totals, summary, status, the result and the
        snapshot."""
        report = game.report()
        conn.execute(SET_SESSION, {
            "sid": game.id, "status": report.status, "head_seq": game.seq,
            "summary": game.rules.summary(game.state).to_json(), "updated_at": game.updated_at})
        by_name = {standing.player: standing.to_json() for standing in report.standings}
        totals = [{"session_id": game.id, "position": position, "totals": by_name[seat.name]}
                  for position, seat in enumerate(game.seats)]
        if new:
            conn.execute(insert(TOTAL_T), totals)
        else:
            conn.execute(SET_TOTAL, [{"sid": t["session_id"], "pos": t["position"],
                                      "totals": t["totals"]} for t in totals])
        if was_finished:
            # An undo can reopen a finished game: its result goes until it ends again.
            result = select(RESULT_T.c.id).where(RESULT_T.c.session_id == game.id)
            conn.execute(delete(ENTRY_T).where(ENTRY_T.c.result_id.in_(result)))
            conn.execute(delete(RESULT_T).where(RESULT_T.c.session_id == game.id))
        if report.finished:
            self._write_result(conn, game, report)
        if was_finished or report.finished:
            self._history_changed(conn)
        snapshot = {"seq": game.seq, "depth": game.timeline.depth,
                    "can_redo": game.timeline.can_redo, "rules_version": rules_version(),
                    "state": dump_state(game.state)}
        if new or not conn.execute(SET_SNAPSHOT, {"sid": game.id, **snapshot}).rowcount:
            conn.execute(insert(SNAPSHOT_T), {"session_id": game.id, **snapshot})

    def _write_result(self, conn: Connection, game: LoadedGame, report: Report) -> None:
        result_id = new_id(conn.execute(insert(RESULT_T).values(
            session_id=game.id, game=game.game, result=report.result,
            format=report.format, players=len(game.seats), rounds=report.rounds,
            winners=list(report.winners), finished_at=game.updated_at)))
        finishes = finishes_of(report, {seat.name: n for n, seat in enumerate(game.seats)})
        players = self._player_ids(conn, [f.player for f in finishes])
        conn.execute(insert(ENTRY_T), [
            {"result_id": result_id, "player_id": players[f.player], "outcome": f.outcome,
             "points": POINTS[f.outcome], "seat": f.seat, "side": f.side, "place": f.place,
             "won": f.won, "score": f.score} for f in finishes])

    def _stale_message(self, conn: Connection, session_id: int, expected: int) -> str:
        newer = conn.execute(select(STEP_T.c.kind, STEP_T.c.author).where(
            STEP_T.c.session_id == session_id, STEP_T.c.seq > expected)
            .order_by(STEP_T.c.seq)).all()
        # A step as the history names it (tui.text.formatting.step_name: "end war"), and who.
        what = ", ".join(
            # TRANSLATORS: {step} is a kind of step (upkeep), {player} who recorded it.
            _("{step} by {player}").format(step=step, player=a) if a else step
            for step, a in ((pgettext("step", k.replace("_", " ")), a) for k, a in newer))
        return _("Another terminal recorded {steps} first; nothing of yours was written. The "
                 "screen now shows the game as it stands").format(steps=what or _("a step"))
