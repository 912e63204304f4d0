"""A seated player's own part of a step on a narrow screen (a phone's SSH app or browser):
one field per line, typed as any grid (digits, Tab, Enter), with the player's own totals and
the table's state under it."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from tui.text.literal import literal, show_in
from tui.widgets.number_grid import Column, NumberGrid
from tui.widgets.step_form import BySeatForm, StepForm
from tui.widgets.themed import part_style

VALUE = "value"  # the one column of a FieldGrid


class FieldGrid(NumberGrid):
    """A grid of one column whose rows are the fields of one seat's row (Armies, Fleets...):
    each line is typed as its column would be in the full grid (a quick count, tokens)."""

    def __init__(self, fields: list[Column], heading: str,
                 values: dict[str, Any], **kwargs) -> None:
        self.fields = {f.key: Column(VALUE, f.label, tokens=f.tokens, quick=f.quick,
                                     most=f.most, toggle=f.toggle) for f in fields}
        super().__init__([(f.key, f.label) for f in fields], [Column(VALUE, heading)],
                         values={f.key: {VALUE: values.get(f.key, [] if f.tokens else 0)}
                                 for f in fields}, **kwargs)

    def _heading(self, column: Column) -> Text:
        # The one column is headed by the seat ("Ana (France)"): player text, never a
        # message of the catalogs.
        return literal(column.label, part_style(self, "number-grid--heading"))

    def _cursor_cell(self) -> tuple[str, Column] | None:
        cell = super()._cursor_cell()
        return (cell[0], self.fields[cell[0]]) if cell is not None else None

    def _cell_text(self, row: str, column: Column) -> Text:
        field = self.fields[row]
        if field.toggle:  # a continent held: ✓, as the full grid shows it
            held = bool(self.values[row][VALUE])
            return Text("✓" if held else "·", justify="right",
                        style="" if held else part_style(self, "number-grid--empty"))
        return super()._cell_text(row, field)

    def _where(self, row: str, col: Column) -> str:
        return self.row_labels[row]


class SeatForm(StepForm):
    """One seat's row of a by-seat form (`form`, e.g. UpkeepForm), a field per line. Its
    pending step is the seat's part alone (the rules check it as early as they can); the
    screen marks the part ready and records the step once every seat's part is."""

    DEFAULT_CSS = """
    SeatForm FieldGrid { width: auto; max-width: 100%; }
    SeatForm .seat-lines { height: auto; }
    SeatForm #seat-own { margin-top: 1; }
    """

    def __init__(self, state: Any, keys: dict[str, str] | None, form: BySeatForm,
                 row: str, label: str) -> None:
        super().__init__(state, keys)
        self.form = form
        self.row = row
        self.label = label

    def compose(self) -> ComposeResult:
        yield FieldGrid(self.form.columns(), self.label,
                        self.form.base_rows(self.state).get(self.row, {}), id="grid")
        yield Static("", id="seat-own", classes="seat-lines")
        yield Static("", id="seat-table", classes="seat-lines")

    def cells(self) -> dict[str, Any]:
        """The seat's row as it stands: every field, typed or as it was."""
        grid = self.grid
        if grid is None:  # not composed yet (the form made a moment ago): nothing typed
            kept = self.form.base_rows(self.state).get(self.row, {})
            return {f.key: list(kept.get(f.key, [])) if f.tokens else kept.get(f.key, 0)
                    for f in self.form.columns()}
        return {key: (list(v[VALUE]) if isinstance(v[VALUE], list) else v[VALUE])
                for key, v in grid.values.items()}

    def typed_cells(self) -> dict[str, Any]:
        grid = self.grid
        assert grid is not None  # asked once composed, with its grid (draft)
        return {key: cells[VALUE] for key, cells in grid.typed_values().items()}

    def pending_step(self) -> dict[str, Any] | None:
        if self.grid is None or not self.grid.is_mounted:
            return None
        return self.form.step_from(self.state, {self.row: self.cells()})

    def draft(self) -> dict[str, Any]:
        grid = self.grid
        if grid is None:
            return {}
        typed = self.typed_cells()
        cursor = grid.cursor_at
        return {"values": {self.row: typed} if typed else {},
                "cursor": [self.row, cursor[0]] if cursor else []}

    def restore(self, draft: dict[str, Any]) -> None:
        grid = self.grid
        mine = (draft.get("values") or {}).get(self.row)
        if grid is None:
            return
        for key, value in (mine if isinstance(mine, dict) else {}).items():
            if key in grid.values:
                grid.set_value(key, VALUE, value)
        cursor = draft.get("cursor")
        if isinstance(cursor, list) and len(cursor) == 2 and cursor[1] in grid.values:
            grid.put_cursor(str(cursor[1]), VALUE)

    def show_parts(self, rows: dict[str, dict[str, Any]]) -> None:
        """Only this seat's row is here: the others' parts show in the table's lines."""

    def tell(self, own: Text, table: Text) -> None:
        """The seat's totals (and what the part changes), and the table's state."""
        if self.is_mounted:
            show_in(self.query_one("#seat-own", Static), own)
            show_in(self.query_one("#seat-table", Static), table)
