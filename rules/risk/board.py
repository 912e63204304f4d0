"""The Risk board: continents, territories, bonuses, and a player's position on it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rules.errors import RuleError

# Ordered as on the board (RULES.md A.1): name -> (territory names, printed bonus).
CONTINENTS: dict[str, tuple[tuple[str, ...], int]] = {
    "North America": (
        ("Alaska", "Alberta", "Central America", "Eastern United States", "Greenland",
         "Northwest Territory", "Ontario", "Quebec", "Western United States"),
        5,
    ),
    "South America": (("Argentina", "Brazil", "Peru", "Venezuela"), 2),
    "Europe": (
        ("Great Britain", "Iceland", "Northern Europe", "Scandinavia", "Southern Europe",
         "Ukraine", "Western Europe"),
        5,
    ),
    "Africa": (
        ("Congo", "East Africa", "Egypt", "Madagascar", "North Africa", "South Africa"),
        3,
    ),
    "Asia": (
        ("Afghanistan", "China", "India", "Irkutsk", "Japan", "Kamchatka", "Middle East",
         "Mongolia", "Siam", "Siberia", "Ural", "Yakutsk"),
        7,
    ),
    "Australia": (("Eastern Australia", "Indonesia", "New Guinea", "Western Australia"), 2),
}

TERRITORIES: tuple[str, ...] = tuple(t for names, _ in CONTINENTS.values() for t in names)
TERRITORY_COUNT = len(TERRITORIES)  # 42

DEFAULT_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "black", "pink")

ALIASES = {"australasia": "Australia", "oceania": "Australia"}


def _key(name: str) -> str:
    # "south-america", "South_America" and " south  america " all mean the same continent.
    return re.sub(r"[\s_-]+", " ", name).strip().casefold()


_BY_KEY = {_key(name): name for name in CONTINENTS} | ALIASES


def continent_named(name: Any) -> str:
    """The canonical name of a continent, matched case-insensitively and through aliases."""
    if isinstance(name, str) and _key(name) in _BY_KEY:
        return _BY_KEY[_key(name)]
    raise RuleError(
        f"{name!r} is not a continent: the continents are {', '.join(CONTINENTS)}"
        " (Australia is also called Australasia or Oceania)"
    )


def size(continent: str) -> int:
    """How many territories a continent has."""
    return len(CONTINENTS[continent][0])


def bonus(continent: str) -> int:
    """The printed bonus of a continent."""
    return CONTINENTS[continent][1]


def board_order(continents: Any) -> tuple[str, ...]:
    """Canonical continent names in board order (each once)."""
    wanted = set(continents)
    return tuple(name for name in CONTINENTS if name in wanted)


@dataclass(frozen=True)
class Position:
    """One player's counts at a moment: territories, armies, continents held completely."""

    territories: int
    armies: int
    continents: tuple[str, ...] = ()

    @property
    def bonus(self) -> int:
        """The printed bonuses of the continents held."""
        return sum(bonus(c) for c in self.continents)

    @property
    def score(self) -> int:
        """Fixed-round score: territories + continent bonuses + armies // 5 (RULES.md A.2.3)."""
        return self.territories + self.bonus + self.armies // 5

    @property
    def chain(self) -> tuple[int, int, int, int]:
        """The ranking chain: score, then territories, continent count, armies."""
        return (self.score, self.territories, len(self.continents), self.armies)

    def to_json(self) -> dict[str, Any]:
        return {"territories": self.territories, "armies": self.armies,
                "continents": list(self.continents)}
