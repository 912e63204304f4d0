"""The Risk demo game: a fixed-round league night in its last round."""

from __future__ import annotations

from typing import Any

RISK_DEMO_ID = "5e0d3b1a-7c2f-4d6e-9a81-0de3a0000002"

POSITIONS: list[dict[str, tuple[int, int, list[str]]]] = [  # rounds 1..7 of the Risk demo: (territories, armies, continents) per player
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


def store_demo(ledger) -> tuple[int, bool]:
    """(game number, stored now) of the demo game; a demo stored before is kept as it
    is, however far it has been played (it has a fixed id)."""
    from storage.records import AlreadyStored

    try:
        return ledger.replay(RISK_DEMO).id, True
    except AlreadyStored as e:
        return e.game_id, False
