"""The totals panel: every player's running totals, and what the pending entry changes."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from i18n import _
from rules.fields import NAME_LIMIT
from tui.text.literal import literal, show_in, words
from tui.widgets.kept_cells import KeptCellsTable
from tui.widgets.themed import follow_theme, part_style

# A text column (a name, a power) is never wider than the longest name the rules accept:
# only an older database's longer name is cut, with "…".
TEXT_AT_MOST = NAME_LIMIT
# How narrow a text column may get when the panel is short of room: still enough to tell
# the rows apart. The numbers are never cut.
TEXT_AT_LEAST = 6


class TotalsPanel(Vertical):
    """Rows are players; a cell reads '11 → 15' while a pending entry would change it.

    The column widths are worked out anew on each `show` and each resize, from the cells
    shown then: every number column whole (the VP or score last, always in view), and the
    text columns cut with "…" (the widest first) when the panel is short of room.
    """

    # app.tcss colours the arrow and the value the pending entry would give.
    COMPONENT_CLASSES = {"totals-panel--arrow", "totals-panel--after"}

    def __init__(self, columns: Sequence[str], pocket_leaves: Sequence[int] = (1,),
                 **kwargs) -> None:
        """`columns`: the headings, message ids (or words already translated): shown
        through `_()`. `pocket_leaves`: the columns left out under 76 columns (-pocket, a
        phone), where the numbers would not fit whole beside them: a power or a colour,
        the player's name telling the row."""
        super().__init__(**kwargs)
        self.all_columns = list(columns)
        self.columns = list(columns)  # those shown
        self.pocket_leaves = tuple(pocket_leaves)
        self._shown: tuple = ([], None, "")  # what `show` was last given, to redraw it
        # What the table holds: its shape (widths, headings, rows) and each cell's drawing.
        self._drawn: tuple | None = None

    def compose(self) -> ComposeResult:
        yield Static(_("Totals"), classes="title", id="totals-title")
        # Not focusable: Enter must reach the step's form, never this table.
        table = KeptCellsTable(id="totals", cursor_type="none", zebra_stripes=True)
        table.can_focus = False
        yield table
        yield Static("", classes="hint", id="totals-note")

    def on_mount(self) -> None:
        follow_theme(self, self.redraw)
        self.redraw()

    def on_resize(self, event: events.Resize) -> None:
        self.redraw()  # the room changed: the text columns may widen or must narrow

    def redraw(self) -> None:
        self.show(*self._shown)

    def show(self, rows: list[list[object]], after: list[list[object]] | None = None,
             note: str = "") -> None:
        """`rows` now; `after` the same rows if the pending entry were confirmed."""
        self._shown = (rows, after, note)
        if not self.is_mounted:
            return
        kept = [j for j in range(len(self.all_columns))
                if not (self.screen.has_class("-pocket") and j in self.pocket_leaves)]
        self.columns = [self.all_columns[j] for j in kept]
        text = [kept.index(j) for j in text_columns(rows) if j in kept]
        rows = [[row[j] for j in kept] for row in rows]
        if after is not None:
            after = [[row[j] for j in kept] for row in after]
        arrow = part_style(self, "totals-panel--arrow")
        changed = part_style(self, "totals-panel--after")
        cells: list[list[Text]] = []
        for i, row in enumerate(rows):
            line = []
            for j, value in enumerate(row):
                new = after[i][j] if after is not None else value
                if new != value:
                    line.append(words(value, (" → ", arrow), (new, changed)))
                else:
                    line.append(literal(value, justify="left" if j in text else "right"))
            cells.append(line)
        widths = self.column_widths(cells, text)
        headings = [cut(Text(shown_heading(label)), width)
                    for label, width in zip(self.columns, widths, strict=True)]
        lines = [[cut(cell, width) for cell, width in zip(line, widths, strict=True)]
                 for line in cells]
        table = self.query_one(KeptCellsTable)
        shape = (tuple(widths), tuple(map(drawing, headings)), len(lines))
        drawn = [[drawing(cell) for cell in line] for line in lines]
        if self._drawn is not None and self._drawn[0] == shape:
            # Most keys change a total or two, or none: only those cells are updated, and
            # painted again.
            for i, (line, now, before) in enumerate(zip(lines, drawn, self._drawn[1],
                                                        strict=True)):
                for label, cell, new, old in zip(self.columns, line, now, before,
                                                  strict=True):
                    if new != old:
                        table.update_cell(str(i), label, cell)
        else:
            # Columns afresh when a width changes: a DataTable's own widths only ever grow,
            # so a preview once shown ('14 → 11') would keep pushing the last columns out of
            # view.
            table.clear(columns=True)
            for label, heading, width in zip(self.columns, headings, widths, strict=True):
                table.add_column(heading, width=width, key=label)
            for i, line in enumerate(lines):
                table.add_row(*line, key=str(i))
        self._drawn = (shape, drawn)
        shown_note = self.query_one("#totals-note", Static)
        show_in(shown_note, literal(note))
        shown_note.display = bool(note)  # no empty line under the table

    def column_widths(self, cells: list[list[Text]], text: list[int]) -> list[int]:
        """Each column as wide as its widest cell (`text` columns at most TEXT_AT_MOST); if
        that is wider than the panel, the `text` columns narrow, down to TEXT_AT_LEAST."""
        widths = [max([Text(shown_heading(label)).cell_len,
                       *(row[j].cell_len for row in cells)])
                  for j, label in enumerate(self.columns)]
        for j in text:
            widths[j] = min(widths[j], TEXT_AT_MOST)
        room = self.content_size.width
        if not room:
            return widths  # not laid out yet: the resize that follows fits them
        padding = 2 * self.query_one(KeptCellsTable).cell_padding
        give_way(widths, text, sum(widths) + padding * len(widths) - room)
        return widths


def shown_heading(label: str) -> str:
    """A column's heading in the reader's language."""
    return _(label) if label else ""


def give_way(widths: list[int], columns: Sequence[int], excess: int,
             at_least: int = TEXT_AT_LEAST) -> int:
    """Narrow the `columns` of `widths` (in place) until `excess` cells are given back, none
    below `at_least`; what could not be given is returned. A cell at a time from the widest,
    so a long name and "United Provinces" are both cut a little, not one of them away."""
    while excess > 0:
        j = max(columns, key=lambda k: widths[k], default=None)
        if j is None or widths[j] <= at_least:
            break  # nothing left to give: the window is below the size screens need
        widths[j] -= 1
        excess -= 1
    return excess


def text_columns(rows: list[list[object]]) -> list[int]:
    """The columns of words: the first two (the player, their power or colour) and any
    other holding letters (Risk's 'by Bo'); the rest hold numbers (or '—')."""
    width = len(rows[0]) if rows else 0
    return [j for j in range(width) if j < 2 or any(
        isinstance(cell := row[j], str) and any(c.isalpha() for c in cell) for row in rows)]


def drawing(text: Text) -> tuple:
    """What a cell shows, to compare with what it showed: the words and their colours (a
    theme changed)."""
    return text.plain, tuple(text.spans), text.style, text.justify


def cut(text: Text, width: int) -> Text:
    """`text` cut to `width` cells, its last one "…", when it is longer."""
    if text.cell_len > width:
        text = text.copy()
        text.truncate(width, overflow="ellipsis")
    return text
