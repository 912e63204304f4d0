"""The command palette in a burst: Textual searches for what was typed in a worker, and
until it is done the list shows the entries found before, so a word and Enter typed at once
could run an entry of the list before (the spectator's help, in a busy run). Enter, and in
the players' app every key behind the typing, waits for the search of what was typed before
it (tui/screens/palette.py). Both tests failed on Textual's palette as it was.
"""

from __future__ import annotations

import pytest
from pilot_pace import pause_skips_the_live_look, shows, typing, until  # noqa: F401 - a fixture
from test_scoreboard import store_soe
from textual import events
from textual.command import CommandPalette

from tui.scoreboard.app import ScoreboardApp
from tui.scoreboard.screen import ScoreboardScreen
from tui.screens.home import HomeScreen
from tui.screens.league import LeagueScreen

pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "table.db")


def screens(app) -> list[str]:
    return [type(screen).__name__ for screen in app.screen_stack]


async def test_a_burst_through_the_palette_runs_the_entry_it_searched_for(table):
    app = table.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await shows(pilot, HomeScreen)
        await typing(pilot, "ctrl+p", *"league", "enter")
        await shows(pilot, LeagueScreen)
        assert screens(app) == ["HomeScreen", "LeagueScreen"]
        # A key behind the Enter waits too: the league's own, not the palette's search.
        await typing(pilot, "ctrl+p", *"help", "enter", "escape")
        await until(pilot, lambda: screens(app)[-1] == "LeagueScreen", "back at the league")
        assert screens(app) == ["HomeScreen", "LeagueScreen"]


async def test_the_spectators_enter_waits_for_the_search_of_what_was_typed(db):
    """The scoreboard hands keys on as Textual does; its Enter still waits for the search:
    `record` finds nothing there, and the help (the first entry of the whole list) stays
    shut."""
    store_soe(db)
    app = ScoreboardApp(db)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ScoreboardScreen), "the board")
        await pilot.press("ctrl+p")
        await until(pilot, lambda: CommandPalette.is_open(app) and app.screen.has_class(
            "-ready"), "the palette's whole list")
        for key in "record":
            app.post_message(events.Key(key, key))
        app.post_message(events.Key("enter", "\r"))
        await until(pilot, lambda: not any(
            worker.group == app.screen._GATHER_COMMANDS_GROUP and not worker.is_finished
            for worker in app.workers), "the search for 'record'")
        await pilot.pause()
        assert screens(app)[-1] == "Palette"  # nothing chosen: no entry is called "record"
        assert app.screen.query_one("CommandInput").value == "record"
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ScoreboardScreen), "the board")
        assert "HelpScreen" not in screens(app)
