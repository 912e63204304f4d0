"""Which screen shows a game: its game screen while it is played, its results once it is
over. The app routes through here (WarledgerApp.show_game), so screens never import each
other to move between them."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from tui.screens.registry import load, screens_of


def screen_for(game, draft: dict[str, Any] | None = None) -> Screen:
    """The screen for `game` as it stands; `draft` is what was typed but not confirmed. A
    game imported as a result only (storage.plays.ResultOnly) shows its result."""
    if getattr(game, "result_only", False) or game.state.finished:
        from tui.screens.results import ResultsScreen

        return ResultsScreen(game)
    screens = screens_of(game.game)
    assert screens is not None  # the ledger reads only games whose rules are registered,
    return load(screens.play)(game, draft)  # and each registers its screens (tui.games)
