"""Games written back as BoardGameGeek plays XML or BG Stats JSON, read in bulk.

A finished game's result is stored whole: its session row, its result and each player's
result entry (seat, side, place, score, win) say everything a file of plays writes, so a
finished game is never folded from its steps here. Four statements read every game of an
export, whatever their number, each in the order the file writes them (set up first,
first), and the games are taken from the four together one at a time: memory holds one day
of games. Only a game still in progress is folded, for its standings: from its row, its
snapshot and its seats, read for every such game in two statements more beside the four
(Folding.folded_from), so only steps after its snapshot cost a statement of its own.

The files are written by rules/plays' writers as text, a play at a time: BoardGameGeek's a
day of plays at a time (a day is what their order and dates go by), BG Stats' a play at a
time with its players, games and locations written at its head once every play is in; the
same bytes as bgg_xml and bgstats_json give for all the plays at once
(tests/test_exports.py). What is written goes to a spooled file first: a refusal half-way
(a name XML cannot hold) writes nothing.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterable, Iterator
from datetime import date
from itertools import groupby
from typing import IO, TYPE_CHECKING, Any

from sqlalchemy import Connection, case, exists, select

from i18n import _
from rules.plays import BGStatsRefs, Play, Player, Said, bgg_texts, bgstats_texts, local_day
from storage.core import ENTRY_T, PLAYER_T, RESULT_T, SEAT_T, SESSION_T
from storage.engine import StorageError
from storage.folds import FOLD_ROW
from storage.groups import Scope
from storage.plays import CHUNK, ResultOnly, minutes_between, play_of_fold, result_only

if TYPE_CHECKING:
    from storage.league import Rows
    from storage.records import LoadedGame

SPOOL = 8 * 1024 * 1024  # bytes of a file held in memory before it is spooled to disk
# A game played here writes each player's start position (their seat): one object each.
SEATED = tuple(Said(position=str(n + 1), first=n == 0) for n in range(32))

_GAME = SESSION_T.c
_IMPORTED = _GAME.source.is_not(None)
# What only an imported game's play reads (what its file said besides, its length) is read
# for those alone: a JSON value or a moment read costs more than the rest of its row.
GAMES = select(_GAME.id, _GAME.game, _GAME.title, _GAME.uid, _GAME.source, _GAME.created_at,
               case((_IMPORTED, _GAME.updated_at)).label("updated_at"),
               case((_IMPORTED, _GAME.settings)).label("settings"))
# A seat's name as its game was set up with it (a replayed file's `ana` is the league's
# `Ana`, but the file written back says `ana`, as the game's own fold does).
SEATS = select(SEAT_T.c.session_id, SEAT_T.c.setup["name"].as_string()).join_from(
    SEAT_T, SESSION_T, SESSION_T.c.id == SEAT_T.c.session_id)
RESULTS = select(RESULT_T.c.session_id, RESULT_T.c.id, RESULT_T.c.result, RESULT_T.c.rounds,
                 case((_IMPORTED, RESULT_T.c.winners)).label("winners"),
                 RESULT_T.c.finished_at).join_from(
    RESULT_T, SESSION_T, SESSION_T.c.id == RESULT_T.c.session_id)
ENTRIES = (select(ENTRY_T.c.result_id, PLAYER_T.c.name, ENTRY_T.c.seat, ENTRY_T.c.side,
                  ENTRY_T.c.place, ENTRY_T.c.score, ENTRY_T.c.won)
           .join_from(ENTRY_T, PLAYER_T, PLAYER_T.c.id == ENTRY_T.c.player_id)
           .join(RESULT_T, RESULT_T.c.id == ENTRY_T.c.result_id)
           .join(SESSION_T, SESSION_T.c.id == RESULT_T.c.session_id))
IN_ORDER = (_GAME.created_at, _GAME.id)
# A game played here and still in progress: what its fold reads besides its steps (its row
# and snapshot, its seats' setups) is read for all of them alongside the rest, not in four
# statements a game.
_IN_PROGRESS = _GAME.source.is_(None) & ~exists().where(RESULT_T.c.session_id == _GAME.id)
FOLDING = FOLD_ROW.where(_IN_PROGRESS)
SETUPS = select(SEAT_T.c.session_id, SEAT_T.c.setup).join_from(
    SEAT_T, SESSION_T, SESSION_T.c.id == SEAT_T.c.session_id).where(_IN_PROGRESS)

# the ledger's fold of one game (storage.folds.Folding._fold), and of one read in bulk
# (Folding.folded_from)
Fold = Callable[[Connection, int], "LoadedGame | ResultOnly"]
FoldedFrom = Callable[[Connection, Any, list[Any]], "LoadedGame"]


def _kept_to(query: Rows, scope: Scope | None, ids: list[int] | None) -> Rows:
    """`query` (over game_session) kept to the games numbered in `ids`, or to those of the
    scope: its group's, and with a season those finished in it."""
    if ids is not None:
        return query.where(_GAME.id.in_(ids))
    if scope is not None and scope.group_id is not None:
        query = query.where(_GAME.group_id == scope.group_id)
    if scope is not None and scope.season is not None:
        lo, hi = scope.moments
        query = query.where(_GAME.id.in_(select(RESULT_T.c.session_id).where(
            RESULT_T.c.finished_at >= lo, RESULT_T.c.finished_at < hi)))
    return query


def plays_of(conn: Connection, fold: Fold, folded_from: FoldedFrom, *,
             scope: Scope | None = None, ids: list[int] | None = None) -> Iterator[Play]:
    """The games as plays (storage.plays), in the order they were set up (then by number):
    every game of the scope, or those numbered in `ids` (given in the order wanted: taken a
    chunk at a time, in that order)."""
    if ids is None:
        yield from _plays(conn, (fold, folded_from), scope, None)
        return
    for at in range(0, len(ids), CHUNK):
        chunk = ids[at:at + CHUNK]
        got = {play_id: play for play_id, play in _plays(conn, (fold, folded_from), None, chunk,
                                                          with_ids=True)}
        for session_id in chunk:
            if session_id not in got:
                raise StorageError(_("There is no game {game}").format(game=session_id))
            yield got[session_id]


def _plays(conn: Connection, folds: tuple[Fold, FoldedFrom], scope: Scope | None,
           ids: list[int] | None, *, with_ids: bool = False) -> Iterator[Any]:
    streaming = conn.execution_options(stream_results=True, max_row_buffer=2000)
    games, seats, results, entries, folding, setups = (
        streaming.execute(_kept_to(query, scope, ids).order_by(*IN_ORDER, *more))
        for query, more in ((GAMES, ()), (SEATS, (SEAT_T.c.position,)), (RESULTS, ()),
                            (ENTRIES, (ENTRY_T.c.seat,)), (FOLDING, ()),
                            (SETUPS, (SEAT_T.c.position,))))
    seat_rows, result_rows, entry_rows = _ahead(seats), _ahead(results), _ahead(entries)
    fold_rows, setup_rows = _ahead(folding), _ahead(setups)
    try:
        for game in games:
            names = [name for _sid, name in seat_rows.taken(0, game.id)]
            found = result_rows.taken(0, game.id)
            result = found[0] if found else None
            played = entry_rows.taken(0, result.id) if result is not None else []
            read = fold_rows.taken(0, game.id)  # taken at every game, to keep in step
            set_up = [setup for _sid, setup in setup_rows.taken(0, game.id)]
            if game.source is not None and result is not None:
                play = result_only(game, result, played).play()
            elif result is not None and played:
                play = _finished_here(game, names, result, played)
            else:  # still in progress: its standings are its fold's
                play = _of_fold(conn, folds, game, result, read[0] if read else None, set_up)
            yield (game.id, play) if with_ids else play
    finally:
        for result_set in (games, seats, results, entries, folding, setups):
            result_set.close()


class _ahead:
    """Rows of a statement in the games' order, taken a game at a time by a column's
    value: each statement is read once, alongside the others, a batch of rows at a time."""

    def __init__(self, result: Any, batch: int = 2000) -> None:
        self._result = result
        self._batch = batch
        self._rows: list[Any] = []
        self._at = 0

    def taken(self, column: int, value: Any) -> list[Any]:
        out: list[Any] = []  # the statement's rows
        while True:
            if self._at == len(self._rows):
                self._rows, self._at = self._result.fetchmany(self._batch), 0
                if not self._rows:
                    return out
            row = self._rows[self._at]
            if row[column] != value:
                return out
            out.append(row)
            self._at += 1


def _finished_here(game: Any, names: list[str], result: Any, entries: list[Any]) -> Play:
    """A finished game played here as a play, from its stored result: what
    storage.plays.play_of_fold gives of its fold."""
    by_seat = {entry[2]: entry for entry in entries}
    players = []
    for seat, name in enumerate(names):
        _result, _name, _seat, side, place, score, won = by_seat[seat]
        players.append(Player(name, seat, side, score, bool(won), place,
                              said=SEATED[seat] if seat < len(SEATED)
                              else Said(position=str(seat + 1))))
    finished = result.finished_at
    return Play(game.game, game.created_at, minutes_between(game.created_at, finished), True,
                tuple(players), game.title, result.rounds, game.uid, None, ends=finished)


def _of_fold(conn: Connection, folds: tuple[Fold, FoldedFrom], game: Any, result: Any,
             read: Any, setups: list[Any]) -> Play:
    """A game as its fold gives it: folded from what was read of it in bulk (`read`, its
    FOLD_ROW, and its seats' `setups`), else (a game the reads took for another) by the
    ledger's fold."""
    fold, folded_from = folds
    folded = folded_from(conn, read, setups) if read is not None else fold(conn, game.id)
    if isinstance(folded, ResultOnly):  # a result-only game whose result the reads missed
        return folded.play()
    finished = result.finished_at if result is not None else None
    if finished is None and folded.report().finished:  # it ended since the reads
        finished = conn.execute(select(RESULT_T.c.finished_at).where(
            RESULT_T.c.session_id == game.id)).scalar_one_or_none()
    return play_of_fold(folded, game.uid, game.created_at, finished)


# ---------------------------------------------------------------- the files

def _days(plays: Iterable[Play]) -> Iterator[list[Play]]:
    """The plays in runs of one day (the day a file of plays gives each): the writers
    order a day's plays among themselves, never across days."""
    day: Callable[[Play], date] = lambda play: local_day(play.started)  # noqa: E731
    for _day, run in groupby(plays, key=day):
        yield list(run)


class Written:
    """A file of plays written: its opening, its plays (spooled), its closing."""

    def __init__(self) -> None:
        self.head = ""
        # closed by close(), when the file has been written out
        self.body: IO[str] = tempfile.SpooledTemporaryFile(  # noqa: SIM115
            SPOOL, mode="w+", encoding="utf-8")
        self.tail = ""

    @classmethod
    def of(cls, text: str) -> Written:
        """A file written whole already."""
        written = cls()
        written.head = text
        return written

    def write_to(self, out: IO[str]) -> None:
        out.write(self.head)
        self.body.seek(0)
        while chunk := self.body.read(1 << 16):
            out.write(chunk)
        out.write(self.tail)

    def close(self) -> None:
        self.body.close()

    def __enter__(self) -> Written:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n'


def bgg_file(plays: Iterable[Play]) -> Written:
    """The BoardGameGeek plays XML of `plays`: rules.plays.bgg_texts's plays a day at a
    time, between the opening and closing bgg_xml writes."""
    written = Written()
    count = 0
    try:
        for day in _days(plays):
            parts: list[str] = []
            for text in bgg_texts(day):
                parts.append("\n  ")
                parts.append(text)
            count += len(parts) // 2
            written.body.write("".join(parts))
    except BaseException:
        written.close()
        raise
    if count:
        written.head = f'{XML_HEAD}<plays total="{count}" page="1">'
        written.tail = "\n</plays>\n"
    else:
        written.head = f'{XML_HEAD}<plays total="0" page="1" />\n'
    return written


PLAYS_HERE = "\x00plays\x00"


def bgstats_file(plays: Iterable[Play]) -> Written:
    """The BG Stats JSON of `plays` (rules.plays.bgstats_json, as `export` prints it): each
    play written as its text (rules.plays.bgstats_texts), its players, games and locations
    numbered as met, and written at its head once the plays are in."""
    written = Written()
    refs = BGStatsRefs()
    first = True
    try:
        parts: list[str] = []
        for text in bgstats_texts(plays, refs):
            parts.append("    " if first else ",\n    ")
            parts.append(text)
            first = False
            if len(parts) >= 512:  # a few hundred plays a write
                written.body.write("".join(parts))
                parts.clear()
        written.body.write("".join(parts))
    except BaseException:
        written.close()
        raise
    out = refs.tables()
    out["plays"] = [PLAYS_HERE] if not first else []
    text = json.dumps(out, indent=2, ensure_ascii=False) + "\n"
    if first:
        written.head = text
    else:
        mark = "    " + json.dumps(PLAYS_HERE)
        written.head, written.tail = text.split(mark)
    return written
