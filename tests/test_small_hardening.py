"""Issue 22's small ones that are not about hosting: a backup taken before a migration is as
private as the database, `--db` takes only a regular file (or a new one in a folder), and a
session file that gives a key twice is refused with the key named."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rules.errors import RuleError
from rules.session_file import parse_text
from storage.engine import make_engine
from storage.ledger import Ledger
from storage.migrate import backup_sqlite
from tui.cli.typer_app import app

DATA = Path(__file__).parent / "data"


def refused_line(*args: object) -> str:
    """The one line `warledger ARGS` says as it refuses (exit 1)."""
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 1, (result.stdout, result.stderr, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warledger: "), result.stderr
    return lines[0]


@pytest.fixture
def usual_umask():
    """The umask most hosts have (022): files are made 0644 unless asked otherwise."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_backup_before_a_migration_is_as_private_as_the_database(tmp_path, usual_umask):
    path = tmp_path / "warledger.db"
    engine = make_engine(str(path))
    Ledger(engine).replay(json.loads((DATA / "soe_full_game.json").read_text()))
    with engine.connect() as conn:
        copy = backup_sqlite(conn, "0001")
    engine.dispose()
    assert copy is not None and copy.name.startswith("warledger.db.backup-0001-")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600


def test_db_dev_null_is_not_a_database_and_nothing_is_made_beside_it(tmp_path):
    journal = Path("/dev/null-journal")  # what an older warledger left there
    before = journal.stat().st_mtime_ns if journal.exists() else None
    line = refused_line("--db", "/dev/null", "sessions")
    assert line == ("warledger: /dev/null is not a database file (only a regular file, or a "
                    "new one in a folder); nothing was changed")
    assert (journal.stat().st_mtime_ns if journal.exists() else None) == before


def test_db_a_pipe_is_refused_without_waiting_on_it(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    # A separate process, so a warledger that opened the pipe would hang here, not the suite.
    done = subprocess.run([sys.executable, "-m", "tui", "--db", str(pipe), "sessions"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().endswith(f"{pipe} is not a database file (only a regular "
                                        "file, or a new one in a folder); nothing was changed")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_db_a_new_file_in_a_folder_is_still_made(tmp_path, usual_umask):
    path = tmp_path / "new.db"
    make_engine(str(path)).dispose()
    assert stat.S_ISREG(path.stat().st_mode) and stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize("raw, key", [
    ('{"format": "warledger/1", "game": "soe", "format": "warledger/1"}', "'format'"),
    ('{"format": "warledger/1", "steps": [{"kind": "a", "seq": 1, "kind": "b"}]}', "'kind'"),
    ('{"players": [{"name": "Ana", "name": "Bo"}]}', "'name'"),
])
def test_a_key_given_twice_is_refused_with_its_name(raw, key):
    with pytest.raises(RuleError) as refused:
        parse_text(raw)
    assert str(refused.value) == f"the file gives the key {key} twice in one object; say it once"


def test_replay_refuses_a_session_file_with_a_key_twice(tmp_path):
    game = (DATA / "soe_full_game.json").read_text()
    twice = game.replace('"title":', '"title": "Another title", "title":', 1)
    assert twice != game
    (tmp_path / "twice.json").write_text(twice)
    line = refused_line("--db", tmp_path / "w.db", "replay", tmp_path / "twice.json")
    assert "the key 'title' twice in one object" in line and "nothing was stored" in line
    # one key each time is read as before
    (tmp_path / "once.json").write_text(game)
    assert CliRunner().invoke(app, ["--db", str(tmp_path / "w.db"), "replay",
                                    str(tmp_path / "once.json")]).exit_code == 0
