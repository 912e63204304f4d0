"""A demo game of each game of this warledger, so every screen can be seen without typing a
whole game (the games' own demos are in tui/games/<game>/demo.py), for what runs without
the app (`warledger demo`, the tests, the benchmarks).

Each demo game has a fixed id of its own, so asking for the demos again (`warledger demo`,
`d` on the home screen) finds them stored and keeps them as they are, played or not,
instead of storing them a second time; a demo game deleted is stored anew.
"""

from __future__ import annotations

import tui.games  # noqa: F401 - the games of this warledger, with their demos
from tui.screens.registry import store_demos

__all__ = ["load_demos", "store_demos"]


def load_demos(ledger) -> list[int]:
    """The demo games, stored once (see store_demos); returns their game numbers."""
    return [game_id for game_id, _ in store_demos(ledger)]
