"""Seats' parts of a step: each seated player's own numbers of the step the game is at (their
units at upkeep), typed on their own terminal at the same time as the others'.

A part is a draft keyed by game and player, and belongs to the step at the game's head
sequence `seq` (a part of an earlier step is never believed: any step recorded, undone or
brought back moves the head). Writing a part locks the game's row, as recording a step does,
so two players marking their parts ready at once queue, and the second sees the first's: the
one who completes the step knows it. The step made of the parts is then recorded through
Ledger.record with the head expected, so it is recorded once whoever tries.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import Connection, bindparam, insert, select, update

from i18n import _
from storage.core import PART_T, SESSION_T, now
from storage.engine import StorageError, writer
from storage.watch import GamesWatch, GameWatch, tell_watchers

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from storage.plays import ResultOnly
    from storage.records import LoadedGame


class Ledger(Protocol):
    """What parts ask of the ledger (storage.ledger.Ledger): named here, so that the ledger
    imports this module and not the other way round."""

    engine: Engine

    def head(self, session_id: int) -> int: ...

    def load(self, session_id: int) -> LoadedGame | ResultOnly: ...

HEAD_LOCKED = (select(SESSION_T.c.head_seq).where(SESSION_T.c.id == bindparam("sid"))
               .with_for_update())
PARTS = select(PART_T.c.player, PART_T.c.payload, PART_T.c.ready).where(
    PART_T.c.session_id == bindparam("sid"), PART_T.c.seq == bindparam("seq"),
    PART_T.c.phase == bindparam("phase"))


@dataclass(frozen=True)
class Part:
    """One player's part: the cells of their row (column -> value) and whether they marked
    it ready."""

    player: str
    values: dict[str, Any]
    ready: bool


def save_part(ledger: Ledger, session_id: int, seq: int, phase: str, player: str,
              values: dict[str, Any], ready: bool) -> dict[str, Part] | None:
    """Keep `player`'s part of the step at `seq` (`phase`), and return every part of that
    step as it stands after it (by player); None when the game is no longer at `seq` (a step
    was recorded meanwhile: nothing is written). One transaction, the game's row locked."""
    row = {"seq": seq, "phase": phase, "payload": dict(values), "ready": ready,
           "updated_at": now()}
    with writer(ledger.engine).begin() as conn:
        head = conn.execute(HEAD_LOCKED, {"sid": session_id}).scalar_one_or_none()
        if head is None:
            raise StorageError(_("There is no game {game}").format(game=session_id))
        if head != seq:
            return None
        mine = (PART_T.c.session_id == session_id) & (PART_T.c.player == player)
        if not conn.execute(update(PART_T).where(mine), row).rowcount:
            conn.execute(insert(PART_T), {"session_id": session_id, "player": player, **row})
        tell_watchers(conn, session_id)
        return _parts(conn, session_id, seq, phase)


def parts_of(ledger: Ledger, session_id: int, seq: int, phase: str) -> dict[str, Part]:
    """Every part of the step at `seq` (`phase`), by player."""
    with ledger.engine.connect() as conn:
        return _parts(conn, session_id, seq, phase)


def _parts(conn: Connection, session_id: int, seq: int, phase: str) -> dict[str, Part]:
    rows = conn.execute(PARTS, {"sid": session_id, "seq": seq, "phase": phase})
    return {r.player: Part(r.player, dict(r.payload), bool(r.ready)) for r in rows}


def all_ready(parts: dict[str, Part], players: list[str]) -> bool:
    """Whether every one of `players` has a part marked ready."""
    return all(name in parts and parts[name].ready for name in players)


class PartsWatch(GameWatch, GamesWatch):
    """Watches one game for steps recorded and parts changed by other terminals, at once
    (the same data_version or notification tells both): `look`; `newer_than` as a
    GameWatch, for steps alone. One of the two per watch; `close` when done."""

    def look(self, seq: int, phase: str | None, shown: dict[str, Part] | None,
             wait: float = 0.0) -> tuple[Any | None, dict[str, Part] | None]:
        """(the game, if its head moved past `seq`; else the parts of the step at `seq`
        (`phase`; None: no parts asked), if they differ from `shown`), None for what did not
        change; waits up to `wait` seconds
        for a change. In a worker thread, never on the event loop."""
        deadline = time.monotonic() + wait
        while not self._closed:
            if self._moved():
                if self.ledger.head(self.session_id) != seq:
                    return self.ledger.load(self.session_id), None
                parts = (parts_of(self.ledger, self.session_id, seq, phase)
                         if phase is not None else None)
                if phase is not None and parts != shown:
                    return None, parts
            left = deadline - time.monotonic()
            if left <= 0:
                return None, None
            self._pause(left)
        return None, None
