"""The games a ledger keeps folded, so that a step costs one apply: the most recently used
ones, up to a ceiling. A host serving for weeks or a command that reads every game folds as
many games as it meets; the ones it met longest ago are folded again from their snapshot if
they are met again (a few statements), not kept for ever."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, overload

from sqlalchemy import Connection, Engine, bindparam, select

from i18n import _
from rules.errors import RuleError
from rules.fields import stored_rows
from rules.game import rules_for
from rules.timeline import Timeline, read_step
from storage.core import SEAT_T, SESSION_T, SNAPSHOT_T, STEP_T
from storage.engine import StorageError
from storage.plays import ResultOnly, read_result_only
from storage.records import LoadedGame
from storage.snapshots import load_state, rules_version

if TYPE_CHECKING:
    from rules.ruleset import GameRules

# Games kept folded: far more than a host has tables open at once; a 2,000-step game's
# fold is a few hundred kilobytes.
FOLDS_KEPT = 64


class Folds:
    """Folded games by number, with the created_at of the row each came from: SQLite reuses
    the number of a deleted newest game, and its fold must not pass for the new one's."""

    def __init__(self, ceiling: int = FOLDS_KEPT) -> None:
        self.ceiling = ceiling
        self._kept: OrderedDict[int, tuple[LoadedGame, datetime | None]] = OrderedDict()

    def get(self, session_id: int, born: datetime) -> LoadedGame | None:
        """The fold kept of this game (the row born at `born`), if any."""
        kept = self._kept.get(session_id)
        if kept is None or kept[1] != born:
            return None
        self._kept.move_to_end(session_id)
        return kept[0]

    def keep(self, session_id: int, game: LoadedGame, born: datetime | None = None) -> None:
        """Keep a game's fold (`born` None: the row the fold kept before came from)."""
        if born is None:
            kept = self._kept.get(session_id)
            if kept is None:
                return  # unknown row: nothing to believe it by
            born = kept[1]
        self._kept[session_id] = (game, born)
        self._kept.move_to_end(session_id)
        while len(self._kept) > self.ceiling:
            self._kept.popitem(last=False)

    def pop(self, session_id: int) -> None:
        self._kept.pop(session_id, None)

    def clear(self) -> None:
        self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)


# The game's row as a fold first reads it: its last step and when the row was made.
HEAD = (select(SESSION_T.c.head_seq, SESSION_T.c.created_at)
        .where(SESSION_T.c.id == bindparam("sid")))
HEAD_LOCKED = HEAD.with_for_update()
# What a fold reads of a game besides its seats and steps: its row and its snapshot (the
# snapshot's columns None where it has none). Folding.folded_from takes it read in bulk.
SNAPSHOT = (SNAPSHOT_T.c.seq.label("snapshot_seq"), SNAPSHOT_T.c.depth, SNAPSHOT_T.c.can_redo,
            SNAPSHOT_T.c.rules_version, SNAPSHOT_T.c.state)
FOLD_ROW = select(SESSION_T.c.id, SESSION_T.c.head_seq, SESSION_T.c.title, SESSION_T.c.game,
                  SESSION_T.c.settings, SESSION_T.c.updated_at, *SNAPSHOT).outerjoin_from(
    SESSION_T, SNAPSHOT_T, SNAPSHOT_T.c.session_id == SESSION_T.c.id)
RESULT_ONLY_ROW = select(SESSION_T.c.id, SESSION_T.c.game, SESSION_T.c.title, SESSION_T.c.uid,
                         SESSION_T.c.source, SESSION_T.c.created_at, SESSION_T.c.updated_at,
                         SESSION_T.c.settings)


class Folding:
    """A Ledger's folds: a game's steps folded from its snapshot (or its start), the
    games met last kept (Folds)."""

    engine: Engine
    _folds: Folds

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
        cached = self._folds.get(session_id, born)  # None: another game has the id now
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
            timeline = self._fold_steps(conn, session_id, cached.timeline, cached.seq, head)
            folded = LoadedGame(session_id, title, cached.rules, cached.settings, cached.seats,
                                timeline, head, updated_at)  # only the new steps folded
        else:
            setups = conn.execute(select(SEAT_T.c.setup).where(SEAT_T.c.session_id == session_id)
                                  .order_by(SEAT_T.c.position)).scalars().all()
            snapshot = conn.execute(select(*SNAPSHOT).where(
                SNAPSHOT_T.c.session_id == session_id)).one_or_none()
            folded = self._folded_from(conn, session_id, title, game, settings_json, setups,
                                       snapshot, head, updated_at)
        self._folds.keep(session_id, folded, born)
        return folded

    def folded_from(self, conn: Connection, row: Any, setups: Sequence[Any]) -> LoadedGame:
        """A game folded from what was read of it in bulk: its FOLD_ROW and its seats'
        setups in order. Only steps after its snapshot are read (none where the snapshot
        is of its last step); the fold is not kept."""
        return self._folded_from(conn, row.id, row.title, row.game, row.settings, setups,
                                 row if row.snapshot_seq is not None else None, row.head_seq,
                                 row.updated_at)

    def _folded_from(self, conn: Connection, session_id: int, title: str, game: str,
                     settings_json: Any, setups: Sequence[Any], snapshot: Any, head: int,
                     updated_at: datetime) -> LoadedGame:
        rules = rules_for(game)
        with stored_rows():
            settings = rules.read_settings(settings_json)
            seats = rules.read_players(list(setups), settings)
        timeline, start = self._resume(session_id, rules, settings, seats, head, snapshot)
        timeline = self._fold_steps(conn, session_id, timeline, start, head)
        return LoadedGame(session_id, title, rules, settings, seats, timeline, head, updated_at)

    def _resume(self, session_id: int, rules: GameRules, settings: Any,
                seats: tuple[Any, ...], head: int, snapshot: Any) -> tuple[Timeline, int]:
        """The timeline of the game's snapshot (SNAPSHOT's columns, or None) and its sequence
        number; the start of the game (0) when there is no snapshot these rules can believe."""
        start = Timeline(rules, rules.start(settings, seats))
        if snapshot is None or snapshot.snapshot_seq > head or \
                snapshot.rules_version != rules_version():
            return start, 0
        try:
            state = load_state(snapshot.state)
        except Exception:  # noqa: BLE001 - a cache that cannot be read is refolded, not fatal
            return start, 0
        earlier = partial(self._fold_past, session_id, start, snapshot.snapshot_seq)
        return Timeline.resume(rules, state, count=snapshot.snapshot_seq, depth=snapshot.depth,
                               can_redo=snapshot.can_redo, earlier=earlier), snapshot.snapshot_seq

    def _fold_past(self, session_id: int, start: Timeline, upto: int) -> Timeline:
        """The timeline up to step `upto`, folded from the start (a resumed timeline's past)."""
        with self.engine.connect() as conn:
            return self._fold_steps(conn, session_id, start, 0, upto)

    @staticmethod
    def _fold_steps(conn: Connection, session_id: int, timeline: Timeline, after: int,
                    upto: int) -> Timeline:
        if upto <= after:  # no step to read (a snapshot of the last step)
            return timeline
        payloads = conn.execute(select(STEP_T.c.payload).where(
            STEP_T.c.session_id == session_id, STEP_T.c.seq > after, STEP_T.c.seq <= upto)
            .order_by(STEP_T.c.seq)).scalars()
        rules = timeline.rules
        with stored_rows():  # steps an earlier version accepted are read as they were
            for payload in payloads:
                timeline = timeline.then(read_step(rules, payload))
        return timeline

    @staticmethod
    def _result_only(conn: Connection, session_id: int) -> ResultOnly:
        row = conn.execute(RESULT_ONLY_ROW.where(SESSION_T.c.id == session_id)).one()
        return read_result_only(conn, row)
