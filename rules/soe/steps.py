"""The steps of Struggle of Empires, each with its reading, writing and rule in one place.

Taxation, corrections and board values can be recorded at any time of a war; income,
upkeep, population, scoring and the end of the war follow in that order (state.EXPECTED),
and the end of the game follows the third war's scoring. A new kind of step is one more
class here with `@STEPS.register` (rules/ruleset.py says what it needs).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from i18n import _, ngettext
from rules.errors import RuleError
from rules.fields import listing, note, obj, reading_stored, whole
from rules.ruleset import BareStep
from rules.soe.ending import ending_of
from rules.soe.regions import power_named, region_named, shown
from rules.soe.scoring import score_regions, vp_won
from rules.soe.settings import (
    MAX_GOLD,
    MAX_MARKERS,
    MAX_POPULATION,
    MAX_REGION_MARKERS,
    MAX_TAXATIONS,
    MAX_TOKEN,
    MAX_UNITS,
    MAX_UNREST,
    by_name,
    read_values,
)
from rules.soe.state import STEPS, Empire, Grid, SoeState, Units

POPULATION_GROWTH = 5  # each population step, up to MAX_POPULATION


def grown(population: int) -> int:
    """A population after the population step: +5, up to 9."""
    return min(MAX_POPULATION, max(0, population + POPULATION_GROWTH))


def read_step(data: Any) -> Any:
    """One step from its JSON object (its shape only: `apply` checks it against the game)."""
    if not isinstance(data, Mapping) or "kind" not in data:
        # TRANSLATORS: 'kind' is the session file's key: keep it.
        raise RuleError(_("a step must be an object with a 'kind'"))
    step_type = STEPS.get(data["kind"])
    if step_type is None:
        raise RuleError(_("{kind} is not a Struggle of Empires step").format(
            kind=repr(data["kind"])))
    return step_type.from_json(data)


def read_missing(step: Mapping[str, Any]) -> tuple[str, ...]:
    """A step's "missing": the powers whose players had not marked their own part ready
    when it was recorded from the seats' parts (none: an empty tuple)."""
    # TRANSLATORS: the session file's "missing": the powers whose part was not ready.
    return tuple(dict.fromkeys(power_named(p) for p in listing(
        step.get("missing", []), _("the parts missing"))))


def read_grid(data: Any) -> dict[str, dict[str, int]]:
    """A region grid: region -> power -> control markers (a power left out has 0)."""
    grid: dict[str, dict[str, int]] = {}
    # TRANSLATORS: the step's region grid (the session file's "regions").
    for region, row in by_name(data, _("regions"), region_named).items():
        grid[region] = {
            power: whole(n, _("{power}'s markers in {region}").format(
                power=shown(power), region=shown(region)), high=MAX_REGION_MARKERS)
            for power, n in by_name(row, _("{region}'s markers").format(region=shown(region)),
                                    power_named).items()}
    return grid


def grid_json(grid: Grid) -> dict[str, dict[str, int]]:
    """A region grid as the session file writes it."""
    return {r: {p: n for p, n in row.items()} for r, row in grid.items()}


# ---------------------------------------------------------------- at any time of a war

@STEPS.register
@dataclass(frozen=True)
class Tax:
    """A taxation during the war: gold_per_tax gold, and one unrest token drawn."""

    kind: ClassVar[str] = "tax"
    power: str
    unrest: int = 1

    @classmethod
    def from_json(cls, data: Any) -> Tax:
        d = obj(data, _("tax step"), {"kind", "power"}, {"unrest"})
        power = power_named(d["power"])
        return cls(power, whole(d.get("unrest", 1),
                                _("{power}'s unrest token").format(power=shown(power)), low=1,
                                high=MAX_TOKEN))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "power": self.power, "unrest": self.unrest}

    def apply(self, state: SoeState) -> SoeState:
        power = state.played(self.power)
        e = state.empires[power]
        new = replace(e, gold=e.gold + state.settings.gold_per_tax, unrest=e.unrest + self.unrest)
        return replace(state, empires={**state.empires, power: new})


@STEPS.register
@dataclass(frozen=True)
class Adjust:
    """A correction of gold, population or unrest, with the reason (a battle, a colony...)."""

    kind: ClassVar[str] = "adjust"
    power: str
    gold: int = 0
    population: int = 0
    unrest: int = 0
    note: str = ""

    @classmethod
    def from_json(cls, data: Any) -> Adjust:
        d = obj(data, _("adjust step"), {"kind", "power"},
                {"gold", "population", "unrest", "note"})
        power = power_named(d["power"])
        said = {"gold": _("{power}'s gold change"),
                "population": _("{power}'s population change"),
                "unrest": _("{power}'s unrest change")}
        changes = {k: whole(d.get(k, 0), said[k].format(power=shown(power)), low=-limit,
                            high=limit)
                   for k, limit in (("gold", MAX_GOLD), ("population", MAX_POPULATION),
                                    ("unrest", MAX_UNREST))}
        return cls(power, note=note(d.get("note", ""), _("The correction's reason")),
                   **changes)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "power": self.power}
        for key in ("gold", "population", "unrest"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        if self.note:
            data["note"] = self.note
        return data

    def apply(self, state: SoeState) -> SoeState:
        power = state.played(self.power)
        e = state.empires[power]
        new = Empire(e.gold + self.gold, e.population + self.population,
                     e.unrest + self.unrest, e.vp)
        # Gold and unrest never go below 0; population stays within 0..9.
        for key, low, high in (("gold", 0, None), ("population", 0, MAX_POPULATION),
                               ("unrest", 0, None)):
            before, after = getattr(e, key), getattr(new, key)
            if after < low:
                said = {"gold": _("{power} has {had} gold: cannot take off {off}"),
                        "population": _("{power} has {had} population: cannot take off {off}"),
                        "unrest": _("{power} has {had} unrest: cannot take off {off}")}[key]
                raise RuleError(said.format(power=shown(power), had=before,
                                            off=before - after))
            if high is not None and after > high:
                raise RuleError(_("{power}'s population would be {population}: it never goes "
                                  "above {high}").format(power=shown(power), population=after,
                                                         high=high))
        # RULES.md B.3: a correction says why. Corrections stored before this rule may not.
        if not self.note and not reading_stored():
            raise RuleError(_("Say why {power}'s correction is made (a battle, a colony, "
                              "building…): a correction needs its reason").format(
                                  power=shown(power)))
        return replace(state, empires={**state.empires, power: new})


@STEPS.register
@dataclass(frozen=True)
class Board:
    """Printed VP values filled in (or corrected) from the group's board during the game."""

    kind: ClassVar[str] = "board"
    regions: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Any) -> Board:
        d = obj(data, _("board step"), {"kind", "regions"})
        return cls(read_values(d["regions"], _("board regions"), allow_empty=False))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "regions": {r: list(v) for r, v in self.regions.items()}}

    def apply(self, state: SoeState) -> SoeState:
        regions = {**state.settings.regions, **self.regions}
        return replace(state, settings=replace(state.settings, regions=regions))


# ---------------------------------------------------------------- the end of a war, in order

@STEPS.register
@dataclass(frozen=True)
class Income:
    """Gold = population + control markers; markers as totals per power or as a region grid."""

    kind: ClassVar[str] = "income"
    markers: Mapping[str, int] | None = None
    regions: Grid | None = None
    missing: tuple[str, ...] = ()  # powers whose own total was not ready (seats' parts)

    @classmethod
    def from_json(cls, data: Any) -> Income:
        d = obj(data, _("income step"), {"kind"}, {"markers", "regions", "missing"})
        if ("markers" in d) == ("regions" in d):
            # TRANSLATORS: 'markers' and 'regions' are the session file's keys: keep them.
            raise RuleError(_("income needs either 'markers' (a total per power) or "
                              "'regions' (the region grid), not both or neither"))
        if "regions" in d:
            return cls(regions=read_grid(d["regions"]))
        markers = {power: whole(n, _("{power}'s control markers").format(power=shown(power)),
                                high=MAX_MARKERS)
                   for power, n in by_name(d["markers"], _("income markers"),
                                           power_named).items()}
        return cls(markers=markers, missing=read_missing(d))

    def to_json(self) -> dict[str, Any]:
        if self.regions is not None:
            return {"kind": self.kind, "regions": grid_json(self.regions)}
        out = {"kind": self.kind, "markers": dict(self.markers or {})}
        if self.missing:
            out["missing"] = list(self.missing)
        return out

    def apply(self, state: SoeState) -> SoeState:
        for p in self.missing:
            state.played(p, _("Income markers"))
        if self.regions is not None:
            markers = {p: sum(row.get(p, 0) for row in self.regions.values())
                       for p in state.powers}
        else:
            for p in self.markers or {}:
                state.played(p, _("Income markers"))
            markers = {p: (self.markers or {}).get(p, 0) for p in state.powers}
        empires = {p: replace(e, gold=e.gold + e.population + markers[p])
                   for p, e in state.empires.items()}
        return replace(state, empires=empires, phase="upkeep", grid=self.regions,
                       markers_map=self.regions if self.regions is not None else state.markers_map,
                       markers=markers)


@STEPS.register
@dataclass(frozen=True)
class Upkeep:
    """Upkeep for every unit on the map; taxes lists the unrest token of each taxation.
    `missing` names the powers whose players had not marked their own part ready when the
    step was recorded from the seats' parts (their units as the form showed them)."""

    kind: ClassVar[str] = "upkeep"
    units: Mapping[str, Units] = field(default_factory=dict)
    taxes: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    missing: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: Any) -> Upkeep:
        d = obj(data, _("upkeep step"), {"kind"}, {"units", "taxes", "missing"})
        units = {}
        for power, u in by_name(d.get("units", {}), _("upkeep units"), power_named).items():
            said = shown(power)
            u = obj(u, _("{power}'s units").format(power=said), set(),
                    {"armies", "fleets", "fortresses"})
            of = {"armies": _("{power}'s armies"), "fleets": _("{power}'s fleets"),
                  "fortresses": _("{power}'s fortresses")}
            units[power] = Units(**{k: whole(v, of[k].format(power=said), high=MAX_UNITS)
                                    for k, v in u.items()})
        taxes = {}
        for power, tokens in by_name(d.get("taxes", {}), _("upkeep taxes"),
                                     power_named).items():
            said = shown(power)
            drawn = listing(tokens, _("{power}'s taxes").format(power=said))
            whole(len(drawn), _("{power}'s number of taxations").format(power=said),
                  high=MAX_TAXATIONS)
            taxes[power] = tuple(whole(t, _("{power}'s unrest token").format(power=said),
                                       low=1, high=MAX_TOKEN)
                                 for t in drawn)
        return cls(units=units, taxes=taxes, missing=read_missing(d))

    def to_json(self) -> dict[str, Any]:
        out = {
            "kind": self.kind,
            "units": {p: {"armies": u.armies, "fleets": u.fleets, "fortresses": u.fortresses}
                      for p, u in self.units.items()},
            "taxes": {p: list(t) for p, t in self.taxes.items()},
        }
        if self.missing:  # written only when there is one: older files stay as they were
            out["missing"] = list(self.missing)
        return out

    def apply(self, state: SoeState) -> SoeState:
        for p in list(self.units) + list(self.taxes) + list(self.missing):
            state.played(p, _("Upkeep"))
        gpt = state.settings.gold_per_tax
        empires = dict(state.empires)
        for power, e in state.empires.items():
            units = self.units.get(power, Units())
            tokens = self.taxes.get(power, ())
            needed = state.upkeep_needs(power, units)
            if len(tokens) < needed:
                # TRANSLATORS: {needed} taxations are needed, {given} were given.
                raise RuleError(ngettext(
                    "{power} must pay {upkeep} upkeep with {gold} gold: {needed} taxation "
                    "needed, {given} given",
                    "{power} must pay {upkeep} upkeep with {gold} gold: {needed} taxations "
                    "needed, {given} given", needed).format(
                        power=shown(power), upkeep=units.upkeep, gold=e.gold, needed=needed,
                        given=len(tokens)))
            empires[power] = replace(e, gold=e.gold + len(tokens) * gpt - units.upkeep,
                                     unrest=e.unrest + sum(tokens))
        return replace(state, empires=empires, phase="population",
                       units={p: self.units.get(p, Units()) for p in state.powers})


@STEPS.register
@dataclass(frozen=True)
class Population(BareStep):
    """Every population rises by 5, up to 9."""

    kind: ClassVar[str] = "population"

    def apply(self, state: SoeState) -> SoeState:
        empires = {p: replace(e, population=grown(e.population))
                   for p, e in state.empires.items()}
        return replace(state, empires=empires, phase="scoring")


@STEPS.register
@dataclass(frozen=True)
class Scoring:
    """Score the 11 regions; without a grid, the one entered at income is used."""

    kind: ClassVar[str] = "scoring"
    regions: Grid | None = None

    @classmethod
    def from_json(cls, data: Any) -> Scoring:
        d = obj(data, _("scoring step"), {"kind"}, {"regions"})
        return cls(read_grid(d["regions"]) if "regions" in d else None)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.regions is not None:
            data["regions"] = grid_json(self.regions)
        return data

    def apply(self, state: SoeState) -> SoeState:
        grid = self.regions if self.regions is not None else state.grid
        if grid is None:
            raise RuleError(_("Enter the control markers of each region: income was entered "
                              "as totals, so there is no region grid to score"))
        missing = state.settings.regions_missing_values
        if missing:
            # TRANSLATORS: {regions} lists the regions: "Baltic, India".
            raise RuleError(ngettext(
                "{regions} has no printed VP values yet: fill in the board profile first",
                "{regions} have no printed VP values yet: fill in the board profile first",
                len(missing)).format(regions=", ".join(map(shown, missing))))
        results = score_regions(state, grid)
        gained = vp_won(state, results)
        empires = {p: replace(e, vp=e.vp + gained[p]) for p, e in state.empires.items()}
        phase = "end_game" if state.last_war else "end_war"
        return replace(state, empires=empires, phase=phase, last_scoring=tuple(results),
                       markers_map=grid,
                       vp_by_war=state.vp_by_war + ({p: e.vp for p, e in empires.items()},))


@STEPS.register
@dataclass(frozen=True)
class EndWar(BareStep):
    """The end-of-war checklist is done: the next war begins."""

    kind: ClassVar[str] = "end_war"

    def apply(self, state: SoeState) -> SoeState:
        return replace(state, war=state.war + 1, phase="actions", grid=None)


@STEPS.register
@dataclass(frozen=True)
class EndGame(BareStep):
    """After the third war: revolutions, unrest penalties, final VP and the winners."""

    kind: ClassVar[str] = "end_game"

    def apply(self, state: SoeState) -> SoeState:
        return replace(state, phase="finished", ending=ending_of(state))
