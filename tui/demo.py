"""A demo game of each game, so every screen can be seen without typing a whole game (the
games' own demos are in tui/games/<game>/demo.py).

Each demo game has a fixed id of its own, so asking for the demos again (`warledger demo`,
`d` on the home screen) finds them stored and keeps them as they are, played or not,
instead of storing them a second time; a demo game deleted is stored anew.
"""

from __future__ import annotations

from tui.screens.registry import games, load


def store_demos(ledger) -> list[tuple[int, bool]]:
    """Store the demo games this database does not hold yet: (game number, whether it was
    stored now) of each, in the order the games are registered."""
    return [load(g.demo)(ledger) for g in games() if g.demo]


def load_demos(ledger) -> list[int]:
    """The demo games, stored once (see store_demos); returns their game numbers."""
    return [game_id for game_id, _ in store_demos(ledger)]
