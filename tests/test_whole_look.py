"""The look is read in two parts (issue 48's start-up): app.tcss, what home needs, before the
first frame; screens.tcss, every other screen's, after it or as soon as another screen
shows, whichever comes first. A screen shown at once has its whole look; the scoreboard's
app, whose first screen is not home, has it before its first frame."""

from __future__ import annotations

from pilot_pace import shows, until

import tui.app
from tui.app import TableApp, WarledgerApp
from tui.games.soe.setup import NewSoeGameScreen
from tui.screens.dialogs import ConfirmDialog
from tui.screens.home import HomeScreen


def read(app: TableApp) -> bool:
    return app.stylesheet.has_source(str(TableApp.REST_OF_THE_LOOK), "")


def test_the_two_parts_hold_every_rule_once():
    first = TableApp.CSS_PATH.read_text()
    rest = TableApp.REST_OF_THE_LOOK.read_text()
    assert "HomeScreen" in first and "HomeScreen" not in rest
    assert "PhaseBar" in rest and "PhaseBar" not in first


async def test_a_screen_shown_at_once_has_its_whole_look(table, monkeypatch):
    monkeypatch.setattr(tui.app, "WHOLE_LOOK_AFTER", 60.0)  # only the screen shown reads it
    app = table.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await shows(pilot, HomeScreen)
        assert not read(app), "home's first frame waits for no other screen's look"
        await pilot.press("n")  # a new Struggle of Empires game
        await shows(pilot, NewSoeGameScreen)
        assert read(app)
        setup = app.screen.query_one("#setup")
        assert (setup.styles.padding.left, setup.styles.height.value) == (1, 1)  # screens.tcss


async def test_the_whole_look_is_read_after_the_first_frame_without_a_screen_shown(table):
    app = table.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: read(app), "the rest of the look read")
        assert isinstance(app.screen, HomeScreen) and len(app.screen_stack) == 1
        assert isinstance(app, WarledgerApp)



async def test_a_dialog_shown_at_once_has_its_whole_look(table, monkeypatch):
    monkeypatch.setattr(tui.app, "WHOLE_LOOK_AFTER", 60.0)
    app = table.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await shows(pilot, HomeScreen)
        app.push_screen(ConfirmDialog("Delete [b]Ana[/b]'s game?"))
        await shows(pilot, ConfirmDialog)
        box = app.screen.query_one(".dialog")
        assert box.styles.width is not None and box.styles.width.value == 64  # screens.tcss
