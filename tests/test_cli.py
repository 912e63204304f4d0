"""The command line: replay, export, sessions, league, --db and WARLEDGER_DB, refusals.

Most tests drive `tui.cli.typer_app.app` with Typer's CliRunner; two run `uv run warledger` for real.
Every test runs on a temporary SQLite file and, with WARLEDGER_TEST_PG set, on PostgreSQL.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_runner import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.session_file import read_session
from rules.soe import POWERS, SOE
from rules.timeline import Timeline, read_step
from storage.engine import StorageError
from tests.at_head import new_database
from tui.cli.options import tui_options
from tui.cli.start import main
from tui.cli.typer_app import app

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent
SOE_FILE = DATA / "soe_full_game.json"
RISK_FILE = DATA / "risk_fixed_rounds.json"
BAD_FILE = DATA / "soe_bad_upkeep.json"

REPORT_KEYS = {"game", "status", "result", "format", "rounds", "winners", "standings"}
SOE_ROW_KEYS = {"player", "power", "gold", "population", "unrest", "vp", "penalty",
                "final_vp", "revolution", "rank"}
RISK_ROW_KEYS = {"player", "color", "territories", "continents", "armies", "score",
                 "eliminated", "mission", "rank"}
SESSION_KEYS = {"id", "game", "title", "status", "players", "phase", "updated_at"}
LEAGUE_KEYS = {"player", "played", "wins", "draws", "losses", "points"}

# The full game of soe_full_game.json, worked out by hand (RULES.md part B): e.g. Austria
# 10 gold -3 (battle) +4+2 income -8 upkeep +2 tax = 7; +9+7 -13 = 10; +9+5 -19 = 5.
SOE_EXPECTED = {
    "game": "soe", "status": "finished", "result": "win", "format": "victory_points",
    "rounds": 3, "winners": ["Bo"],
    "standings": [
        {"player": "Bo", "power": "Britain", "gold": 12, "population": 9, "unrest": 1,
         "vp": 104, "penalty": 0, "final_vp": 104, "revolution": False, "rank": 1},
        {"player": "Ana", "power": "France", "gold": 14, "population": 9, "unrest": 2,
         "vp": 70, "penalty": 4, "final_vp": 66, "revolution": False, "rank": 2},
        {"player": "Cy", "power": "Austria", "gold": 5, "population": 9, "unrest": 2,
         "vp": 47, "penalty": 4, "final_vp": 43, "revolution": False, "rank": 3},
        {"player": "Di", "power": "Russia", "gold": 14, "population": 9, "unrest": 6,
         "vp": 43, "penalty": 7, "final_vp": 36, "revolution": False, "rank": 4},
    ],
}


def sample(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def run(*args: str, db: str | None = None, env: dict[str, str] | None = None):
    """Invoke the CLI in-process; `db` goes in as the subcommand's --db option."""
    argv = [str(a) for a in args] + (["--db", db] if db else [])
    return CliRunner().invoke(app, argv, env=env)


def ok(result) -> str:
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result.stdout


def refused(result) -> str:
    """The one-line refusal of a failed command (exit 1, no traceback)."""
    assert result.exit_code == 1, (result.stdout, result.stderr, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert lines[0].startswith("warledger: ")
    return lines[0]


def sessions(db: str) -> list[dict[str, Any]]:
    return json.loads(ok(run("sessions", "--json", db=db)))


def write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def folded_report(data: dict[str, Any]) -> dict[str, Any]:
    sf = read_session(data)
    return sf.rules.report(sf.timeline.state).to_json()


def risk_duel(a: str, b: str, *, tie: bool) -> dict[str, Any]:
    """A one-round fixed-round Risk game: `a` wins, or a and b share the victory."""
    steps: list[dict[str, Any]] = [{"kind": "round", "positions": {
        a: {"territories": 21 if tie else 25, "armies": 30, "continents": []},
        b: {"territories": 21 if tie else 17, "armies": 30, "continents": []}}}]
    if tie:
        steps.append({"kind": "tiebreak", "resolution": "shared"})
    return {"format": "warledger/1", "game": "risk", "title": f"{a} v {b}",
            "settings": {"mode": "fixed_rounds", "rounds": 1},
            "players": [{"name": a, "color": "red"}, {"name": b, "color": "blue"}],
            "steps": steps}


# ---------------------------------------------------------------- replay

def test_replay_prints_the_standings(db_url):
    out = ok(run("replay", SOE_FILE, db=db_url))
    assert "Stored as game 1: Friday at Ana's" in out
    assert "Result: win (victory_points), winners: Bo" in out
    for name in ("Ana", "Bo", "Cy", "Di"):
        assert name in out
    assert [s["title"] for s in sessions(db_url)] == ["Friday at Ana's"]


def test_replay_json_has_the_design_shape_and_the_worked_numbers(db_url):
    report = json.loads(ok(run("replay", SOE_FILE, "--json", db=db_url)))
    assert set(report) == REPORT_KEYS
    for row in report["standings"]:
        assert set(row) == SOE_ROW_KEYS
    assert report == SOE_EXPECTED
    assert report == folded_report(sample(SOE_FILE))


def test_replay_of_an_unfinished_file_says_where_it_stands(db_url, tmp_path):
    data = sample(SOE_FILE)
    data["steps"] = data["steps"][:9]
    report = json.loads(ok(run("replay", write(tmp_path, "part.json", data), "--json",
                               db=db_url)))
    assert set(report) == REPORT_KEYS | {"phase", "war"}
    assert (report["status"], report["phase"], report["war"]) == ("in_progress", "population", 2)
    assert (report["result"], report["format"], report["winners"]) == (None, None, [])
    out = ok(run("replay", write(tmp_path, "part.json", data), db=db_url))
    assert "In progress: war 2, population" in out
    listed = sessions(db_url)
    assert [(s["status"], s["phase"]) for s in listed] == [("in_progress", "population")] * 2


def test_replay_risk_fixed_rounds_file(db_url):
    report = json.loads(ok(run("replay", RISK_FILE, "--json", db=db_url)))
    assert set(report) == REPORT_KEYS
    for row in report["standings"]:
        assert set(row) == RISK_ROW_KEYS
    assert (report["status"], report["result"], report["format"], report["rounds"],
            report["winners"]) == ("finished", "win", "fixed_round", 3, ["Ana"])
    rows = {r["player"]: r for r in report["standings"]}
    # 20 territories + 4 (Australia 2, South America 2) + 45/5 = 9 -> 33
    assert (rows["Ana"]["score"], rows["Bo"]["score"], rows["Cy"]["score"]) == (33, 26, 12)
    assert [r["player"] for r in report["standings"]] == ["Ana", "Bo", "Cy", "Di"]
    assert [r["rank"] for r in report["standings"]] == [1, 2, 3, 4]
    assert rows["Di"]["eliminated"] is True
    assert report == folded_report(sample(RISK_FILE))
    assert ok(run("export", "1", "--format", "csv", db=db_url)).count("\n") == 5


def test_replay_of_a_bad_step_names_it_and_stores_nothing(db_url):
    ok(run("replay", RISK_FILE, db=db_url))
    before = sessions(db_url)
    result = run("replay", BAD_FILE, "--json", db=db_url)
    line = refused(result)
    assert "step 4 (upkeep)" in line
    assert "Austria must pay 17 upkeep with 13 gold: 2 taxations needed, 1 given" in line
    assert "nothing was stored" in line
    assert result.stdout == ""
    assert sessions(db_url) == before
    assert json.loads(ok(run("league", "--json", "--game", "soe", db=db_url))) \
        == {"standings": []}


def _with(change):
    data = sample(SOE_FILE)
    change(data)
    return data


BAD_INPUTS = {
    "invalid JSON": ('{"format": "warledger/1", "game": "soe",', "not valid JSON"),
    "not an object": ("[1, 2, 3]", "must be an object"),
    "unknown top-level key": (_with(lambda d: d.update(colour="red")), "unknown key 'colour'"),
    "unknown step key": (_with(lambda d: d["steps"][1].update(turn=2)),
                         "step 2 (adjust): adjust step has unknown key 'turn'"),
    "unknown player key": (_with(lambda d: d["players"][0].update(age=40)),
                           "unknown key 'age'"),
    "unknown settings key": (_with(lambda d: d["settings"].update(bank=5)),
                             "settings has unknown key 'bank'"),
    "unknown region": (_with(lambda d: d["settings"]["regions"].update(Atlantis=[3, 1])),
                       "not one of the 11 VP regions"),
    "wrong format tag": (_with(lambda d: d.update(format="warledger/2")), "warledger/1"),
    "unknown game": (_with(lambda d: d.update(game="chess")), "game must be soe or risk"),
    "unknown step kind": (_with(lambda d: d["steps"].insert(0, {"kind": "bribe"})),
                          "step 1 (bribe)"),
    "step out of turn": (_with(lambda d: d["steps"].insert(2, {"kind": "scoring"})),
                         "step 3 (scoring)"),
    "not UTF-8": (b'{"title": "Caf\xe9"}', "not text"),
}


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_files_exit_1_with_one_line(db_url, tmp_path, case):
    content, reason = BAD_INPUTS[case]
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        write(tmp_path, "bad.json", content)
    line = refused(run("replay", path, db=db_url))
    assert reason in line
    assert "bad.json" in line
    assert sessions(db_url) == []


def test_replay_of_a_missing_file(db_url, tmp_path):
    line = refused(run("replay", tmp_path / "nowhere.json", db=db_url))
    assert "cannot read" in line and "nowhere.json" in line


def test_replay_of_several_files_stores_each_on_its_own(db_url, tmp_path):
    part = write(tmp_path, "part.json", _with(lambda d: d.update(title="Part",
                                                                steps=d["steps"][:3])))
    result = run("replay", SOE_FILE, BAD_FILE, tmp_path / "gone.json", part, db=db_url)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    # A line for each stored game, not its table: a season's exports read as a list.
    stored = result.stdout.strip().splitlines()[:-1]
    assert stored == [
        f"Stored as game 1: Friday at Ana's ({SOE_FILE}). "
        "Result: win (victory_points), winners: Bo",
        f"Stored as game 2: Part ({part}). In progress: war 1, upkeep"]
    assert result.stdout.strip().splitlines()[-1] == "2 stored, 2 refused"
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 2 and "Traceback" not in result.stderr
    assert "soe_bad_upkeep.json: step 4 (upkeep)" in errors[0]
    assert "cannot read" in errors[1] and "gone.json" in errors[1]
    assert [s["title"] for s in sessions(db_url)] == ["Part", "Friday at Ana's"]
    both = run("replay", SOE_FILE, RISK_FILE, db=db_url)
    assert both.exit_code == 0 and both.stdout.strip().endswith("2 stored, 0 refused")


def test_replay_json_of_several_files_is_a_list(db_url, tmp_path):
    result = run("replay", SOE_FILE, BAD_FILE, "--json", db=db_url)
    assert result.exit_code == 1
    good, bad = json.loads(result.stdout)
    assert good == SOE_EXPECTED
    assert set(bad) == {"file", "error"} and bad["file"] == str(BAD_FILE)
    assert bad["error"].startswith("step 4 (upkeep): Austria must pay 17 upkeep")
    assert result.stderr.strip().splitlines()[-1] == "1 stored, 1 refused"
    assert len(sessions(db_url)) == 1


def test_replay_says_stored_even_when_the_standings_cannot_be_shown(db_url, monkeypatch):
    def broken(*args):
        raise RuntimeError("no way to draw this")

    monkeypatch.setattr("tui.cli.printed.report_text", broken)
    result = run("replay", SOE_FILE, db=db_url)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "Stored as game 1: Friday at Ana's\n"
    assert "stored as" not in result.stderr and "cannot be shown" in result.stderr
    assert len(sessions(db_url)) == 1


# ---------------------------------------------------------------- rename and delete

def test_delete_with_yes_and_a_missing_game(db_url):
    ok(run("replay", SOE_FILE, db=db_url))
    ok(run("replay", RISK_FILE, db=db_url))
    out = ok(run("delete", "1", "--yes", db=db_url))
    assert out == "Deleted game 1: Friday at Ana's\n"
    assert [s["id"] for s in sessions(db_url)] == [2]
    assert "There is no game 1" in refused(run("delete", "1", "--yes", db=db_url))
    assert [s["id"] for s in sessions(db_url)] == [2]
    league = json.loads(ok(run("league", "--json", db=db_url)))["standings"]
    assert sum(r["played"] for r in league) == 4  # the risk game's four players only


def test_delete_and_rename_without_a_terminal_need_yes(db_url):
    ok(run("replay", SOE_FILE, db=db_url))
    line = refused(run("delete", "1", db=db_url))
    assert "--yes" in line and "deleting game 1" in line
    line = refused(run("rename", "1", "Saturday", db=db_url))
    assert "--yes" in line and "renaming game 1" in line
    assert [s["title"] for s in sessions(db_url)] == ["Friday at Ana's"]


def test_delete_and_rename_ask_on_a_terminal(db_url, monkeypatch):
    monkeypatch.setattr("tui.cli.typer_app.on_terminal", lambda: True)
    ok(run("replay", SOE_FILE, db=db_url))
    no = CliRunner().invoke(app, ["delete", "1", "--db", db_url], input="n\n")
    assert no.exit_code == 1 and "Delete game 1, Friday at Ana's" in no.stdout
    assert "nothing was changed" in no.stderr
    yes = CliRunner().invoke(app, ["rename", "1", "Saturday", "--db", db_url], input="y\n")
    assert yes.exit_code == 0, yes.stderr
    assert "Rename game 1, Friday at Ana's, to Saturday?" in yes.stdout
    assert [s["title"] for s in sessions(db_url)] == ["Saturday"]
    gone = CliRunner().invoke(app, ["delete", "1", "--db", db_url], input="y\n")
    assert gone.exit_code == 0 and "Deleted game 1: Saturday" in gone.stdout
    assert sessions(db_url) == []


def test_rename_checks_the_title(db_url):
    ok(run("replay", SOE_FILE, db=db_url))
    assert ok(run("rename", "1", "  Saturday  ", "--yes", db=db_url)) \
        == "Game 1 is now called Saturday\n"
    for bad, reason in (("", "non-empty"), ("x" * 61, "at most 60"),
                        ("Sat\u202eurday", "text-direction")):
        line = refused(run("rename", "1", bad, "--yes", db=db_url))
        assert reason in line and "nothing was changed" in line
    assert "There is no game 9" in refused(run("rename", "9", "Sunday", "--yes", db=db_url))
    assert [s["title"] for s in sessions(db_url)] == ["Saturday"]


def test_ledger_rename_game_shows_at_the_next_load(ledger):
    game = ledger.replay(sample(SOE_FILE))
    assert ledger.load(game.id).title == "Friday at Ana's"  # cached fold
    assert ledger.rename_game(game.id, " Saturday\u0301 ") == "Saturda\u00fd"  # trim, NFC
    assert ledger.load(game.id).title == "Saturda\u00fd"
    assert ledger.load(game.id).seq == game.seq
    with pytest.raises(RuleError, match="The title holds a control character"):
        ledger.rename_game(game.id, "Sat\x1b[2J")
    with pytest.raises(StorageError, match="There is no game 99"):
        ledger.rename_game(99, "Sunday")
    assert ledger.load(game.id).title == "Saturda\u00fd"


# ---------------------------------------------------------------- --player

@pytest.mark.parametrize("bad,reason", [("Bo\x1b[2J", "holds a control character (\\x1b)"),
                                        ("x" * 25, "at most 24"), ("  ", "non-empty"),
                                        ("\u3164", "")])  # blank-looking: refused
def test_a_bad_player_option_exits_2_with_one_line(bad, reason, monkeypatch, capsys):
    result = CliRunner().invoke(app, ["--player", bad, "sessions", "--json"])
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("warledger: --player: ") and reason in line
    assert "\x1b" not in result.stderr and result.stdout == ""

    started = []
    monkeypatch.setattr("tui.app.run", lambda db, player=None: started.append(player))
    monkeypatch.setattr(sys, "argv", ["warledger", "--player", bad])
    with pytest.raises(SystemExit) as exit_:
        main()
    assert exit_.value.code == 2 and started == []
    assert capsys.readouterr().err.strip() == line
    monkeypatch.setattr(sys, "argv", ["warledger", "--player", " Ana "])
    main()
    assert started == ["Ana"]  # the fast path starts the TUI with the checked name


def test_the_help_tells_of_player_a_seat_of_ones_own():
    """`--player NAME` is documented (issue 45): a terminal seating one player."""
    said = CliRunner().invoke(app, ["--help"]).stdout
    assert "--player" in said and "their own part of each step" in " ".join(said.split())


# ---------------------------------------------------------------- export

def test_export_json_replays_to_identical_standings(db_url, tmp_path):
    first = json.loads(ok(run("replay", SOE_FILE, "--json", db=db_url)))
    out = tmp_path / "exported.json"
    assert ok(run("export", "1", "-o", out, db=db_url)) == ""
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert set(exported) == {"format", "id", "game", "title", "created_at", "finished_at",
                             "settings", "players", "steps"}
    assert exported["format"] == "warledger/1"
    assert exported["steps"] == [read_step(SOE, s).to_json() for s in sample(SOE_FILE)["steps"]]
    assert json.loads(ok(run("export", "1", db=db_url))) == exported  # stdout is the same
    # the same game is stored once; --copy stores it again, as a new game
    assert json.loads(ok(run("replay", out, "--json", db=db_url))) == {
        "file": str(out), "already_stored_as": 1}
    again = json.loads(ok(run("replay", out, "--json", "--copy", db=db_url)))
    assert again == first == SOE_EXPECTED
    assert [s["id"] for s in sessions(db_url)] == [2, 1]


def test_export_risk_json_replays_to_identical_standings(db_url, tmp_path):
    first = json.loads(ok(run("replay", RISK_FILE, "--json", db=db_url)))
    out = write(tmp_path, "risk.json", ok(run("export", "1", "--format", "json", db=db_url)))
    assert json.loads(ok(run("replay", out, "--json", "--copy", db=db_url))) == first


def test_export_csv_has_one_row_per_player(db_url, tmp_path):
    ok(run("replay", SOE_FILE, db=db_url))
    out = tmp_path / "standings.csv"
    ok(run("export", "1", "--format", "csv", "-o", out, db=db_url))
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert [r["player"] for r in rows] == ["Bo", "Ana", "Cy", "Di"]
    assert set(rows[0]) == SOE_ROW_KEYS
    assert [int(r["final_vp"]) for r in rows] == [104, 66, 43, 36]
    assert ok(run("export", "1", "--format", "csv", db=db_url)) == out.read_text("utf-8")


def test_export_of_a_missing_game_exits_1(db_url):
    assert "no game 42" in refused(run("export", "42", db=db_url))
    assert "no game 42" in refused(run("export", "42", "--format", "csv", db=db_url))
    assert "json, csv, bgg or bgstats" in refused(run("export", "42", "--format", "xml", db=db_url))


# ---------------------------------------------------------------- sessions and league

def test_sessions_json_newest_first(db_url, tmp_path):
    assert sessions(db_url) == []
    ok(run("replay", SOE_FILE, db=db_url))
    ok(run("replay", RISK_FILE, db=db_url))
    part = _with(lambda d: d.update(title="Unfinished", steps=d["steps"][:3]))
    ok(run("replay", write(tmp_path, "part.json", part), db=db_url))
    listed = sessions(db_url)
    for entry in listed:
        assert set(entry) == SESSION_KEYS
    assert [(s["id"], s["game"], s["title"], s["status"], s["phase"]) for s in listed] == [
        (3, "soe", "Unfinished", "in_progress", "upkeep"),
        (2, "risk", "League night 3", "finished", "finished"),
        (1, "soe", "Friday at Ana's", "finished", "finished"),
    ]
    assert listed[1]["players"] == ["Ana", "Bo", "Cy", "Di"]
    assert listed[0]["updated_at"] >= listed[1]["updated_at"] >= listed[2]["updated_at"]
    plain = ok(run("sessions", db=db_url, env={"COLUMNS": "200"}))
    assert "Unfinished" in plain and "League night 3" in plain


def test_league_json_ordered_by_points_then_wins(db_url, tmp_path):
    assert json.loads(ok(run("league", "--json", db=db_url))) == {"standings": []}
    files = [risk_duel("Zed", "Bo", tie=False)] + [risk_duel("Bo", "Cy", tie=True)] * 3
    for i, data in enumerate(files):
        ok(run("replay", write(tmp_path, f"r{i}.json", data), db=db_url))
    ok(run("replay", SOE_FILE, db=db_url))  # Bo wins; Ana, Cy, Di lose
    league = json.loads(ok(run("league", "--json", db=db_url)))
    assert set(league) == {"standings"}
    for row in league["standings"]:
        assert set(row) == LEAGUE_KEYS
    assert [tuple(r.values()) for r in league["standings"]] == [
        ("Bo", 5, 1, 3, 1, 6),
        ("Zed", 1, 1, 0, 0, 3),  # same points as Cy, more wins
        ("Cy", 4, 0, 3, 1, 3),
        ("Ana", 1, 0, 0, 1, 0),
        ("Di", 1, 0, 0, 1, 0),
    ]
    soe = json.loads(ok(run("league", "--game", "soe", "--json", db=db_url)))
    assert [(r["player"], r["points"]) for r in soe["standings"]] == [
        ("Bo", 3), ("Ana", 0), ("Cy", 0), ("Di", 0)]
    risk = json.loads(ok(run("league", "--game", "risk", "--json", db=db_url)))
    assert [(r["player"], r["played"], r["points"]) for r in risk["standings"]] == [
        ("Zed", 1, 3), ("Bo", 4, 3), ("Cy", 3, 3)]
    assert "Zed" in ok(run("league", db=db_url))
    assert "--game must be soe or risk, not chess" in refused(
        run("league", "--game", "chess", db=db_url))


# ---------------------------------------------------------------- choosing the database

def test_db_option_and_environment_are_honoured(db_url, tmp_path, monkeypatch):
    other = str(tmp_path / "other.db")
    # --db after the subcommand, and as the global option before it
    ok(run("replay", SOE_FILE, db=db_url))
    ok(CliRunner().invoke(app, ["--db", other, "replay", str(RISK_FILE)]))
    assert [s["game"] for s in sessions(db_url)] == ["soe"]
    assert [s["game"] for s in sessions(other)] == ["risk"]
    # WARLEDGER_DB when no --db is given
    monkeypatch.setenv("WARLEDGER_DB", db_url)
    assert [s["game"] for s in json.loads(ok(run("sessions", "--json")))] == ["soe"]
    # --db wins over WARLEDGER_DB
    assert [s["game"] for s in sessions(other)] == ["risk"]
    # the default database (WARLEDGER_DB from conftest) saw none of it
    monkeypatch.delenv("WARLEDGER_DB")
    default = Path(os.environ["XDG_DATA_HOME"]) / "warledger" / "warledger.db"
    assert json.loads(ok(run("sessions", "--json"))) == []
    assert default.exists()


def test_an_unusable_database_is_one_line(tmp_path):
    line = refused(run("sessions", db="nosuchdriver://x/y"))
    assert "database URL" in line
    not_db = tmp_path / "not-a-db.db"
    not_db.write_bytes(b"this is not SQLite at all" * 100)
    assert "not a warledger database" in refused(run("sessions", db=str(not_db)))


# ---------------------------------------------------------------- the real command

UV = shutil.which("uv")


@pytest.mark.skipif(UV is None, reason="uv is not on PATH")
def test_uv_run_warledger_end_to_end(db_url, tmp_path):
    env = dict(os.environ, WARLEDGER_DB=db_url, NO_COLOR="1")
    env.pop("WARLEDGER_DEBUG", None)

    def warledger(*args):
        return subprocess.run([UV, "run", "--quiet", "warledger", *map(str, args)], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=120)

    good = warledger("replay", SOE_FILE, "--json")
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout) == SOE_EXPECTED
    bad = warledger("replay", BAD_FILE)
    assert bad.returncode == 1
    assert bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
    assert "step 4 (upkeep)" in bad.stderr
    assert [s["id"] for s in sessions(db_url)] == [1]  # the bad file stored nothing
    missing = warledger("export", "7")
    assert missing.returncode == 1 and "no game 7" in missing.stderr
    assert "Traceback" not in missing.stderr


# ---------------------------------------------------------------- export -> replay, any game

REGIONS = sample(SOE_FILE)["settings"]["regions"]


@st.composite
def soe_games(draw) -> dict[str, Any]:
    """A valid Struggle of Empires session file: seats, then steps the rules accept
    (bookkeeping, the phase steps in order, undo and redo), finished or not."""
    n = draw(st.integers(2, 5))
    powers = draw(st.permutations(POWERS))[:n]
    players = [{"name": f"P{i}", "power": p, "gold": draw(st.integers(0, 15)),
                "population": draw(st.integers(0, 9))} for i, p in enumerate(powers)]
    data = {"format": "warledger/1", "game": "soe", "title": "Drawn",
            "settings": {"regions": REGIONS,
                         "friendly_ties": draw(st.sampled_from(["split", "full"])),
                         "unfriendly_ties": draw(st.sampled_from(["demote", "cascade"])),
                         "unrest_ranking": draw(st.sampled_from(["distinct", "competition"]))},
            "players": players, "steps": []}
    sf = read_session(data)
    timeline = Timeline(SOE, sf.timeline.state)
    markers = st.integers(0, 4)
    grids = st.dictionaries(st.sampled_from(list(REGIONS)),
                            st.dictionaries(st.sampled_from(list(POWERS)), markers, max_size=3),
                            max_size=6)
    for _ in range(draw(st.integers(0, 30))):
        state = timeline.state
        if state.finished:
            choice = draw(st.sampled_from(["undo", "stop"]))
        else:
            choice = draw(st.sampled_from(["phase", "phase", "phase", "tax", "adjust",
                                           "undo", "redo"]))
        if choice == "stop":
            break
        power = draw(st.sampled_from(powers))
        if choice in ("undo", "redo"):
            step: dict[str, Any] = {"kind": choice}
        elif choice == "tax":
            step = {"kind": "tax", "power": power, "unrest": draw(st.integers(1, 3))}
        elif choice == "adjust":
            e = state.empires[power]
            step = {"kind": "adjust", "power": power, "gold": draw(st.integers(-e.gold, 3)),
                    "unrest": draw(st.integers(0, 2)), "note": "drawn"}
        elif state.phase == "actions":
            step = ({"kind": "income", "regions": draw(grids)} if draw(st.booleans()) else
                    {"kind": "income", "markers": {p: draw(markers) for p in powers}})
        elif state.phase == "upkeep":
            units, taxes = {}, {}
            for p in powers:
                u = {"armies": draw(st.integers(0, 8)), "fleets": draw(st.integers(0, 4)),
                     "fortresses": draw(st.integers(0, 2))}
                units[p] = u
                need = SOE.read_step({"kind": "upkeep", "units": {p: u}}).units[p]
                forced = state.upkeep_needs(p, need)
                taxes[p] = [draw(st.integers(1, 3))
                            for _ in range(forced + draw(st.integers(0, 1)))]
            step = {"kind": "upkeep", "units": units, "taxes": taxes}
        elif state.phase == "scoring":
            step = ({"kind": "scoring"} if state.grid is not None and draw(st.booleans())
                    else {"kind": "scoring", "regions": draw(grids)})
        else:
            step = {"kind": state.phase}  # population, end_war, end_game
        try:
            timeline = timeline.then(read_step(SOE, step))
        except RuleError:
            continue  # e.g. nothing to undo: leave it out of the file
        data["steps"].append(step)
    return data


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=soe_games())
def test_export_then_replay_is_the_identity_for_any_soe_game(tmp_path_factory, data):
    db = new_database(tmp_path_factory.mktemp("prop") / "warledger.db")
    folder = Path(db).parent
    src = write(folder, "game.json", data)
    first = json.loads(ok(run("replay", src, "--json", db=db)))
    assert first == folded_report(data)
    game_id = sessions(db)[0]["id"]
    exported = ok(run("export", str(game_id), db=db))
    again = json.loads(ok(run("replay", write(folder, "again.json", exported), "--json",
                              "--copy", db=db)))
    assert again == first


def test_the_console_script_is_tui_start_main():
    """The TUI starts without Typer (tui.cli.start); every command goes on to tui.cli.typer_app's app."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'warledger = "tui.cli.start:main"' in text
    assert tui_options([]) == {} and tui_options(["--db=x", "--player", "Ana"]) == {
        "--db": "x", "--player": "Ana"}
    for args in (["replay", "f.json"], ["--help"], ["--db"], ["--db", "x", "--db", "y"]):
        assert tui_options(args) is None
