"""A DataTable that paints a cell again only when that cell changed.

Textual's DataTable keys its cache of painted cells on the table's count of changes, so one
cell changed (a digit typed into a grid, a total previewed) paints every cell of the table
again at the next refresh: some 40 cells for a digit in a 4-player grid, and that for every
player typing over SSH. Here each cell has its own version, one up when it is updated, and
a painted cell is kept by its place, version, width and look (cursor, hover, focus).

The tables that use it only add rows and columns, update cells, change headings (telling
`headings_changed`) and clear; moving or removing rows would need their versions moved too.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from textual.cache import LRUCache
from textual.coordinate import Coordinate
from textual.widgets.data_table import ColumnKey, RowKey

from tui.widgets.measured_table import MeasuredTable

# Cells kept as painted: the largest grid (Risk's 42 territories, a few columns) in its few
# looks (the cursor on it or not, the table focused or not), with room to spare. A ceiling,
# for the host: every SSH player's screen holds its own tables.
PAINTED_AT_MOST = 1024


class KeptCellsTable(MeasuredTable):
    """A DataTable whose cells are painted again one by one, as they change."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._painted: LRUCache[tuple, Any] = LRUCache(PAINTED_AT_MOST)
        # Looked up by the places get_key gives, None where a row or column has no key.
        self._cell_versions: dict[tuple[RowKey | None, ColumnKey | None], int] = {}
        self._headings_version = 0

    def headings_changed(self) -> None:
        """The columns' labels were given new words or colours: paint the headings again."""
        self._headings_version += 1
        self.refresh()

    def notify_style_update(self) -> None:
        # The table's styles changed (a theme, a class): Textual paints every cell afresh.
        self._painted.clear()
        super().notify_style_update()

    def update_cell(self, row_key: RowKey | str, column_key: ColumnKey | str, value: Any, *,
                    update_width: bool = False) -> None:
        super().update_cell(row_key, column_key, value, update_width=update_width)
        place = (RowKey(row_key) if isinstance(row_key, str) else row_key,
                 ColumnKey(column_key) if isinstance(column_key, str) else column_key)
        self._cell_versions[place] = self._cell_versions.get(place, 0) + 1

    def clear(self, columns: bool = False) -> KeptCellsTable:
        # Rows and columns added after this may take the keys of those cleared.
        self._painted.clear()
        self._cell_versions.clear()
        self._headings_version += 1
        super().clear(columns)
        return self

    def paint_cell(self, row_index: int, column_index: int, base_style: Style, width: int,
                   cursor: bool = False, hover: bool = False):
        # Asked for each cell of each line painted (Textual's own step, behind
        # tui.compat.textual); tests/test_grid_paint.py checks that what is kept is what
        # Textual paints afresh.
        if row_index < 0 or column_index < 0:
            version = self._headings_version  # a heading, or a row's label
        else:
            place = self.coordinate_to_cell_key(Coordinate(row_index, column_index))
            version = self._cell_versions.get(place, 0)
        key = (row_index, column_index, version, base_style, width, cursor, hover,
               self.cells_look())
        painted = self._painted.get(key)
        if painted is None:
            painted = self.paint_cell_afresh(row_index, column_index, base_style, width,
                                             cursor, hover)
            self._painted[key] = painted
        return painted
