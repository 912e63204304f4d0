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

from collections.abc import Iterable

from textual.widgets import DataTable
from textual.widgets.data_table import RowKey


class MeasuredTable(DataTable):
    """A DataTable whose lines follow its columns' widths."""

    def _widths(self) -> list[int]:
        return [self._label_column.content_width,
                *(column.content_width for column in self.columns.values())]

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        # Textual's own method (the lock file pins it), run at idle after rows were added
        # or cells updated; tests/test_grid_paint.py checks the lines against fresh ones.
        before, measured = self._widths(), self.virtual_size
        super()._update_dimensions(new_rows)
        if self.virtual_size != measured:
            # Textual keys a widget's box on its count of layout requests, and counts one
            # only when none is pending: a screen laid out between an earlier request and
            # this measure kept the old size under the same count, and the layout this
            # change asks for would reuse it (the player's table of bests stayed empty).
            self._layout_updates += 1
        if self._widths() != before:
            self._clear_caches()
            self.refresh()
