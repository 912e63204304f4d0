"""The Struggle of Empires demo game: war 2 begun, on a board profile named "Demo board".
German States 8/5/3 is the 2004 edition's; the other values are made up for the demo and
say so in the name."""

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


def store_demo(ledger) -> tuple[int, bool]:
    """(game number, stored now) of the demo game, and the demo board profile if missing. A
    demo stored before is kept as it is, however far it has been played (it has a fixed
    id)."""
    from storage.records import AlreadyStored

    if DEMO_BOARD not in ledger.board_profiles():
        ledger.save_board_profile(DEMO_BOARD, DEMO_REGIONS)
    try:
        return ledger.replay(SOE_DEMO).id, True
    except AlreadyStored as e:
        return e.game_id, False
