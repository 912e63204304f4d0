"""Small typed dialogs: a yes/no question."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from i18n import N_, _
from tui.screens.base import WarledgerModal
from tui.text.literal import literal


class ConfirmDialog(WarledgerModal[bool]):
    """A yes-or-no question, asked only where a key could do what undo cannot put right
    (deleting a game) or what the table should agree to first (a board unlike the printed
    one, a mission claim the positions do not show)."""

    BINDINGS = [Binding("n", "answer(False)", N_("No"), id="no"),
                Binding("escape", "answer(False)", N_("No"), show=False, id="cancel"),
                Binding("y", "answer(True)", N_("Yes"), id="yes")]

    def __init__(self, question: str | Text, yes: str = N_("Yes"), no: str = N_("No")) -> None:
        """`question` in the reader's language; `yes` and `no` the buttons' words (message
        ids or words already translated)."""
        super().__init__()
        self.question = question
        # TRANSLATORS: a button: its word, then its key ("Yes (y)").
        self.yes = _("{word} ({key})").format(word=_(yes), key=self.key_of("yes"))
        self.no = _("{word} ({key})").format(word=_(no), key=self.key_of("no"))

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(literal(self.question) if isinstance(self.question, str)
                         else self.question)
            with Horizontal(classes="buttons"):
                yield Button(self.no, id="no")
                yield Button(self.yes, id="yes", variant="error")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
