"""The ledger: the only door between the screens (and the command line) and the database.

Recording a step is one transaction: the step row with the next sequence number, the
totals projection, the session summary and, when the game ends, its result. The state
is always the fold of the steps; a fold is kept per game so a step costs one apply.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, case, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from rules.game import GameRules, rules_for
from rules.league import POINTS, outcomes
from rules.session_file import SessionFile, read_session, session_json
from rules.timeline import Redo, Timeline, Undo, read_step
from storage.engine import StorageError, writer
from storage.tables import (
    BoardProfile,
    Draft,
    GameResult,
    GameSession,
    Player,
    ResultEntry,
    Seat,
    SeatTotal,
    Step,
    now,
)


class StaleGame(StorageError):
    """Another terminal recorded a step first; `game` is the game as it now stands."""

    def __init__(self, message: str, game: LoadedGame) -> None:
        super().__init__(message)
        self.game = game


@dataclass(frozen=True)
class LoadedGame:
    """A game as the fold of its steps gives it."""

    id: int
    title: str
    rules: GameRules
    settings: Any
    seats: tuple
    timeline: Timeline
    seq: int  # the last recorded sequence number (every step, undo and redo included)
    updated_at: datetime

    @property
    def game(self) -> str:
        return self.rules.game

    @property
    def state(self) -> Any:
        return self.timeline.state

    def report(self) -> dict[str, Any]:
        return self.rules.report(self.state)


@dataclass(frozen=True)
class GameListing:
    """One line of the saved-games list."""

    id: int
    game: str
    title: str
    status: str
    players: list[str]
    phase: str
    war: int | None
    round: int | None
    leader: str | None
    updated_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "title": self.title, "status": self.status,
                "players": self.players, "phase": self.phase,
                "updated_at": self.updated_at.isoformat(timespec="seconds")}


@dataclass(frozen=True)
class LeagueRow:
    player: str
    played: int
    wins: int
    draws: int
    losses: int
    points: int

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class HistoryEntry:
    """A finished game as one player lived it."""

    session_id: int
    game: str
    title: str
    outcome: str
    points: int
    format: str
    finished_at: datetime


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

    def create_game(self, game: str, title: str, settings: Any, players: Any) -> LoadedGame:
        """A new game from session-file JSON for its settings and players."""
        session_file = read_session({"format": "warledger/1", "game": game, "title": title,
                                     "settings": settings, "players": players, "steps": []})
        return self._store_file(session_file)

    def replay(self, data: Any) -> LoadedGame:
        """Check and store a whole session file, all or nothing (RuleError if it is refused)."""
        return self._store_file(read_session(data))

    def load(self, session_id: int) -> LoadedGame:
        """The game folded from its steps (reusing the last fold if nothing was added since)."""
        with self._read() as db:
            return self._fold(db, session_id)

    def head(self, session_id: int) -> int:
        """The last sequence number of a game: a cheap way to see whether it changed."""
        with self._read() as db:
            seq = db.exec(select(GameSession.head_seq)
                          .where(GameSession.id == session_id)).scalar_one_or_none()
        if seq is None:
            raise StorageError(f"There is no game {session_id}")
        return seq

    def record(self, session_id: int, step: Any, *, expected_seq: int | None = None,
               author: str | None = None) -> LoadedGame:
        """Record one step (its session-file JSON, or undo/redo). RuleError if it breaks a rule,
        StaleGame if `expected_seq` is behind because another terminal recorded first."""
        typed = step if isinstance(step, Undo | Redo) else None
        with self._write() as db:
            game = self._fold(db, session_id, lock=True)
            if expected_seq is not None and expected_seq != game.seq:
                raise StaleGame(self._stale_message(db, session_id, expected_seq), game)
            typed = typed or read_step(game.rules, step)
            timeline = game.timeline.then(typed)
            seq = game.seq + 1
            db.add(Step(session_id=session_id, seq=seq, kind=typed.kind,
                        payload=typed.to_json(), author=author))
            db.exec(delete(Draft).where(Draft.session_id == session_id))
            updated = LoadedGame(game.id, game.title, game.rules, game.settings, game.seats,
                                 timeline, seq, now())
            self._project(db, updated)
            try:
                db.commit()
            except IntegrityError:
                db.rollback()
                self._folds.pop(session_id, None)
                fresh = self.load(session_id)
                raise StaleGame("Another terminal recorded this step first; "
                                "the game now shows what they entered", fresh) from None
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
        with self._write() as db:
            for table in (Draft, SeatTotal, Step, Seat):
                db.exec(delete(table).where(table.session_id == session_id))
            result = db.exec(select(GameResult.id)
                             .where(GameResult.session_id == session_id)).scalar_one_or_none()
            if result is not None:
                db.exec(delete(ResultEntry).where(ResultEntry.result_id == result))
                db.exec(delete(GameResult).where(GameResult.id == result))
            db.exec(delete(GameSession).where(GameSession.id == session_id))
            db.commit()
        self._folds.pop(session_id, None)

    def games(self) -> list[GameListing]:
        """Saved games, newest first."""
        with self._read() as db:
            sessions = db.exec(select(GameSession).order_by(
                GameSession.updated_at.desc(), GameSession.id.desc())).scalars().all()
            names: dict[int, list[str]] = {}
            rows = db.exec(select(Seat.session_id, Player.name)
                           .join(Player, Player.id == Seat.player_id)
                           .order_by(Seat.session_id, Seat.position)).all()
            for sid, name in rows:
                names.setdefault(sid, []).append(name)
            return [GameListing(s.id, s.game, s.title, s.status, names.get(s.id, []),
                                s.summary.get("phase", ""), s.summary.get("war"),
                                s.summary.get("round"), s.summary.get("leader"), s.updated_at)
                    for s in sessions]

    def export(self, session_id: int) -> dict[str, Any]:
        """The session file of a game: every recorded step, undo and redo included."""
        with self._read() as db:
            game = self._fold(db, session_id)
            payloads = db.exec(select(Step.payload).where(Step.session_id == session_id)
                               .order_by(Step.seq)).scalars().all()
        return session_json(game.rules, game.title, game.settings, game.seats, list(payloads))

    def authors(self, session_id: int) -> list[tuple[int, str, str | None]]:
        """(seq, kind, author) of every recorded step, oldest first."""
        with self._read() as db:
            return [tuple(r) for r in db.exec(
                select(Step.seq, Step.kind, Step.author)
                .where(Step.session_id == session_id).order_by(Step.seq)).all()]

    # ------------------------------------------------------------ drafts

    def save_draft(self, session_id: int, payload: dict[str, Any]) -> None:
        """Keep what a form holds, so a crash or a dropped connection loses no typing."""
        with self._write() as db:
            draft = db.get(Draft, session_id) or Draft(session_id=session_id, payload={})
            draft.payload = payload
            draft.updated_at = now()
            db.add(draft)
            db.commit()

    def draft(self, session_id: int) -> dict[str, Any] | None:
        with self._read() as db:
            draft = db.get(Draft, session_id)
            return dict(draft.payload) if draft else None

    # ------------------------------------------------------------ players and boards

    def player_names(self) -> list[str]:
        """Everyone who has played, for the setup screen to offer."""
        with self._read() as db:
            return list(db.exec(select(Player.name).order_by(Player.name)).scalars().all())

    def board_profiles(self) -> dict[str, dict[str, list[int]]]:
        """Board profiles by name: region -> printed values."""
        with self._read() as db:
            return {p.name: dict(p.regions) for p in
                    db.exec(select(BoardProfile).order_by(BoardProfile.name)).scalars().all()}

    def save_board_profile(self, name: str, regions: dict[str, list[int]]) -> None:
        """Create or replace a board profile (checked like a game's settings)."""
        from rules.soe import SOE

        settings = SOE.read_settings({"regions": regions})
        with self._write() as db:
            profile = db.exec(select(BoardProfile).where(BoardProfile.name == name)
                              ).scalar_one_or_none() or BoardProfile(name=name)
            profile.regions = settings.to_json()["regions"]
            profile.updated_at = now()
            db.add(profile)
            db.commit()

    # ------------------------------------------------------------ league

    def league(self, game: str | None = None) -> list[LeagueRow]:
        """League standings over finished games, by points then wins (aggregated in SQL)."""
        wins = func.sum(case((ResultEntry.outcome == "win", 1), else_=0))
        draws = func.sum(case((ResultEntry.outcome == "draw", 1), else_=0))
        losses = func.sum(case((ResultEntry.outcome == "loss", 1), else_=0))
        points = func.sum(ResultEntry.points)
        query = (select(Player.name, func.count(ResultEntry.id), wins, draws, losses, points)
                 .join(ResultEntry, ResultEntry.player_id == Player.id)
                 .join(GameResult, GameResult.id == ResultEntry.result_id)
                 .group_by(Player.name)
                 .order_by(points.desc(), wins.desc(), Player.name))
        if game:
            query = query.where(GameResult.game == game)
        with self._read() as db:
            return [LeagueRow(*(r[0], *(int(x) for x in r[1:]))) for r in db.exec(query).all()]

    def history(self, player: str, game: str | None = None) -> list[HistoryEntry]:
        """A player's finished games, newest first."""
        query = (select(GameResult.session_id, GameResult.game, GameSession.title,
                        ResultEntry.outcome, ResultEntry.points, GameResult.format,
                        GameResult.finished_at)
                 .join(ResultEntry, ResultEntry.result_id == GameResult.id)
                 .join(Player, Player.id == ResultEntry.player_id)
                 .join(GameSession, GameSession.id == GameResult.session_id)
                 .where(Player.name == player)
                 .order_by(GameResult.finished_at.desc(), GameResult.id.desc()))
        if game:
            query = query.where(GameResult.game == game)
        with self._read() as db:
            return [HistoryEntry(*r) for r in db.exec(query).all()]

    # ------------------------------------------------------------ inside

    def _read(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    def _write(self) -> Session:
        return Session(self._writer, expire_on_commit=False)

    def _store_file(self, sf: SessionFile) -> LoadedGame:
        with self._write() as db:
            session = GameSession(game=sf.rules.game, title=sf.title,
                                  settings=sf.settings.to_json(), head_seq=len(sf.steps))
            db.add(session)
            db.flush()
            for position, seat in enumerate(sf.seats):
                player = self._player(db, seat.name)
                db.add(Seat(session_id=session.id, player_id=player.id, position=position,
                            setup=seat.to_json()))
            db.add_all(Step(session_id=session.id, seq=seq, kind=step.kind,
                            payload=step.to_json())
                       for seq, step in enumerate(sf.steps, 1))
            game = LoadedGame(session.id, sf.title, sf.rules, sf.settings, sf.seats,
                              sf.timeline, len(sf.steps), now())
            self._project(db, game)
            db.commit()
        self._folds[game.id] = game
        self._born[game.id] = session.created_at
        return game

    def _player(self, db: Session, name: str) -> Player:
        player = db.exec(select(Player).where(Player.name == name)).scalar_one_or_none()
        if player is None:
            player = Player(name=name)
            db.add(player)
            db.flush()
        return player

    def _fold(self, db: Session, session_id: int, *, lock: bool = False) -> LoadedGame:
        # FOR UPDATE makes PostgreSQL writers queue on the game row (SQLite: BEGIN IMMEDIATE).
        session = db.get(GameSession, session_id, with_for_update=lock)
        if session is None:
            raise StorageError(f"There is no game {session_id}")
        cached = self._folds.get(session_id)
        if cached is not None and self._born.get(session_id) != session.created_at:
            cached = None  # the id now belongs to another game
        if cached is not None and cached.seq == session.head_seq:
            return cached
        rules = rules_for(session.game)
        settings = rules.read_settings(session.settings)
        setups = db.exec(select(Seat.setup).where(Seat.session_id == session_id)
                         .order_by(Seat.position)).scalars().all()
        seats = rules.read_players(list(setups), settings)
        timeline = Timeline(rules, rules.start(settings, seats))
        if cached is not None and cached.seq < session.head_seq:
            timeline, start = cached.timeline, cached.seq  # only the new steps
        else:
            start = 0
        payloads = db.exec(select(Step.payload).where(Step.session_id == session_id,
                                                      Step.seq > start)
                           .order_by(Step.seq)).scalars().all()
        for payload in payloads:
            timeline = timeline.then(read_step(rules, payload))
        game = LoadedGame(session_id, session.title, rules, settings, seats, timeline,
                          session.head_seq, session.updated_at)
        self._folds[session_id] = game
        self._born[session_id] = session.created_at
        return game

    def _project(self, db: Session, game: LoadedGame) -> None:
        """Write what the fold says: seat totals, summary, status, and the result."""
        report = game.report()
        session = db.get(GameSession, game.id)
        session.status = report["status"]
        session.head_seq = game.seq
        session.summary = game.rules.summary(game.state)
        session.updated_at = game.updated_at
        db.add(session)
        by_name = {row["player"]: row for row in report["standings"]}
        for position, seat in enumerate(game.seats):
            total = db.get(SeatTotal, (game.id, position))
            if total is None:
                total = SeatTotal(session_id=game.id, position=position, totals={})
            total.totals = by_name[seat.name]
            db.add(total)
        existing = db.exec(select(GameResult).where(GameResult.session_id == game.id)
                           ).scalar_one_or_none()
        if existing is not None:
            # An undo can reopen a finished game: its result goes until it ends again.
            db.exec(delete(ResultEntry).where(ResultEntry.result_id == existing.id))
            db.delete(existing)
            db.flush()
        if report["status"] == "finished":
            self._write_result(db, game, report)

    def _write_result(self, db: Session, game: LoadedGame, report: dict[str, Any]) -> None:
        result = GameResult(session_id=game.id, game=game.game, result=report["result"],
                            format=report["format"], players=len(game.seats),
                            rounds=report["rounds"], winners=report["winners"],
                            finished_at=game.updated_at)
        db.add(result)
        db.flush()
        for player, outcome in outcomes(report).items():
            db.add(ResultEntry(result_id=result.id, player_id=self._player(db, player).id,
                               outcome=outcome, points=POINTS[outcome]))

    def _stale_message(self, db: Session, session_id: int, expected: int) -> str:
        newer = db.exec(select(Step.kind, Step.author).where(
            Step.session_id == session_id, Step.seq > expected).order_by(Step.seq)).all()
        what = ", ".join(f"{k.replace('_', ' ')}" + (f" by {a}" if a else "") for k, a in newer)
        return (f"Another terminal recorded {what or 'a step'} first; nothing of yours was "
                "written. The screen now shows the game as it stands")
