"""The step log of a game: every confirmed step, who recorded it, undo and redo included."""

from __future__ import annotations

import json

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from tui.ledger_calls import LedgerCalls
from tui.literal import literal, words
from tui.screens.base import WarledgerModal


class HistoryScreen(LedgerCalls, WarledgerModal[None]):
    """Why every total is what it is: the log, step by step."""

    HELP_TITLE = "History of the game"
    BINDINGS = [Binding("escape", "close", "Close", id="close")]

    def __init__(self, game) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="history"):
            yield Static(words((f"History of {self.game.title}", "bold")))
            yield DataTable(cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("#", "step", "by", "details")
        table.focus()
        session_id = self.game.id

        def read(ledger) -> tuple:
            return ledger.export(session_id), ledger.authors(session_id)

        self.call_ledger(read, self.list_steps)

    def list_steps(self, found: tuple) -> None:
        export, authored = found
        table = self.query_one(DataTable)
        authors = {seq: author for seq, _, author in authored}
        for seq, step in enumerate(export["steps"], 1):
            details = {k: v for k, v in step.items() if k != "kind"}
            text = json.dumps(details, ensure_ascii=False)[:70] if details else ""
            table.add_row(*map(literal, (seq, step["kind"].replace("_", " "),
                                         authors.get(seq) or "", text)))
        if table.row_count:
            table.move_cursor(row=table.row_count - 1)

    def action_close(self) -> None:
        self.dismiss(None)
