"""Quick commands and a quick home screen (issue 15): what they import, and what keeps their
light paths honest.

`warledger sessions --json` (and league, export, replay) on an up-to-date database imports
no Alembic, SQLModel, pydantic, Typer or Textual; the TUI lists the saved games before
SQLAlchemy is imported; a new or outdated database still goes through Alembic. The light
paths stand on three readings of something defined elsewhere, each held equal to it here:
the Core tables (storage/core.py) to the SQLModel tables, the revisions read as text to
Alembic's, the quick command line (tui/cli/start.py) to Typer's, and the glance at the saved
games (storage/glance.py) to the ledger's list.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.at_head import new_database
from tests.waiting import until

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
SOE_FILE = DATA / "soe_full_game.json"
RISK_FILE = DATA / "risk_fixed_rounds.json"
BAD_FILE = DATA / "soe_bad_upkeep.json"
HEAVY = ("alembic", "sqlmodel", "pydantic", "typer", "textual")

# Runs the real `warledger` entry point with the given arguments in a fresh interpreter,
# then says (as the last line on stderr) which of the modules asked about were imported.
RUN_COMMAND = """
import json, sys
asked = json.loads(sys.argv[2])
sys.argv = ["warledger", *json.loads(sys.argv[1])]
code = 0
try:
    from tui.cli.start import main
    main()
except SystemExit as e:
    code = e.code
print(json.dumps({"code": code, "imported": sorted(m for m in asked if m in sys.modules)}),
      file=sys.stderr)
"""


def run_command(*args: object, asked=HEAVY + ("rich", "sqlalchemy")) -> tuple[dict, str]:
    """(exit code and the modules of `asked` imported, stdout) of a `warledger` run."""
    done = subprocess.run(
        [sys.executable, "-c", RUN_COMMAND, json.dumps([str(a) for a in args]),
         json.dumps(list(asked))], cwd=ROOT, capture_output=True, text=True, timeout=120)
    *said, last = done.stderr.strip().splitlines() or ["{}"]
    assert done.returncode == 0 and last.startswith("{"), done.stderr
    return json.loads(last) | {"stderr": "\n".join(said)}, done.stdout


def stored_games(db: str) -> str:
    """`db` with the two sample games stored, at this version's schema (a new SQLite file
    starts as a copy at that schema: new_database)."""
    from storage.engine import make_engine
    from storage.ledger import Ledger

    engine = make_engine(db)
    ledger = Ledger(engine)
    for file in (SOE_FILE, RISK_FILE):
        ledger.replay(json.loads(file.read_text(encoding="utf-8")))
    engine.dispose()
    return db


def at_revision(path: Path, revision: str) -> Path:
    """A new SQLite database at an older schema revision."""
    from storage.engine import make_engine
    from storage.migrate import upgrade

    engine = make_engine(str(path), migrate=False)
    upgrade(engine, revision)
    engine.dispose()
    return path


# ---------------------------------------------------------------- what a command imports

def test_sessions_json_imports_no_alembic_sqlmodel_pydantic_typer_textual_or_rich(db_url):
    stored_games(db_url)
    ran, out = run_command("--db", db_url, "sessions", "--json")
    assert ran["code"] == 0, ran["stderr"]
    assert ran["imported"] == ["sqlalchemy"]
    assert [g["title"] for g in json.loads(out)] == ["League night 3", "Friday at Ana's"]


# Rich only where a table is drawn (CSV escapes names with tui.text.literal, which holds Rich's Text).
@pytest.mark.parametrize("args,rich", [(["league", "--json"], False), (["export", "1"], False),
                                       (["export", "--all", "--format", "bgstats"], False),
                                       (["replay", RISK_FILE, "--json"], False),
                                       (["sessions"], True), (["league"], True),
                                       (["replay", RISK_FILE], True),
                                       (["export", "2", "--format", "csv"], True)])
def test_the_other_commands_import_no_alembic_sqlmodel_pydantic_typer_or_textual(tmp_path,
                                                                                   args, rich):
    db = stored_games(new_database(tmp_path / "warledger.db"))
    ran, out = run_command("--db", db, *args)
    assert ran["code"] == 0, ran["stderr"]
    assert not set(ran["imported"]) & set(HEAVY), ran["imported"]
    assert ("rich" in ran["imported"]) == rich
    assert out


def test_an_outdated_or_new_database_still_goes_through_alembic(tmp_path):
    from storage.migrate import current_revision, head_revision

    assert head_revision() != "0001"
    old = at_revision(tmp_path / "old.db", "0001")
    new = tmp_path / "new.db"
    for path in (old, new):
        ran, out = run_command("--db", path, "sessions", "--json")
        assert ran["code"] == 0, ran["stderr"]
        assert "alembic" in ran["imported"] and json.loads(out) == []
        con = sqlite3.connect(path)
        assert con.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (head_revision(),)]
        con.close()
    # and, once migrated, the next command does without it
    ran, _ = run_command("--db", old, "sessions", "--json")
    assert "alembic" not in ran["imported"]
    from storage.engine import make_engine

    engine = make_engine(str(old), migrate=False)
    assert current_revision(engine) == head_revision()
    engine.dispose()


def test_someone_elses_database_is_still_refused_without_alembic(tmp_path):
    path = tmp_path / "theirs.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE invoices (id INTEGER)")
    con.commit()
    con.close()
    ran, out = run_command("--db", path, "sessions", "--json")
    assert ran["code"] == 1 and out == ""
    assert "is not a warledger database: it holds other tables (invoices)" in ran["stderr"]


# ---------------------------------------------------------------- the home screen

LIST_THEN_OPEN = """
import asyncio, json, sys
import storage.glance
storage.glance.WARM_AFTER = 600  # no loading ahead: what the list itself needed is seen
from textual.widgets import DataTable
from tests.waiting import until
from tui.app import WarledgerApp

async def main():
    app = WarledgerApp(sys.argv[1])
    seen = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: app.screen.query_one("#games", DataTable).row_count, timeout=60,
                    what="the saved games")
        seen["rows"] = app.screen.query_one("#games", DataTable).row_count
        seen["listed_with"] = sorted(m for m in ("sqlalchemy", *HEAVY) if m in sys.modules)
        await pilot.press("enter")
        # The game's screen is on the stack before it is composed: leaving then would close
        # it half-mounted (its Header's title, queued at mount, found no HeaderTitle).
        await until(lambda: type(app.screen).__name__ != "HomeScreen" and app.screen.is_mounted
                    and app.screen.form is not None, timeout=60, what="the game's screen")
        await pilot.pause()  # what it queued as it mounted is done
        seen["opened"] = type(app.screen).__name__
    seen["imported"] = sorted(m for m in HEAVY if m in sys.modules)
    print(json.dumps(seen))

HEAVY = json.loads(sys.argv[2])
asyncio.run(main())
"""


def test_the_home_screen_lists_the_games_before_sqlalchemy_and_opens_one_without_pydantic(
        tmp_path):
    from storage.engine import make_engine
    from storage.ledger import Ledger
    from tui.cli.demo import load_demos

    db = str(tmp_path / "warledger.db")
    engine = make_engine(db)
    load_demos(Ledger(engine))  # two games in progress, Risk the newest
    engine.dispose()
    done = subprocess.run([sys.executable, "-c", LIST_THEN_OPEN, db,
                           json.dumps(["alembic", "sqlmodel", "pydantic", "typer"])],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["rows"] == 2
    assert seen["listed_with"] == []  # not even SQLAlchemy yet
    assert seen["opened"] == "RiskGameScreen"
    assert seen["imported"] == []


def test_the_glance_lists_what_the_ledger_lists(tmp_path):
    from storage.engine import make_engine
    from storage.glance import saved_games
    from storage.ledger import Ledger

    db = str(tmp_path / "warledger.db")
    assert saved_games(db) is None  # a new database: the ledger creates it
    engine = make_engine(db)
    ledger = Ledger(engine)
    assert saved_games(db) == ledger.games_page() == ([], None)
    for file in (SOE_FILE, RISK_FILE, SOE_FILE):
        ledger.replay(json.loads(file.read_text(encoding="utf-8")))
    game = ledger.create_game("risk", "Bo[/] night", {"mode": "conquest"},
                              [{"name": "[b]Ana", "color": "red"},
                               {"name": "Cy", "color": "blue"}])
    ledger.record(game.id, {"kind": "round", "positions": {
        "[b]Ana": {"territories": 22, "armies": 30, "continents": ["Australia"]},
        "Cy": {"territories": 20, "armies": 25, "continents": []}}})
    ledger.rename_game(1, "Friday, renamed")
    listed = ledger.games_page()
    assert listed.games == ledger.games()
    assert len(listed.games) == 4 and {g.status for g in listed.games} == {"finished",
                                                                           "in_progress"}
    assert saved_games(db) == listed
    assert all(g.updated_at.utcoffset() is not None for g in saved_games(db).games)
    engine.dispose()


def test_the_glance_leaves_anything_unusual_to_the_ledger(tmp_path):
    from storage.glance import saved_games

    old = at_revision(tmp_path / "old.db", "0001")
    theirs = tmp_path / "theirs.db"
    sqlite3.connect(theirs).execute("CREATE TABLE t (x)").connection.commit()
    not_sqlite = tmp_path / "notes.db"
    not_sqlite.write_text("hello " * 100)
    db = stored_games(new_database(tmp_path / "warledger.db"))
    for where in (old, theirs, not_sqlite, tmp_path / "missing" / "x.db", f"sqlite:///{db}"):
        assert saved_games(str(where)) is None, where
    assert saved_games(db) is not None


async def test_the_games_read_at_start_are_in_the_first_frame_and_listed_anew_later(
        tmp_path, monkeypatch):
    from textual.widgets import DataTable

    from storage.glance import read_ahead
    from tui.app import WarledgerApp
    from tui.screens.home import HomeScreen

    db = stored_games(new_database(tmp_path / "warledger.db"))
    assert len(read_ahead(db).result(timeout=30)) == 2  # tui/cli/start.py starts it
    asked = []
    monkeypatch.setattr(HomeScreen, "refresh_games", lambda self: asked.append(self))
    app = WarledgerApp(db)
    async with app.run_test(size=(120, 40)) as pilot:
        home = app.screen
        # Listed as the screen mounted: the ledger was never asked, nothing waited.
        assert home.query_one("#games", DataTable).row_count == 2
        assert home.games_listed == 2 and asked == []
        await pilot.press("l")  # the league, and back: the list is read anew
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is home and asked == [home]


async def test_an_empty_list_read_at_start_makes_no_table_until_a_game_is_saved(tmp_path):
    from textual.widgets import DataTable, Static

    from storage.glance import read_ahead
    from tui.app import WarledgerApp

    db = str(new_database(tmp_path / "warledger.db"))
    assert read_ahead(db).result(timeout=30).games == []
    app = WarledgerApp(db)
    async with app.run_test(size=(100, 30)) as pilot:
        home = app.screen
        assert home.games_listed == 0
        assert not home.query("#games"), "the first frame draws no empty table"
        assert "No saved games yet" in str(home.query_one("#empty", Static).render())
        await pilot.press("d")  # the demos: the list is made and shows them, focused
        await until(lambda: home.games_listed == 2, timeout=60, what="the demo games")
        await pilot.pause()
        table = home.query_one("#games", DataTable)
        assert table.row_count == 2 and app.focused is table
        assert not home.query_one("#empty").display or "-unwanted" in home.query_one(
            "#empty").classes
        assert [str(c.label) for c in table.columns.values()][:2] == ["Title", "Game"]
        await pilot.press("enter")
        await until(lambda: type(app.screen).__name__ == "RiskGameScreen", timeout=60,
                    what="the newest game opened")


async def test_a_new_database_read_at_start_is_left_to_the_ledger(tmp_path):
    from textual.widgets import DataTable, Static

    from storage.glance import read_ahead
    from tui.app import WarledgerApp

    db = str(tmp_path / "new.db")
    assert read_ahead(db).result(timeout=30) is None
    app = WarledgerApp(db)
    async with app.run_test(size=(120, 40)):
        await until(lambda: app.screen.games_listed is not None, timeout=60,
                    what="the ledger to list the games")
        assert app.screen.games_listed == 0
        assert app.screen.query_one("#games", DataTable).row_count == 0
        assert "No saved games yet" in str(app.screen.query_one("#empty", Static).render())
    assert (tmp_path / "new.db").exists()  # the ledger made it


def test_the_glance_imports_no_sqlalchemy(tmp_path):
    db = stored_games(new_database(tmp_path / "warledger.db"))
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from storage.glance import saved_games; "
         "print(len(saved_games(sys.argv[1]).games), 'sqlalchemy' in sys.modules)", db],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["2", "False"], done.stderr


# ---------------------------------------------------------------- one definition each

def column_shape(column) -> tuple:
    """What the database and the statements see of a column."""
    from sqlalchemy.dialects import postgresql, sqlite

    return (column.name, column.type.compile(dialect=sqlite.dialect()),
            column.type.compile(dialect=postgresql.dialect()), column.type._type_affinity,
            column.nullable, column.primary_key, column is column.table.autoincrement_column,
            sorted((fk.target_fullname, fk.ondelete) for fk in column.foreign_keys))


def test_the_core_tables_are_the_sqlmodel_tables_column_by_column():
    from sqlmodel import SQLModel

    import storage.tables  # noqa: F401 - puts the tables on SQLModel.metadata
    from storage.core import METADATA

    ours, theirs = METADATA.tables, SQLModel.metadata.tables
    assert set(ours) == set(theirs)
    for name, table in theirs.items():
        assert [column_shape(c) for c in ours[name].columns] == [
            column_shape(c) for c in table.columns], (
            f"{name}: change storage/core.py as storage/tables.py changed")


def test_the_core_moments_are_sqlmodels():
    from datetime import UTC, datetime, timedelta, timezone

    from sqlalchemy.dialects import sqlite
    from sqlmodel.sql.sqltypes import UTCDateTime as Theirs

    from storage.core import UTCDateTime as Ours

    dialect = sqlite.dialect()
    naive, paris = datetime(2026, 3, 13, 21, 14), timezone(timedelta(hours=1))
    for kind in (Ours(), Theirs()):
        assert kind.process_result_value(naive, dialect) == naive.replace(tzinfo=UTC)
        assert kind.process_bind_param(naive.replace(tzinfo=paris), dialect) == datetime(
            2026, 3, 13, 20, 14, tzinfo=UTC)
        with pytest.raises(ValueError):
            kind.process_bind_param(naive, dialect)


LATER = '''"""a later schema, for the tests"""
revision: str = "0003_later"
down_revision = {down!r}
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
'''


def test_the_revisions_read_as_text_are_alembics(tmp_path, monkeypatch):
    from storage import migrate

    def alembics() -> tuple[str, set[str]]:
        scripts = migrate._scripts_in.__wrapped__(str(migrate.MIGRATIONS))
        return scripts.get_current_head(), {s.revision for s in scripts.walk_revisions()}

    assert (migrate.head_revision(), migrate.known_revisions()) == alembics()
    folder = tmp_path / "migrations"
    shutil.copytree(migrate.MIGRATIONS, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "versions" / "0003_later.py").write_text(
        LATER.format(down=migrate.head_revision()), encoding="utf-8")
    monkeypatch.setattr(migrate, "MIGRATIONS", folder)
    assert (migrate.head_revision(), migrate.known_revisions()) == alembics()
    assert migrate.head_revision() == "0003_later"


# ---------------------------------------------------------------- the quick command line

QUICK = [
    ["sessions", "--json"], ["sessions"], ["league", "--json"], ["league", "--game", "soe"],
    ["league", "--game=chess"], ["export", "1"], ["export", "2", "--format", "csv"],
    ["export", "1", "--format=xml"], ["export", "99"], ["export", "1", "-o", "{out}"],
    ["export", "--output={out}", "2"], ["replay", RISK_FILE, "--json"], ["replay", BAD_FILE],
    ["replay", SOE_FILE, "{out}", BAD_FILE], ["replay", "--json", SOE_FILE, RISK_FILE],
    ["replay", "--copy", RISK_FILE, "--json"],
    ["export", "--all", "--format", "bgstats", "-o", "{out}"], ["export", "--format=bgg", "--all"],
    ["export", "--all"], ["export", "1", "--all", "--format", "bgg"],
    ["export", "--all", "--group", "Nope", "--format", "bgg"],
    ["export", "--all", "--season=2026", "--format", "bgstats", "--output", "{out}"],
]


@pytest.mark.parametrize("args", QUICK, ids=lambda a: " ".join(map(str, a))[-40:])
@pytest.mark.parametrize("db_first", [True, False], ids=["--db first", "--db last"])
def test_the_quick_command_line_says_what_typer_says(tmp_path, capsys, args, db_first):
    from typer.testing import CliRunner

    from tui.cli.start import quick_command
    from tui.cli.typer_app import app

    kept = stored_games(new_database(tmp_path / "kept.db"))
    out = tmp_path / "out.json"

    def command_line(db: Path) -> list[str]:
        argv = [str(a).format(out=out) for a in args]
        return ["--db", str(db), *argv] if db_first else [*argv, f"--db={db}"]

    def quick(argv: list[str]) -> tuple:
        command = quick_command(argv)
        assert command is not None, argv
        code = 0
        try:
            command()
        except SystemExit as e:
            code = e.code
        said = capsys.readouterr()
        return code, said.out, said.err

    def typer(argv: list[str]) -> tuple:
        result = CliRunner().invoke(app, argv)
        return result.exit_code, result.stdout, result.stderr

    results = []
    for way in (quick, typer):  # each on its own copy (the engine of the other is still open)
        db = tmp_path / way.__name__ / "warledger.db"
        db.parent.mkdir()
        shutil.copy(kept, db)
        out.unlink(missing_ok=True)
        results.append((*way(command_line(db)), out.read_text() if out.exists() else None,
                        stored(db)))
    assert results[0] == results[1]


def stored(db: Path) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT id, title, status, head_seq FROM game_session").fetchall()
    finally:
        con.close()


@pytest.mark.parametrize("args", [
    [], ["--help"], ["sessions", "--help"], ["sessions", "-h"], ["sessions", "--json", "--json"],
    ["sessions", "extra"], ["export"], ["export", "x"], ["export", "1", "2"], ["export", "-1"],
    ["export", "--all", "--all"], ["export", "--format", "bgg"], ["export", "--all=yes"],
    ["export", "--all", "x"],
    ["export", "1", "-ofile"], ["export", "1", "-o"], ["export", "1", "-o", "a", "--output=b"],
    ["replay"], ["replay", "--", "f.json"], ["replay", "--copy", "--copy", "f.json"],
    ["league", "--game"], ["league", "--json=yes"],
    ["sessions", "--db"], ["sessions", "--db", "--json"], ["--db", "x", "--db", "y", "sessions"],
    ["--db"], ["--player", "Ana", "sessions"], ["delete", "1", "--yes"], ["demo"],
    ["rename", "1", "x"], ["serve", "ssh"], ["sessions", "--game", "soe"], ["SESSIONS"],
])
def test_any_other_form_goes_to_typer(args):
    from tui.cli.start import quick_command

    assert quick_command(args) is None
