"""The Struggle of Empires demo game: war 2 begun, on a board profile named "Demo board".
German States 8/5/3 is the 2004 edition's; the other values are made up for the demo and
say so in the name."""

from __future__ import annotations

import copy
from typing import Any

from i18n import N_, _

# The board's name and the note are what a group would type: stored in the language of who
# asks for the demo (soe_demo).
DEMO_BOARD = N_("Demo board (made-up values except German States)")
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
        {"kind": "adjust", "power": "Austria", "gold": -2, "unrest": 1, "note": N_("lost a battle")},
        {"kind": "tax", "power": "France", "unrest": 1},
        {"kind": "income", "regions": {
            "German States": {"France": 3, "Austria": 3},
            "Central Europe": {"Austria": 3, "Russia": 1, "Prussia": 2},
            "North America": {"Britain": 3, "France": 2},
            "Mediterranean": {"Spain": 2, "France": 1, "Britain": 1},
            "Baltic": {"Russia": 4}, "India": {"Britain": 3}}},
    ],
}


def soe_demo() -> dict[str, Any]:
    """The demo game as the reader's group would have typed it: its board's name and its
    note in the reader's language."""
    demo = copy.deepcopy(SOE_DEMO)
    demo["settings"]["board"] = _(DEMO_BOARD)
    for step in demo["steps"]:
        if "note" in step:
            step["note"] = _(step["note"])
    return demo


def store_demo(ledger) -> tuple[int, bool]:
    """(game number, stored now) of the demo game, and the demo board profile if missing. A
    demo stored before is kept as it is, however far it has been played (it has a fixed
    id)."""
    from storage.records import AlreadyStored

    if _(DEMO_BOARD) not in ledger.board_profiles():
        ledger.save_board_profile(_(DEMO_BOARD), DEMO_REGIONS)
    try:
        return ledger.replay(soe_demo()).id, True
    except AlreadyStored as e:
        return e.game_id, False
