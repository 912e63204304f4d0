"""What the two new-game screens share: the evening's title, names from earlier games,
and the Start / Back buttons."""

from __future__ import annotations

from datetime import date

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.suggester import SuggestFromList
from textual.widgets import Button, Input

from tui.literal import visible


def default_title() -> str:
    """'Friday 14 March': the evening the game is played."""
    today = date.today()
    return f"{today:%A} {today.day} {today:%B}"


def offer_names(screen) -> None:
    """The name fields of `screen` offer the names of everyone who played before, once the
    ledger has said them (suggestions are a comfort: the form works without)."""
    def offer(names: list[str]) -> None:
        names = [n for n in names if visible(n) == n]  # an old row's controls never offered
        if names:
            suggester = SuggestFromList(names, case_sensitive=False)
            for field in screen.query(".player-name").results(Input):
                field.suggester = suggester

    screen.call_ledger(lambda ledger: ledger.player_names(), offer, quiet=True)


def start_buttons() -> ComposeResult:
    with Horizontal(classes="setup-buttons"):
        yield Button("Start (ctrl+s)", id="start", variant="primary")
        yield Button("Back (esc)", id="cancel")
