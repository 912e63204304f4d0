"""The Risk board: continents, territories, bonuses, and a player's position on it."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from i18n import N_, _, language, ngettext, pgettext
from rules.errors import RuleError
from rules.fields import COLOUR_LIMIT, plain_text

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


def territories_counted(n: int) -> str:
    """'1 territory', '16 territories', in the reader's language."""
    return ngettext("{n} territory", "{n} territories", n).format(n=n)


def armies_counted(n: int) -> str:
    """'1 army', '40 armies', in the reader's language."""
    return ngettext("{n} army", "{n} armies", n).format(n=n)


def continents_counted(n: int) -> str:
    """'1 continent', '2 continents', in the reader's language."""
    return ngettext("{n} continent", "{n} continents", n).format(n=n)


def joined(names: Iterable[str]) -> str:
    """'Ana', 'Ana and Bo', 'Ana, Bo and Cy', in the reader's language."""
    names = list(names)
    if len(names) == 1:
        return names[0]
    # TRANSLATORS: the end of a list of names: "Ana, Bo and Cy" ({first} is "Ana, Bo").
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


def one_and_another(items: Iterable[str]) -> str:
    """'A', 'A and B', 'A and B and C': each item joined to the next with 'and'."""
    items = list(items)
    said = items[0]
    for item in items[1:]:
        said = _("{first} and {last}").format(first=said, last=item)
    return said


def armies_colour(colour: str) -> str:
    """A colour of the box as it describes armies ('Destroy all red armies': Romanian
    adjectives agree with the noun); a colour a group wrote as it is."""
    words = {
        # TRANSLATORS: a colour describing armies ("all red armies"), agreeing with them.
        "red": pgettext("the armies' colour", "red"),
        "blue": pgettext("the armies' colour", "blue"),
        "green": pgettext("the armies' colour", "green"),
        "yellow": pgettext("the armies' colour", "yellow"),
        "black": pgettext("the armies' colour", "black"),
        "pink": pgettext("the armies' colour", "pink"),
    }
    return words.get(colour, colour)


def _key(name: str) -> str:
    # "south-america", "South_America" and " south  america " all mean the same continent.
    return re.sub(r"[\s_-]+", " ", name).strip().casefold()


_BY_KEY = {_key(name): name for name in CONTINENTS} | ALIASES


@cache
def _translated_keys(code: str, names: tuple[str, ...]) -> dict[str, str]:
    # `code` keys the cache: the names as the language `code` shows them, to their ids.
    return {_key(_(name)): name for name in names}


def _named(name: str, names: tuple[str, ...], english: dict[str, str]) -> str | None:
    """The id of one of `names` written as `name`: in English (`english`, by key) or in the
    reader's language, case and spacing aside."""
    key = _key(name)
    return english.get(key) or _translated_keys(language(), names).get(key)


def continent_named(name: Any) -> str:
    """The canonical name (the id) of a continent, matched case-insensitively, through
    aliases, and as the reader's language names it."""
    if isinstance(name, str) and (found := _named(name, tuple(CONTINENTS), _BY_KEY)):
        return found
    raise RuleError(
        # TRANSLATORS: {name} is what was typed, quoted; {continents} lists the six.
        _("{name} is not a continent: the continents are {continents} (Australia is also "
          "called Australasia or Oceania)").format(
              name=repr(name), continents=", ".join(shown(c) for c in CONTINENTS)))


_TERRITORY_KEYS = {_key(name): name for name in TERRITORIES}


def territory_named(name: Any) -> str:
    """The id of a territory, written in English or as the reader's language names it,
    case and spacing aside; a RuleError for anything else."""
    if isinstance(name, str) and (found := _named(name, TERRITORIES, _TERRITORY_KEYS)):
        return found
    raise RuleError(_("{territory} is not a territory of the board").format(territory=name))


_COLOUR_KEYS = {_key(name): name for name in DEFAULT_COLOURS}


def colour_named(name: str) -> str:
    """A colour as stored: the id of a colour of the box when `name` is one, in English or
    in the reader's language ('Roșu' is 'red' in Romanian); any other colour casefolded."""
    return _named(name, DEFAULT_COLOURS, _COLOUR_KEYS) or name.casefold()


def colour_played(value: str, player: str) -> str | None:
    """A colour a plays file gives a player (BoardGameGeek's color, BG Stats' role), as
    stored: a colour of the box by its id, another colour casefolded; None for a text
    longer than a colour (a note, not a colour)."""
    if len(value.strip()) > COLOUR_LIMIT:
        return None
    return colour_named(plain_text(value, _("{player}'s colour").format(player=player),
                                   COLOUR_LIMIT))


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
