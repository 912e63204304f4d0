"""Textual's insides warledger relies on, each behind a function or a hook named for what it
does. pyproject keeps Textual below its next minor release; tests/test_compat.py checks
every name and signature used here, so a release that moves one fails the test naming it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.style import Style
from textual.command import CommandPalette
from textual.dom import DOMNode
from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.widgets import DataTable, Footer

# Textual exports no public name for the footer's keys and labels, nor for a Markdown
# document's tables; their classes are taken from where they are defined.
from textual.widgets._footer import FooterKey, FooterLabel

if TYPE_CHECKING:
    from textual.widgets._markdown import MarkdownTable


def __getattr__(name: str) -> Any:
    # Markdown (and markdown-it) imported only by the screen that shows a document.
    if name == "MarkdownTable":
        from textual.widgets._markdown import MarkdownTable

        return MarkdownTable
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["FooterKey", "FooterLabel", "MarkdownTable", "PaletteInsides", "PaintedTable",
           "bindings_ready", "callbacks_due", "is_being_removed", "key_map", "lay_out_now",
           "peeked_message", "queued_messages", "table_cells"]


# ---------------------------------------------------------------- the message pumps

def peeked_message(node: MessagePump) -> Message | None:
    """The message `node` took from its queue to look at and has not handled yet."""
    return node._pending_message


def queued_messages(node: MessagePump) -> list[Message | None]:
    """The messages waiting in `node`'s queue, first first."""
    return list(node._message_queue.values)


def callbacks_due(node: MessagePump) -> bool:
    """Whether `node` has callbacks to run once its queue is empty (call_next)."""
    return bool(node._next_callbacks)


def is_being_removed(node: MessagePump) -> bool:
    """Whether `node` is being removed, or is gone: Textual sets these the moment a removal
    starts (its own mount and recompose look at them the same way)."""
    return bool(getattr(node, "_pruning", False) or node._closing or node._closed)


def lay_out_now(screen: Screen) -> None:
    """Give every widget of `screen` its place now if a change asked for a layout (Textual
    lays a screen out at its next refresh, up to 1/60 s later)."""
    if screen._layout_required:  # Textual's own flag, and the update its timer runs
        screen._on_timer_update()


# ---------------------------------------------------------------- bindings

def key_map(node: DOMNode) -> dict[str, list[Any]]:
    """`node`'s own map of keys to bindings (its class's, copied when it was made), which
    the footer, the help and the key handler read: edited in place."""
    return node._bindings.key_to_bindings


def bindings_ready(footer: Footer, ready: bool | None = None) -> bool:
    """Whether `footer` has been told the screen's bindings (set it with `ready`)."""
    if ready is not None:
        footer._bindings_ready = ready
    return footer._bindings_ready


# ---------------------------------------------------------------- Markdown

def table_cells(table: MarkdownTable) -> tuple[list[Any], list[list[Any]]]:
    """A Markdown table's headings and rows (Content), kept on it as its compose keeps
    them."""
    table._headers, table._rows = table._get_headers_and_rows()
    return table._headers, table._rows


# ---------------------------------------------------------------- the command palette

class PaletteInsides(CommandPalette):
    """Textual's command palette, with the parts it keeps private behind public names:
    whether its search runs, its Enter, and the words it shows when a search found
    nothing (`no_matches_words`; `timer_callback` wraps what its timer runs)."""

    def is_search(self, worker: Any) -> bool:
        """Whether `worker` is one of the palette's searches."""
        return worker.node is self and worker.group == self._GATHER_COMMANDS_GROUP

    def searching(self) -> bool:
        return any(self.is_search(worker) and not worker.is_finished
                   for worker in self.app.workers)

    def select_or_command(self) -> None:
        """What Enter does: run the highlighted command, or show the list."""
        self._select_or_command()

    def no_matches_words(self) -> str:
        return "No matches found"

    def timer_callback(self, callback: Callable[[], None]) -> Callable[[], None]:
        return callback

    # Textual's own method (textual/command.py), with its words asked for: a search that
    # finds nothing says so after a moment; an empty search (discovering) says nothing.
    def _start_no_matches_countdown(self, search_value: str) -> None:
        from rich.align import Align
        from rich.text import Text
        from textual.command import CommandList
        from textual.widgets.option_list import Option

        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:
                self.query_one(CommandList).add_option(Option(
                    Align.center(Text(self.no_matches_words(), style="not bold")),
                    disabled=True, id=self._NO_MATCHES))
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN,
                                                self.timer_callback(show_no_matches))


# ---------------------------------------------------------------- DataTable

class PaintedTable(DataTable):
    """Textual's DataTable, with hooks on two of its private steps: `paint_cell` (each cell
    of each line painted; `paint_cell_afresh` is Textual's own) and `rows_measured` (after
    the rows were measured at idle), and the look its painted cells depend on."""

    def paint_cell(self, row_index: int, column_index: int, base_style: Style, width: int,
                   cursor: bool = False, hover: bool = False) -> Any:
        return self.paint_cell_afresh(row_index, column_index, base_style, width, cursor,
                                      hover)

    def paint_cell_afresh(self, row_index: int, column_index: int, base_style: Style,
                          width: int, cursor: bool = False, hover: bool = False) -> Any:
        return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)

    def _render_cell(self, row_index: int, column_index: int, base_style: Style, width: int,
                     cursor: bool = False, hover: bool = False) -> Any:
        return self.paint_cell(row_index, column_index, base_style, width, cursor, hover)

    def cells_look(self) -> tuple:
        """What a painted cell's look depends on besides its place, value, width, cursor
        and hover: the hover cursor shown, and the table's focus and hover state."""
        return (self._show_hover_cursor, self._pseudo_class_state, self.cursor_type,
                self.show_cursor)

    def label_column_width(self) -> int:
        """The width of the rows' labels' column (0 without labels)."""
        return self._label_column.content_width

    def before_measuring(self) -> Any:
        """Called before the rows added or changed are measured (at idle); what it returns
        is given to `rows_measured`, called after."""
        return None

    def rows_measured(self, before: Any) -> None:
        """After the rows added or changed were measured (at idle)."""

    def _update_dimensions(self, new_rows: Any) -> None:
        before = self.before_measuring()
        super()._update_dimensions(new_rows)
        self.rows_measured(before)

    def count_a_layout(self) -> None:
        """Count one more layout request: Textual keys a widget's box on that count, and
        counts one only when none is pending."""
        self._layout_updates += 1

    def forget_painted_lines(self) -> None:
        self._clear_caches()
