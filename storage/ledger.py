"""The ledger: the only door between the screens (and the command line) and the database.

Recording a step is one transaction: the step row with the next sequence number, the
totals projection, the session summary and, when the game ends, its result. The state
is always the fold of the steps; a fold is kept per game so a step costs one apply, and a
snapshot of it is stored with each step so that opening a long game folds nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import Connection, Engine, bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from i18n import _, pgettext
from rules.errors import RuleError
from rules.fields import TITLE_LIMIT, person, stored_rows, text
from rules.game import describe_history, read_board
from rules.league import POINTS
from rules.outcome import Report
from rules.played import finishes_of
from rules.session_file import SessionFile, read_session, session_json
from rules.timeline import Redo, Undo, read_step
from storage.core import (
    BOARD_T,
    DRAFT_T,
    ENTRY_T,
    PLAYER_T,
    RESULT_T,
    SEAT_T,
    SESSION_T,
    SNAPSHOT_T,
    STEP_T,
    TOTAL_T,
    insert_rows,
    new_id,
    new_ids,
    new_uid,
    now,
)
from storage.engine import StorageError, writer
from storage.folds import Folding, Folds
from storage.group_book import GroupsAndSeasons
from storage.groups import (
    DEFAULT_GROUP,
    group_name,
)
from storage.kept_plays import Imported, PlaysKept
from storage.listing import GameListing, Page, Word, listings, read_page, sqlalchemy_run
from storage.plays import (
    ResultOnly,
)
from storage.ratings_store import history_changed
from storage.records import (
    AlreadyStored,
    GroupRow,
    HistoryEntry,
    LeagueRow,
    LoadedGame,
    LoggedStep,
    SeasonRow,
    StaleGame,
)
from storage.snapshots import dump_state, rules_version
from storage.standings import Standings
from storage.watch import tell_watchers

# The ledger speaks SQLAlchemy Core (storage/core.py): a step is a handful of statements, the
# ORM's identity map and flush would cost more than all of them, and a command that only
# reads never imports SQLModel or pydantic.
# Built once: a statement built per call costs more than running it. An UPDATE sets the
# columns named in its parameters; `sid` and `pos` pick the row.
# A game_session row as storage.plays reads an imported game from it.
ADD_STEP = insert(STEP_T)
CLEAR_DRAFT = delete(DRAFT_T).where(DRAFT_T.c.session_id == bindparam("sid"))
SET_SESSION = update(SESSION_T).where(SESSION_T.c.id == bindparam("sid"))
SET_TOTAL = update(TOTAL_T).where(TOTAL_T.c.session_id == bindparam("sid"),
                                  TOTAL_T.c.position == bindparam("pos"))
SET_SNAPSHOT = update(SNAPSHOT_T).where(SNAPSHOT_T.c.session_id == bindparam("sid"))


class NewGame(NamedTuple):
    """A game inserted just now (Ledger._insert_file): its group, its seats' players' ids."""

    group: int
    players: dict[str, int]


def session_now(game: LoadedGame, report: Report) -> dict[str, Any]:
    """What a game's row says of where it stands: status, last step, summary, last move."""
    return {"status": report.status, "head_seq": game.seq,
            "summary": game.rules.summary(game.state).to_json(), "updated_at": game.updated_at}


if TYPE_CHECKING:
    from rules.ruleset import Step
    from storage.parts import PartsWatch
    from storage.watch import GamesWatch


__all__ = ["DEFAULT_GROUP", "AlreadyStored", "GameListing", "GroupRow", "HistoryEntry",
           "Imported", "LeagueRow", "Ledger", "LoadedGame", "LoggedStep", "SeasonRow",
           "StaleGame"]


class Ledger(Standings, GroupsAndSeasons, Folding, PlaysKept):
    """Games in a database: create, record, undo, redo, load, list, export, league."""

    def __init__(self, engine: Engine, *, bulk: bool = False) -> None:
        self.engine = engine
        # Storing many files at once (storage.service.open_ledger): the other terminals are
        # told once, at make_durable, not a round trip a file.
        self.bulk = bulk
        self._writer = writer(engine)
        self._folds = Folds()  # the games met last, folded (storage/folds.py)

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
        a new game does. On a ledger opened for bulk (storage.service.open_ledger), call
        `make_durable()` after the last file."""
        session_file = read_session(data)
        uid = session_file.uid if session_file.uid is not None and not copy else new_uid()
        return self._store_file(session_file, uid, group)

    def make_durable(self) -> None:
        """Wait until every commit made without waiting for the disk (a ledger opened for
        bulk) is on it: on PostgreSQL one commit that waits (a transaction with an id of its
        own writes a commit record, and waiting for it waits for every earlier one). On
        SQLite nothing: its commits (WAL, synchronous NORMAL) are as safe either way. The
        other terminals' lists are told of the games stored (on SQLite they see them)."""
        if self.engine.dialect.name == "postgresql":
            with self._writer.begin() as conn:
                conn.exec_driver_sql("SET LOCAL synchronous_commit TO ON")
                conn.exec_driver_sql("SELECT txid_current()")
                if self.bulk:
                    tell_watchers(conn)

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
            self._folds.pop(session_id)
            fresh = self.load(session_id)
            assert isinstance(fresh, LoadedGame)  # it took steps: no result alone
            raise StaleGame(_("Another terminal recorded this step first; the game now shows "
                              "what they entered"), fresh) from None
        self._folds.keep(session_id, updated)
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
            result = conn.execute(
                select(RESULT_T.c.id, RESULT_T.c.finished_at, SESSION_T.c.group_id)
                .join(SESSION_T, SESSION_T.c.id == RESULT_T.c.session_id)
                .where(RESULT_T.c.session_id == session_id)).one_or_none()
            if result is not None:
                conn.execute(delete(ENTRY_T).where(ENTRY_T.c.result_id == result.id))
                conn.execute(delete(RESULT_T).where(RESULT_T.c.id == result.id))
                history_changed(conn, [result.group_id], result.finished_at)
            conn.execute(delete(SESSION_T).where(SESSION_T.c.id == session_id))
            tell_watchers(conn, session_id)  # the saved games' lists
        self._folds.pop(session_id)

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
        self._folds.pop(session_id)  # the cached fold holds the old title
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

    def games_page(self, words: Sequence[Word] = (), after: tuple[Any, int] | None = None,
                   size: int | None = None) -> Page:
        """A page of the saved games, newest first, found by `words` (storage/listing.py)."""
        with self.engine.connect() as conn:
            return read_page(sqlalchemy_run(conn), words=words, after=after, size=size)

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

    def watch(self, session_id: int) -> PartsWatch:
        """A watch on one game: has another terminal recorded a step (storage/watch.py), or
        changed a seat's part of the step (storage/parts.py)?"""
        from storage.parts import PartsWatch

        return PartsWatch(self, session_id)

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

    # ------------------------------------------------------------ inside

    def _store_file(self, sf: SessionFile, uid: str, group: str | None = None) -> LoadedGame:
        # A file that says when its game was played keeps those moments: a game replayed
        # late takes its place in the group's history, not today's.
        created = sf.created_at or now()
        if group is not None:
            group = group_name(group)
        try:
            with self._writer.begin() as conn:
                # Looked for first: an insert refused on PostgreSQL would still use up a
                # game number (a sequence is not rolled back), and a folder replayed again
                # would leave a gap of its size in the numbers.
                stored = self._stored_as(conn, uid)
                if stored is not None:
                    raise stored
                gid, _name = self._group_for(conn, group)
                game = self._insert_file(conn, sf, uid, created, gid)
                if not self.bulk:
                    tell_watchers(conn, game.id)  # the saved games' lists
        except IntegrityError:
            # Another terminal stored the same game between the look and the insert.
            with self.engine.connect() as conn:
                stored = self._stored_as(conn, uid)
            if stored is None:
                raise
            raise stored from None
        # The row's created_at is `created` as stored: both backends keep the microsecond.
        self._folds.keep(game.id, game, created)
        return game

    @staticmethod
    def _stored_as(conn: Connection, uid: str) -> AlreadyStored | None:
        """AlreadyStored for the game of id `uid`, if this database holds it."""
        row = conn.execute(select(SESSION_T.c.id, SESSION_T.c.title)
                           .where(SESSION_T.c.uid == uid)).one_or_none()
        return AlreadyStored(row.id, row.title) if row is not None else None

    def _insert_file(self, conn: Connection, sf: SessionFile, uid: str,
                     created: datetime, gid: int) -> LoadedGame:
        game = LoadedGame(0, sf.title, sf.rules, sf.settings, sf.seats, sf.timeline,
                          len(sf.steps), sf.finished_at or created)
        report = game.report()
        # Its status and summary in its first row: no UPDATE of it after (_project's).
        session_id = new_id(conn.execute(insert(SESSION_T).values(
            game=sf.rules.game, title=sf.title, settings=sf.settings.to_json(),
            created_at=created, uid=uid, group_id=gid, **session_now(game, report))))
        game = replace(game, id=session_id)
        players = self._player_ids(conn, [seat.name for seat in sf.seats])
        insert_rows(conn, SEAT_T, [
            {"session_id": session_id, "player_id": players[seat.name], "position": position,
             "setup": seat.to_json()} for position, seat in enumerate(sf.seats)])
        if sf.steps:
            conn.execute(insert(STEP_T), [
                {"session_id": session_id, "seq": seq, "kind": step.kind,
                 "payload": step.to_json(), "author": None, "created_at": created}
                for seq, step in enumerate(sf.steps, 1)])
        self._project(conn, game, was_finished=False, new=NewGame(gid, players))
        return game

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
        """Each player's id, adding the players never seen before (in one statement): a name
        is its player's case aside (rules.fields.person), so `ana` in a file is the player
        `Ana`."""
        known = self._known_players(conn)
        first_spelling: dict[str, str] = {}  # a new person, under the first spelling given
        for name in names:
            if person(name) not in known:
                first_spelling.setdefault(person(name), name)
        new = list(first_spelling.values())
        if new:
            try:
                with conn.begin_nested():
                    added = new_ids(conn, PLAYER_T, [{"name": name} for name in new])
            except IntegrityError:  # another terminal adding one of them right now (PostgreSQL)
                added = [self._add_player(conn, name) for name in new]
            known.update((person(name), (pid, name)) for name, pid in zip(new, added, strict=True))
        return {name: known[person(name)][0] for name in names}

    @staticmethod
    def _add_player(conn: Connection, name: str) -> int:
        """The id of the player `name`, added unless another terminal just added them."""
        try:
            with conn.begin_nested():
                return new_id(conn.execute(insert(PLAYER_T).values(name=name)))
        except IntegrityError:
            return int(conn.execute(select(PLAYER_T.c.id)
                                    .where(PLAYER_T.c.name == name)).scalar_one())

    def _project(self, conn: Connection, game: LoadedGame, *, was_finished: bool,
                 new: NewGame | None = None) -> None:
        """Write what the fold says: seat totals, summary, status, the result and the
        snapshot. `new`: a game inserted just now, its row written whole (_insert_file)."""
        report = game.report()
        if new is None:
            conn.execute(SET_SESSION, {"sid": game.id, **session_now(game, report)})
        by_name = {standing.player: standing.to_json() for standing in report.standings}
        totals = [{"session_id": game.id, "position": position, "totals": by_name[seat.name]}
                  for position, seat in enumerate(game.seats)]
        if new:
            insert_rows(conn, TOTAL_T, totals)
        else:
            conn.execute(SET_TOTAL, [{"sid": t["session_id"], "pos": t["position"],
                                      "totals": t["totals"]} for t in totals])
        since = game.updated_at if report.finished else None
        if was_finished:
            # An undo can reopen a finished game: its result goes until it ends again.
            ended = conn.execute(select(RESULT_T.c.finished_at)
                                 .where(RESULT_T.c.session_id == game.id)).scalar_one_or_none()
            if ended is not None:
                since = ended if since is None else min(since, ended)
            result = select(RESULT_T.c.id).where(RESULT_T.c.session_id == game.id)
            conn.execute(delete(ENTRY_T).where(ENTRY_T.c.result_id.in_(result)))
            conn.execute(delete(RESULT_T).where(RESULT_T.c.session_id == game.id))
        if report.finished:
            self._write_result(conn, game, report, new.players if new else None)
        if was_finished or report.finished:
            group = new.group if new else conn.execute(
                select(SESSION_T.c.group_id).where(SESSION_T.c.id == game.id)).scalar_one()
            history_changed(conn, [group], since)
        snapshot = {"seq": game.seq, "depth": game.timeline.depth,
                    "can_redo": game.timeline.can_redo, "rules_version": rules_version(),
                    "state": dump_state(game.state)}
        if new or not conn.execute(SET_SNAPSHOT, {"sid": game.id, **snapshot}).rowcount:
            conn.execute(insert(SNAPSHOT_T), {"session_id": game.id, **snapshot})

    def _write_result(self, conn: Connection, game: LoadedGame, report: Report,
                      players: dict[str, int] | None = None) -> None:
        """The result of a game that ended and its entries; `players`: the seats' players'
        ids, where known."""
        result_id = new_id(conn.execute(insert(RESULT_T).values(
            session_id=game.id, game=game.game, result=report.result,
            format=report.format, players=len(game.seats), rounds=report.rounds,
            winners=list(report.winners), finished_at=game.updated_at)))
        finishes = finishes_of(report, {seat.name: n for n, seat in enumerate(game.seats)})
        if players is None:
            players = self._player_ids(conn, [f.player for f in finishes])
        insert_rows(conn, ENTRY_T, [
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
