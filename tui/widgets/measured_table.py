"""Textual's DataTable, painted and laid out again when its rows are measured anew.

A DataTable measures the rows it was given when it is next idle, and widens its columns
then; but it keeps the lines it painted keyed on its count of changes, not on the columns'
widths. A frame painted between the rows and that idle (a busy machine, a screen refreshed
by another widget) stayed on screen with every column as narrow as its heading until the
cursor moved (issue 28: the home list in a picture, 4 runs in 6). And a table sized by its
rows could keep the size it had before them (below: the player's story without its table of
bests, 7 runs in 300 on a busy machine).
"""

from __future__ import annotations

from typing import Any

from tui.compat.textual import PaintedTable


class MeasuredTable(PaintedTable):
    """A DataTable whose lines follow its columns' widths."""

    def _widths(self) -> list[int]:
        return [self.label_column_width(),
                *(column.content_width for column in self.columns.values())]

    # Textual's own step (behind tui.compat.textual), run at idle after rows were added or
    # cells updated; tests/test_grid_paint.py checks the lines against fresh ones.
    def before_measuring(self) -> Any:
        return self._widths(), self.virtual_size

    def rows_measured(self, before: Any) -> None:
        widths, measured = before
        if self.virtual_size != measured:
            # Textual keys a widget's box on its count of layout requests, and counts one
            # only when none is pending: a screen laid out between an earlier request and
            # this measure kept the old size under the same count, and the layout this
            # change asks for would reuse it (the player's table of bests stayed empty).
            self.count_a_layout()
        if self._widths() != widths:
            self.forget_painted_lines()
            self.refresh()
