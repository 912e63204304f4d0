"""The Textual app: thin, it wires the ledger in and pushes the home screen."""

from __future__ import annotations

from textual.app import App


class WarledgerApp(App):
    TITLE = "warledger"

    def __init__(self, db: str | None = None) -> None:
        super().__init__()
        self.db = db


def run(db: str | None = None) -> None:
    WarledgerApp(db).run()
