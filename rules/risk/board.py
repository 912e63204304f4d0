"""The Risk board: continents, territories, bonuses, and a player's position on it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from i18n import N_, _
from rules.errors import RuleError

# Ordered as on the board (RULES.md A.1): name -> (territory names, printed bonus).
CONTINENTS: dict[str, tuple[tuple[str, ...], int]] = {
    N_("North America"): (
        (N_("Alaska"), N_("Alberta"), N_("Central America"), N_("Eastern United States"),
         N_("Greenland"), N_("Northwest Territory"), N_("Ontario"), N_("Quebec"),
         N_("Western United States")),
        5,
    ),
    N_("South America"): ((N_("Argentina"), N_("Brazil"), N_("Peru"), N_("Venezuela")), 2),
    N_("Europe"): (
        (N_("Great Britain"), N_("Iceland"), N_("Northern Europe"), N_("Scandinavia"),
         N_("Southern Europe"), N_("Ukraine"), N_("Western Europe")),
        5,
    ),
    N_("Africa"): (
        (N_("Congo"), N_("East Africa"), N_("Egypt"), N_("Madagascar"), N_("North Africa"),
         N_("South Africa")),
        3,
    ),
    N_("Asia"): (
        (N_("Afghanistan"), N_("China"), N_("India"), N_("Irkutsk"), N_("Japan"),
         N_("Kamchatka"), N_("Middle East"), N_("Mongolia"), N_("Siam"), N_("Siberia"),
         N_("Ural"), N_("Yakutsk")),
        7,
    ),
    N_("Australia"): ((N_("Eastern Australia"), N_("Indonesia"), N_("New Guinea"),
                       N_("Western Australia")), 2),
}

TERRITORIES: tuple[str, ...] = tuple(t for names, _bonus in CONTINENTS.values() for t in names)
TERRITORY_COUNT = len(TERRITORIES)  # 42
_TERRITORY_SET = frozenset(TERRITORIES)

DEFAULT_COLOURS: tuple[str, ...] = (N_("red"), N_("blue"), N_("green"), N_("yellow"),
                                     N_("black"), N_("pink"))

ALIASES = {"australasia": "Australia", "oceania": "Australia"}


def shown(name: str) -> str:
    """A continent, territory or colour of the box (stored by its id) as the reader's
    language names it; anything else (a colour a group wrote) as it is."""
    known = name in CONTINENTS or name in _TERRITORY_SET or name in DEFAULT_COLOURS
    return _(name) if known else name


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
