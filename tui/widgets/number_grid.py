"""A grid of whole numbers typed from the keyboard: one row per player or region."""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.coordinate import Coordinate
from textual.events import Key, Paste
from textual.message import Message
from textual.widgets.data_table import ColumnKey

from i18n import N_, SOURCE, _, language
from tui.text.literal import literal
from tui.widgets.kept_cells import KeptCellsTable
from tui.widgets.themed import follow_theme, part_style

# How every grid is typed (one grammar), for the help of the screens that have grids: a
# message id (shown through `_()`: `typing_help()`).
TYPING_HELP = N_("In a grid: digits type a number; markers, units, owners and continents take "
               "one digit and the cursor moves on (= first for 10 or more: =12; Space, Tab, "
               "., Enter or an arrow ends it). + and - step a number, Space or Tab skips a "
               "cell, . goes to the next row, x marks or clears a continent (and ticks a "
               "checklist line), letters jump to the row of that name (a region, a player, "
               "a territory) and a capital to the column (F: France), arrows move, Backspace "
               "rubs out, Enter confirms. A number out of bounds is refused, never cut.")


def typing_help() -> str:
    """TYPING_HELP in the reader's language."""
    return _(TYPING_HELP)
TOGGLE_KEY = "x"  # marks or clears a yes/no cell (a continent held), ticks a checklist line
# The characters of a paste: the longest grid typed whole (11 regions x 7 powers, `=12 ` in
# each cell, a line per region) is about 350; a paste longer than this is refused whole in
# one line (a hostile client can paste megabytes: none of it is looked at).
PASTE_AT_MOST = 1_000
# A pasted character that is not a letter or a digit, as the key typing it is named. A line
# break goes to the next row, as `.` does (a row copied from notes or a spreadsheet ends in
# one): a paste fills cells and never confirms a step, which only Enter typed does.
PASTED_KEYS = {" ": "space", "\t": "tab", "\n": "full_stop", ".": "full_stop",
               "=": "equals_sign", "+": "plus", "-": "minus"}


def named(char: str) -> str:
    """A character as a refusal names it: itself, or its code if it cannot be seen."""
    return char if char.isprintable() and not char.isspace() else f"U+{ord(char):04X}"


def digit(char: str) -> bool:
    """One of 0-9: a superscript or another script's digit (str.isdigit) is no number."""
    return len(char) == 1 and char in "0123456789"


@dataclass(frozen=True)
class Column:
    """A column of the grid. `tokens` columns hold a list of numbers typed with spaces.
    `label` is a message id or words already in the reader's language: the grid shows it
    through `_()`."""

    key: str
    label: str
    tokens: bool = False
    dim: bool = False  # e.g. a non-player power's column
    # One digit per cell: a digit fills the cell and the cursor moves on by itself (counts
    # that are almost always below 10); `=` first opens the cell for a longer number.
    quick: bool = False
    most: int = 999  # the largest number the cell takes: more is refused in words
    # A yes/no cell (a continent held): 1 or x marks it, 0 or x clears it (quick, shown ✓).
    toggle: bool = False


class NumberGrid(KeptCellsTable):
    """Digits type into the cell under the cursor (in a quick column one digit fills the
    cell and the cursor moves on), +/- step it, Backspace rubs out a digit, Space and Tab
    walk the cells (the app's Tab asks `move_cell`), `.` ends a row, letters jump to the row
    whose name starts with them, Enter posts Submitted. No key typed here reaches the
    screen's bindings but Enter, so a stray letter never opens a dialog."""

    BINDINGS = [Binding("enter", "submit", N_("Confirm"), tooltip=N_("Confirm step"))]
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

    class Moved(GridMessage):
        """The cursor moved (the form keeps where it is in its draft)."""

    class Refused(GridMessage):
        """A key asked for a number the cell does not take; nothing changed. `reason` says
        why, in the players' words."""

        def __init__(self, grid: NumberGrid, reason: str) -> None:
            super().__init__(grid)
            self.reason = reason

    def __init__(self, rows: list[tuple[str, str]], columns: list[Column], *,
                 values: Mapping[str, Mapping[str, object]] | None = None, **kwargs) -> None:
        # The first column (the row names) stays put while a wide grid scrolls sideways.
        super().__init__(cursor_type="cell", zebra_stripes=True, fixed_columns=1, **kwargs)
        self.row_keys = [key for key, _label in rows]
        self.row_labels = dict(rows)
        self.grid_columns = columns
        # A cell holds what its column's kind says: a number, or a list of tokens.
        self.values: dict[str, dict[str, Any]] = {
            r: {c.key: ([] if c.tokens else 0) for c in columns} for r in self.row_keys}
        for r, row in (values or {}).items():
            for c, v in row.items():
                if r in self.values and c in self.values[r]:
                    self.values[r][c] = list(v) if isinstance(v, list | tuple) else v
        # The cells the player typed (or a draft put back): they keep their values when the
        # grid is built anew on another base (a step recorded here or on another terminal).
        self.typed: set[tuple[str, str]] = set()
        self._fresh = True  # the next digit replaces the cell instead of extending it
        self._open = False  # `=` was typed: digits make a longer number, the cursor stays
        self._search = ""  # letters typed to jump to a row
        self._searched_at = 0.0
        self._start_at: tuple[str, str] | None = None  # where the cursor opens (a draft's)

    def on_mount(self) -> None:
        self.add_column(Text(""), key="_label")
        for c in self.grid_columns:
            self.add_column(self._heading(c), key=c.key)
        for r in self.row_keys:
            self.add_row(literal(self.row_labels[r], part_style(self, "number-grid--label")),
                         *(self._cell_text(r, c) for c in self.grid_columns), key=r)
        self.move_cursor(row=0, column=1)
        if self._start_at is not None:
            self.put_cursor(*self._start_at)
        follow_theme(self, self.redraw)

    def redraw(self) -> None:
        """Every heading, label and cell again, in the colours of the theme now."""
        for c in self.grid_columns:
            self.columns[ColumnKey(c.key)].label = self._heading(c)
        self.headings_changed()
        label = part_style(self, "number-grid--label")
        for r in self.row_keys:
            self.update_cell(r, "_label", literal(self.row_labels[r], label))
            for c in self.grid_columns:
                self.update_cell(r, c.key, self._cell_text(r, c))

    def _heading(self, column: Column) -> Text:
        return Text(heading(column), style=part_style(
            self, "number-grid--aside" if column.dim else "number-grid--heading"))

    # ------------------------------------------------------------ values

    def value(self, row: str, column: str) -> Any:
        return self.values[row][column]

    def set_value(self, row: str, column: str, value: object, *, typed: bool = True) -> None:
        self.values[row][column] = value
        if typed:
            self.typed.add((row, column))
        col = next(c for c in self.grid_columns if c.key == column)
        if self.is_mounted and self.row_count:
            # update_width: a cell that grows (nine tokens) widens its column, never cut.
            self.update_cell(row, column, self._cell_text(row, col), update_width=True)
        self.post_message(self.Changed(self))

    def _cell_text(self, row: str, column: Column) -> Text:
        v = self.values[row][column.key]
        empty = part_style(self, "number-grid--empty")
        if column.tokens:
            return Text(" ".join(map(str, v)) or "·", style=empty if not v else "")
        return Text(str(v), style=empty if v == 0 else part_style(self, "number-grid--number"),
                    justify="right")

    def typed_values(self) -> dict[str, dict[str, object]]:
        """The values of the cells the player typed, by row and column."""
        out: dict[str, dict[str, object]] = {}
        for row, column in sorted(self.typed):
            value = self.values[row][column]
            out.setdefault(row, {})[column] = list(value) if isinstance(value, list) else value
        return out

    @property
    def cursor_at(self) -> tuple[str, str] | None:
        """The row and column keys under the cursor (kept in drafts: resume puts it back)."""
        cell = self._cursor_cell()
        return (cell[0], cell[1].key) if cell is not None else None

    def put_cursor(self, row: str, column: str) -> None:
        """Move the cursor to a cell by keys (before mounting: where it opens)."""
        if not self.is_mounted or not self.row_count:
            self._start_at = (row, column)
            return
        keys = [c.key for c in self.grid_columns]
        if row in self.row_keys and column in keys:
            self.cursor_coordinate = Coordinate(self.row_keys.index(row), keys.index(column) + 1)

    def _cursor_cell(self) -> tuple[str, Column] | None:
        coord = self.cursor_coordinate
        if coord.column == 0 or not self.row_keys:
            return None
        return self.row_keys[coord.row], self.grid_columns[coord.column - 1]

    # ------------------------------------------------------------ keys

    # Moves are handled here, not by bindings, so each key is done with before the next one
    # is handed on (tui/plumbing/key_order.py). Tab is the app's, which calls move_cell.
    MOVES = {"up": "cursor_up", "down": "cursor_down", "left": "cursor_left",
             "right": "cursor_right", "enter": "submit", "home": "scroll_home",
             "end": "scroll_end"}

    TYPING = {"space", "full_stop", "equals_sign", "plus", "minus", "backspace", "delete"}

    async def on_key(self, event: Key) -> None:
        if await self.type_key(event.key, event.character or "", event.time):
            event.stop()  # typed into the grid: never a screen's key
            event.prevent_default()

    async def type_key(self, key: str, char: str, typed_at: float | None = None) -> bool:
        """Do what `key` (its `char`) does in the grid, typed or pasted; whether the grid
        took it (a key it did not take goes on to the screen's bindings)."""
        if key in self.MOVES:
            self._open = False  # Enter and the arrows end a number begun with =
            await self.run_action(self.MOVES[key])
            return True
        cell = self._cursor_cell()
        if cell is None:
            return False
        row, col = cell
        if not char.isalpha():
            self._search = ""  # a letter after anything else starts a new search
        if key == "space":
            self.move_cell(1)
        elif key == "full_stop":
            self.next_row()
        elif key == "equals_sign" and not (col.tokens or col.toggle):
            self._open, self._fresh = True, True
        elif col.toggle and (digit(char) or char in (TOGGLE_KEY, "+", "-")):
            self._type_toggle(row, col, char)
        elif char.isalpha() and char.isupper():
            self.jump_to_column(char)
        elif char.isalpha():
            self.jump_to(char, typed_at)
        elif col.tokens:
            self._type_token(row, col, key, char)
        else:
            self._type_number(row, col, key, char)
        return char.isalnum() or key in self.TYPING

    async def on_paste(self, event: Paste) -> None:
        """A paste (a terminal's bracketed paste) fills the cells its characters would fill
        typed one after another: Tab and a line break move on as Tab and `.` do. One the
        grid cannot take whole (too long, or holding a character no key of the grid types)
        is refused in one line and changes nothing."""
        event.stop()
        event.prevent_default()
        keys = self.pasted(event.text)
        for key, char in keys or ():
            if key == "tab":  # the app's Tab, which moves the cursor in a grid
                self._search = ""
                self.move_cell(1)
            else:
                await self.type_key(key, char, event.time)

    def pasted(self, text: str) -> list[tuple[str, str]] | None:
        """The keys of a paste (key, character), or None when it is refused (said why)."""
        if len(text) > PASTE_AT_MOST:
            self.refuse(_("Nothing pasted: a paste into a grid takes at most {most} "
                          "characters, this one has {count}").format(
                most=PASTE_AT_MOST, count=len(text)))
            return None
        keys = []
        for char in text.replace("\r\n", "\n").replace("\r", "\n"):
            if char in PASTED_KEYS:
                keys.append((PASTED_KEYS[char], char if char in ".=+-" else ""))
            elif digit(char) or char.isalpha():
                keys.append((char, char))
            else:
                # TRANSLATORS: {char} is the first character of a paste the grid cannot type
                # (a blank or invisible one as its code, U+00A0).
                self.refuse(_("Nothing pasted: a grid takes digits, letters, spaces, tabs, "
                              "line breaks and . = + -, not “{char}”").format(char=named(char)))
                return None
        return keys

    def refuse(self, reason: str) -> None:
        """Say why a key changed nothing (the screen shows it beside the grid)."""
        self.post_message(self.Refused(self, reason))

    def _where(self, row: str, col: Column) -> str:
        # TRANSLATORS: a cell of a grid, by its row and its column: "France, Armies".
        return _("{row}, {column}").format(row=self.row_labels[row].strip(),
                                           column=heading(col))

    def _type_toggle(self, row: str, col: Column, char: str) -> None:
        if digit(char) and char not in "01":
            self.refuse(_("{cell}: 1 (or {key}) if held, 0 if not").format(
                cell=self._where(row, col), key=TOGGLE_KEY))
            return
        held = bool(self.values[row][col.key])
        held = not held if char == TOGGLE_KEY else char in ("1", "+")
        self.set_value(row, col.key, int(held))
        if char in ("0", "1"):
            self.move_cell(1)  # a digit in a quick cell moves on, as everywhere

    def _type_token(self, row: str, col: Column, key: str, char: str) -> None:
        tokens: list[int] = list(self.values[row][col.key])
        if digit(char):
            if char == "0":
                self.refuse(_("{cell}: an unrest token is 1 to 9").format(
                    cell=self._where(row, col)))
                return
            tokens.append(int(char))  # each digit is one token drawn (tokens are 1..9)
        elif key == "backspace" and tokens:
            tokens.pop()
        elif key == "delete":
            tokens = []
        else:
            return
        self.set_value(row, col.key, tokens)

    def _type_number(self, row: str, col: Column, key: str, char: str) -> None:
        number = int(self.values[row][col.key])
        if digit(char):
            number = int(char) if self._fresh else number * 10 + int(char)
        elif char == "+":
            number += 1
        elif char == "-":
            if number == 0:
                self.refuse(_("{cell}: 0 is the least it can be").format(
                    cell=self._where(row, col)))
                return
            number -= 1
        elif key == "backspace":
            number //= 10
        elif key == "delete":
            number = 0
        else:
            return
        if number > col.most:
            # Refused in words, never cut: the cell keeps what it had.
            self.refuse(_("{cell}: at most {most}, not {number}").format(
                cell=self._where(row, col), most=col.most, number=number))
            return
        if digit(char):
            self._fresh = False
        self.set_value(row, col.key, number)
        if digit(char) and col.quick and not self._open:
            self.move_cell(1)

    def next_row(self) -> None:
        """To the first cell of the next row: the rest of this row stays as it is."""
        row = self.cursor_coordinate.row
        if row + 1 < len(self.row_keys):
            self.cursor_coordinate = Coordinate(row + 1, 1)

    SEARCH_PAUSE = 1.0  # seconds after which a letter starts a new search

    def jump_to(self, letter: str, typed_at: float | None = None) -> None:
        """Letters typed one after another jump to the first row (after this one, for a
        first letter, so pressing it again walks the rows) a word of whose name, as shown,
        starts with them ("f" reaches "Franța" in Romanian; "franta" without its comma
        does too), on its first cell: `b 2` types Bo's first number, wherever the cursor
        was (a capital letter then reaches another column). The pause that starts a new search is
        measured between the keys' arrivals (`typed_at`, the key event's time), not between
        their handling: a burst waiting behind a slow step keeps what its typist meant."""
        now = time.monotonic() if typed_at is None else typed_at
        if now - self._searched_at > self.SEARCH_PAUSE:
            self._search = ""
        self._searched_at = now
        here = self.cursor_coordinate.row
        letter = folded(letter)
        for search in (self._search + letter, letter):
            start = here + 1 if len(search) == 1 else here
            order = self.row_keys[start:] + self.row_keys[:start]
            found = next((r for r in order if self._row_matches(r, search)), None)
            if found is not None:
                self._search = search
                self.cursor_coordinate = Coordinate(self.row_keys.index(found), 1)
                return
        self._search = ""

    def jump_to_column(self, letter: str) -> None:
        """A capital letter jumps to the next column whose heading, or the name it is short
        for, starts with it (F: France or Fleets; in Romanian F: Franța, whose heading may
        be "Fra"; again: the next such column); the cursor keeps its row."""
        here = self.cursor_coordinate.column
        count = len(self.grid_columns)
        letter = folded(letter)
        for step in range(1, count + 1):
            index = (here - 1 + step) % count
            column = self.grid_columns[index]
            # The key counts as it is shown: in English as it is, in another language
            # only when the catalogs name it (a power), never as an English word.
            named = shown_key(column.key)
            names = [folded(heading(column))]
            if language() == SOURCE or named != column.key:
                names.append(folded(named))
            if any(name.startswith(letter) for name in names):
                self.cursor_coordinate = Coordinate(self.cursor_coordinate.row, index + 1)
                return

    def _row_matches(self, row: str, search: str) -> bool:
        """A row is found by its name as shown (its first word), or by any word of what it
        names there (a region, a power, a territory: "Ana (France)" by "france"; in
        Romanian "Ana (Franța)" by "franța", not by the English id)."""
        label = folded(self.row_labels[row])
        named = folded(shown_key(row))
        if named not in label:  # the row's label does not name its key as shown
            named = label if language() != SOURCE else folded(row)
        names = [label.strip()] + [w for w in re.split(r"[^\w]+", named) if w]
        return any(name.startswith(search) for name in names) or named.startswith(search)

    def watch_cursor_coordinate(self, old: Coordinate, new: Coordinate) -> None:
        super().watch_cursor_coordinate(old, new)
        self._fresh, self._open = True, False
        if self.is_mounted:
            self.post_message(self.Moved(self))
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


def heading(column: Column) -> str:
    """A column's heading in the reader's language."""
    return _(column.label) if column.label else ""


def shown_key(key: str) -> str:
    """A row's or column's key (a power, a region, a territory: an English id, a message of
    the catalogs) as the screens show it; any other key (a player's name) as it is."""
    return _(key) if key else key


def folded(text: str) -> str:
    """`text` for matching what is typed: no case, no accents or commas below (ă â î ș ț
    match a i s t), so "franta" finds "Franța"."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold())
                   if not unicodedata.combining(c))
