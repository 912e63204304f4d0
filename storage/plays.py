"""Result-only games in the database: plays imported from BoardGameGeek or BG Stats
(rules/plays reads the files), stored with their seats, result and result entries but
no steps, so they count in the league and the ratings as any finished game does; and every
game, played here or imported, as a `Play` for the files written back."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select

from i18n import _
from rules.errors import RuleError
from rules.fields import LookAlikes, person, spelled
from rules.league import POINTS
from rules.outcome import FINISHED, IMPORTED, Report, Standing, Summary
from rules.played import finishes_of
from rules.plays import (
    Play,
    Player,
    Said,
    kept_in,
    kept_json,
    key_of,
    listed,
    local_day,
    report_of,
    with_kept,
)
from storage.core import ENTRY_T, PLAYER_T, RESULT_T, SEAT_T, SESSION_T, TOTAL_T, new_ids

# Built once: a statement built per play costs more than running it.
ADD_SEAT, ADD_TOTAL, ADD_ENTRY = (insert(table) for table in (SEAT_T, TOTAL_T, ENTRY_T))


@dataclass(frozen=True)
class ResultOnly:
    """A game known by its result alone (imported): who played as what, who won, the
    scores, when; no steps, so nothing to fold, undo or replay."""

    id: int
    game: str  # the rules' tag
    title: str
    uid: str
    source: str
    created_at: datetime
    updated_at: datetime  # its start and length (its result's moment may be another)
    finished_at: datetime  # when its result counts in the league (Play.ends)
    standings: tuple[Standing, ...]
    result: str
    rounds: int
    winners: tuple[str, ...]
    seated: tuple[str, ...]  # the players' names in seat order
    seq: int = 0
    result_only: bool = True
    # What its file said besides (rules.plays.kept_json), anonymous seats too.
    kept: dict[str, Any] = field(default_factory=dict)
    seats: tuple[int, ...] = ()  # the seat of each of `seated` (an anonymous seat between)
    won: frozenset[str] | None = None  # the persons who won, by name

    def report(self) -> Report:
        return Report(self.game, FINISHED, self.result, IMPORTED, self.rounds,
                      listed(self.game).unit, self.winners, self.standings, None)

    @property
    def source_name(self) -> str:
        """Where it came from, in words: 'BoardGameGeek', 'BG Stats'."""
        return kept_in(self.source)

    def play(self) -> Play:
        """The game as a play, for the files written back."""
        by_name = {s.player: s for s in self.standings}
        seats = self.seats or tuple(range(len(self.seated)))
        players = tuple(Player(name, seat, by_name[name].side, by_name[name].score,
                               name in self.won if self.won is not None
                               else name in self.winners, by_name[name].rank)
                        for seat, name in zip(seats, self.seated, strict=True))
        return with_kept(Play(self.game, self.created_at,
                              minutes_between(self.created_at, self.updated_at),
                              True, players, self.title, self.rounds, self.uid, self.source,
                              ends=self.finished_at), self.kept)


def minutes_between(start: datetime, end: datetime | None) -> int | None:
    """Whole minutes from `start` to `end`; None when unknown or none."""
    if end is None or end <= start:
        return None
    return round((end - start).total_seconds() / 60) or None


def read_result_only(conn: Connection, row: Any) -> ResultOnly:
    """The result-only game of a game_session row (id, game, title, uid, source,
    created_at, updated_at, settings)."""
    return read_results_only(conn, [row])[row.id]


# SQLite's ceiling on a statement's bound values is 32,766; a chunk stays well under it.
CHUNK = 900


def read_results_only(conn: Connection, rows: list[Any]) -> dict[int, ResultOnly]:
    """The result-only games of game_session rows (as read_result_only takes them), by
    session id: two queries per CHUNK games, not two per game (an export of 5,000 imported
    plays made 25,000 queries)."""
    games: dict[int, ResultOnly] = {}
    for at in range(0, len(rows), CHUNK):
        chunk = {row.id: row for row in rows[at:at + CHUNK]}
        results = {r.session_id: r for r in conn.execute(
            select(RESULT_T.c.id, RESULT_T.c.session_id, RESULT_T.c.result, RESULT_T.c.rounds,
                   RESULT_T.c.winners, RESULT_T.c.finished_at)
            .where(RESULT_T.c.session_id.in_(list(chunk))))}
        entries: dict[int, list[Any]] = {r.id: [] for r in results.values()}
        for entry in conn.execute(
                select(ENTRY_T.c.result_id, PLAYER_T.c.name, ENTRY_T.c.seat, ENTRY_T.c.side,
                       ENTRY_T.c.place, ENTRY_T.c.score, ENTRY_T.c.won)
                .join_from(ENTRY_T, PLAYER_T, PLAYER_T.c.id == ENTRY_T.c.player_id)
                .where(ENTRY_T.c.result_id.in_(list(entries)))):
            entries[entry.result_id].append(entry)
        for session_id, row in chunk.items():
            result = results[session_id]
            games[session_id] = result_only(row, result, entries[result.id])
    return games


def result_only(row: Any, result: Any, entries: list[Any]) -> ResultOnly:
    """A result-only game of its session row, result row and result entries."""
    listed_as = listed(row.game)
    standings = tuple(
        Standing(name, place, False, score, listed_as.details(side, score), side)
        for _result, name, _seat, side, place, score, _won in sorted(
            entries, key=lambda e: (e.place, e.seat)))
    in_seats = sorted(entries, key=lambda e: e.seat)
    seated = tuple(e.name for e in in_seats)
    return ResultOnly(row.id, row.game, row.title, row.uid, row.source, row.created_at,
                      row.updated_at, result.finished_at, standings, result.result, result.rounds,
                      tuple(result.winners), seated,
                      kept=dict((row.settings or {}).get("kept") or {}),
                      seats=tuple(e.seat for e in in_seats),
                      won=frozenset(e.name for e in entries if e.won))


def play_of_fold(game: Any, uid: str, created: datetime, finished: datetime | None) -> Play:
    """A game played here (its fold, storage.records.LoadedGame) as a play: the seats in
    table order (its start positions, the first seat starting), and once it is over the
    scores and the winners."""
    report = game.report()
    winners = set(report.winners) if report.finished else set()
    by_name = {s.player: s for s in report.standings}
    players = tuple(Player(seat.name, n, by_name[seat.name].side,
                           by_name[seat.name].score if report.finished else None,
                           seat.name in winners,
                           by_name[seat.name].rank if report.finished else None,
                           said=Said(position=str(n + 1), first=n == 0))
                    for n, seat in enumerate(game.seats))
    return Play(game.game, created, minutes_between(created, finished) if report.finished
                else None, report.finished, players, game.title, report.rounds, uid, None,
                ends=finished if report.finished else None)


def refuse_look_alikes(conn: Connection, plays: Iterable[Play]) -> None:
    """RuleError when a name of the plays would pass for another player's (stored, or
    another of the file's) without being the same name: 'Аna' beside 'Ana'."""
    known = set(conn.execute(select(PLAYER_T.c.name)).scalars())
    seen = LookAlikes(known)
    people = {person(name) for name in known}  # `ana` is the player `Ana`: not refused
    for play in plays:
        for player in play.people:
            name = player.name
            if person(name) in people:
                continue
            other = seen.alike(name)
            if other is not None:
                raise RuleError(_("{first} and {second} look alike: names must differ "
                                  "by more than look-alike or invisible characters")
                                .format(first=spelled(other), second=spelled(name)))
            seen.add(name)
            people.add(person(name))


# Plays written at a time: each table's rows of them in one statement (the games and results
# a multi-row INSERT ... RETURNING, storage.core.new_ids; the others an executemany, which
# psycopg 3 sends in one pipeline), and a file of 15,000 plays never held as rows at once.
PLAYS_AT_A_TIME = 500


def insert_plays(conn: Connection, plays: list[Play], gid: int,
                 player_ids: dict[str, int]) -> list[int]:
    """Store finished plays as result-only games of group `gid`; their numbers, in order.
    Each table's rows go in one statement per PLAYS_AT_A_TIME plays, not one per play."""
    stored: list[int] = []
    for at in range(0, len(plays), PLAYS_AT_A_TIME):
        stored += _insert_some(conn, plays[at:at + PLAYS_AT_A_TIME], gid, player_ids)
    return stored


def _insert_some(conn: Connection, plays: list[Play], gid: int,
                 player_ids: dict[str, int]) -> list[int]:
    reports = [report_of(play) for play in plays]
    session_ids = new_ids(conn, SESSION_T, [
        _session_row(play, report, gid) for play, report in zip(plays, reports, strict=True)])
    seats: list[dict[str, Any]] = []
    totals: list[dict[str, Any]] = []
    for play, report, session_id in zip(plays, reports, session_ids, strict=True):
        side = listed(play.game).side
        by_name = {s.player: s for s in report.standings}
        for p in play.people:
            seats.append({"session_id": session_id, "player_id": player_ids[p.name],
                          "position": p.seat,
                          "setup": {"name": p.name, **({side: p.side} if p.side and side else {})}})
            totals.append({"session_id": session_id, "position": p.seat,
                           "totals": by_name[p.name].to_json()})
    if seats:  # none where every seat is anonymous
        conn.execute(ADD_SEAT, seats)
        conn.execute(ADD_TOTAL, totals)
    result_ids = new_ids(conn, RESULT_T, [
        {"session_id": session_id, "game": play.game, "result": report.result,
         "format": report.format, "players": len(play.players), "rounds": play.rounds,
         "winners": _winners(play, report), "finished_at": play.finished_at}
        for play, report, session_id in zip(plays, reports, session_ids, strict=True)])
    entries = [
        {"result_id": result_id, "player_id": player_ids[f.player], "outcome": f.outcome,
         "points": POINTS[f.outcome], "seat": f.seat, "side": f.side, "place": f.place,
         "won": f.won, "score": f.score}
        for play, report, result_id in zip(plays, reports, result_ids, strict=True)
        for f in finishes_of(report, {key_of(p): p.seat for p in play.players})
        if f.player in player_ids]
    if entries:
        conn.execute(ADD_ENTRY, entries)
    return session_ids


def _winners(play: Play, report: Report) -> list[str]:
    """The names of the winners, as the file shows them (an anonymous seat too)."""
    shown_as = {key_of(p): p.name for p in play.players}
    return [shown_as[key] for key in report.winners]


def _session_row(play: Play, report: Report, gid: int) -> dict[str, Any]:
    """The game_session row of a play of group `gid`."""
    listed_as = listed(play.game)
    # Without a title of its own: where it was kept and its day ("BoardGameGeek 2025-12-05").
    title = play.title or f"{kept_in(play.source or '')} {local_day(play.started).isoformat()}"
    # An anonymous seat is ranked among the players (the persons' places count it) but is
    # no person: no player, seat or entry of the league is made of it; it is kept, with
    # what the file said besides, in the game's settings.
    winners = _winners(play, report)
    summary = Summary.from_json({"unit": listed_as.unit, "number": max(play.rounds, 1),
                                 "phase": IMPORTED, "named": False,
                                 "leader": ", ".join(winners) or None})
    # Its comments as the file wrote them, none too: its title may be made up, and is
    # never written back as its comments.
    kept = kept_json(replace(play, comments=play.comments or ""))
    # Its start and length are the session's; the league counts it at the moment it ended
    # (the result's finished_at), which a play known by its day alone keeps apart
    # (rules.plays.in_the_days_order).
    return {"game": play.game, "title": title, "settings": {"kept": kept} if kept else {},
            "status": FINISHED, "head_seq": 0, "summary": summary.to_json(),
            "created_at": play.started, "updated_at": play.ended_by_length,
            "uid": play.own_id(), "group_id": gid, "source": play.source}


def stored_already(conn: Connection, plays: list[Play]) -> set[int]:
    """The positions in `plays` of the plays this database holds already: the same own
    id (a warledger game come back, a play of the same BoardGameGeek play id) or the same
    source (a play imported before); and of a play given earlier in `plays`."""
    own = [play.own_id() for play in plays]
    uids = set(own)
    sources = {play.source for play in plays if play.source}
    found_uids: set[str] = set()
    found_sources: set[str] = set()
    # In slices: a database takes a bounded number of parameters in one statement.
    for values, column, found in ((sorted(uids), SESSION_T.c.uid, found_uids),
                                  (sorted(sources), SESSION_T.c.source, found_sources)):
        for i in range(0, len(values), 500):
            found.update(conn.execute(select(column).where(
                column.in_(values[i:i + 500]))).scalars())
    already = {i for i, play in enumerate(plays)
               if own[i] in found_uids or play.source in found_sources}
    # One play given twice (seen in a BoardGameGeek file and a BG Stats file read together):
    # the first is stored.
    seen: set[str] = set()
    for i, play in enumerate(plays):
        if own[i] in seen or (play.source and play.source in seen):
            already.add(i)
        seen.add(own[i])
        if play.source:
            seen.add(play.source)
    return already
