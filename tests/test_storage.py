"""Storage: migrations, the ledger (record, undo, redo, resume, refusals, races), listings,
league, history, drafts, board profiles. Every test runs on a temporary SQLite file and,
with WARLEDGER_TEST_PG set, on a fresh PostgreSQL schema (see conftest.py)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, inspect, select, text
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from rules.errors import RuleError
from rules.session_file import read_session
from storage.engine import make_engine
from storage.ledger import AlreadyStored, Ledger, StaleGame, StorageError
from storage.migrate import current_revision, head_revision
from storage.tables import (
    BoardProfile,
    Draft,
    GameResult,
    GameSession,
    Player,
    ResultEntry,
    SeatTotal,
    Step,
)

DATA = Path(__file__).parent / "data"
TABLES = {"player", "board_profile", "game_session", "seat", "step", "seat_total",
          "game_result", "result_entry", "draft"}


def sample(name: str) -> dict[str, Any]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def folded_report(data: dict[str, Any]) -> dict[str, Any]:
    """The report of a session file folded in memory, without any database."""
    sf = read_session(data)
    return sf.rules.report(sf.timeline.state).to_json()


def new_game(ledger: Ledger, data: dict[str, Any], steps: int | None = None):
    """Create the game of a session file and record its first `steps` steps one by one."""
    game = ledger.create_game(data["game"], data["title"], data["settings"], data["players"])
    for step in data["steps"][:steps]:
        game = ledger.record(game.id, step)
    return game


def count(ledger: Ledger, table, **where) -> int:
    with Session(ledger.engine) as db:
        query = select(func.count()).select_from(table)
        for column, value in where.items():
            query = query.where(getattr(table, column) == value)
        return db.exec(query).scalar_one()


def risk_duel(a: str, b: str, *, tie: bool, title: str = "duel") -> dict[str, Any]:
    """A one-round fixed-round Risk game: `a` wins, or a and b tie and share the victory."""
    pos_a = {"territories": 21 if tie else 24, "armies": 30, "continents": []}
    pos_b = {"territories": 21 if tie else 18, "armies": 30, "continents": []}
    steps: list[dict[str, Any]] = [{"kind": "round", "positions": {a: pos_a, b: pos_b}}]
    if tie:
        steps.append({"kind": "tiebreak", "resolution": "shared"})
    return {"format": "warledger/1", "game": "risk", "title": title,
            "settings": {"mode": "fixed_rounds", "rounds": 1},
            "players": [{"name": a, "color": "red"}, {"name": b, "color": "blue"}],
            "steps": steps}


# ---------------------------------------------------------------- migrations

def test_migrations_create_the_schema_from_empty(empty_db_url, engines):
    bare = make_engine(empty_db_url, migrate=False)
    engines.append(bare)
    assert current_revision(bare) is None
    assert not TABLES & set(inspect(bare).get_table_names())

    engine = make_engine(empty_db_url)
    engines.append(engine)
    assert set(inspect(engine).get_table_names()) >= TABLES | {"alembic_version"}
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all() \
            == [head_revision()]
    # A second start finds the schema at head and leaves it so.
    engines.append(make_engine(empty_db_url))
    assert current_revision(engine) == head_revision()


def test_sqlite_connections_are_tuned(tmp_path):
    engine = make_engine(str(tmp_path / "plain path.db"))  # a plain path means SQLite
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 1000
    finally:
        engine.dispose()
    assert (tmp_path / "plain path.db").exists()


def test_opening_the_file_again_leaves_this_process_s_connections_their_locks(tmp_path):
    """The engine factory looks at a SQLite file before it opens it (storage.engine
    check_sqlite_file). A process that has the file open already (a test, a second engine)
    must keep its SQLite locks: POSIX drops every lock a process holds on a file when any of
    its descriptors of that file is closed, and a file opened and closed outside SQLite did
    that. Another process then closed what it took for the last connection, deleted the
    write-ahead log under this one's feet, and this process's reads never saw another
    process's writes again (issue 44: a forked SSH player's drafts, the warm parent having
    closed its warm-up connection)."""
    path = tmp_path / "t.db"
    ledger = Ledger(make_engine(str(path)))
    game = ledger.replay(sample("soe_full_game.json")).id
    ledger.save_draft(game, {"typed": 1})  # a connection kept, the page in the log
    make_engine(str(path)).dispose()  # the file looked at again, in this process
    for statement in ("SELECT COUNT(*) FROM draft",  # opened and closed: not the last one
                      "UPDATE draft SET payload = '{\"typed\": 2}'"):
        subprocess.run([sys.executable, "-c", "import sqlite3, sys; "
                        "con = sqlite3.connect(sys.argv[1], isolation_level=None); "
                        "con.execute(sys.argv[2]); con.close()", str(path), statement],
                       check=True)
    assert ledger.draft(game) == {"typed": 2}


# ---------------------------------------------------------------- record, load, resume

def test_recorded_game_loads_as_the_in_memory_fold(ledger):
    data = sample("soe_full_game.json")
    game = new_game(ledger, data)
    assert game.seq == len(data["steps"])
    assert game.report().to_json() == folded_report(data)
    assert ledger.load(game.id).report().to_json() == folded_report(data)
    assert ledger.head(game.id) == len(data["steps"])
    assert count(ledger, Step, session_id=game.id) == len(data["steps"])


def test_a_partly_played_game_loads_at_its_phase(ledger):
    data = sample("soe_full_game.json")
    game = new_game(ledger, data, steps=9)  # war 2, upkeep done
    report = ledger.load(game.id).report().to_json()
    assert (report["status"], report["phase"], report["war"]) == ("in_progress", "population", 2)
    part = dict(data, steps=data["steps"][:9])
    assert report == folded_report(part)


def test_seat_total_projection_equals_the_report(ledger):
    data = sample("soe_full_game.json")
    game = new_game(ledger, data, steps=6)
    for rest in (data["steps"][6:], []):  # in progress, then finished
        with Session(ledger.engine) as db:
            totals = db.exec(select(SeatTotal.position, SeatTotal.totals)
                             .where(SeatTotal.session_id == game.id)
                             .order_by(SeatTotal.position)).all()
        standings = {row["player"]: row for row in game.report().to_json()["standings"]}
        assert len(totals) == len(data["players"])
        for position, total in totals:
            assert total == standings[data["players"][position]["name"]]
        for step in rest:
            game = ledger.record(game.id, step)
    assert game.report().to_json()["status"] == "finished"


def test_a_second_ledger_resumes_the_same_game(ledger, make_ledger):
    data = sample("soe_full_game.json")
    game = new_game(ledger, data, steps=12)  # war 2 ended
    other = make_ledger()  # its own engine and an empty fold cache, like a new process
    resumed = other.load(game.id)
    assert resumed.seq == game.seq == 12
    assert resumed.report().to_json() == game.report().to_json()
    assert resumed.state.phase == game.state.phase == "actions"
    assert resumed.state.war == 3
    # Play on from the resumed game; the first ledger sees the new steps too.
    for step in data["steps"][12:]:
        resumed = other.record(game.id, step, expected_seq=resumed.seq)
    assert ledger.load(game.id).report().to_json() == resumed.report().to_json() == folded_report(data)


def test_replay_stores_the_whole_file(ledger):
    data = sample("soe_full_game.json")
    game = ledger.replay(data)
    assert ledger.head(game.id) == len(data["steps"])
    assert ledger.load(game.id).report().to_json() == folded_report(data)
    assert make_ledger_free_load(ledger, game.id) == folded_report(data)


def make_ledger_free_load(ledger: Ledger, session_id: int) -> dict[str, Any]:
    """Load through a fresh Ledger on the same engine (no fold cache)."""
    return Ledger(ledger.engine).load(session_id).report().to_json()


def test_unknown_game_id_is_a_storage_error(ledger):
    with pytest.raises(StorageError, match="no game 999"):
        ledger.load(999)
    with pytest.raises(StorageError, match="no game 999"):
        ledger.head(999)
    with pytest.raises(StorageError, match="no game 999"):
        ledger.record(999, {"kind": "population"})


# ---------------------------------------------------------------- undo and redo

def test_undo_and_redo_are_recorded_as_steps(ledger):
    data = sample("soe_full_game.json")
    game = new_game(ledger, data, steps=3)
    before = copy.deepcopy(ledger.load(game.id).report().to_json())
    game = ledger.record(game.id, data["steps"][3])
    after = game.report().to_json()
    assert after != before

    game = ledger.undo(game.id)
    assert game.seq == 5
    assert game.report().to_json() == before
    assert Ledger(ledger.engine).load(game.id).report().to_json() == before
    game = ledger.redo(game.id)
    assert game.seq == 6
    assert game.report().to_json() == after
    assert Ledger(ledger.engine).load(game.id).report().to_json() == after
    assert [kind for _, kind, _ in ledger.authors(game.id)][-3:] == ["upkeep", "undo", "redo"]
    with pytest.raises(RuleError, match="nothing to redo"):
        ledger.redo(game.id)
    assert ledger.head(game.id) == 6


def test_undo_of_end_game_removes_the_result_and_redo_restores_it(ledger):
    data = sample("soe_full_game.json")
    game = new_game(ledger, data)
    assert game.report().to_json()["status"] == "finished"
    assert count(ledger, GameResult, session_id=game.id) == 1
    assert count(ledger, ResultEntry) == 4
    assert [r.player for r in ledger.league()][0] == "Bo"

    game = ledger.undo(game.id)
    assert game.report().to_json()["status"] == "in_progress"
    assert count(ledger, GameResult, session_id=game.id) == 0
    assert count(ledger, ResultEntry) == 0
    assert ledger.league() == []
    assert ledger.games()[0].status == "in_progress"

    game = ledger.redo(game.id)
    assert game.report().to_json() == folded_report(data)
    with Session(ledger.engine) as db:
        result = db.exec(select(GameResult).where(GameResult.session_id == game.id)).scalar_one()
        assert (result.result, result.format, result.players, result.rounds, result.winners) \
            == ("win", "victory_points", 4, 3, ["Bo"])
    assert count(ledger, ResultEntry) == 4
    assert ledger.games()[0].status == "finished"


# ---------------------------------------------------------------- refusals and races

def test_a_refused_step_writes_nothing(ledger):
    data = sample("soe_full_game.json")
    game = new_game(ledger, data, steps=3)
    ledger.save_draft(game.id, {"units": {"Austria": {"armies": 12}}})
    totals_before = _seat_totals(ledger, game.id)
    bad_upkeep = sample("soe_bad_upkeep.json")["steps"][3]
    for step in (bad_upkeep,                                # breaks a rule
                 {"kind": "scoring"},                       # out of turn
                 {"kind": "tax", "power": "Spain"},         # power not played
                 {"kind": "upkeep", "bogus": 1},            # unknown key
                 {"kind": "undo", "extra": True}):
        with pytest.raises(RuleError):
            ledger.record(game.id, step)
        assert ledger.head(game.id) == 3
        assert count(ledger, Step, session_id=game.id) == 3
        assert _seat_totals(ledger, game.id) == totals_before
        assert ledger.draft(game.id) is not None
    assert Ledger(ledger.engine).load(game.id).report().to_json() == ledger.load(game.id).report().to_json()
    # The refusal says who and how much.
    with pytest.raises(RuleError, match="Austria must pay 17 upkeep with 13 gold: "
                                        "2 taxations needed, 1 given"):
        ledger.record(game.id, bad_upkeep)


def _seat_totals(ledger: Ledger, session_id: int) -> list:
    with Session(ledger.engine) as db:
        return [tuple(r) for r in db.exec(select(SeatTotal.position, SeatTotal.totals)
                                          .where(SeatTotal.session_id == session_id)
                                          .order_by(SeatTotal.position)).all()]


def test_a_refused_file_stores_nothing(ledger):
    with pytest.raises(RuleError, match="step 4"):
        ledger.replay(sample("soe_bad_upkeep.json"))
    for table in (GameSession, Step, Player, SeatTotal):
        assert count(ledger, table) == 0
    assert ledger.games() == []


def test_expected_seq_behind_raises_stale_game_with_the_fresh_game(ledger, make_ledger):
    data = sample("soe_full_game.json")
    game = new_game(ledger, data, steps=2)
    other = make_ledger()
    seen = other.load(game.id)
    ledger.record(game.id, data["steps"][2], expected_seq=2, author="Ana")
    with pytest.raises(StaleGame) as caught:
        other.record(game.id, data["steps"][2], expected_seq=seen.seq, author="Bo")
    fresh = caught.value.game
    assert fresh.seq == 3
    assert fresh.state.phase == "upkeep"
    assert fresh.report().to_json() == ledger.load(game.id).report().to_json()
    assert "income by Ana" in str(caught.value)
    assert ledger.head(game.id) == 3
    assert [a for _, _, a in ledger.authors(game.id)] == [None, None, "Ana"]


def test_two_ledgers_recording_the_same_next_step_one_wins(make_ledger):
    data = sample("soe_full_game.json")
    first, second = make_ledger(), make_ledger()
    game = new_game(first, data, steps=2)
    second.load(game.id)
    barrier = threading.Barrier(2)
    outcome: dict[str, Any] = {}

    def play(name: str, ledger: Ledger) -> None:
        barrier.wait()
        try:
            outcome[name] = ledger.record(game.id, data["steps"][2], expected_seq=2,
                                          author=name)
        except Exception as e:  # noqa: BLE001 - the loser's exception is the point
            outcome[name] = e

    threads = [threading.Thread(target=play, args=(n, lg))
               for n, lg in (("Ana", first), ("Bo", second))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(outcome) == 2
    won = [n for n, v in outcome.items() if not isinstance(v, Exception)]
    lost = [n for n, v in outcome.items() if isinstance(v, Exception)]
    assert len(won) == 1 and len(lost) == 1, outcome
    assert isinstance(outcome[lost[0]], StaleGame)
    assert outcome[lost[0]].game.seq == 3
    assert first.head(game.id) == 3
    assert count(first, Step, session_id=game.id) == 3
    assert [a for _, _, a in first.authors(game.id)][-1] == won[0]


def test_step_sequence_is_unique_per_game(ledger):
    game = new_game(ledger, sample("soe_full_game.json"), steps=1)
    with Session(ledger.engine) as db:
        db.add(Step(session_id=game.id, seq=1, kind="tax", payload={"kind": "tax"}))
        with pytest.raises(IntegrityError):
            db.commit()


# ---------------------------------------------------------------- listings, league, history

def test_games_are_listed_newest_first(ledger):
    data = sample("soe_full_game.json")
    a = new_game(ledger, dict(data, title="A"), steps=1)
    b = new_game(ledger, dict(data, title="B"), steps=1)
    c = ledger.replay(risk_duel("Ana", "Bo", tie=False, title="C"))
    assert [g.title for g in ledger.games()] == ["C", "B", "A"]
    ledger.record(a.id, data["steps"][1])
    listing = ledger.games()
    assert [g.id for g in listing] == [a.id, c.id, b.id]
    first = listing[0]
    assert first.to_json() == {
        "id": a.id, "game": "soe", "title": "A", "status": "in_progress",
        "players": ["Ana", "Bo", "Cy", "Di"], "phase": "actions",
        "updated_at": first.updated_at.isoformat(timespec="seconds")}
    assert listing[1].status == "finished" and listing[1].leader == "Ana"


def _league_games(ledger: Ledger) -> None:
    ledger.replay(risk_duel("Zed", "Bo", tie=False))
    for _ in range(3):
        ledger.replay(risk_duel("Bo", "Cy", tie=True))
    ledger.replay(sample("soe_full_game.json"))  # Bo wins; Ana, Cy, Di lose
    new_game(ledger, sample("soe_full_game.json"), steps=5)  # unfinished: not in the league


def test_league_points_and_order(ledger):
    _league_games(ledger)
    rows = [r.to_json() for r in ledger.league()]
    assert rows == [
        {"player": "Bo", "played": 5, "wins": 1, "draws": 3, "losses": 1, "points": 6},
        {"player": "Zed", "played": 1, "wins": 1, "draws": 0, "losses": 0, "points": 3},
        {"player": "Cy", "played": 4, "wins": 0, "draws": 3, "losses": 1, "points": 3},
        {"player": "Ana", "played": 1, "wins": 0, "draws": 0, "losses": 1, "points": 0},
        {"player": "Di", "played": 1, "wins": 0, "draws": 0, "losses": 1, "points": 0},
    ]


def test_league_filtered_by_game(ledger):
    _league_games(ledger)
    risk = [(r.player, r.played, r.wins, r.draws, r.points) for r in ledger.league("risk")]
    assert risk == [("Zed", 1, 1, 0, 3), ("Bo", 4, 0, 3, 3), ("Cy", 3, 0, 3, 3)]
    soe = [(r.player, r.points) for r in ledger.league("soe")]
    assert soe == [("Bo", 3), ("Ana", 0), ("Cy", 0), ("Di", 0)]


def test_history_of_a_player(ledger):
    _league_games(ledger)
    history = ledger.history("Bo")
    assert [(h.game, h.outcome, h.points) for h in history] == [
        ("soe", "win", 3), ("risk", "draw", 1), ("risk", "draw", 1), ("risk", "draw", 1),
        ("risk", "loss", 0)]
    assert history[0].title == "Friday at Ana's"
    assert history[0].format == "victory_points"
    assert [h.outcome for h in ledger.history("Bo", "risk")] == ["draw"] * 3 + ["loss"]
    assert ledger.history("Nobody") == []


def test_a_player_is_one_row_across_games(ledger):
    data = sample("soe_full_game.json")
    new_game(ledger, data, steps=1)
    ledger.replay(data)
    ledger.replay(risk_duel("Ana", "Eve", tie=False))
    assert count(ledger, Player, name="Ana") == 1
    assert ledger.player_names() == ["Ana", "Bo", "Cy", "Di", "Eve"]
    assert [r.played for r in ledger.league() if r.player == "Ana"] == [2]


# ---------------------------------------------------------------- drafts and board profiles

def test_drafts_are_saved_read_and_cleared_by_a_step(ledger):
    data = sample("soe_full_game.json")
    game = new_game(ledger, data, steps=2)
    assert ledger.draft(game.id) is None
    ledger.save_draft(game.id, {"markers": {"France": 4}})
    ledger.save_draft(game.id, {"markers": {"France": 4, "Britain": 3}})
    assert Ledger(ledger.engine).draft(game.id) == {"markers": {"France": 4, "Britain": 3}}
    assert count(ledger, Draft) == 1
    ledger.record(game.id, data["steps"][2])
    assert ledger.draft(game.id) is None
    assert count(ledger, Draft) == 0


def test_board_profiles_are_saved_and_read(ledger):
    regions = sample("soe_full_game.json")["settings"]["regions"]
    ledger.save_board_profile("Club board", regions)
    ledger.save_board_profile("Half board", {"German States": [8, 5, 3], "Italy": [7, 4]})
    profiles = Ledger(ledger.engine).board_profiles()
    assert list(profiles) == ["Club board", "Half board"]
    assert profiles["Club board"] == regions
    half = profiles["Half board"]
    assert half["German States"] == [8, 5, 3]
    assert half["Mediterranean"] == [7, 4]  # Italy is the Mediterranean
    assert half["India"] == []
    # Saving under the same name replaces the profile.
    ledger.save_board_profile("Half board", {"German States": [9, 6, 3]})
    assert ledger.board_profiles()["Half board"]["German States"] == [9, 6, 3]
    assert count(ledger, BoardProfile) == 2
    # Values that break the rules are refused and nothing is saved.
    with pytest.raises(RuleError):
        ledger.save_board_profile("Bad", {"Baltic": [3, 6]})
    assert "Bad" not in ledger.board_profiles()


# ---------------------------------------------------------------- export

def test_export_replays_to_the_same_standings(ledger):
    data = sample("soe_full_game.json")
    game = new_game(ledger, data, steps=6)
    ledger.undo(game.id)
    ledger.redo(game.id)
    for step in data["steps"][6:]:
        ledger.record(game.id, step)
    exported = ledger.export(game.id)
    assert exported["format"] == "warledger/1"
    assert [s["kind"] for s in exported["steps"]][5:8] == ["scoring", "undo", "redo"]
    assert ledger.find_game(exported["id"]) == game.id
    with pytest.raises(AlreadyStored) as already:  # the same game: stored once
        ledger.replay(json.loads(json.dumps(exported)))
    assert already.value.game_id == game.id
    copy_ = ledger.replay(json.loads(json.dumps(exported)), copy=True)
    assert copy_.id != game.id
    assert copy_.report().to_json() == ledger.load(game.id).report().to_json() == folded_report(data)


def test_delete_game_removes_everything_of_it(ledger):
    keep = ledger.replay(risk_duel("Ana", "Bo", tie=False, title="kept"))
    gone = new_game(ledger, sample("soe_full_game.json"))
    ledger.save_draft(keep.id, {"x": 1})
    ledger.delete_game(gone.id)
    assert [g.title for g in ledger.games()] == ["kept"]
    for table in (Step, SeatTotal, GameResult):
        assert count(ledger, table, session_id=gone.id) == 0
    assert [r.player for r in ledger.league()] == ["Ana", "Bo"]
    assert ledger.draft(keep.id) == {"x": 1}
    with pytest.raises(StorageError):
        ledger.load(gone.id)


def test_a_reused_game_id_is_not_mistaken_for_the_deleted_game(ledger, make_ledger):
    # SQLite hands the id of a deleted newest game to the next one; another terminal that
    # had the deleted game open must load the new game, not its cached fold of the old one.
    data = sample("soe_full_game.json")
    other = make_ledger()
    old = new_game(ledger, data, steps=0)
    assert other.load(old.id).title == "Friday at Ana's"
    ledger.delete_game(old.id)
    new = ledger.create_game("soe", "New game", data["settings"],
                             [{"name": "Xi", "power": "Spain"}, {"name": "Yu", "power": "Prussia"}])
    loaded = other.load(new.id)
    assert (loaded.title, [s.name for s in loaded.seats]) == ("New game", ["Xi", "Yu"])
