"""A grid and the totals paint a cell again only when it changed, and never a stale one.

NumberGrid keeps its cells as painted (Textual's DataTable paints every cell again after any
change): after every key of a typed sequence, and after a change of theme, what it paints
must be what a grid with no kept cells paints."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from tui.widgets.kept_cells import KeptCellsTable
from tui.widgets.measured_table import MeasuredTable
from tui.widgets.number_grid import Column, NumberGrid

ROWS = [("France", "France"), ("Britain", "Britain"), ("Austria", "Austria")]
COLUMNS = [Column("armies", "Armies"), Column("fleets", "Fleets", quick=True),
           Column("fortresses", "Forts", dim=True)]


class GridApp(App):
    def compose(self) -> ComposeResult:
        yield NumberGrid(ROWS, COLUMNS, values={"Britain": {"fleets": 2}})


def painted(grid: NumberGrid) -> list[list[tuple[str, object]]]:
    """Every line of the grid as painted now: each segment's text and style."""
    return [[(seg.text, seg.style) for seg in grid.render_line(y)]
            for y in range(grid.size.height)]


def painted_afresh(grid: NumberGrid) -> list[list[tuple[str, object]]]:
    """The same lines painted with nothing kept, neither by the grid nor by Textual."""
    if isinstance(grid, KeptCellsTable):
        grid._painted.clear()
    grid._clear_caches()
    return painted(grid)


def plain(lines: list[list[tuple[str, object]]]) -> str:
    return "\n".join("".join(text for text, _style in line) for line in lines)


async def test_every_key_paints_what_a_fresh_grid_paints():
    app = GridApp()
    async with app.run_test(size=(60, 10)) as pilot:
        grid = app.query_one(NumberGrid)
        grid.focus()
        await pilot.pause()
        keys = ["1", "2", "tab", "3", "down", "plus", "plus", "minus", "backspace",
                "up", "left", "7", "enter", "right", "right", "4", "space", "9", "home"]
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
            kept = painted(grid)
            assert kept == painted_afresh(grid), f"stale cells after {key!r}"
        assert grid.values["France"]["armies"] != 0
        assert str(grid.values["France"]["armies"]) in plain(painted(grid))

        grid.blur()  # the look of an unfocused grid (no cursor colour)
        await pilot.pause()
        assert painted(grid) == painted_afresh(grid)


async def test_a_new_theme_paints_every_cell_in_its_colours():
    app = GridApp()
    async with app.run_test(size=(60, 10)) as pilot:
        grid = app.query_one(NumberGrid)
        grid.focus()
        await pilot.press("5")
        await pilot.pause()
        before = painted(grid)
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await pilot.pause()
        after = painted(grid)
        assert after != before  # the colours changed
        assert plain(after) == plain(before)  # the words did not
        assert after == painted_afresh(grid)


async def test_new_headings_are_painted():
    """Headings drawn again in other words (the reader's language) are painted so."""
    app = GridApp()
    async with app.run_test(size=(60, 10)) as pilot:
        grid = app.query_one(NumberGrid)
        await pilot.pause()
        assert "Armies" in plain(painted(grid))
        grid.grid_columns[0] = Column("armies", "Troops")  # as wide: no width changes
        grid.redraw()
        await pilot.pause()
        assert "Troops" in plain(painted(grid))
        assert painted(grid) == painted_afresh(grid)


class TotalsApp(App):
    def compose(self) -> ComposeResult:
        from tui.widgets.totals import TotalsPanel

        yield TotalsPanel(["Player", "Power", "Gold", "VP"])


async def test_the_totals_show_each_preview_and_only_it():
    """The totals update the cells that changed: what they show is, each time, what a
    table built afresh shows."""
    from tui.widgets.kept_cells import KeptCellsTable
    from tui.widgets.totals import TotalsPanel

    rows = [["Ana", "France", 14, 3], ["Bo", "Britain", 9, 5]]
    after = [["Ana", "France", 11, 3], ["Bo", "Britain", 9, 5]]
    wider = [["Ana", "France", 140, 3], ["Bo", "Britain", 9, 5]]
    app = TotalsApp()
    async with app.run_test(size=(70, 10)) as pilot:
        panel = app.query_one(TotalsPanel)
        table = app.query_one(KeptCellsTable)
        for shown in [(rows, None), (rows, after), (rows, rows), (rows, after),
                      (wider, None), (rows, None), (after, None)]:
            panel.show(*shown)
            await pilot.pause()
            kept = painted(table)
            assert kept == painted_afresh(table), f"stale totals after {shown!r}"
        assert "11" in plain(painted(table)) and "14" not in plain(painted(table))

        panel.show(rows, after)
        await pilot.pause()
        assert "14 → 11" in plain(painted(table))

        # A new theme: the headings and plain cells keep their words, not their colours.
        before = painted(table)
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await pilot.pause()
        assert painted(table) != before
        assert painted(table) == painted_afresh(table)


class ListApp(App):
    """A list of a fixed height, as the home screen's: new rows do not resize it."""

    CSS = "DataTable { height: 8; }"

    def __init__(self, kind: type) -> None:
        super().__init__()
        self.kind = kind

    def compose(self) -> ComposeResult:
        yield self.kind(cursor_type="row")


@pytest.mark.parametrize("kind", [MeasuredTable, KeptCellsTable])
async def test_a_frame_painted_before_the_rows_are_measured_is_painted_again(kind):
    """Textual's DataTable widens its columns for new rows when it is next idle, and kept
    the lines painted before that at the old widths: the home list stayed with every column
    as narrow as its heading until the cursor moved."""
    app = ListApp(kind)
    async with app.run_test(size=(60, 10)) as pilot:
        table = app.query_one(kind)
        table.add_columns("Title", "Players")
        await pilot.pause()
        table.add_row(Text("Friday night at the club"), Text("[b]Ana[/b], Bo[/]"))
        early = plain(painted(table))  # a frame between the rows and the table's idle
        assert "Frida " in early and "Friday night" not in early  # at the headings' widths
        await pilot.pause()
        assert painted(table) == painted_afresh(table)
        assert "Friday night at the club  [b]Ana[/b], Bo[/]" in plain(painted(table))


class FittedApp(ListApp):
    """A table as wide and as tall as its rows, as the player's table of bests."""

    CSS = "DataTable { height: auto; width: auto; max-width: 100%; }"


@pytest.mark.parametrize("kind", [MeasuredTable, KeptCellsTable])
async def test_a_layout_between_a_tables_change_and_its_measure_does_not_keep_it_empty(kind):
    """Textual keys a widget's measured size on its count of layout requests, and counts a
    request only when none is pending. The player's story on a busy machine: the table was
    asked for a layout (emptied and shown again), the screen laid out for another widget
    (the chart) before the table was idle, so its empty size was kept under that count; then
    the table measured its rows, and the layout that followed used the kept size: no table
    of bests, until something else moved (7 runs in 300 under load)."""
    app = FittedApp(kind)
    async with app.run_test(size=(60, 20)) as pilot:
        table = app.query_one(kind)
        await pilot.pause()
        assert table.region.height == 0
        # All before the table is idle: its rows, a layout asked for, the screen laid out.
        table.add_columns("Game", "Best", "Won")
        for row in (("Risk", "Colour: red", "2 of 2"), ("SoE", "Power: Britain", "2 of 2")):
            table.add_row(*row)
        table.refresh(layout=True)
        app.screen.mount(Static("Rating in every game, game after game"))  # the chart
        app.screen._refresh_layout()  # Textual's own name: should it go, this fails
        assert table.region.height == 0  # measured before its rows: nothing to show yet
        await pilot.pause()
        assert table.region.size == table.virtual_size == (30, 3)
        assert "Colour: red" in plain(painted(table))


async def test_risk_position_grid_paints_a_continent_held_as_a_tick():
    """Risk's grid paints its continent cells its own way (✓ or ·): its override of the
    grid's cell painter is the one the grid calls."""
    from rules.risk import CONTINENTS
    from tui.games.risk.forms import PositionGrid, position_columns

    held, other = list(CONTINENTS)[:2]

    class PositionApp(App):
        def compose(self) -> ComposeResult:
            yield PositionGrid([("Ana", "Ana"), ("Bo", "Bo")], position_columns(),
                               values={"Ana": {held: 1, "armies": 7}, "Bo": {other: 0}})

    app = PositionApp()
    async with app.run_test(size=(160, 10)) as pilot:
        await pilot.pause()
        grid = app.query_one(PositionGrid)
        lines = plain(painted(grid)).splitlines()
        ana = next(line for line in lines if "Ana" in line)
        bo = next(line for line in lines if "Bo" in line)
        assert "✓" in ana and "7" in ana
        assert "✓" not in bo and "·" in bo
