"""What a table types into a grid does what the README says (issue 44): a paste (bracketed,
as most terminals paste) fills the cells typing its characters would, up to a ceiling; a
number out of bounds leaves the cell as it was; `x` works down the end-of-war checklist; a
row jump lands on the row's first cell, after reopening a game too."""

from __future__ import annotations

import pytest
from pilot_pace import pause_skips_the_live_look, typing  # noqa: F401 - a fixture
from test_table_pace import SIZE, grid_of, open_game
from test_tui_risk import settle
from test_tui_soe import drafted, new_game, pause_until

from tui.games.soe.forms import Checklist

pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")


def message(screen) -> str:
    return str(screen.query_one("#message").render())



# ---------------------------------------------------------------- 2. out of bounds


async def test_a_region_cell_refuses_a_hundred_markers_and_keeps_what_it_had(table):
    """`=100 Space` in a region cell: the 0 that makes 100 is refused beside the grid, as
    the rules would refuse the step (at most 99 markers of a power in a region), and the
    cell keeps the 10 it had; nothing typed there ever shows 100."""
    game_id = new_game(table, steps=0)
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        grid = grid_of(screen)
        await typing(pilot, "equals_sign", "1", "0", "0", "space")
        await settle(pilot)
        assert grid.value("German States", "France") == 10
        assert message(screen) == "German States, Fra: at most 99, not 100"
        assert grid.cursor_at == ("German States", "Britain")


# ---------------------------------------------------------------- 3. the checklist


async def test_x_ticks_the_checklist_line_by_line(table):
    game_id = new_game(table, steps=4)  # war 1 scored: the end-of-war checklist
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        checklist = screen.query_one(Checklist)
        lines = checklist.option_count
        assert lines == 6
        await typing(pilot, *["x"] * lines)
        assert sorted(checklist.selected) == list(range(lines))
        assert checklist.highlighted == lines - 1  # the last line: nowhere further
        await pilot.press("up", "x")  # a tick taken back: unticked, the cursor stays
        assert sorted(checklist.selected) == [0, 1, 2, 3, 5]
        assert checklist.highlighted == lines - 2
        await pilot.press("x")  # ticked again, and on to the next line
        assert sorted(checklist.selected) == list(range(lines))
        assert checklist.highlighted == lines - 1
        await pilot.press("enter")  # all ticked: war 2
        assert await pause_until(pilot, lambda: table.ledger().head(game_id) == 5, 5)


# ---------------------------------------------------------------- 4. row jumps


async def test_a_row_jump_lands_on_the_rows_first_cell_after_reopening_too(table):
    """War 1's upkeep: France's armies and fleets typed, the cursor on France's forts. The
    game left and reopened puts the cursor back there (the draft's); then `b 2` is Bo's
    (Britain's) armies, not his forts."""
    game_id = new_game(table, steps=1)
    ledger = table.ledger()
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        await typing(pilot, "5", "3")
        assert grid_of(screen).cursor_at == ("France", "fortresses")
        await pilot.press("ctrl+o")  # to the saved games: the draft is kept as the game goes
        assert await pause_until(pilot, lambda: drafted(ledger, game_id).get("cursor") == [
            "France", "fortresses"], 5)
        screen = await open_game(pilot, game_id)
        await settle(pilot)
        grid = grid_of(screen)
        assert grid.cursor_at == ("France", "fortresses")
        await typing(pilot, "b", "2")
        assert grid.value("Britain", "armies") == 2 and grid.value("Britain", "fortresses") == 0
        assert grid.cursor_at == ("Britain", "fleets")
        await typing(pilot, "F", "b")  # a column chosen, then a row: its first cell again
        assert grid.cursor_at == ("Britain", "armies")
