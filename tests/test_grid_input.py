"""What a table types into a grid does what the README says (issue 44): a paste (bracketed,
as most terminals paste) fills the cells typing its characters would, up to a ceiling; a
number out of bounds leaves the cell as it was; `x` works down the end-of-war checklist; a
row jump lands on the row's first cell, after reopening a game too."""

from __future__ import annotations

import pytest
from pilot_pace import pause_skips_the_live_look, typing, until  # noqa: F401 - a fixture
from test_drafts_kept import claim_dialog_after_a_round
from test_table_pace import SIZE, grid_of, open_game
from test_tui_risk import settle
from test_tui_soe import drafted, new_game, pause_until
from textual import events

from rules.soe import REGIONS
from tui.games.soe.forms import Checklist
from tui.widgets.number_grid import PASTE_AT_MOST

pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

PASTE_START, PASTE_END = b"\x1b[200~", b"\x1b[201~"


def message(screen) -> str:
    return str(screen.query_one("#message").render())


async def paste(pilot, text: str) -> None:
    """A paste as the terminal driver posts one it read (a bracketed paste); back once the
    app has handled it and every key before it."""
    app = pilot.app
    event = events.Paste(text)
    event.set_sender(app)
    app.post_message(event)
    await until(pilot, lambda: not app.keys_waiting, "the paste to be handled")


# ---------------------------------------------------------------- 1. a paste


@pytest.mark.slow
def test_a_bracketed_paste_fills_the_income_grid_as_typing_would(tmp_path):
    """Into war 1's income grid, in one write: a paste of 6033, a 1 typed, and a paste of
    a line break and 2. The pastes land in arrival order with the key between them, each
    character where typing it would put it (a marker cell takes one digit and moves on; a
    line break goes to the next row, as `.` does)."""
    from test_keys_in_order import Terminal, soe_game

    ledger, game_id = soe_game(tmp_path / "t.db", steps=0)
    terminal = Terminal(tmp_path / "t.db")
    try:
        terminal.wait_for(b"Friday")
        terminal.write(b"\r")
        terminal.wait_for(b"Actions")
        terminal.write(PASTE_START + b"6033" + PASTE_END + b"1"
                       + PASTE_START + b"\n2" + PASTE_END)
        draft = terminal.until(lambda: len(drafted(ledger, game_id).get("values", {})) == 3
                               and drafted(ledger, game_id))
    finally:
        terminal.close()
    first, second, third = REGIONS[:3]
    assert draft["values"] == {first: {"France": 6, "Britain": 0, "Austria": 3, "Russia": 3},
                               second: {"France": 1}, third: {"France": 2}}
    assert draft["cursor"] == [third, "Britain"]


async def test_a_paste_types_what_its_keys_type(table):
    """The same grid, the same text: pasted, or typed key by key (= for a longer number,
    letters that jump to a row, Space, + and a capital for a column)."""
    text = "=12 4b3 +.R7"
    keys = ["space" if c == " " else c for c in text]
    games = {way: new_game(table, steps=0) for way in ("pasted", "typed")}
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        got = {}
        for way, game_id in games.items():
            screen = await open_game(pilot, game_id)
            grid = grid_of(screen)
            await (paste(pilot, text) if way == "pasted" else typing(pilot, *keys))
            got[way] = grid.typed_values(), grid.cursor_at
            app.pop_screen()
            await settle(pilot)
    assert got["pasted"] == got["typed"]
    assert got["pasted"][0] == {"German States": {"France": 12, "Britain": 4},
                                "Baltic": {"France": 3, "Austria": 1},
                                REGIONS[2]: {"Russia": 7}}


async def test_a_paste_too_long_or_holding_what_no_key_types_changes_nothing(table):
    game_id = new_game(table, steps=0)
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        grid = grid_of(screen)
        before = {r: dict(row) for r, row in grid.values.items()}
        await paste(pilot, "1" * (PASTE_AT_MOST + 1))
        await settle(pilot)
        assert message(screen) == (f"Nothing pasted: a paste into a grid takes at most "
                                   f"{PASTE_AT_MOST} characters, this one has "
                                   f"{PASTE_AT_MOST + 1}")
        assert grid.values == before and grid.cursor_at == ("German States", "France")
        await paste(pilot, "6,033")
        await settle(pilot)
        assert message(screen) == ("Nothing pasted: a grid takes digits, letters, spaces, "
                                   "tabs, line breaks and . = + -, not “,”")
        await paste(pilot, "2\x1b[31m")  # a control character: named, never sent raw
        await settle(pilot)
        assert message(screen).endswith("not “U+001B”")
        assert grid.values == before and not grid.typed
        await paste(pilot, "2" * 4 + " " * (PASTE_AT_MOST - 4))  # at the ceiling: taken
        assert grid.value("German States", "Russia") == 2


async def test_a_paste_fills_the_grid_of_a_dialog(table):
    """The claim dialog's position grid takes a paste too: Ana's territories and armies."""
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        grid = await claim_dialog_after_a_round(pilot, app)
        await pilot.press("tab")  # to the grid: Ana's territories
        await paste(pilot, "24\t31")
        assert grid.value("Ana", "territories") == 24 and grid.value("Ana", "armies") == 31


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


async def test_a_digit_of_another_kind_is_no_number(table):
    """² (a key of its own on French keyboards) or a digit of another script is typed
    nowhere: int() took it for 2, or threw (int('²')), and the app fell over."""
    game_id = new_game(table, steps=1)  # war 1's upkeep: units and tax tokens
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        grid = grid_of(screen)
        await typing(pilot, "5", "²", "٣")
        await typing(pilot, "right", "right", "²")  # the tax tokens' cell
        await settle(pilot)
        assert grid.typed_values() == {"France": {"armies": 5}}
        assert app.is_running and isinstance(app.screen, type(screen))
