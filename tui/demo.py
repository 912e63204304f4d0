"""Two demo games, so every screen can be seen without typing a whole game.

The Struggle of Empires demo uses a board profile named "Demo board": German States 8/5/3
is the 2004 edition's; the other values are made up for the demo and say so in the name.

Each demo game has a fixed id of its own, so asking for the demos again (`warledger demo`,
`d` on the home screen) finds them stored and keeps them as they are, played or not,
instead of storing them a second time; a demo game deleted is stored anew.
"""

from __future__ import annotations

from typing import Any

DEMO_BOARD = "Demo board (made-up values except German States)"
DEMO_REGIONS = {
    "German States": [8, 5, 3], "Baltic": [6, 3], "Mediterranean": [7, 4, 2],
    "Central Europe": [6, 4, 2], "Ottoman Empire": [5, 3], "North America": [9, 5, 2],
    "Caribbean": [7, 4, 1], "South America": [5, 2], "Africa": [6, 3, 1],
    "India": [10, 6, 3], "East Indies": [8, 4],
}

SOE_DEMO_ID = "5e0d3b1a-7c2f-4d6e-9a81-0de3a0000001"
RISK_DEMO_ID = "5e0d3b1a-7c2f-4d6e-9a81-0de3a0000002"

SOE_DEMO: dict[str, Any] = {
    "format": "warledger/1", "id": SOE_DEMO_ID, "game": "soe",
    "title": "Demo: Struggle of Empires",
    "settings": {"regions": DEMO_REGIONS, "board": DEMO_BOARD},
    "players": [{"name": "Ana", "power": "France"}, {"name": "Bo", "power": "Britain"},
                {"name": "Cy", "power": "Austria"}, {"name": "Di", "power": "Russia"}],
    "steps": [
        {"kind": "tax", "power": "Russia", "unrest": 2},
        {"kind": "income", "regions": {
            "German States": {"France": 2, "Austria": 2, "Prussia": 1},
            "Baltic": {"Russia": 3, "Prussia": 3}, "India": {"Britain": 2, "France": 1},
            "Caribbean": {"Britain": 2, "Spain": 2}, "Ottoman Empire": {"Russia": 2}}},
        {"kind": "upkeep", "units": {
            "France": {"armies": 6, "fleets": 2, "fortresses": 1},
            "Britain": {"armies": 2, "fleets": 6, "fortresses": 1},
            "Austria": {"armies": 7, "fleets": 0, "fortresses": 2},
            "Russia": {"armies": 9, "fleets": 1, "fortresses": 0}},
            "taxes": {}},
        {"kind": "population"},
        {"kind": "scoring"},
        {"kind": "end_war"},
        {"kind": "adjust", "power": "Austria", "gold": -2, "unrest": 1, "note": "lost a battle"},
        {"kind": "tax", "power": "France", "unrest": 1},
        {"kind": "income", "regions": {
            "German States": {"France": 3, "Austria": 3},
            "Central Europe": {"Austria": 3, "Russia": 1, "Prussia": 2},
            "North America": {"Britain": 3, "France": 2},
            "Mediterranean": {"Spain": 2, "France": 1, "Britain": 1},
            "Baltic": {"Russia": 4}, "India": {"Britain": 3}}},
    ],
}

POSITIONS = [  # rounds 1..7 of the Risk demo: (territories, armies, continents) per player
    {"Ana": (11, 20, []), "Bo": (11, 19, []), "Cy": (10, 18, []), "Di": (10, 17, [])},
    {"Ana": (12, 24, ["Australia"]), "Bo": (11, 22, []), "Cy": (10, 20, []),
     "Di": (9, 18, [])},
    {"Ana": (13, 27, ["Australia"]), "Bo": (12, 25, ["South America"]), "Cy": (9, 20, []),
     "Di": (8, 17, [])},
    {"Ana": (14, 30, ["Australia"]), "Bo": (13, 28, ["South America"]), "Cy": (9, 22, []),
     "Di": (6, 15, [])},
    {"Ana": (15, 33, ["Australia"]), "Bo": (13, 30, ["South America"]), "Cy": (9, 23, []),
     "Di": (5, 12, [])},
    {"Ana": (15, 35, ["Australia"]), "Bo": (15, 33, ["South America"]),
     "Cy": (8, 22, []), "Di": (4, 10, [])},
    {"Ana": (16, 38, ["Australia", "Africa"]), "Bo": (15, 36, ["South America"]),
     "Cy": (8, 24, []), "Di": (3, 9, [])},
]

RISK_DEMO: dict[str, Any] = {
    "format": "warledger/1", "id": RISK_DEMO_ID, "game": "risk",
    "title": "Demo: Risk league night",
    "settings": {"mode": "fixed_rounds", "rounds": 8, "mission_deck": "european"},
    "players": [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"},
                {"name": "Cy", "color": "green"}, {"name": "Di", "color": "yellow"}],
    "steps": [{"kind": "round", "positions": {
        name: {"territories": t, "armies": a, "continents": c}
        for name, (t, a, c) in round_.items()}} for round_ in POSITIONS],
}

DEMOS = (SOE_DEMO, RISK_DEMO)


def store_demos(ledger) -> list[tuple[int, bool]]:
    """Store the demo games this database does not hold yet (and the demo board profile, if
    missing): (game number, whether it was stored now) of each, in DEMOS' order."""
    from storage.records import AlreadyStored

    if DEMO_BOARD not in ledger.board_profiles():
        ledger.save_board_profile(DEMO_BOARD, DEMO_REGIONS)
    games = []
    for demo in DEMOS:
        try:
            games.append((ledger.replay(demo).id, True))
        except AlreadyStored as e:  # kept as it is, however far it has been played
            games.append((e.game_id, False))
    return games


def load_demos(ledger) -> list[int]:
    """The demo games, stored once (see store_demos); returns their game numbers."""
    return [game_id for game_id, _ in store_demos(ledger)]
