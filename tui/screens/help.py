"""Help: the keys of the screen underneath, and what the current step expects."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from tui.literal import literal, words

GENERAL = [
    ("ctrl+p", "Command palette: every less common entry"),
    ("f1 / ?", "This help"),
    ("r", "Rules and options, with worked examples (in this help)"),
    ("escape", "Close a dialog or this help"),
    ("ctrl+q", "Quit (everything confirmed is already saved)"),
]


class HelpScreen(ModalScreen[None]):
    """The keys of `below`, with its own words about the current step."""

    BINDINGS = [Binding("escape,f1,question_mark,q", "close", "Close"),
                Binding("r", "rules", "Rules and options")]

    def __init__(self, below: Screen) -> None:
        super().__init__()
        self.below = below

    def compose(self) -> ComposeResult:
        table = Table(box=None, show_header=False, padding=(0, 2))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        seen = set()
        for binding in getattr(self.below, "BINDINGS", []):
            if isinstance(binding, Binding) and binding.description and binding.key not in seen:
                seen.add(binding.key)
                table.add_row(literal(binding.key_display or display_keys(binding.key)),
                              literal(binding.tooltip or binding.description))
        for keys, what in GENERAL:
            table.add_row(literal(keys), literal(what))
        about = getattr(self.below, "help_text", None)
        with VerticalScroll(classes="dialog", id="help"):
            yield Static(words((getattr(self.below, "HELP_TITLE", "Keys"), "bold")))
            if about:
                yield Static(literal(about()), classes="hint")
            yield Static(table)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_rules(self) -> None:
        from tui.screens.rules_help import open_rules

        open_rules(self)


def display_keys(keys: str) -> str:
    return " / ".join(k.replace("ctrl+", "ctrl+").replace("question_mark", "?")
                      for k in keys.split(","))
