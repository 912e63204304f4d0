"""The home screen follows the other terminals (issue 44): a game set up, played on,
finished or deleted elsewhere shows in the saved games' list within a moment, without
leaving the screen; on SQLite (another ledger, and another process, on the same file) and
on PostgreSQL (when WARLEDGER_TEST_PG names a server)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from test_tui_soe import pause_until, session_file
from textual.widgets import DataTable

from tui.app import WarledgerApp
from tui.screens.home import HomeScreen

PLAYERS = [{"name": "Ana", "power": "France"}, {"name": "Bo", "power": "Britain"}]
SIZE = (120, 40)
SOON = 10  # seconds: the list follows within one, this is far longer
ROOT = Path(__file__).resolve().parent.parent


def titles(app) -> list[str]:
    table = app.screen.query_one("#games", DataTable)
    return [str(table.get_row_at(i)[0]) for i in range(table.row_count)]


async def test_the_home_list_follows_games_made_played_finished_and_deleted_elsewhere(
        make_ledger):
    mine, theirs = make_ledger(), make_ledger()
    mine.create_game("soe", "Here before", {}, PLAYERS)
    app = WarledgerApp(ledger=mine)
    async with app.run_test(size=SIZE) as pilot:
        assert await pause_until(pilot, lambda: titles(app) == ["Here before"], SOON)
        assert isinstance(app.screen, HomeScreen)

        game = theirs.replay(session_file() | {"title": "Theirs"})  # another terminal's
        assert await pause_until(pilot, lambda: titles(app) == ["Theirs", "Here before"],
                                 SOON)
        # Their last step ends the game: its line says so.
        data = session_file()
        steps = data["steps"]
        played = theirs.replay(data | {"title": "Nearly done", "steps": steps[:-1]})
        assert await pause_until(pilot, lambda: "Nearly done" in titles(app), SOON)
        theirs.record(played.id, steps[-1])

        def finished() -> bool:
            table = app.screen.query_one("#games", DataTable)
            where = str(table.get_row(str(played.id))[2])
            return where == "Finished"

        assert await pause_until(pilot, finished, SOON)

        theirs.delete_game(game.id)
        assert await pause_until(pilot, lambda: "Theirs" not in titles(app), SOON)
        assert titles(app) == ["Nearly done", "Here before"]


async def test_the_cursor_stays_on_its_game_when_another_comes_above_it(make_ledger):
    mine, theirs = make_ledger(), make_ledger()
    mine.create_game("soe", "First", {}, PLAYERS)
    second = mine.create_game("soe", "Second", {}, PLAYERS)
    app = WarledgerApp(ledger=mine)
    async with app.run_test(size=SIZE) as pilot:
        assert await pause_until(pilot, lambda: titles(app) == ["Second", "First"], SOON)
        await pilot.press("down")  # First
        home = app.screen
        assert home.selected_game() != second.id
        chosen = home.selected_game()
        theirs.create_game("soe", "Third", {}, PLAYERS)
        assert await pause_until(pilot, lambda: len(titles(app)) == 3, SOON)
        assert home.selected_game() == chosen


async def test_another_process_on_the_same_file_shows_on_the_home_list(tmp_path):
    from tests.at_head import new_database
    from tests.conftest import Table

    path = tmp_path / "table.db"
    new_database(path)
    table = Table(path)
    try:
        app = table.app()
        async with app.run_test(size=SIZE) as pilot:
            assert await pause_until(pilot, lambda: app.screen.games_listed == 0, SOON)
            game_file = tmp_path / "game.json"
            game_file.write_text(__import__("json").dumps(session_file() | {
                "title": "From another process"}), encoding="utf-8")
            env = dict(os.environ)
            subprocess.run([sys.executable, "-m", "tui", "replay", str(game_file), "--db",
                            table.url], check=True, cwd=ROOT, env=env, capture_output=True,
                           timeout=120)
            assert await pause_until(pilot, lambda: titles(app) == ["From another process"],
                                     SOON)
            subprocess.run([sys.executable, "-m", "tui", "delete", "1", "--yes", "--db",
                            table.url], check=True, cwd=ROOT, env=env, capture_output=True,
                           timeout=120)
            assert await pause_until(pilot, lambda: app.screen.games_listed == 0, SOON)
    finally:
        table.close()


async def test_back_from_a_game_the_list_follows_again(make_ledger):
    """Under another screen the list's watch is given back; on the way back it follows
    the other terminals again."""
    mine, theirs = make_ledger(), make_ledger()
    game = mine.create_game("soe", "Played here", {}, PLAYERS)
    app = WarledgerApp(ledger=mine)
    async with app.run_test(size=SIZE) as pilot:
        assert await pause_until(pilot, lambda: titles(app) == ["Played here"], SOON)
        home = app.screen
        app.open_game(game.id)
        assert await pause_until(pilot, lambda: app.screen is not home, SOON)
        assert await pause_until(pilot, lambda: home._watch is None, SOON)
        theirs.create_game("soe", "Set up meanwhile", {}, PLAYERS)
        await pilot.press("ctrl+o")
        assert await pause_until(pilot, lambda: app.screen is home, SOON)
        assert await pause_until(pilot, lambda: len(titles(app)) == 2, SOON)
        theirs.create_game("soe", "Set up after", {}, PLAYERS)
        assert await pause_until(pilot, lambda: "Set up after" in titles(app), SOON)
