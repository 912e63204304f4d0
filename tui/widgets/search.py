"""The home screen's search line, in a module of its own: Textual's Input is imported only
when a player first presses `/`, not at every start."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input


class SearchInput(Input):
    """What a player types to find saved games: Esc empties and closes it, Down goes on to
    the games found (the screen's actions)."""

    BINDINGS = [Binding("escape", "screen.clear_search", show=False),
                Binding("down", "screen.focus_games", show=False)]
