"""The Struggle of Empires board: the seven major powers, the 11 VP regions with their printed
values, and how control markers in a region turn into VP."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from i18n import N_, _, ngettext, pgettext
from rules.errors import RuleError
from rules.fields import and_list

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
# The same, as the reader's language names it (message ids: "Italia").
REGION_ALIASES_SHOWN = {N_("Italy"): "Mediterranean"}

# The only printed values confirmed from public sources (2004 edition); the rest come from
# the group's own board, never from us.
KNOWN_VALUES: dict[str, tuple[int, ...]] = {"German States": (8, 5, 3)}

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


def folded(name: str) -> str:
    """A name as typed, for comparing: trimmed, case aside, accents and the Romanian comma
    or cedilla below aside ('Franța', 'franta' and 'FRANŢA' fold alike)."""
    decomposed = unicodedata.normalize("NFD", name.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def named(name: object, ids: tuple[str, ...]) -> str | None:
    """The id among `ids` that `name` spells: the id itself (case aside), or its name in
    the reader's language (case, accents and the comma below aside)."""
    if not isinstance(name, str):
        return None
    key = name.strip().lower()
    for known in ids:
        if known.lower() == key:
            return known
    key = folded(name)
    for known in ids:
        if _(known) != known and folded(_(known)) == key:
            return known
    return None


def power_named(name: object) -> str:
    """The id of a major power, from its id or its name in the reader's language (case
    aside: 'france', 'Franța', 'franta'), or a RuleError."""
    power = named(name, POWERS)
    if power is None:
        raise RuleError(_("{name} is not a major power (one of {powers})").format(
            name=repr(name), powers=", ".join(map(shown, POWERS))))
    return power


def power_played(value: str, player: str) -> str | None:
    """A power a plays file gives a player (BoardGameGeek's color, BG Stats' role), by its
    id; None when the text names none."""
    try:
        return power_named(value.strip())
    except RuleError:
        return None


def region_named(name: object) -> str:
    """The id of a VP region, from its id or its name in the reader's language (case aside;
    Italy is the Mediterranean), or a RuleError."""
    region = named(name, REGIONS)
    if region is None and isinstance(name, str):
        region = REGION_ALIASES.get(name.strip().lower())
        for other, known in REGION_ALIASES_SHOWN.items():
            if region is None and _(other) != other and folded(_(other)) == folded(name):
                region = known
    if region is None:
        raise RuleError(_("{name} is not one of the 11 VP regions").format(name=repr(name)))
    return region


def check_values(region: str, values: tuple[int, ...]) -> None:
    """A region prints two or three VP values, highest first."""
    if len(values) not in (2, 3):
        raise RuleError(_("{region} prints 2 or 3 VP values, not {count}").format(
            region=shown(region), count=len(values)))
    if any(v < 0 for v in values) or list(values) != sorted(values, reverse=True):
        # TRANSLATORS: {values} are the values typed, as a list: [3, 5, 8].
        raise RuleError(_("{region}'s values must be whole numbers, highest first: "
                          "{values}").format(region=shown(region), values=list(values)))


@dataclass(frozen=True)
class Placing:
    """How one block of powers with as many markers was placed in a region: what the
    screens tell as the reason of its awards ("France and Spain tied for 1st: (7+4)/2 = 5
    each"), kept as figures so that it is told in the reader's language when shown."""

    powers: tuple[str, ...]  # the block, in ranked order
    place: int  # the block's place, from 1
    rule: str  # "alone", "full" (friendly), "split" (friendly), "unfriendly"
    vp: int  # what each power of the block gets (a non-player power's is discarded)
    covered: tuple[int, ...] = ()  # "split": the values of the places the block covers
    later: int = 0  # "unfriendly": the place whose value each gets
    non_players: tuple[str, ...] = ()  # the block's non-player powers

    @property
    def said(self) -> str:
        """The reason in one line, in the reader's language."""
        powers = and_list(map(shown, self.powers))
        place = ordinal(self.place)
        if self.rule == "alone":
            if self.non_players:
                return _("{power} {place}: {vp} (non-player power: discarded)").format(
                    power=powers, place=place, vp=self.vp)
            # TRANSLATORS: a power's place in a region and the VP it gives: "France 1st: 8".
            return _("{power} {place}: {vp}").format(power=powers, place=place, vp=self.vp)
        if self.rule == "full":
            # TRANSLATORS: friendly ties, each tied power taking the value of the place.
            why = _("{powers} tied for {place} (friendly, full): {vp} each").format(
                powers=powers, place=place, vp=self.vp)
        elif self.rule == "split":
            # TRANSLATORS: friendly ties sharing the values of the places they cover:
            # "France and Spain tied for 1st: (7+4)/2 = 5 each".
            why = _("{powers} tied for {place}: ({values})/{count} = {vp} each").format(
                powers=powers, place=place, values="+".join(map(str, self.covered)),
                count=len(self.powers), vp=self.vp)
        else:
            # TRANSLATORS: unfriendly ties: each takes a later place's value ("2nd place's
            # 5 each"); {place} and {later} read as ordinal() says them ("1st", "2nd").
            why = _("{powers} tied for {place}, unfriendly: {later} place's {vp} "
                    "each").format(powers=powers, place=place, later=ordinal(self.later),
                                   vp=self.vp)
        if not self.non_players:
            return why
        # TRANSLATORS: {reason} is the tie's reason, {powers} the non-player powers of it.
        return ngettext("{reason} ({powers}: non-player power, discarded)",
                        "{reason} ({powers}: non-player powers, discarded)",
                        len(self.non_players)).format(
            reason=why, powers=and_list(map(shown, self.non_players)))


@dataclass(frozen=True)
class Award:
    """What one power got in one region, and why."""

    power: str
    markers: int
    position: int  # 1-based place, the first of its tied block
    vp: int
    scores: bool  # False for a non-player power: its VP is discarded
    placing: Placing  # the whole block's, shared by its powers

    @property
    def reason(self) -> str:
        """Why the power got its VP, in the reader's language: one line for the whole
        block ("France and Spain tied for 1st: (7+4)/2 = 5 each")."""
        return self.placing.said


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
        # One reason for the whole block, naming its non-player powers, so that a tie is
        # explained once however many powers share it.
        npps = tuple(p for p in block if p not in players)
        if k == 1:
            why = Placing(tuple(block), place, "alone", value(place), non_players=npps)
        elif ties_are_friendly(player_count):
            covered = tuple(value(p) for p in range(place, place + k))
            if friendly_ties == "full":
                why = Placing(tuple(block), place, "full", value(place), non_players=npps)
            else:
                why = Placing(tuple(block), place, "split", sum(covered) // k, covered,
                              non_players=npps)
        else:
            later = place + 1 if unfriendly_ties == "demote" else place + k
            why = Placing(tuple(block), place, "unfriendly", value(later), later=later,
                          non_players=npps)
        vp = why.vp
        for power in block:
            scores = power in players
            awards.append(Award(power, markers[power], place, vp if scores else 0, scores, why))
        place += k
        i += k
    return awards


def joined(names: list[str]) -> str:
    """'Spain', 'Spain and Russia', 'France, Spain and Russia' (as they are given: a power
    is shown with `shown` first)."""
    return and_list(names)


def ordinal(place: int) -> str:
    """A place in a region's ranking, in the reader's language: 1st, 2nd, 3rd..."""
    said = (pgettext("place in a region", "1st"), pgettext("place in a region", "2nd"),
            pgettext("place in a region", "3rd"), pgettext("place in a region", "4th"),
            pgettext("place in a region", "5th"), pgettext("place in a region", "6th"),
            pgettext("place in a region", "7th"))
    if 1 <= place <= len(said):
        return said[place - 1]
    return pgettext("place in a region", "{n}th").format(n=place)
