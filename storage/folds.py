"""The games a ledger keeps folded, so that a step costs one apply: the most recently used
ones, up to a ceiling. A host serving for weeks or a command that reads every game folds as
many games as it meets; the ones it met longest ago are folded again from their snapshot if
they are met again (a few statements), not kept for ever."""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime
from typing import Any

# Games kept folded: far more than a host has tables open at once; a 2,000-step game's
# fold is a few hundred kilobytes.
FOLDS_KEPT = 64


class Folds:
    """Folded games by number, with the created_at of the row each came from: SQLite reuses
    the number of a deleted newest game, and its fold must not pass for the new one's."""

    def __init__(self, ceiling: int = FOLDS_KEPT) -> None:
        self.ceiling = ceiling
        self._kept: OrderedDict[int, tuple[Any, datetime | None]] = OrderedDict()

    def get(self, session_id: int, born: datetime) -> Any | None:
        """The fold kept of this game (the row born at `born`), if any."""
        kept = self._kept.get(session_id)
        if kept is None or kept[1] != born:
            return None
        self._kept.move_to_end(session_id)
        return kept[0]

    def keep(self, session_id: int, game: Any, born: datetime | None = None) -> None:
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
