"""Table pace (issue 14): grids start from what the table last entered, undo gives the
typing back, the cursor comes back where it was, and the grid's quick keys."""

from __future__ import annotations

import pytest
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture
from test_tui_soe import REGION_VALUES, drafted, new_game, pause_until, session_file

from tui.games.soe.dialogs import TaxDialog
from tui.games.soe.game import SoeGameScreen
from tui.widgets.number_grid import NumberGrid

pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")
SIZE = (120, 40)
WAR1 = session_file()["steps"][0]["regions"]  # war 1's markers
UNITS1 = session_file()["steps"][1]["units"]


async def open_game(pilot, game_id: int) -> SoeGameScreen:
    await pilot.pause()
    pilot.app.open_game(game_id)
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, SoeGameScreen)
    return screen


def grid_of(screen) -> NumberGrid:
    return screen.form.grid


def nonzero(grid: NumberGrid) -> dict[str, dict[str, int]]:
    return {r: {c: v for c, v in row.items() if v} for r, row in grid.values.items()
            if any(row.values())}


async def test_war_2_starts_from_war_1s_markers_and_units(table):
    game_id = new_game(table, steps=5)  # war 1 over
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        assert nonzero(grid_of(screen)) == WAR1
        await pilot.press("enter")  # nothing changed on the map: income as it stands
        await pilot.pause()
        assert screen.state.phase == "upkeep"
        units = {p: {k: grid_of(screen).value(p, k) for k in ("armies", "fleets", "fortresses")}
                 for p in UNITS1}
        assert units == UNITS1
        assert all(grid_of(screen).value(p, "tokens") == [] for p in UNITS1)  # never carried
    income = table.ledger().export(game_id)["steps"][5]
    assert income == {"kind": "income", "regions": WAR1}


async def test_undo_gives_back_the_undone_steps_typing(table):
    game_id = new_game(table, steps=2)  # income and upkeep of war 1: population next
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        await pilot.press("ctrl+z")  # upkeep taken back: its units are in the grid again
        await pilot.pause()
        assert screen.state.phase == "upkeep"
        assert grid_of(screen).value("Austria", "armies") == UNITS1["Austria"]["armies"]
        assert grid_of(screen).value("Britain", "fleets") == UNITS1["Britain"]["fleets"]
        await pilot.press("ctrl+z")  # income taken back: the region grid as it was typed
        await pilot.pause()
        assert screen.state.phase == "actions"
        assert nonzero(grid_of(screen)) == WAR1
        assert "Prussia" in [c.key for c in grid_of(screen).grid_columns]  # it holds markers


async def test_undoing_a_taxation_keeps_the_grid_being_typed(table):
    game_id = new_game(table, steps=0)
    table.ledger().record(game_id, {"kind": "tax", "power": "France", "unrest": 2})
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        await pilot.press("4", "2")  # German States: France 4, Britain 2
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert screen.state.empires["France"].gold == 10  # the taxation is gone
        assert grid_of(screen).value("German States", "France") == 4
        assert grid_of(screen).value("German States", "Britain") == 2


async def test_the_cursor_comes_back_where_it_was(table):
    game_id = new_game(table, steps=0)
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        await pilot.press("i", "B")  # India, Britain's column
        assert grid_of(screen).cursor_at == ("India", "Britain")
        ledger = table.ledger()  # the draft is kept after a short quiet spell
        assert await pause_until(
            pilot, lambda: drafted(ledger, game_id).get("cursor") == ["India", "Britain"], 5)
        await pilot.press("ctrl+o")
        await pilot.pause()
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        await pilot.pause()
        assert grid_of(screen).cursor_at == ("India", "Britain")


async def test_quick_keys_of_the_region_grid(table):
    game_id = new_game(table, steps=0)
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        grid = grid_of(screen)
        assert grid.cursor_at == ("German States", "France")
        await pilot.press("3")  # one digit: the cursor moves on by itself
        assert grid.value("German States", "France") == 3
        assert grid.cursor_at == ("German States", "Britain")
        await pilot.press("space")  # skips a cell
        assert grid.cursor_at == ("German States", "Austria")
        await pilot.press("equals_sign", "1", "2")  # = first: a longer number, cursor stays
        assert grid.value("German States", "Austria") == 12
        assert grid.cursor_at == ("German States", "Austria")
        await pilot.press("full_stop")  # the next row's first cell
        assert grid.cursor_at == ("Baltic", "France")
        await pilot.press("c", "a")  # letters jump to the row of that name
        assert grid.cursor_at == ("Caribbean", "France")
        await pilot.press("c")  # a first letter again: the next such row
        assert grid.cursor_at == ("Central Europe", "France")
        await pilot.press("R", "plus", "plus")  # a capital: the column of that power
        assert grid.value("Central Europe", "Russia") == 2
        await pilot.press("4", "1")  # the last column's digit wraps to the next row
        assert grid.cursor_at == ("Ottoman Empire", "Britain")
        assert grid.value("Ottoman Empire", "France") == 1
        await pilot.press("enter")
        await pilot.pause()
    step = table.ledger().export(game_id)["steps"][0]
    assert step["regions"] == {"German States": {"France": 3, "Austria": 12},
                               "Central Europe": {"Russia": 4},
                               "Ottoman Empire": {"France": 1}}


async def test_a_letter_in_a_grid_never_opens_a_dialog(table):
    game_id = new_game(table, steps=0)
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        for key in ["x", "c", "t", "q", "z"]:  # one game screen tries every letter
            assert app.focused is grid_of(screen), key  # the letter goes to the grid
            before = {r: dict(row) for r, row in grid_of(screen).values.items()}
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is screen, key
            assert grid_of(screen).values == before, key
            await pilot.press("ctrl+x")  # the game's keys are ctrl keys
            await pilot.pause()
            assert isinstance(app.screen, TaxDialog), key
            await pilot.press("escape")  # nothing recorded: the grid as the letter left it
            await pilot.pause()
            assert app.screen is screen


async def test_non_player_columns_fold_away_with_four_players(table):
    game_id = new_game(table, steps=0)
    three = table.ledger().create_game(
        "soe", "Three", {"regions": REGION_VALUES},
        [{"name": "Ana", "power": "France"}, {"name": "Bo", "power": "Britain"},
         {"name": "Cy", "power": "Austria"}]).id
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        assert [c.key for c in grid_of(screen).grid_columns] == [
            "France", "Britain", "Austria", "Russia"]
        await pilot.press("3")
        await pilot.press("ctrl+l")  # the non-player powers, asked for: typing kept
        await pilot.pause()
        assert len(grid_of(screen).grid_columns) == 7
        assert grid_of(screen).value("German States", "France") == 3
        screen = await open_game(pilot, three)  # 2-3 players: they matter, always shown
        assert len(grid_of(screen).grid_columns) == 7


async def test_scoring_waits_when_income_was_given_as_totals(table):
    game_id = new_game(table, steps=0)
    ledger = table.ledger()
    ledger.record(game_id, {"kind": "income", "markers": {"France": 4}})
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        await pilot.press("enter")  # upkeep of nothing; population follows, scoring waits
        await pilot.pause()
        assert screen.state.phase == "scoring"  # the region grid is needed here
        assert "then by itself: population" in str(screen.query_one("#message").render())


async def test_nine_tax_tokens_show_in_full(table):
    game_id = new_game(table, steps=1)  # upkeep is next
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        grid = grid_of(screen)
        await pilot.press("right", "right", "right", *"123456789")
        await pilot.pause()
        assert grid.value("France", "tokens") == list(range(1, 10))
        shown = "1 2 3 4 5 6 7 8 9"
        assert grid.columns["tokens"].content_width >= len(shown)
