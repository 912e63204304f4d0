"""A game is stored once (issue 21, item 6): every game has an id of its own, carried by its
session files; replaying a file of a game the database holds stores nothing and is no
refusal; `--copy` stores a second copy; the demo games are stored once; an old database
gets an id for every game. Every test runs on a temporary SQLite file and, with
WARLEDGER_TEST_PG set, on PostgreSQL too (see conftest.py)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from pilot_pace import until
from sqlalchemy import inspect, select, text, update

from rules.errors import RuleError
from rules.session_file import read_session
from storage.core import METADATA, SESSION_T
from storage.engine import make_engine
from storage.ledger import AlreadyStored, Ledger
from storage.migrate import current_revision, head_revision, upgrade
from tests.test_cli import (
    BAD_FILE,
    RISK_FILE,
    SOE_FILE,
    ok,
    refused,
    run,
    sample,
    sessions,
    write,
)
from tui.cli.demo import load_demos
from tui.games.risk.demo import RISK_DEMO, RISK_DEMO_ID
from tui.games.soe.demo import DEMO_BOARD, DEMO_REGIONS, SOE_DEMO, SOE_DEMO_ID

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
A_UUID = "3f2b8c1e-6d4a-4e9b-8f7c-2a1d0e9b7c65"


def uids(engine) -> dict[int, str]:
    """Each game's own id, by game number, as the database holds it."""
    with engine.connect() as conn:
        return dict(conn.execute(select(SESSION_T.c.id, SESSION_T.c.uid)).all())


def league(db: str) -> Any:
    return json.loads(ok(run("league", "--json", db=db)))


def exported(db: str, game: int, folder: Path, name: str) -> Path:
    out = folder / name
    ok(run("export", str(game), "-o", out, db=db))
    return out


# ---------------------------------------------------------------- the id, in the ledger

def test_a_new_game_gets_an_id_of_its_own_and_its_export_carries_it(ledger):
    data = sample(SOE_FILE)
    one = ledger.create_game("soe", "one", data["settings"], data["players"])
    two = ledger.create_game("soe", "two", data["settings"], data["players"])
    three = ledger.replay(data)  # a file without an id: a new game
    ids = uids(ledger.engine)
    assert len(set(ids.values())) == 3 and all(UUID.fullmatch(u) for u in ids.values())
    for game in (one, two, three):
        assert ledger.export(game.id)["id"] == ids[game.id]
        assert ledger.find_game(ids[game.id]) == game.id
    assert ledger.find_game(A_UUID) is None


def test_a_file_with_an_id_is_stored_under_it_and_recognised(ledger, make_ledger):
    data = {**sample(RISK_FILE), "id": A_UUID.upper()}  # any case; kept in lower case
    game = ledger.replay(data)
    assert uids(ledger.engine) == {game.id: A_UUID}
    assert ledger.export(game.id)["id"] == A_UUID
    before = uids(ledger.engine)
    league = ledger.league()
    # another terminal's ledger, the file again: stored once
    with pytest.raises(AlreadyStored) as already:
        make_ledger().replay(data)
    assert (already.value.game_id, already.value.title) == (game.id, "League night 3")
    assert uids(ledger.engine) == before and ledger.league() == league
    # a copy is a new game with an id of its own
    copy_ = ledger.replay(data, copy=True)
    assert copy_.id != game.id
    assert uids(ledger.engine)[copy_.id] not in (A_UUID, None)
    assert [r.played for r in ledger.league()] == [2, 2, 2, 2]


def test_two_terminals_storing_the_same_file_at_once_store_it_once(make_ledger, monkeypatch):
    one, two = make_ledger(), make_ledger()
    data = {**sample(SOE_FILE), "id": A_UUID}
    stored = one.replay(data)
    # `two` looked before `one` stored it: the database's unique id stops the second copy
    looks = []
    look = Ledger._stored_as

    def looked_too_early(conn, uid):
        looks.append(uid)
        return None if len(looks) == 1 else look(conn, uid)

    monkeypatch.setattr(Ledger, "_stored_as", staticmethod(looked_too_early))
    with pytest.raises(AlreadyStored) as already:
        two.replay(data)
    assert already.value.game_id == stored.id and len(looks) == 2
    assert list(uids(one.engine)) == [stored.id]
    assert [g.id for g in two.games()] == [stored.id]


# ---------------------------------------------------------------- the session file

@pytest.mark.parametrize("bad", [
    "not-a-uuid", 42, None, "", True, ["3f2b8c1e"], A_UUID.replace("-", ""),
    "{" + A_UUID + "}", "urn:uuid:" + A_UUID, A_UUID + " ", A_UUID[:-1] + "g",
    A_UUID[:-2] + "\x1b[", A_UUID * 40])
def test_a_bad_id_is_refused_in_one_line_and_stores_nothing(db_url, tmp_path, bad):
    path = write(tmp_path, "bad id.json", {**sample(SOE_FILE), "id": bad})
    result = run("replay", path, db=db_url)
    line = refused(result)
    assert "bad id.json: the game's id must be a UUID like" in line
    assert line.endswith("nothing was stored")
    assert "\x1b" not in result.stderr and len(line) < 250
    assert result.stdout == ""
    assert sessions(db_url) == []


def test_the_id_is_the_only_new_key_and_optional():
    data = sample(SOE_FILE)
    assert read_session(data).uid is None
    assert read_session({**data, "id": A_UUID}).uid == A_UUID
    assert read_session({**data, "id": A_UUID}).to_json()["id"] == A_UUID
    assert "id" not in read_session(data).to_json()
    for key in ("uid", "game_id", "ID"):
        with pytest.raises(RuleError, match=f"unknown key '{key}'"):
            read_session({**data, key: A_UUID})


# ---------------------------------------------------------------- replay on the command line

def test_replaying_a_seasons_exports_into_their_database_stores_nothing(db_url, tmp_path):
    ok(run("replay", SOE_FILE, RISK_FILE, db=db_url))
    files = [exported(db_url, 1, tmp_path, "friday.json"),
             exported(db_url, 2, tmp_path, "night 3.json")]
    listed, standings = sessions(db_url), league(db_url)
    # the season again: each said to be stored already, nothing stored, no refusal
    result = run("replay", *files, db=db_url)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"Already stored as game 1: Friday at Ana's ({files[0]}); nothing was stored "
        "(--copy stores a copy)",
        f"Already stored as game 2: League night 3 ({files[1]}); nothing was stored "
        "(--copy stores a copy)",
        "0 stored, 2 already stored, 0 refused"]
    assert result.stderr == ""
    # one file: its line alone
    one = run("replay", files[0], db=db_url)
    assert (one.exit_code, one.stderr) == (0, "")
    assert one.stdout.splitlines() == [result.stdout.splitlines()[0]]
    # --json says it in the JSON: an entry like a refusal's, with the game's number
    assert json.loads(ok(run("replay", files[1], "--json", db=db_url))) == {
        "file": str(files[1]), "already_stored_as": 2}
    mixed = run("replay", files[0], SOE_FILE, BAD_FILE, "--json", db=db_url)
    assert mixed.exit_code == 1  # the refusal, not the game stored already
    already, new, bad = json.loads(mixed.stdout)
    assert already == {"file": str(files[0]), "already_stored_as": 1}
    assert new["winners"] == ["Bo"] and set(bad) == {"file", "error"}
    assert mixed.stderr.strip().splitlines()[-1] == "1 stored, 1 already stored, 1 refused"
    listed_now = sessions(db_url)
    assert [s["id"] for s in listed_now] == [3, 2, 1]
    assert listed_now[1:] == listed  # the games stored before, untouched
    ok(run("delete", "3", "--yes", db=db_url))
    assert league(db_url) == standings


def test_copy_stores_a_second_game_with_an_id_of_its_own(db_url, tmp_path):
    ok(run("replay", SOE_FILE, db=db_url))
    friday = exported(db_url, 1, tmp_path, "friday.json")
    out = ok(run("replay", friday, "--copy", db=db_url))
    assert out.startswith("Stored as game 2: Friday at Ana's")
    assert [s["id"] for s in sessions(db_url)] == [2, 1]
    assert {r["player"]: r["played"] for r in league(db_url)["standings"]} == {
        "Bo": 2, "Ana": 2, "Cy": 2, "Di": 2}
    second = exported(db_url, 2, tmp_path, "second.json")
    first_id, second_id = (json.loads(p.read_text())["id"] for p in (friday, second))
    assert first_id != second_id
    # the copy is a game of its own: stored once too
    assert ok(run("replay", second, db=db_url)).startswith("Already stored as game 2: ")
    both = run("replay", friday, second, "--copy", db=db_url)
    assert both.exit_code == 0 and both.stdout.splitlines()[-1] == "2 stored, 0 refused"
    assert len(sessions(db_url)) == 4


def test_a_game_moved_between_databases_and_back_is_recognised(db_url, tmp_path):
    other = str(tmp_path / "machine b.db")
    data = sample(SOE_FILE)
    ok(run("replay", write(tmp_path, "part.json", {**data, "steps": data["steps"][:5]}),
           db=db_url))
    to_b = exported(db_url, 1, tmp_path, "a.json")
    assert ok(run("replay", to_b, db=other)).startswith("Stored as game 1: ")
    # played on at B, then brought back to A: the same game, which A holds already
    engine = make_engine(other)
    Ledger(engine).record(1, data["steps"][5])
    engine.dispose()
    back = exported(other, 1, tmp_path, "b.json")
    assert json.loads(back.read_text())["id"] == json.loads(to_b.read_text())["id"]
    assert len(json.loads(back.read_text())["steps"]) == 6
    assert ok(run("replay", back, db=db_url)).startswith("Already stored as game 1: ")
    assert len(sessions(db_url)) == 1


def test_the_already_stored_line_shows_the_stored_title_literally(db_url, tmp_path, make_ledger):
    ok(run("replay", RISK_FILE, db=db_url))
    file = exported(db_url, 1, tmp_path, "[b]night[-b].json")
    # a title an earlier version let in, markup and a terminal escape in it
    with make_ledger().engine.begin() as conn:
        conn.execute(update(SESSION_T).values(title="[red]Bo\x1b[2J night"))
    result = run("replay", file, db=db_url)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (f"Already stored as game 1: [red]Bo\\x1b[2J night ({file}); "
                             "nothing was stored (--copy stores a copy)\n")


# ---------------------------------------------------------------- the demo games

def test_demo_twice_stores_the_demo_games_once(db_url):
    first = run("demo", "--no-tui", db=db_url)
    assert first.exit_code == 0 and first.stderr == "Demo games stored as 1, 2.\n"
    again = run("demo", "--no-tui", db=db_url)
    assert again.exit_code == 0 and again.stderr == "Demo games already stored as 1, 2.\n"
    assert sorted(s["id"] for s in sessions(db_url)) == [1, 2]
    # a demo game played on is kept as it is; a deleted one is stored anew
    engine = make_engine(db_url)
    ledger = Ledger(engine)
    head = ledger.head(1)
    ledger.record(1, {"kind": "adjust", "power": "Austria", "gold": 1, "note": "found"})
    assert uids(engine) == {1: SOE_DEMO_ID, 2: RISK_DEMO_ID}
    ledger.delete_game(2)
    engine.dispose()
    third = run("demo", "--no-tui", db=db_url)
    anew = re.fullmatch(r"Demo games stored as (\d+); already stored as 1\.\n", third.stderr)
    assert anew, third.stderr  # (SQLite may give the deleted game's number again)
    engine = make_engine(db_url)
    assert Ledger(engine).head(1) == head + 1
    assert uids(engine) == {1: SOE_DEMO_ID, int(anew[1]): RISK_DEMO_ID}
    engine.dispose()


@pytest.mark.parametrize("stdin", ["devnull", "pipe"])
def test_demo_with_no_terminal_stores_the_games_and_ends(tmp_path, stdin):
    """In a script or a cron job (stdin not a terminal) `warledger demo` opened the TUI
    with no one to show it to and never ended (issue 44): it stores the games, says it
    opened nothing, and ends, as --no-tui does."""
    import os
    import subprocess
    import sys

    db = tmp_path / "table.db"
    env = {k: v for k, v in os.environ.items()
           if k not in ("WARLEDGER_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")}
    done = subprocess.run(
        [sys.executable, "-m", "tui", "demo", "--db", f"sqlite:///{db}"],
        cwd=Path(__file__).parent.parent, capture_output=True, text=True, timeout=60,
        env=env, **({"stdin": subprocess.DEVNULL} if stdin == "devnull" else {"input": ""}))
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert done.stderr == ("Demo games stored as 1, 2.\n"
                           "No terminal to open them on (stdin is not one): stored only, as "
                           "with --no-tui.\n")
    assert sorted(s["id"] for s in sessions(f"sqlite:///{db}")) == [1, 2]


def test_load_demos_keeps_the_demo_board_and_games_it_finds(ledger):
    assert load_demos(ledger) == load_demos(ledger) == [1, 2]
    ledger.save_board_profile(DEMO_BOARD, {**DEMO_REGIONS, "German States": [9, 5, 3]})
    kept = ledger.board_profiles()
    assert load_demos(ledger) == [1, 2]
    assert ledger.board_profiles() == kept  # the group's values, not the demo's again
    assert [g.id for g in ledger.games()] == [2, 1]
    for demo, uid in ((SOE_DEMO, SOE_DEMO_ID), (RISK_DEMO, RISK_DEMO_ID)):
        assert demo["id"] == uid and read_session(copy.deepcopy(demo)).uid == uid


async def test_d_on_an_empty_home_stores_the_demo_games_once(tmp_path):
    from tui.app import WarledgerApp

    db = str(tmp_path / "warledger.db")
    app = WarledgerApp(db)
    async with app.run_test(size=(120, 40)) as pilot:
        # The home screen lists the saved games after its first frame.
        await until(pilot, lambda: app.screen.games_listed == 0, "the empty home listed")
        # another terminal asks for the demos first, while this home lists nothing yet
        engine = make_engine(db)
        assert load_demos(Ledger(engine)) == [1, 2]
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("d")  # and again
        await pilot.pause()
        for _ in range(100):
            if app.screen.games_listed == 2:
                break
            await pilot.pause(0.05)
        assert app.screen.games_listed == 2
    assert sorted(uids(engine).items()) == [(1, SOE_DEMO_ID), (2, RISK_DEMO_ID)]
    engine.dispose()


# ---------------------------------------------------------------- an older database

def database_at_0002_with_games(db_url: str, folder: Path) -> dict[int, dict[str, Any]]:
    """A database at revision 0002 (the schema before game ids) holding games, as that
    warledger wrote them: the games are stored by this version in a scratch SQLite file and
    every column the old schema has is copied over. Returns each game's report."""
    scratch = Ledger(make_engine(str(folder / "scratch.db")))
    data = sample(SOE_FILE)
    reports = {}
    for game in (scratch.replay(data), scratch.replay(sample(RISK_FILE)),
                 scratch.replay({**data, "title": "half", "steps": data["steps"][:9]})):
        reports[game.id] = game.report().to_json()
    old = make_engine(db_url, migrate=False)
    upgrade(old, "0002")
    assert current_revision(old) == "0002"
    with scratch.engine.connect() as src, old.begin() as dst:
        old_tables = set(inspect(dst).get_table_names())
        for table in METADATA.sorted_tables:
            if table.name not in old_tables:  # of a later revision (0005: groups, seasons)
                continue
            had = {c["name"] for c in inspect(dst).get_columns(table.name)}
            rows = [{k: v for k, v in row._mapping.items() if k in had}
                    for row in src.execute(select(table))]
            if rows:
                dst.execute(table.insert(), rows)
            if dst.dialect.name == "postgresql" and "id" in had:  # ids given, not drawn
                dst.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', "
                                 f"'id'), (SELECT coalesce(max(id), 0) + 1 FROM "
                                 f"{table.name}), false)"))
        assert "uid" not in {c["name"] for c in inspect(dst).get_columns("game_session")}
    old.dispose()
    scratch.engine.dispose()
    return reports


def test_an_old_database_gives_every_game_an_id_of_its_own(empty_db_url, tmp_path, engines):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext
    from sqlmodel import SQLModel

    import storage.tables  # noqa: F401 - the schema the migrations lead to

    reports = database_at_0002_with_games(empty_db_url, tmp_path)
    engine = make_engine(empty_db_url)  # migrated at start
    engines.append(engine)
    assert current_revision(engine) == head_revision()
    ids = uids(engine)
    assert sorted(ids) == sorted(reports)
    assert all(UUID.fullmatch(u) for u in ids.values()) and len(set(ids.values())) == 3
    with engine.connect() as conn:  # the database's schema is the tables' (index, NOT NULL)
        assert compare_metadata(MigrationContext.configure(
            conn, opts={"compare_type": True}), SQLModel.metadata) == []
    ledger = Ledger(engine)
    for game_id, report in reports.items():
        assert ledger.load(game_id).report().to_json() == report
        session_file = ledger.export(game_id)
        assert session_file["id"] == ids[game_id]
        with pytest.raises(AlreadyStored) as already:  # its export comes home: stored once
            ledger.replay(session_file)
        assert already.value.game_id == game_id
    # and the games go on: a step, a new game with an id of its own
    data = sample(SOE_FILE)
    assert ledger.record(3, data["steps"][9]).seq == 10
    new = ledger.create_game("risk", "new", {"mode": "conquest"},
                             [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"}])
    assert new.id == 4 and uids(engine)[4] not in ids.values()
