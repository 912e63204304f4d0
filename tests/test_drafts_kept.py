"""A draft is its player's (issue 21): no step recorded here or on another terminal throws
away what is typed; the step typed here recorded first elsewhere leaves a notice; one
grammar in every grid; the claim grid starts from the latest position."""

from __future__ import annotations

import random
import re

import pytest
from pilot_pace import pause_skips_the_live_look, typing  # noqa: F401 - a fixture
from test_table_pace import SIZE, grid_of, open_game
from test_tui_risk import THREE, open_new, pos, screen_text, settle
from test_tui_soe import new_game, pause_until
from textual import events

from tui.games.risk.dialogs import ClaimDialog
from tui.games.risk.forms import PositionGrid
from tui.games.soe.dialogs import TaxDialog

# Pauses leave out the live look (pilot_pace): a step another terminal records is waited
# for by what it changes (pause_until).
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")


async def test_a_taxation_recorded_here_keeps_the_typed_grid(table):
    game_id = new_game(table, steps=1)  # war 1: upkeep
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        await pilot.press("5", "3")  # France: 5 armies, 3 fleets
        await pilot.press("ctrl+x")
        await pilot.pause()
        assert isinstance(app.screen, TaxDialog)
        await pilot.press("ctrl+s")  # France taxes (the first power), token 1
        assert await pause_until(pilot, lambda: table.ledger().head(game_id) == 2, 5)
        await settle(pilot)
        assert screen.state.empires["France"].unrest == 1  # the taxation is in
        grid = grid_of(screen)
        assert (grid.value("France", "armies"), grid.value("France", "fleets")) == (5, 3)
        assert grid.cursor_at == ("France", "fortresses")  # where the typing stopped


async def test_another_terminal_taxing_keeps_the_typing_and_recording_it_leaves_a_notice(
        table):
    game_id = new_game(table, steps=1)
    other = table.ledger()  # another terminal: its own engine on the same file
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        await pilot.press("5", "3")  # B types France's armies and fleets
        other.record(game_id, {"kind": "tax", "power": "Britain", "unrest": 2}, author="Ana")
        assert await pause_until(pilot, lambda: screen.game.seq == 2, 5)
        await settle(pilot)
        grid = grid_of(screen)
        assert (grid.value("France", "armies"), grid.value("France", "fleets")) == (5, 3)
        assert grid.value("Britain", "armies") == 0  # untyped: follows the base

        # Ana records the upkeep itself, with France at 2 armies and 1 fleet.
        units = {p: {"armies": 0, "fleets": 0, "fortresses": 0}
                 for p in ("France", "Britain", "Austria", "Russia")}
        units["France"] = {"armies": 2, "fleets": 1, "fortresses": 0}
        other.record(game_id, {"kind": "upkeep", "units": units, "taxes": {}}, author="Ana")
        notice = screen.query_one("#overtaken")
        assert await pause_until(pilot, lambda: notice.display, 5)
        said = str(notice.render())
        assert "Ana recorded the upkeep" in said
        assert "France armies 5 (recorded 2)" in said and "France fleets 3 (recorded 1)" in said
        await pilot.pause(0.3)
        assert notice.display  # it lasts until dismissed

        # ctrl+r: Ana's upkeep (and the population that followed it, if any) taken back,
        # B's entry back in the form.
        head = other.head(game_id)
        await pilot.press("ctrl+r")
        assert await pause_until(pilot, lambda: screen.state.phase == "upkeep", 5)
        await settle(pilot)
        assert not notice.display
        assert other.head(game_id) > head  # undone by undo steps: history kept
        grid = grid_of(screen)
        assert (grid.value("France", "armies"), grid.value("France", "fleets")) == (5, 3)


async def test_escape_keeps_theirs_and_closes_the_notice(table):
    game_id = new_game(table, steps=1)
    other = table.ledger()
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        await pilot.press("4")
        units = {p: {"armies": 1, "fleets": 0, "fortresses": 0}
                 for p in ("France", "Britain", "Austria", "Russia")}
        other.record(game_id, {"kind": "upkeep", "units": units, "taxes": {}}, author="Cy")
        notice = screen.query_one("#overtaken")
        assert await pause_until(pilot, lambda: notice.display, 5)
        assert "France armies 4 (recorded 1)" in str(notice.render())
        head = other.head(game_id)
        await pilot.press("escape")
        await settle(pilot)
        assert not notice.display and other.head(game_id) == head


async def test_out_of_bounds_is_refused_in_words_and_x_toggles_a_continent(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        await open_new(pilot, THREE, {"mode": "fixed_rounds", "rounds": 3})
        screen = app.screen
        grid = screen.form.grid
        await pilot.press("4", "3")  # territories 43: one more than the board has
        assert grid.value("Ana", "territories") == 4
        assert "Ana (red), Terr.: at most 42, not 43" in str(
            screen.query_one("#message").render())
        await pilot.press("tab", "tab")  # to North America
        assert grid.cursor_at == ("Ana", "North America")
        await pilot.press("x")  # held
        assert grid.value("Ana", "North America") == 1 and grid.cursor_at[1] == "North America"
        await pilot.press("space")  # Space skips: nothing toggled
        assert grid.cursor_at == ("Ana", "South America")
        assert grid.value("Ana", "South America") == 0
        await pilot.press("7")  # neither 0 nor 1: refused, nothing clamped
        assert grid.value("Ana", "South America") == 0


async def claim_dialog_after_a_round(pilot, app) -> PositionGrid:
    """A missions game of Ana, Bo and Cy with a round recorded, its claim dialog (ctrl+f)
    open: the dialog's position grid."""
    players = [{"name": "Ana", "color": "red", "mission": "24"},
               {"name": "Bo", "color": "blue", "mission": "18x2"},
               {"name": "Cy", "color": "green", "mission": "asia+africa"}]
    game_id = await open_new(pilot, players, {"mode": "missions"})
    app.ledger.record(game_id, {"kind": "round", "positions": {
        "Ana": pos(22, 30, "Europe"), "Bo": pos(12, 20), "Cy": pos(8, 9)}})
    assert await pause_until(pilot, lambda: app.screen.game.seq == 1, 5)
    await pilot.press("ctrl+f")
    await settle(pilot)
    assert isinstance(app.screen, ClaimDialog)
    return app.screen.query_one(PositionGrid)


async def test_the_claim_grid_starts_from_the_latest_position(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        grid = await claim_dialog_after_a_round(pilot, app)
        assert grid.value("Ana", "territories") == 22 and grid.value("Ana", "Europe") == 1
        assert grid.value("Cy", "armies") == 9
        await pilot.press("tab")  # to the grid: Ana's territories
        await pilot.press("2", "4")  # only what changed
        assert grid.value("Ana", "territories") == 24 and grid.value("Bo", "territories") == 12


async def test_checklist_ticks_read_without_colour(table):
    game_id = new_game(table, steps=4)  # war 1 scored: the checklist
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, game_id)
        ticked = re.compile(r"\[\s*x\s*\] Return the local")  # the SVG's pieces, spaced
        assert "[ ] Return the local" in screen_text(app)
        assert not ticked.search(screen_text(app))
        await pilot.press("x")
        await pilot.pause()
        assert ticked.search(screen_text(app))


# A burst inside the app: keys posted all at once, as the driver posts a burst it reads.
KEYS = list("0123456789") * 3 + ["tab", "space", "full_stop", "equals_sign", "plus", "minus",
                                  "backspace", "up", "down", "left", "right", "i", "b", "F",
                                  "ctrl+x", "escape"]


async def typed(pilot, game_id: int, keys: list[str], *,
                burst: bool) -> tuple[dict, tuple | None]:
    """Open the game, type `keys` (in a burst, or each one handled before the next), and
    give what the grid holds; back to the saved games after."""
    app = pilot.app
    screen = await open_game(pilot, game_id)
    if burst:
        for key in keys:
            char = {"space": " ", "full_stop": ".", "equals_sign": "=", "plus": "+",
                    "minus": "-"}.get(key, key if len(key) == 1 else None)
            app.post_message(events.Key(key, char))
        assert await pause_until(pilot, lambda: app.keys_waiting == 0, 20)
        await settle(pilot)
    else:
        for key in keys:  # each key handled and settled before the next is sent
            await typing(pilot, key)
        await settle(pilot)
    if app.screen is not screen:  # a dialog left open: closed, as the last key
        await pilot.press("escape")
        await settle(pilot)
    grid = grid_of(screen)
    typed_here = grid.typed_values(), grid.cursor_at
    app.pop_screen()
    await settle(pilot)
    return typed_here


@pytest.mark.parametrize("seed", range(3))  # three draws, spread over the workers
async def test_random_keys_in_a_burst_leave_what_they_leave_one_by_one(table, seed):
    keys = random.Random(seed).choices(KEYS, k=60)
    games = {burst: new_game(table, steps=0) for burst in (True, False)}  # one for each way
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        burst = await typed(pilot, games[True], keys, burst=True)
        assert burst == await typed(pilot, games[False], keys, burst=False)


async def test_quit_waits_at_most_two_seconds_for_a_slow_database(table, monkeypatch):
    """ctrl+q waits its turn behind the keys typed before it, also while the keys are held (a
    step being recorded, a form being built), but not for long: a database that does not
    answer keeps nobody in (QUIT_WAITS_AT_MOST), and ctrl+q pressed again goes at once."""
    import time

    from waiting import until

    import tui.plumbing.key_order
    from tui.plumbing.key_order import QUIT_WAITS_AT_MOST

    game_id = new_game(table, steps=1)
    for again in (False, True):
        app = table.app()
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_game(pilot, game_id)
            app.hold_keys(screen, "record")
            await pilot.press("5", "ctrl+q")
            arrived = app._quit_since  # when the app took the quit key in
            assert app.keys_waiting == 2 and app.is_running  # the 5, then the quit, wait
            if again:  # with no deadline, only the second press can quit
                monkeypatch.setattr(tui.plumbing.key_order, "QUIT_WAITS_AT_MOST", 3600)
                await pilot.press("ctrl+q")
            await until(lambda app=app: not app.is_running, QUIT_WAITS_AT_MOST + 30, "the quit")
            assert app.return_code == 0
            if not again:
                assert time.monotonic() - arrived >= QUIT_WAITS_AT_MOST


async def rebuilt_but_not_composed(screen, game) -> None:
    """The moment a draft was saved in on CI: `show` builds the form anew (its key
    changed), and before that form is composed it is built anew once more (two steps
    arriving together); the last is mounted but not composed yet, and the one it replaced
    says Ready on its way out."""
    screen._form_key = None
    screen.show(game)
    box = screen.query_one("#form")
    await box.remove_children()
    box.mount(screen.build_form())
    assert not screen.form.is_mounted


async def test_a_draft_saved_while_a_form_is_being_built_anew_keeps_what_it_carries(table):
    """A step recorded elsewhere builds the form anew, and its draft is saved before the new
    form is composed: the draft holds the typing carried over into it, not an empty grid.
    The end-of-war checklist, saved in that same moment, is no error (CI saw NoMatches)."""
    game_id = new_game(table, steps=1)  # war 1: upkeep
    other = table.ledger()
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        await typing(pilot, "5", "3")  # France: 5 armies, 3 fleets, in the grid
        other.record(game_id, {"kind": "tax", "power": "Britain", "unrest": 2}, author="Ana")
        await rebuilt_but_not_composed(screen, table.ledger().load(game_id))
        screen.save_draft()
        await settle(pilot)
        kept = other.draft(game_id)["form"]["values"]["France"]
        assert (kept["armies"], kept["fleets"]) == (5, 3)
        grid = grid_of(screen)  # and the new form was given the same typing
        assert (grid.value("France", "armies"), grid.value("France", "fleets")) == (5, 3)

    game_id = new_game(table, steps=4)  # war 1: the end-of-war checklist is next
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        await rebuilt_but_not_composed(screen, screen.game)
        screen.save_draft()
        await settle(pilot)
        assert screen.form.is_mounted and not other.draft(game_id)["form"].get("ticked")


async def test_undo_then_redo_leaves_the_typed_cells_alone(table):
    """Issue 44: in war 3's income a cell typed, ctrl+z (which takes back the end of war 2,
    whose checklist has no cells) and ctrl+y: the typed cell is there again, and so is the
    draft kept with the game."""
    from test_tui_soe import drafted

    game_id = new_game(table, steps=10)  # war 3: income
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        assert screen.state.war == 3 and screen.state.phase == "actions"
        grid = grid_of(screen)
        row, column = grid.cursor_at
        before = grid.value(row, column)
        typed_value = 4 if before != 4 else 3
        await typing(pilot, str(typed_value))
        assert grid_of(screen).value(row, column) == typed_value
        await typing(pilot, "ctrl+z")
        assert await pause_until(pilot, lambda: screen.state.phase == "end_war", 5)
        await settle(pilot)
        await typing(pilot, "ctrl+y")
        assert await pause_until(pilot, lambda: screen.state.phase == "actions", 5)
        await settle(pilot)
        assert grid_of(screen).value(row, column) == typed_value
        assert grid_of(screen).typed_values() == {row: {column: typed_value}}
        assert await pause_until(
            pilot, lambda: drafted(table.ledger(), game_id).get("values") == {
                row: {column: typed_value}}, 5)
