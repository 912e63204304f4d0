"""Player text is data (issue 11), at the command line: names and titles are printed
literally (never Rich markup, never raw terminal control), refused with one line where they
break the rules, exact in JSON and harmless in CSV; a database an earlier version wrote with
a bad title still lists, and `rename`/`delete` repair it.

Every command runs in-process (Typer's CliRunner, the command built once: cli_runner) on a
real database: a temporary SQLite file and, with WARLEDGER_TEST_PG set, PostgreSQL.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import unicodedata
from pathlib import Path
from typing import Any

from cli_runner import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text as sql

from rules.errors import RuleError
from rules.fields import unsafe_char
from rules.outcome import Report, Standing
from rules.session_file import read_session
from tests.hostile import hostile_text, printable_names
from tui.cli.printed import FORMULA_START, standings_csv
from tui.cli.typer_app import app

DATA = Path(__file__).parent / "data"
SOE_FILE = DATA / "soe_full_game.json"
# No colour codes from Rich, whatever the shell running the tests asks for.
PLAIN = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "NO_COLOR": "1"}


def run(*args: Any, db: str | None = None):
    argv = [str(a) for a in args] + (["--db", db] if db else [])
    return CliRunner().invoke(app, argv, env=PLAIN)


def clean(result) -> None:
    """No traceback, a known exit status, and nothing a terminal would obey."""
    assert result.exit_code in (0, 1), (result.exit_code, result.stderr, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    for out in (result.stdout, result.stderr):
        assert "Traceback" not in out
        raw = [c for c in out if unsafe_char(c) and c != "\n"]
        assert not raw, (raw, out[-500:])


def ok(result) -> str:
    clean(result)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result.stdout


def refused(result) -> str:
    clean(result)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warledger: "), result.stderr
    return lines[0]


def listed(db: str) -> list[dict[str, Any]]:
    return json.loads(ok(run("sessions", "--json", db=db)))


def write(folder: Path, name: str, data: Any) -> Path:
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def soe_game(name: str = "Ana", title: str = "Friday at Ana's") -> dict[str, Any]:
    """The finished Struggle of Empires game of soe_full_game.json, France played by `name`
    (seats and steps are keyed by power, so the name appears once)."""
    data = json.loads(SOE_FILE.read_text(encoding="utf-8"))
    data["players"][0]["name"] = name
    data["title"] = title
    return data


def risk_game(names: list[str], title: str = "Risk night") -> dict[str, Any]:
    """A finished one-round fixed-round Risk game (two or five players): the first name
    holds the most of the 42 territories."""
    colours = ["red", "blue", "green", "yellow", "black", "pink"]
    held = {2: [25, 17], 5: [12, 10, 8, 7, 5]}[len(names)]
    return {"format": "warledger/1", "game": "risk", "title": title,
            "settings": {"mode": "fixed_rounds", "rounds": 1},
            "players": [{"name": n, "color": c} for n, c in zip(names, colours, strict=False)],
            "steps": [{"kind": "round", "positions": {
                n: {"territories": held[i], "armies": 30 - i, "continents": []}
                for i, n in enumerate(names)}}]}


def as_stored(text: str) -> str:
    return unicodedata.normalize("NFC", text).strip()


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


# ---------------------------------------------------------------- anything a player could type

@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(name=hostile_text | printable_names, title=hostile_text,
       game=st.sampled_from(["risk", "soe"]))
def test_hostile_names_and_titles_through_every_command(db_url, tmp_path, name, title, game):
    data = risk_game([name, "Bo"], title) if game == "risk" else soe_game(name, title)
    try:
        read_session(copy.deepcopy(data))
        accepted = True
    except RuleError:
        accepted = False
    before = listed(db_url)
    result = run("replay", write(tmp_path, "hostile.json", data), db=db_url)
    clean(result)
    if not accepted:
        refused(result)
        assert result.stdout == ""
        assert listed(db_url) == before  # nothing stored
    else:
        out = ok(result)
        after = listed(db_url)
        assert len(after) == len(before) + 1
        game_id = max(s["id"] for s in after)
        (entry,) = [s for s in after if s["id"] == game_id]
        stored_title = as_stored(title) if title else "Untitled game"
        assert entry["title"] == stored_title  # JSON: exact
        assert as_stored(name) in entry["players"]
        assert out.count("Stored as game") == 1
        assert f"Stored as game {game_id}: {stored_title}" in out  # literal, never markup
        assert f"│ {as_stored(name)} " in out
        exported = json.loads(ok(run("export", game_id, "--format", "json", db=db_url)))
        assert exported["title"] == stored_title
        assert [p["name"] for p in exported["players"]][0] == as_stored(name)
        rows = csv_rows(ok(run("export", game_id, "--format", "csv", db=db_url)))
        cell = as_stored(name)
        expected = "'" + cell if cell.startswith(FORMULA_START) else cell
        assert expected in [r["player"] for r in rows]
        league = ok(run("league", db=db_url))
        assert f"│ {as_stored(name)} " in league
    ok(run("sessions", db=db_url))
    ok(run("league", db=db_url))
    ok(run("league", "--json", db=db_url))


# ---------------------------------------------------------------- markup in names

def test_markup_names_are_stored_once_and_printed_literally(db_url, tmp_path):
    path = write(tmp_path, "markup.json", risk_game(["[b]Ana[/b]", "Bo[/]"], "[@click=app.quit]Q[/]"))
    for stored in (1, 2):  # each run stores one game and says so once
        out = ok(run("replay", path, db=db_url))
        assert out.count("Stored as game") == 1
        assert f"Stored as game {stored}: [@click=app.quit]Q[/]" in out
        assert "winners: [b]Ana[/b]" in out
        assert "│ [b]Ana[/b] " in out and "│ Bo[/] " in out
        assert len(listed(db_url)) == stored
    sessions = ok(run("sessions", db=db_url))
    assert "[@click=app.quit]Q[/]" in sessions and "[b]Ana[/b], Bo[/]" in sessions
    league = ok(run("league", db=db_url))
    assert "│ [b]Ana[/b] " in league and "│ Bo[/] " in league
    report = json.loads(ok(run("replay", path, "--json", db=db_url)))
    assert report["winners"] == ["[b]Ana[/b]"]


def test_several_files_print_a_literal_line_each(db_url, tmp_path):
    markup = write(tmp_path, "markup.json", risk_game(["[b]Ana[/b]", "Bo[/]"], "[b]Q[/b]"))
    escaped = write(tmp_path, "esc\x1b[2J.json", risk_game(["Cy", "Di"], "Plain"))
    refused_file = write(tmp_path, "bad\x1b]0;owned\x07.json",
                         risk_game(["\x1b[31mRed", "Bo"]))
    result = run("replay", markup, escaped, refused_file, db=db_url)
    clean(result)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"Stored as game 1: [b]Q[/b] ({markup}). "
        "Result: win (fixed_round), winners: [b]Ana[/b]",
        f"Stored as game 2: Plain ({tmp_path}/esc\\x1b[2J.json). "
        "Result: win (fixed_round), winners: Cy",
        "2 stored, 1 refused"]
    (error,) = result.stderr.splitlines()
    assert "bad\\x1b]0;owned\\x07.json" in error and "nothing was stored" in error


# ---------------------------------------------------------------- CSV for spreadsheets

def test_csv_neutralises_formulas_and_keeps_numbers(db_url, tmp_path):
    names = ["=1+1", "+1", "=-1", "@x", "Ana"]  # no name starts with "-" (the colour does)
    ok(run("replay", write(tmp_path, "csv.json", risk_game(names)), db=db_url))
    rows = csv_rows(ok(run("export", "1", "--format", "csv", db=db_url)))
    assert [r["player"] for r in rows] == ["'=1+1", "'+1", "'=-1", "'@x", "Ana"]
    assert [r["territories"] for r in rows] == ["12", "10", "8", "7", "5"]
    assert [r["rank"] for r in rows] == ["1", "2", "3", "4", "5"]
    exported = json.loads(ok(run("export", "1", db=db_url)))  # JSON stays exact
    assert [p["name"] for p in exported["players"]] == names


def test_csv_cells_that_start_a_formula_are_text_and_numbers_stay_numbers():
    standings = (
        Standing("\tx", 2, False, -3, {
            "note": "\rcr", "vp": -3, "penalty": -1, "colour": "-red",
            "continents": ["=A1", "Asia"], "eliminated": False, "mission": None}),
        Standing("Bo", 1, True, 12, {
            "note": "ok", "vp": 12, "penalty": 0, "colour": "blue", "continents": [],
            "eliminated": True, "mission": "@SUM(A1)"}),
    )
    text = standings_csv(Report("test", "finished", "win", "victory_points", 1, "round",
                                ("Bo",), standings, None))
    assert "\t" not in text and "\r" not in text  # escaped, never raw
    rows = csv_rows(text)
    assert rows[0] == {"player": "'\\x09x", "note": "'\\x0dcr", "vp": "-3", "penalty": "-1",
                       "colour": "'-red", "continents": "'=A1;Asia", "eliminated": "False",
                       "mission": "", "rank": "2"}
    assert rows[1] == {"player": "Bo", "note": "ok", "vp": "12", "penalty": "0",
                       "colour": "blue", "continents": "", "eliminated": "True",
                       "mission": "'@SUM(A1)", "rank": "1"}


# ---------------------------------------------------------------- rows an earlier version wrote

OLD_TITLE = "\x1b[2J[/]Old \u202eFriday"
OLD_NAME = "Cy\x1b]0;pwned\x07"


def test_a_bad_title_from_an_earlier_version_lists_safely_and_can_be_repaired(db_url, tmp_path):
    from storage.engine import make_engine

    ok(run("replay", SOE_FILE, db=db_url))
    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:  # what an earlier version, checking nothing, could store
            conn.execute(sql("UPDATE game_session SET title = :t"), {"t": OLD_TITLE})
            conn.execute(sql("UPDATE player SET name = :n WHERE name = 'Cy'"), {"n": OLD_NAME})
    finally:
        engine.dispose()
    out = ok(run("sessions", db=db_url))
    assert "\\x1b[2J[/]Old \\u202eFriday" in out
    assert "\\x1b]0;pwned\\x07" in out
    assert "\\x1b]0;pwned\\x07" in ok(run("league", db=db_url))
    assert listed(db_url)[0]["title"] == OLD_TITLE  # JSON: exact
    assert json.loads(ok(run("export", "1", db=db_url)))["title"] == OLD_TITLE
    ok(run("export", "1", "--format", "csv", db=db_url))

    line = refused(run("rename", "1", "Still \x1b[2J bad", "--yes", db=db_url))
    assert "\\x1b" in line and "nothing was changed" in line
    assert refused(run("rename", "1", "x" * 61, "--yes", db=db_url)).count("at most 60") == 1
    assert listed(db_url)[0]["title"] == OLD_TITLE  # refused: nothing changed

    out = ok(run("rename", "1", "  Friday [b]again[/b] ", "--yes", db=db_url))
    assert "Game 1 is now called Friday [b]again[/b]" in out
    assert listed(db_url)[0]["title"] == "Friday [b]again[/b]"
    assert json.loads(ok(run("export", "1", db=db_url)))["title"] == "Friday [b]again[/b]"

    out = ok(run("delete", "1", "--yes", db=db_url))
    assert "Deleted game 1: Friday [b]again[/b]" in out
    assert listed(db_url) == []


def test_an_error_line_never_carries_raw_control_characters(db_url, tmp_path):
    path = tmp_path / "evil\x1b[2J.json"
    line = refused(run("replay", path, db=db_url))
    assert "cannot read" in line and "evil\\x1b[2J.json" in line
    line = refused(run("replay", write(tmp_path, "n.json", risk_game(["Ana\x1b[31m", "Bo"])),
                       db=db_url))
    assert "\\x1b" in line and "nothing was stored" in line
    assert refused(run("export", "1", "--format", "\x07csv", db=db_url)).endswith("\\x07csv")
