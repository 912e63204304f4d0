"""Plays kept elsewhere, in and out (the Ledger's part for them: storage/ledger.py): plays
of BoardGameGeek and BG Stats files stored as result-only games (storage/plays.py), and
games written back as plays, read in bulk (storage/exports.py)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

from rules.plays import Play
from storage.groups import group_name, scope
from storage.plays import insert_plays, refuse_look_alikes, stored_already
from storage.ratings_store import history_changed
from storage.watch import tell_watchers

if TYPE_CHECKING:
    from storage.exports import Fold, FoldedFrom, Written


class Imported(NamedTuple):
    """What an import stored: the numbers of the new games, and how many plays were in
    the database already."""

    stored: tuple[int, ...]
    already: int


class PlaysKept:
    """A Ledger's plays in and out (its `engine`, `_writer`, its fold, its groups and
    players)."""

    engine: Engine
    _writer: Engine
    _fold: Fold  # storage.folds.Folding's, before this class in the Ledger's
    folded_from: FoldedFrom
    _group_for: Any
    _player_ids: Any

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
            stored = tuple(insert_plays(conn, new, gid, players))
            history_changed(conn, [gid], min(play.finished_at for play in new))
            tell_watchers(conn)  # the saved games' lists
        return Imported(stored, len(already))

    def plays(self, sessions: Iterable[int] | None = None, group: str | None = None,
              season: str | None = None) -> list[Play]:
        """Games as plays (rules/plays.py), for the files written back: the games numbered
        in `sessions`, in that order; else every game of a group (None: every group), in
        the order they were set up, and with a season only those it holds (finished)."""
        with self.engine.connect() as conn:
            return list(self._plays_of(conn, sessions, group, season))

    def write_plays(self, format: str, sessions: Iterable[int] | None = None,
                    group: str | None = None, season: str | None = None) -> Written:
        """The games `plays` gives, written as a BoardGameGeek plays XML ("bgg") or BG Stats
        JSON ("bgstats") file, read in bulk and spooled (storage/exports.py): close it once
        written out. RuleError (nothing written) for a play the format cannot hold."""
        from storage.exports import bgg_file, bgstats_file

        writer = bgg_file if format == "bgg" else bgstats_file
        with self.engine.connect() as conn:
            return writer(self._plays_of(conn, sessions, group, season))

    def _plays_of(self, conn: Connection, sessions: Iterable[int] | None, group: str | None,
                  season: str | None) -> Iterator[Play]:
        from storage.exports import plays_of

        if sessions is not None:
            return plays_of(conn, self._fold, self.folded_from, ids=list(sessions))
        return plays_of(conn, self._fold, self.folded_from, scope=scope(conn, group, season))
