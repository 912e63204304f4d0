"""The step log of a game: every confirmed step, who recorded it, undo and redo included."""

from __future__ import annotations

import json

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from tui.literal import literal, words


class HistoryScreen(ModalScreen[None]):
    """Why every total is what it is: the log, step by step."""

    BINDINGS = [Binding("escape", "close", "Close")]

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
        try:
            export = self.app.ledger.export(self.game.id)
            authors = {seq: author for seq, _, author in self.app.ledger.authors(self.game.id)}
        except Exception as e:  # noqa: BLE001 - a database failure is told, not thrown
            from storage.service import explain

            self.notify(explain(e), severity="error")
            return
        for seq, step in enumerate(export["steps"], 1):
            details = {k: v for k, v in step.items() if k != "kind"}
            text = json.dumps(details, ensure_ascii=False)[:70] if details else ""
            table.add_row(*map(literal, (seq, step["kind"].replace("_", " "),
                                         authors.get(seq) or "", text)))
        if table.row_count:
            table.move_cursor(row=table.row_count - 1)
        table.focus()

    def action_close(self) -> None:
        self.dismiss(None)
