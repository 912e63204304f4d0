"""The Struggle of Empires board: the seven major powers, the 11 VP regions with their printed
values, and how control markers in a region turn into VP."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from i18n import N_, _
from rules.errors import RuleError

# Stored by these ids (English); shown through the catalogs (`shown`).
POWERS: tuple[str, ...] = (
    N_("Austria"), N_("Britain"), N_("France"), N_("Prussia"), N_("Russia"), N_("Spain"),
    N_("United Provinces"),
)

REGIONS: tuple[str, ...] = (
    N_("German States"), N_("Baltic"), N_("Mediterranean"), N_("Central Europe"),
    N_("Ottoman Empire"), N_("North America"), N_("Caribbean"), N_("South America"),
    N_("Africa"), N_("India"), N_("East Indies"),
)

REGION_ALIASES = {"italy": "Mediterranean"}

# The only printed values confirmed from public sources (2004 edition); the rest come from
# the group's own board, never from us.
KNOWN_VALUES: dict[str, tuple[int, ...]] = {"German States": (8, 5, 3)}

ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th")

FRIENDLY_TIES_FROM = 4  # players; with fewer, ties are unfriendly (RULES.md B.4.4)


def shown(name: str) -> str:
    """A major power or a VP region (stored by its id) as the reader's language names it;
    anything else as it is."""
    return _(name) if name in POWERS or name in REGIONS else name


def ties_are_friendly(player_count: int) -> bool:
    """Ties are friendly with 4 to 7 players and unfriendly with 2 or 3 (RULES.md B.4.4)."""
    return player_count >= FRIENDLY_TIES_FROM


def non_players_matter(player_count: int) -> bool:
    """Whether the non-player powers' markers weigh most at this player count: with
    unfriendly ties (2 or 3 players) a non-player power's place demotes the players, so
    their columns are shown without being asked for."""
    return not ties_are_friendly(player_count)


def default_regions() -> dict[str, tuple[int, ...]]:
    """The 11 regions with only the publicly confirmed values filled in."""
    return {r: KNOWN_VALUES.get(r, ()) for r in REGIONS}


def regions_missing_values(regions: Mapping[str, Any]) -> list[str]:
    """Regions whose printed values the group has not entered yet, in board order."""
    return [r for r in REGIONS if not regions.get(r)]


def power_named(name: object) -> str:
    """The canonical spelling of a major power, or a RuleError."""
    if isinstance(name, str):
        for power in POWERS:
            if power.lower() == name.strip().lower():
                return power
    raise RuleError(f"{name!r} is not a major power (one of {', '.join(POWERS)})")


def region_named(name: object) -> str:
    """The canonical name of a VP region (Italy is the Mediterranean), or a RuleError."""
    if isinstance(name, str):
        key = name.strip().lower()
        for region in REGIONS:
            if region.lower() == key:
                return region
        if key in REGION_ALIASES:
            return REGION_ALIASES[key]
    raise RuleError(f"{name!r} is not one of the 11 VP regions")


def check_values(region: str, values: tuple[int, ...]) -> None:
    """A region prints two or three VP values, highest first."""
    if len(values) not in (2, 3):
        raise RuleError(f"{region} prints 2 or 3 VP values, not {len(values)}")
    if any(v < 0 for v in values) or list(values) != sorted(values, reverse=True):
        raise RuleError(f"{region}'s values must be whole numbers, highest first: {list(values)}")


@dataclass(frozen=True)
class Award:
    """What one power got in one region, and why."""

    power: str
    markers: int
    position: int  # 1-based place, the first of its tied block
    vp: int
    scores: bool  # False for a non-player power: its VP is discarded
    reason: str


def score_region(
    region: str,
    values: tuple[int, ...],
    markers: Mapping[str, int],
    players: frozenset[str] | set[str],
    *,
    player_count: int,
    friendly_ties: str = "split",
    unfriendly_ties: str = "demote",
) -> list[Award]:
    """Rank the powers with at least one marker and award the printed values (RULES.md B.4.4).

    Ties are friendly with 4 to 7 players (`split`: the tied block shares the values of
    the places it covers, rounded down; `full`: each gets the value of the block's place)
    and unfriendly with 2 or 3 (`demote`: each gets the next place's value; `cascade`:
    each gets the value of the place after the whole block). Non-player powers take
    places but never score.
    """
    def value(place: int) -> int:
        return values[place - 1] if 1 <= place <= len(values) else 0

    ranked = sorted((p for p, n in markers.items() if n >= 1), key=lambda p: -markers[p])
    awards: list[Award] = []
    place = 1
    i = 0
    while i < len(ranked):
        block = [p for p in ranked[i:] if markers[p] == markers[ranked[i]]]
        k = len(block)
        if k == 1:
            vp, reason = value(place), f"{ordinal(place)}: {value(place)}"
        elif ties_are_friendly(player_count):
            covered = [value(p) for p in range(place, place + k)]
            if friendly_ties == "full":
                vp = value(place)
                reason = f"tied for {ordinal(place)} (friendly, full): {vp} each"
            else:
                vp = sum(covered) // k
                reason = (f"tied for {ordinal(place)}: ({'+'.join(map(str, covered))})/{k}"
                          f" = {vp} each")
        else:
            later = place + 1 if unfriendly_ties == "demote" else place + k
            vp = value(later)
            reason = f"tied for {ordinal(place)}, unfriendly: {ordinal(later)} place's {vp} each"
        # One reason for the whole block, naming its non-player powers, so that a tie is
        # explained once however many powers share it.
        npps = [p for p in block if p not in players]
        if k == 1:
            why = f"{block[0]} {reason}" + (" (non-player power: discarded)" if npps else "")
        else:
            why = f"{joined(block)} {reason}"
            if npps:
                kind = "non-player powers" if len(npps) > 1 else "non-player power"
                why += f" ({joined(npps)}: {kind}, discarded)"
        for power in block:
            scores = power in players
            awards.append(Award(power, markers[power], place, vp if scores else 0, scores, why))
        place += k
        i += k
    return awards


def joined(names: list[str]) -> str:
    """'Spain', 'Spain and Russia', 'France, Spain and Russia'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd..."""
    return ORDINALS[place - 1] if place <= len(ORDINALS) else f"{place}th"
