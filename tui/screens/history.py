"""The step log of a game: every confirmed step, who recorded it, undo and redo included."""

from __future__ import annotations

import json

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static


class HistoryScreen(ModalScreen[None]):
    """Why every total is what it is: the log, step by step."""

    BINDINGS = [Binding("escape", "close", "Close")]

    def __init__(self, game) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="history"):
            yield Static(f"[b]History of {self.game.title}[/b]")
            yield DataTable(cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("#", "step", "by", "details")
        export = self.app.ledger.export(self.game.id)
        authors = {seq: author for seq, _, author in self.app.ledger.authors(self.game.id)}
        for seq, step in enumerate(export["steps"], 1):
            details = {k: v for k, v in step.items() if k != "kind"}
            text = json.dumps(details)[:70] if details else ""
            table.add_row(str(seq), step["kind"].replace("_", " "), authors.get(seq) or "",
                          text)
        if table.row_count:
            table.move_cursor(row=table.row_count - 1)
        table.focus()

    def action_close(self) -> None:
        self.dismiss(None)
