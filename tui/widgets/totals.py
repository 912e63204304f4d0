"""The totals panel: every player's running totals, and what the pending entry changes."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from tui.literal import literal, words
from tui.widgets.themed import follow_theme, part_style


class TotalsPanel(Vertical):
    """Rows are players; a cell reads '11 → 15' while a pending entry would change it."""

    # app.tcss colours the arrow and the value the pending entry would give.
    COMPONENT_CLASSES = {"totals-panel--arrow", "totals-panel--after"}

    def __init__(self, columns: Sequence[str], **kwargs) -> None:
        super().__init__(**kwargs)
        self.columns = list(columns)
        self._shown: tuple = ([], None, "")  # what `show` was last given, to redraw it

    def compose(self) -> ComposeResult:
        yield Static("Totals", classes="title", id="totals-title")
        # Not focusable: Enter must reach the step's form, never this table.
        table = DataTable(id="totals", cursor_type="none", zebra_stripes=True)
        table.can_focus = False
        yield table
        yield Static("", classes="hint", id="totals-note")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for col in self.columns:
            table.add_column(col, key=col)
        follow_theme(self, lambda: self.show(*self._shown))

    def show(self, rows: list[list[object]], after: list[list[object]] | None = None,
             note: str = "") -> None:
        """`rows` now; `after` the same rows if the pending entry were confirmed."""
        self._shown = (rows, after, note)
        arrow = part_style(self, "totals-panel--arrow")
        changed = part_style(self, "totals-panel--after")
        table = self.query_one(DataTable)
        table.clear()
        for i, row in enumerate(rows):
            cells = []
            for j, value in enumerate(row):
                new = after[i][j] if after is not None else value
                if new != value:
                    cells.append(words(value, (" → ", arrow), (new, changed)))
                else:
                    cells.append(literal(value, justify="right" if j >= 2 else "left"))
            table.add_row(*cells)
        self.query_one("#totals-note", Static).update(literal(note))
