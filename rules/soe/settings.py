"""Struggle of Empires settings and seats: the options of RULES.md part B, the players and
the powers they play, their starting totals, and the bounds on every number typed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from i18n import _
from rules.errors import RuleError
from rules.fields import (
    BOARD_LIMIT,
    choice,
    distinct_name,
    listing,
    mapping,
    obj,
    player_name,
    text,
    whole,
)
from rules.soe.regions import (
    FRIENDLY_TIES_FROM,
    REGIONS,
    check_values,
    default_regions,
    power_named,
    region_named,
    regions_missing_values,
    shown,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 7  # one per major power
MAX_POPULATION = 9
# Bounds on what is typed, far above any real game (a correction moves by less than these):
# a typing slip of extra digits is refused instead of stored.
MAX_GOLD = 9_999
MAX_UNREST = 999
MAX_VP = 999
MAX_UNITS = 999  # armies, fleets or fortresses of one power
MAX_MARKERS = 999  # control markers of one power on the whole map
MAX_REGION_MARKERS = 99  # control markers of one power in one region (a grid's cell)
MAX_TOKEN = 9  # the value of one unrest token drawn
MAX_TAXATIONS = 99  # taxations of one power in one upkeep

# The player counts whose ties are friendly (4 to 7) and unfriendly (2 or 3): RULES.md B.4.4.
FRIENDLY_COUNTS = range(FRIENDLY_TIES_FROM, MAX_PLAYERS + 1)
UNFRIENDLY_COUNTS = range(MIN_PLAYERS, FRIENDLY_TIES_FROM)


def counts_said(counts: range) -> str:
    """Player counts as the players say them, in the reader's language: '2 or 3', '4 to 7'."""
    if len(counts) == 1:
        return str(counts[0])
    if len(counts) == 2:
        # TRANSLATORS: two player counts: "2 or 3".
        return _("{low} or {high}").format(low=counts[0], high=counts[-1])
    # TRANSLATORS: a range of player counts: "4 to 7" ("with 4 to 7 players").
    return _("{low} to {high}").format(low=counts[0], high=counts[-1])


# The options a group chooses in words, each with its words; the default first.
OPTIONS: dict[str, tuple[str, ...]] = {
    "friendly_ties": ("split", "full"),
    "unfriendly_ties": ("demote", "cascade"),
    "unrest_ranking": ("distinct", "competition"),
}


@dataclass(frozen=True)
class SoeSettings:
    """The options of RULES.md part B, with their defaults."""

    friendly_ties: str = "split"  # or "full"
    unfriendly_ties: str = "demote"  # or "cascade"
    gold_per_tax: int = 2
    unrest_ranking: str = "distinct"  # or "competition"
    regions: Mapping[str, tuple[int, ...]] = field(default_factory=default_regions)
    board: str | None = None  # the board profile the values came from

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "friendly_ties": self.friendly_ties, "unfriendly_ties": self.unfriendly_ties,
            "gold_per_tax": self.gold_per_tax, "unrest_ranking": self.unrest_ranking,
            "regions": {r: list(v) for r, v in self.regions.items()},
        }
        if self.board is not None:
            data["board"] = self.board
        return data

    @property
    def regions_missing_values(self) -> list[str]:
        """Regions whose printed values the group has not entered yet."""
        return regions_missing_values(self.regions)


@dataclass(frozen=True)
class SoeSeat:
    """A player and the major power they play, with their starting totals."""

    name: str
    power: str
    gold: int = 10
    population: int = 5
    unrest: int = 0
    vp: int = 0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "power": self.power, "gold": self.gold,
                                "population": self.population}
        if self.unrest:
            data["unrest"] = self.unrest
        if self.vp:
            data["vp"] = self.vp
        return data


def read_settings(data: Any) -> SoeSettings:
    """Settings from JSON; None or {} gives the defaults (only German States has values)."""
    data = obj(data if data is not None else {}, "settings", set(),
               {"friendly_ties", "unfriendly_ties", "gold_per_tax", "unrest_ranking",
                "regions", "board"})
    defaults = SoeSettings()
    regions = dict(default_regions())
    if "regions" in data:
        regions = {r: () for r in REGIONS}
        regions.update(read_values(data["regions"], "settings.regions", allow_empty=True))

    def option(key: str) -> str:
        return choice(data.get(key, getattr(defaults, key)), key, OPTIONS[key])

    return SoeSettings(
        friendly_ties=option("friendly_ties"),
        unfriendly_ties=option("unfriendly_ties"),
        # In words, as the setup screen labels it: `replay` says the same.
        gold_per_tax=whole(data.get("gold_per_tax", defaults.gold_per_tax),
                           _("Gold per taxation"), low=1, high=20),
        unrest_ranking=option("unrest_ranking"),
        regions=regions,
        board=text(data["board"], _("The board's name"), BOARD_LIMIT)
        if data.get("board") is not None
        else None,
    )


def read_players(data: Any, settings: SoeSettings) -> tuple[SoeSeat, ...]:
    """The seats in table order: 2 to 7 players, each with a power of their own."""
    # TRANSLATORS: the session file's list of players.
    players = listing(data, _("players"))
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise RuleError(_("Struggle of Empires takes {low} to {high} players, not "
                          "{count}").format(low=MIN_PLAYERS, high=MAX_PLAYERS,
                                            count=len(players)))
    seats: list[SoeSeat] = []
    for i, raw in enumerate(players, 1):
        # TRANSLATORS: a seat of the session file, by its number: "player 2".
        p = obj(raw, _("player {number}").format(number=i), {"name", "power"},
                {"gold", "population", "unrest", "vp"})
        name = player_name(p["name"], _("player {number}'s name").format(number=i))
        power = power_named(p["power"])
        seat = SoeSeat(
            name=name, power=power,
            gold=whole(p.get("gold", 10), _("{name}'s starting gold").format(name=name),
                       high=MAX_GOLD),
            population=whole(p.get("population", 5),
                             _("{name}'s starting population").format(name=name),
                             high=MAX_POPULATION),
            unrest=whole(p.get("unrest", 0), _("{name}'s starting unrest").format(name=name),
                         high=MAX_UNREST),
            vp=whole(p.get("vp", 0), _("{name}'s starting VP").format(name=name),
                     high=MAX_VP),
        )
        distinct_name(name, (other.name for other in seats))
        for other in seats:
            if other.power == power:
                raise RuleError(_("{first} and {second} both play {power}").format(
                    first=other.name, second=name, power=shown(power)))
        seats.append(seat)
    return tuple(seats)


def by_name(data: Any, what: str, named: Callable[[object], str]) -> dict[str, Any]:
    """An object keyed by power or region names, each spelled its canonical way; a name
    given twice (France and france, Italy and Mediterranean) is refused."""
    out: dict[str, Any] = {}
    for name, value in mapping(data, what).items():
        key = named(name)
        if key in out:
            # TRANSLATORS: a power or region named twice in one object (France and france).
            raise RuleError(_("{what}: {name} is given twice").format(
                what=what, name=shown(key)))
        out[key] = value
    return out


def read_values(data: Any, what: str, *, allow_empty: bool) -> dict[str, tuple[int, ...]]:
    """Printed VP values per region; an empty list means 'not entered yet' where allowed."""
    regions: dict[str, tuple[int, ...]] = {}
    for region, values in by_name(data, what, region_named).items():
        got = tuple(whole(v, _("{region}'s VP value").format(region=shown(region)),
                          high=MAX_VP)
                    for v in listing(values, _("{region}'s values").format(
                        region=shown(region))))
        if got or not allow_empty:
            check_values(region, got)
        regions[region] = got
    return regions


def read_board(name: Any, regions: Any) -> tuple[str, dict[str, list[int]]]:
    """A board profile, checked like a game's settings: its name as stored (trimmed and
    normalised) and its regions' printed values."""
    settings = read_settings({"regions": regions, "board": name})
    assert settings.board is not None  # every caller names the profile (a str, checked)
    return settings.board, settings.to_json()["regions"]
