"""A grid of whole numbers typed from the keyboard: one row per player or region."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.coordinate import Coordinate
from textual.events import Key
from textual.message import Message
from textual.widgets import DataTable

from tui.literal import literal
from tui.widgets.themed import follow_theme, part_style


@dataclass(frozen=True)
class Column:
    """A column of the grid. `tokens` columns hold a list of numbers typed with spaces."""

    key: str
    label: str
    tokens: bool = False
    dim: bool = False  # e.g. a non-player power's column


class NumberGrid(DataTable):
    """Digits type into the cell under the cursor, +/- step it, Backspace rubs out a digit,
    Tab walks the cells (the app asks `move_cell`), Enter posts Submitted."""

    BINDINGS = [Binding("enter", "submit", "Confirm step")]
    DEFAULT_CSS = """
    /* No horizontal scrollbar row: the cursor scrolls a wide grid by itself. */
    NumberGrid { height: auto; max-height: 100%; scrollbar-size-horizontal: 0; }
    """
    # Coloured in app.tcss: row and column names, a column set aside (a non-player power),
    # a cell left at nothing, a cell with a number in it.
    COMPONENT_CLASSES = {"number-grid--label", "number-grid--heading", "number-grid--aside",
                         "number-grid--empty", "number-grid--number"}

    class GridMessage(Message):
        """A message about one grid (its `control`, for `on_number_grid_...` handlers)."""

        def __init__(self, grid: NumberGrid) -> None:
            super().__init__()
            self.grid = grid

        @property
        def control(self) -> NumberGrid:
            return self.grid

    class Changed(GridMessage):
        """A cell's value changed."""

    class Submitted(GridMessage):
        """Enter was pressed in the grid."""

    def __init__(self, rows: list[tuple[str, str]], columns: list[Column], *,
                 values: dict[str, dict[str, object]] | None = None, **kwargs) -> None:
        super().__init__(cursor_type="cell", zebra_stripes=True, **kwargs)
        self.row_keys = [key for key, _ in rows]
        self.row_labels = dict(rows)
        self.grid_columns = columns
        self.values: dict[str, dict[str, object]] = {
            r: {c.key: ([] if c.tokens else 0) for c in columns} for r in self.row_keys}
        for r, row in (values or {}).items():
            for c, v in row.items():
                if r in self.values and c in self.values[r]:
                    self.values[r][c] = list(v) if isinstance(v, list | tuple) else v
        self._fresh = True  # the next digit replaces the cell instead of extending it

    def on_mount(self) -> None:
        self.add_column(Text(""), key="_label")
        for c in self.grid_columns:
            self.add_column(self._heading(c), key=c.key)
        for r in self.row_keys:
            self.add_row(literal(self.row_labels[r], part_style(self, "number-grid--label")),
                         *(self._render(r, c) for c in self.grid_columns), key=r)
        self.move_cursor(row=0, column=1)
        follow_theme(self, self.redraw)

    def redraw(self) -> None:
        """Every heading, label and cell again, in the colours of the theme now."""
        for c in self.grid_columns:
            self.columns[c.key].label = self._heading(c)
        label = part_style(self, "number-grid--label")
        for r in self.row_keys:
            self.update_cell(r, "_label", literal(self.row_labels[r], label))
            for c in self.grid_columns:
                self.update_cell(r, c.key, self._render(r, c))

    def _heading(self, column: Column) -> Text:
        return Text(column.label, style=part_style(
            self, "number-grid--aside" if column.dim else "number-grid--heading"))

    # ------------------------------------------------------------ values

    def value(self, row: str, column: str) -> object:
        return self.values[row][column]

    def set_value(self, row: str, column: str, value: object) -> None:
        self.values[row][column] = value
        col = next(c for c in self.grid_columns if c.key == column)
        if self.is_mounted and self.row_count:
            self.update_cell(row, column, self._render(row, col))
        self.post_message(self.Changed(self))

    def _render(self, row: str, column: Column) -> Text:
        v = self.values[row][column.key]
        empty = part_style(self, "number-grid--empty")
        if column.tokens:
            return Text(" ".join(map(str, v)) or "·", style=empty if not v else "")
        return Text(str(v), style=empty if v == 0 else part_style(self, "number-grid--number"),
                    justify="right")

    def _cursor_cell(self) -> tuple[str, Column] | None:
        coord = self.cursor_coordinate
        if coord.column == 0 or not self.row_keys:
            return None
        return self.row_keys[coord.row], self.grid_columns[coord.column - 1]

    # ------------------------------------------------------------ keys

    # Moves are handled here, not by bindings, so a fast burst of keys (a paste, a network
    # connection) keeps its order: bindings run only after the key bubbles up to the app.
    # Tab is the app's (a priority binding that calls move_cell).
    MOVES = {"up": "cursor_up", "down": "cursor_down", "left": "cursor_left",
             "right": "cursor_right", "enter": "submit", "home": "scroll_home",
             "end": "scroll_end"}

    async def on_key(self, event: Key) -> None:
        if event.key in self.MOVES:
            event.stop()
            event.prevent_default()
            await self.run_action(self.MOVES[event.key])
            return
        cell = self._cursor_cell()
        if cell is None:
            return
        row, col = cell
        char = event.character or ""
        current = self.values[row][col.key]
        if col.tokens:
            tokens: list[int] = list(current)
            if char.isdigit() and char != "0":
                tokens.append(int(char))  # each digit is one token drawn (tokens are 1..9)
            elif event.key == "backspace" and tokens:
                tokens.pop()
            elif event.key == "delete":
                tokens = []
            else:
                return
            self.set_value(row, col.key, tokens)
        else:
            number = int(current)
            if char.isdigit():
                number = int(char) if self._fresh else min(number * 10 + int(char), 999)
                self._fresh = False
            elif char == "+":
                number += 1
            elif char == "-":
                number = max(0, number - 1)
            elif event.key == "backspace":
                number //= 10
            elif event.key == "delete":
                number = 0
            else:
                return
            self.set_value(row, col.key, number)
        event.stop()
        event.prevent_default()

    def watch_cursor_coordinate(self, old: Coordinate, new: Coordinate) -> None:
        super().watch_cursor_coordinate(old, new)
        self._fresh = True
        if new.column == 0 and self.grid_columns:
            self.cursor_coordinate = Coordinate(new.row, 1)

    def move_cell(self, step: int) -> bool:
        """One cell on (step 1, across then down) or back (-1); False at the grid's first or
        last cell, where Tab leaves the grid."""
        row, column = self.cursor_coordinate
        last = len(self.grid_columns)
        if step > 0:
            if column < last:
                self.cursor_coordinate = Coordinate(row, column + 1)
            elif row + 1 < len(self.row_keys):
                self.cursor_coordinate = Coordinate(row + 1, 1)
            else:
                return False
        elif column > 1:
            self.cursor_coordinate = Coordinate(row, column - 1)
        elif row > 0:
            self.cursor_coordinate = Coordinate(row - 1, last)
        else:
            return False
        return True

    def action_submit(self) -> None:
        self.post_message(self.Submitted(self))
