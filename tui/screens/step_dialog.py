"""The base of the dialogs that record a less common step of a game (each game's dialogs.py
in tui/games): a small form whose step is checked against the game's rules before it is
handed back."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Button, Input, Static

from i18n import N_, _
from rules.errors import RuleError
from rules.ruleset import GameRules
from tui.screens.base import WarledgerModal
from tui.text.literal import literal


class StepDialog(WarledgerModal[dict | None]):
    """A small form; Enter (or ctrl+s) checks the step against `rules` on `state` and
    returns its JSON; Escape cancels (None)."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"), id="cancel"),
                Binding("ctrl+s", "submit", N_("Record"), id="record")]

    def __init__(self, rules: GameRules, state: Any) -> None:
        super().__init__()
        self.rules = rules  # the game's rules: the step is checked before it goes back
        self.state = state

    def buttons(self) -> ComposeResult:
        yield Static("", classes="message -error", id="dialog-message")
        with Horizontal(classes="buttons"):
            yield Button(_("Cancel ({key})").format(key=self.key_of("cancel")), id="cancel")
            yield Button(_("Record ({key})").format(key=self.key_of("record")), id="ok",
                         variant="primary")

    def step(self) -> dict[str, Any]:
        """The step's JSON from the fields (RuleError or ValueError when they are wrong)."""
        raise NotImplementedError

    def action_submit(self) -> None:
        try:
            step = self.step()
            self.rules.apply(self.state, self.rules.read_step(step))
        except (RuleError, ValueError) as e:
            self.query_one("#dialog-message", Static).update(literal(e))
            return
        self.dismiss(step)

    def on_number_grid_refused(self, event) -> None:
        event.stop()
        self.query_one("#dialog-message", Static).update(literal(event.reason))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ok":
            self.action_submit()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


def number(value: str, what: str, default: int = 0) -> int:
    """A typed whole number; `default` when the field is empty. `what` names the field in
    the reader's language."""
    value = value.strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise RuleError(_("{what} must be a whole number, not {value}").format(
            what=what, value=repr(value))) from None
