"""Files that cannot fill the host's memory (issue 46): `warledger import` of a file of any
shape, up to the 16 MB a file may be, grows its process by under 64 MiB above what it
held before reading the file (a 12 MB file of 1.75 million nested elements took 483 MB, 16
MB of empty elements 354 MB, 14 MB of empty JSON objects 373 MB); a file that holds no
play says so and makes no database. Each import runs in a process of its own, which reads
its peak (VmHWM) from /proc."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from rules.plays import FILE_LIMIT, Play, Player, bgg_xml, bgstats_json

MIB = 1024 * 1024
# The import, as the command line runs it, in a process that says how much it grew.
MEASURED = """
import re, sys
from pathlib import Path
def kib(field):
    return int(re.search(field + r":\\s+(\\d+)", Path("/proc/self/status").read_text())[1])
from tui.cli.typer_app import app
import tui.cli.commands, rules.plays, rules.streams, storage.ledger, ijson, defusedxml.ElementTree
start = kib("VmRSS")
try:
    app(sys.argv[1:], prog_name="warledger")
except SystemExit as e:
    code = e.code
else:
    code = 0
print("GREW", kib("VmHWM") - start, file=sys.stderr)
sys.exit(code)
"""


def imported(path: Path, db: Path) -> tuple[int, int, str]:
    """(exit status, KiB grown, what it said) of `warledger --db DB import PATH`."""
    done = subprocess.run([sys.executable, "-c", MEASURED, "--db", str(db), "import",
                           str(path)], capture_output=True, text=True, timeout=300)
    grew = int(done.stderr.rsplit("GREW", 1)[1])
    said = done.stdout + done.stderr.rsplit("GREW", 1)[0]
    return done.returncode, grew, said


def risk_plays(count: int, source) -> list[Play]:
    start = datetime(2024, 1, 1, 19, tzinfo=UTC)
    colours = ["red", "blue", "green", "yellow", "black", "pink"]
    return [Play("risk", start + timedelta(hours=i), 120, True,
                 tuple(Player(f"Player{(i + k) % 30:02d}", k, colours[k], 10 + k, k == 0)
                       for k in range(6)), None, 0, None, source(i))
            for i in range(count)]


HOSTILE = {
    "nested.xml": lambda: b"<plays>" + b"<a>" * 1_750_000 + b"</a>" * 1_750_000 + b"</plays>",
    "empty elements.xml": lambda: b"<plays>" + b"<a/>" * ((FILE_LIMIT - 20) // 4) + b"</plays>",
    "one play of empty elements.xml": lambda: (
        b'<plays><play date="2025-01-01"><item name="Risk"/>' + b"<a/>" * 4_000_000
        + b"</play></plays>"),
    "empty objects.json": lambda: (b'{"players": [], "games": [], "plays": ['
                                   + b",".join([b"{}"] * 5_000_000) + b"]}"),
    "one huge play.json": lambda: (b'{"players": [], "games": [], "plays": [{"x": ['
                                   + b",".join([b"[]"] * 5_000_000) + b"]}]}"),
    "empty lists elsewhere.json": lambda: (b'{"players": [], "games": [], "plays": [], '
                                           b'"locations": [' + b",".join([b"[]"] * 2_500_000)
                                           + b"]}"),
    "players of one id each.json": lambda: (
        b'{"games": [], "plays": [], "players": ['
        + b",".join(b'{"id": %d}' % i for i in range(1_000_000)) + b"]}"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", HOSTILE)
def test_no_file_of_any_shape_grows_the_import_by_64_mib(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(HOSTILE[name]())
    assert path.stat().st_size <= FILE_LIMIT
    code, grew, said = imported(path, tmp_path / "w.db")
    assert grew < 64 * 1024, f"{name}: grew by {grew} KiB ({said})"
    assert code == 1 and "nothing was stored" in said and "Traceback" not in said, said
    assert not (tmp_path / "w.db").exists()  # nothing to store: no database made


@pytest.mark.slow
@pytest.mark.parametrize("form", ["bgg", "bgstats"])
def test_a_real_file_of_hundreds_of_plays_is_stored_within_the_ceiling(tmp_path, form):
    """500 six-player Risk plays: stored, and the process within the ceiling (16 MB of them:
    tests/benchmarks/import_memory.py)."""
    plays = risk_plays(500, (lambda i: f"bgg:{i + 1}") if form == "bgg" else
                       (lambda i: f"bgstats:00000000-0000-4000-8000-{i:012d}"))
    path = tmp_path / f"plays.{'xml' if form == 'bgg' else 'json'}"
    path.write_text(bgg_xml(plays) if form == "bgg" else json.dumps(bgstats_json(plays)))
    code, grew, said = imported(path, tmp_path / "w.db")
    assert code == 0 and "500 plays stored" in said, said
    assert grew < 64 * 1024, f"grew by {grew} KiB"


def test_a_file_with_plays_of_other_games_only_says_so_and_makes_no_database(tmp_path):
    path = tmp_path / "chess.xml"
    path.write_text('<plays><play id="1" date="2025-01-01" quantity="1" length="30">'
                    '<item name="Chess" objectid="171"/><players>'
                    '<player name="Ana" win="1"/><player name="Bo" win="0"/></players>'
                    "</play></plays>")
    code, _grew, said = imported(path, tmp_path / "w.db")
    assert code == 0, said
    assert "holds no finished play of Struggle of Empires or Risk" in said
    assert "1 play of another game skipped" in said
    assert not (tmp_path / "w.db").exists()
