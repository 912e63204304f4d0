"""The command line in Romanian (issue 24): `--lang`, WARLEDGER_LANG and the locale choose
it, for warledger's own words and Typer's (usage lines, errors), and storage's refusals;
English stays as it was. The language is per process: the choosing runs the real command,
the rest Typer's CliRunner with the language set."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import CliRunner

from i18n import set_language, translation_of
from tui.cli.typer_app import app

ROOT = Path(__file__).parent.parent
SOE_FILE = Path(__file__).parent / "data" / "soe_full_game.json"


def ro(message: str) -> str:
    """`message` in Romanian; the test fails if it has no Romanian translation."""
    said = translation_of("ro").gettext(message)
    assert said != message, f"no Romanian for {message!r}"
    return said


def warledger(*args: str, db: Path, **env: str) -> subprocess.CompletedProcess:
    """`python -m tui ARGS` with `env` over an environment that asks for no language."""
    base = {k: v for k, v in os.environ.items()
            if k not in ("WARLEDGER_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")}
    return subprocess.run([sys.executable, "-m", "tui", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60,
                          env={**base, "WARLEDGER_DB": str(db), "NO_COLOR": "1", **env})


def test_lang_warledger_lang_and_the_locale_choose_romanian(tmp_path):
    db = tmp_path / "table.db"
    nothing = ro("No saved games yet.")
    for args, env in ((["--lang", "ro", "sessions"], {}),
                      (["sessions", "--lang=ro"], {"WARLEDGER_LANG": "en"}),
                      (["sessions"], {"WARLEDGER_LANG": "ro"}),
                      (["sessions"], {"LANG": "ro_RO.UTF-8"}),
                      (["sessions"], {"LC_ALL": "ro_RO.UTF-8", "LANG": "en_US.UTF-8"})):
        done = warledger(*args, db=db, **env)
        assert (done.returncode, done.stdout.strip(), done.stderr) == (0, nothing, ""), args
    for env in ({}, {"LANG": "C.UTF-8"}, {"LC_ALL": "en_GB.UTF-8", "LANG": "ro_RO.UTF-8"}):
        assert warledger("sessions", db=db, **env).stdout.strip() == "No saved games yet."


def test_a_language_with_no_catalog_is_one_line_and_exit_2(tmp_path):
    done = warledger("--lang", "fr", "sessions", db=tmp_path / "table.db")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "warledger: --lang: 'fr' is not one of en, ro\n"
    said = warledger("--lang", "fr", "sessions", db=tmp_path / "table.db",
                     WARLEDGER_LANG="ro").stderr
    assert said == "warledger: --lang: " + ro("{given} is not one of {languages}").format(
        given="'fr'", languages="en, ro") + "\n"


def test_typers_help_and_errors_are_romanian(tmp_path):
    db = tmp_path / "table.db"
    helped = warledger("--lang", "ro", "export", "--help", db=db)
    assert helped.returncode == 0
    assert helped.stdout.startswith(ro("Usage:") + " python -m tui export")
    for words in (ro("Options"), ro("Show this message and exit."),
                  ro("Write a game as a session file (json) or its standings (csv); or games "
                     "as BoardGameGeek plays XML (bgg) or BG Stats JSON (bgstats)."),
                  ro("Game id (see `sessions`)")):
        assert words in " ".join(helped.stdout.split()), words
    wrong = warledger("--lang", "ro", "export", "x", db=db)
    assert wrong.returncode == 2
    assert ro("Try '{command} {option}' for help.").format(
        command="python -m tui export", option="--help") in wrong.stderr
    assert ro("Error: {message}").format(message=ro("Invalid value for {name}: {reason}").format(
        name="'sessions'", reason=ro("Input should be a valid integer, unable to parse string "
                                    "as an integer"))) in wrong.stderr


@pytest.mark.parametrize(("args", "english"), [
    (["rename", "1"], "Missing argument 'title'."),
    (["sessions", "--jsn"], "No such option: --jsn (Possible options: --json)"),
    (["sesions"], "No such command 'sesions'. Did you mean 'sessions', 'season'?"),
    (["serve"], "Missing command."),
    (["delete", "1", "2"], "Got unexpected extra argument(s) (2)"),
    (["sessions", "--json=1"], "Option '--json' does not take a value."),
])
def test_each_usage_error_is_said_in_romanian_and_exits_2(args, english):
    said = CliRunner().invoke(app, args)
    assert said.exit_code == 2 and f"Error: {english}" in said.stderr
    set_language("ro")
    said = CliRunner().invoke(app, args)
    assert said.exit_code == 2
    assert "Error" not in said.stderr and english not in said.stderr
    assert ro("Error: {message}").split("{")[0] in said.stderr


def test_what_the_commands_say_is_romanian(tmp_path):
    db = f"sqlite:///{tmp_path / 'table.db'}"
    set_language("ro")
    stored = CliRunner().invoke(app, ["replay", str(SOE_FILE), "--db", db])
    assert stored.exit_code == 0, stored.stderr
    assert ro("Stored as game {game}: {title}").format(game=1, title="Friday at Ana's") \
        in stored.stdout
    assert ro("Result: {result} ({format}), winners: {winners}").format(
        result=translation_of("ro").pgettext("game result", "win"),
        format=translation_of("ro").pgettext("result format", "victory_points"),
        winners="Bo") in stored.stdout
    assert ro("France") in stored.stdout  # a power, in the standings
    bad = Path(__file__).parent / "data" / "soe_bad_upkeep.json"
    several = CliRunner().invoke(app, ["replay", str(SOE_FILE), str(bad), "--db", db])
    assert several.exit_code == 1
    assert ro("{stored} stored, {refused} refused").format(stored=1, refused=1) \
        in several.stdout
    assert ro("{reason}; nothing was stored").split("{reason}")[1] in several.stderr
    missing = CliRunner().invoke(app, ["delete", "9", "--yes", "--db", db])
    assert missing.exit_code == 1
    assert missing.stderr == "warledger: " + ro("There is no game {game}").format(game=9) + "\n"
