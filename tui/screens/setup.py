"""What the two new-game screens share: the evening's title, names from earlier games,
and the Start / Back buttons."""

from __future__ import annotations

from datetime import date

from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.suggester import SuggestFromList
from textual.widgets import Button

from tui.literal import visible


def default_title() -> str:
    """'Friday 14 March': the evening the game is played."""
    today = date.today()
    return f"{today:%A} {today.day} {today:%B}"


def name_suggester(app: App) -> SuggestFromList | None:
    """Offers the names of everyone who played before (None when nobody has, or the
    database cannot say: suggestions are a comfort, the form works without)."""
    try:
        names = app.ledger.player_names()
    except Exception:  # noqa: BLE001
        return None
    names = [n for n in names if visible(n) == n]  # an old row's controls are never offered
    return SuggestFromList(names, case_sensitive=False) if names else None


def start_buttons() -> ComposeResult:
    with Horizontal(classes="setup-buttons"):
        yield Button("Start (ctrl+s)", id="start", variant="primary")
        yield Button("Back (esc)", id="cancel")
