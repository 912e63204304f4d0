"""The step log of a game in the players' words: every confirmed step, undo and redo
included, with who recorded it and when."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from i18n import N_, _
from tui.plumbing.ledger_calls import LedgerCalls, while_live
from tui.screens.base import WarledgerModal
from tui.text.formatting import local_time
from tui.text.literal import filled, literal
from tui.widgets.measured_table import MeasuredTable


class HistoryScreen(LedgerCalls, WarledgerModal[None]):
    """Why every total is what it is: the log, step by step."""

    HELP_TITLE = N_("History of the game")
    # The whole terminal (CSS, not DEFAULT_CSS, so it outranks the app's `.dialog` width):
    # one line per step in the table, cut to fit, and the step under the cursor in full.
    CSS = """
    HistoryScreen #history { width: 100%; max-width: 140; height: 100%; padding: 0 1; }
    HistoryScreen #history DataTable { height: 1fr; }
    HistoryScreen #step-said { height: auto; max-height: 8; margin-top: 1; }
    """
    BINDINGS = [Binding("escape", "close", N_("Close"), id="close")]
    # The table's headings: the step's number, when, by whom, and what it did.
    HEADINGS = ("#", N_("when"), N_("by"), N_("what"))

    def __init__(self, game) -> None:
        super().__init__()
        self.game = game
        self.steps: list = []  # the LoggedSteps, one per row
        self.rows: list[tuple[Text, ...]] = []  # their cells: #, when, by, what
        self.fitted_to = 0  # the width of the sentence column the rows were shown at
        self.start_at: int | None = None  # the row the cursor opens on (None: the last)

    def again(self) -> HistoryScreen:
        screen = HistoryScreen(self.game)
        screen.start_at = self.query_one(DataTable).cursor_row if self.steps else None
        return screen

    def help_text(self) -> str:
        return _("Every step recorded in this game, oldest first, with the time it was "
                 "recorded and who recorded it. The step under the cursor is shown in full "
                 "below the table.")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="history"):
            yield Static(filled(_("History of {title}"), "bold", title=self.game.title))
            yield StepsTable(cursor_type="row", zebra_stripes=True)
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
        row = len(steps) - 1 if self.start_at is None else self.start_at
        self.show_steps(row=row)

    def on_resize(self) -> None:
        # The table has its new size only once laid out again (and the screen may be gone).
        self.call_after_refresh(while_live(self, self.show_steps))

    def show_steps(self, row: int | None = None) -> None:
        """The rows, the sentence column as wide as the other columns leave (shown again
        only when that width changes: a long game has thousands of rows)."""
        table = self.query_one(DataTable)
        labels = [_(label) if label != "#" else label for label in self.HEADINGS]
        widths = [max([len(label), *(cells[i].cell_len for cells in self.rows)])
                  for i, label in enumerate(labels[:3])]
        padding = 2 * table.cell_padding
        # At 40 columns (a phone) the sentence still has 17 cells beside the rest; the step
        # under the cursor is said in full below.
        fitted = max(12, table.scrollable_content_region.width - sum(widths) - 4 * padding)
        if row is None and fitted == self.fitted_to:
            return
        self.fitted_to = fitted
        row = table.cursor_row if row is None else row
        table.clear(columns=True)
        for label, width in zip(labels, [*widths, fitted], strict=True):
            table.add_column(label, width=width)
        table.add_rows(self.rows)
        if table.row_count:
            table.move_cursor(row=max(0, min(row, table.row_count - 1)))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if not 0 <= event.cursor_row < len(self.steps):
            return
        step = self.steps[event.cursor_row]
        when = local_time(step.recorded_at)
        said = (filled(_("{number}, recorded by {player} on {when}\n{said}"),
                       number=(f"#{step.seq}", "bold"), player=step.author, when=when,
                       said=step.said) if step.author else
                filled(_("{number}, recorded on {when}\n{said}"),
                       number=(f"#{step.seq}", "bold"), when=when, said=step.said))
        self.query_one("#step-said", Static).update(said)

    def action_close(self) -> None:
        self.dismiss(None)


class StepsTable(MeasuredTable):
    """The history's table: its sentence column fitted again whenever its room changes (the
    window's, or its scrollbar's, which comes with the rows after the first fit)."""

    def on_resize(self) -> None:
        screen = self.screen
        if isinstance(screen, HistoryScreen):
            self.call_after_refresh(while_live(screen, screen.show_steps))
