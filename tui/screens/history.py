"""The step log of a game in the players' words: every confirmed step, undo and redo
included, with who recorded it and when."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from tui.formatting import local_time
from tui.ledger_calls import LedgerCalls, while_live
from tui.literal import literal, words
from tui.screens.base import WarledgerModal


class HistoryScreen(LedgerCalls, WarledgerModal[None]):
    """Why every total is what it is: the log, step by step."""

    HELP_TITLE = "History of the game"
    # The whole terminal (CSS, not DEFAULT_CSS, so it outranks the app's `.dialog` width):
    # one line per step in the table, cut to fit, and the step under the cursor in full.
    CSS = """
    HistoryScreen #history { width: 100%; max-width: 140; height: 100%; padding: 0 1; }
    HistoryScreen #history DataTable { height: 1fr; }
    HistoryScreen #step-said { height: auto; max-height: 8; margin-top: 1; }
    """
    BINDINGS = [Binding("escape", "close", "Close", id="close")]

    def __init__(self, game) -> None:
        super().__init__()
        self.game = game
        self.steps: list = []  # the LoggedSteps, one per row
        self.rows: list[tuple[Text, ...]] = []  # their cells: #, when, by, what
        self.fitted_to = 0  # the width of the sentence column the rows were shown at

    def help_text(self) -> str:
        return ("Every step recorded in this game, oldest first, with the time it was "
                "recorded and who recorded it. The step under the cursor is shown in full "
                "below the table.")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="history"):
            yield Static(words((f"History of {self.game.title}", "bold")))
            yield DataTable(cursor_type="row", zebra_stripes=True)
            yield Static(id="step-said")

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        session_id = self.game.id
        self.call_ledger(lambda ledger: ledger.step_log(session_id), self.list_steps)

    def list_steps(self, steps: list) -> None:
        self.steps = steps
        self.rows = [(literal(s.seq), literal(local_time(s.recorded_at, "HH:mm")),
                      literal(s.author or ""), literal(s.said, no_wrap=True,
                                                       overflow="ellipsis")) for s in steps]
        self.show_steps(row=len(steps) - 1)

    def on_resize(self) -> None:
        # The table has its new size only once laid out again (and the screen may be gone).
        self.call_after_refresh(while_live(self, self.show_steps))

    def show_steps(self, row: int | None = None) -> None:
        """The rows, the sentence column as wide as the other columns leave (shown again
        only when that width changes: a long game has thousands of rows)."""
        table = self.query_one(DataTable)
        widths = [max([len(label), *(cells[i].cell_len for cells in self.rows)])
                  for i, label in enumerate(("#", "when", "by"))]
        padding = 2 * table.cell_padding
        fitted = max(20, table.scrollable_content_region.width - sum(widths) - 4 * padding)
        if row is None and fitted == self.fitted_to:
            return
        self.fitted_to = fitted
        row = table.cursor_row if row is None else row
        table.clear(columns=True)
        for label, width in zip(("#", "when", "by", "what"), [*widths, fitted], strict=True):
            table.add_column(label, width=width)
        table.add_rows(self.rows)
        if table.row_count:
            table.move_cursor(row=max(0, min(row, table.row_count - 1)))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if not 0 <= event.cursor_row < len(self.steps):
            return
        step = self.steps[event.cursor_row]
        by = f" by {step.author}" if step.author else ""
        self.query_one("#step-said", Static).update(words(
            (f"#{step.seq}", "bold"), f", recorded{by} on {local_time(step.recorded_at)}",
            "\n", step.said))

    def action_close(self) -> None:
        self.dismiss(None)
