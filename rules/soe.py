"""Struggle of Empires: the end of each war and the end of the game (RULES.md part B)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from rules.errors import RuleError
from rules.fields import BOARD_LIMIT, choice, listing, mapping, note, obj, text, whole
from rules.regions import (
    KNOWN_VALUES,
    POWERS,
    REGIONS,
    Award,
    check_values,
    power_named,
    region_named,
    score_region,
)

WARS = 3
REVOLUTION_AT = 20
MAX_POPULATION = 9
# Bounds on what is typed, far above any real game (a correction moves by less than these):
# a typing slip of extra digits is refused instead of stored.
MAX_GOLD = 9_999
MAX_UNREST = 999
MAX_VP = 999
MAX_UNITS = 999  # armies, fleets or fortresses of one power
MAX_MARKERS = 999  # control markers of one power on the whole map
MAX_TOKEN = 9  # the value of one unrest token drawn
MAX_TAXATIONS = 99  # taxations of one power in one upkeep
POPULATION_GROWTH = 5

# The end-of-war steps in order; "actions" is the war itself, ended by the income step.
PHASES = ("actions", "upkeep", "population", "scoring", "end_war")
PHASE_NAMES = {
    "actions": "Actions & income", "upkeep": "Upkeep", "population": "Population",
    "scoring": "Scoring", "end_war": "End of war", "end_game": "End of game",
    "finished": "Finished",
}
# Which step each phase waits for.
EXPECTED = {"actions": "income", "upkeep": "upkeep", "population": "population",
            "scoring": "scoring", "end_war": "end_war", "end_game": "end_game"}

END_OF_WAR_CHECKLIST = (
    "Return the local alliance tokens to their owners",
    "Set the grand alliance tokens aside for the next auction",
    "Restore every flipped tile to its ready side",
    "Advance the war marker",
    "Put the phase marker back on Phase 1",
)
NEUTRAL_TOKENS_REMINDER = "Place 10 new neutral region tokens on the board"


# ---------------------------------------------------------------- settings and seats

def default_regions() -> dict[str, tuple[int, ...]]:
    """The 11 regions with only the publicly confirmed values filled in."""
    return {r: KNOWN_VALUES.get(r, ()) for r in REGIONS}


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
        return [r for r in REGIONS if not self.regions.get(r)]


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


@dataclass(frozen=True)
class Empire:
    """One power's running totals."""

    gold: int
    population: int
    unrest: int
    vp: int


# ---------------------------------------------------------------- steps

@dataclass(frozen=True)
class Tax:
    """A taxation during the war: gold_per_tax gold, and one unrest token drawn."""

    kind: ClassVar[str] = "tax"
    power: str
    unrest: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "power": self.power, "unrest": self.unrest}


@dataclass(frozen=True)
class Adjust:
    """A correction of gold, population or unrest, with the reason (a battle, a colony...)."""

    kind: ClassVar[str] = "adjust"
    power: str
    gold: int = 0
    population: int = 0
    unrest: int = 0
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "power": self.power}
        for key in ("gold", "population", "unrest"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        if self.note:
            data["note"] = self.note
        return data


Grid = Mapping[str, Mapping[str, int]]  # region -> power -> control markers


@dataclass(frozen=True)
class Income:
    """Gold = population + control markers; markers as totals per power or as a region grid."""

    kind: ClassVar[str] = "income"
    markers: Mapping[str, int] | None = None
    regions: Grid | None = None

    def to_json(self) -> dict[str, Any]:
        if self.regions is not None:
            return {"kind": self.kind, "regions": grid_json(self.regions)}
        return {"kind": self.kind, "markers": dict(self.markers or {})}


@dataclass(frozen=True)
class Units:
    """Units on the map, each costing 1 gold of upkeep."""

    armies: int = 0
    fleets: int = 0
    fortresses: int = 0

    @property
    def upkeep(self) -> int:
        return self.armies + self.fleets + self.fortresses


@dataclass(frozen=True)
class Upkeep:
    """Upkeep for every unit on the map; taxes lists the unrest token of each taxation."""

    kind: ClassVar[str] = "upkeep"
    units: Mapping[str, Units] = field(default_factory=dict)
    taxes: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "units": {p: {"armies": u.armies, "fleets": u.fleets, "fortresses": u.fortresses}
                      for p, u in self.units.items()},
            "taxes": {p: list(t) for p, t in self.taxes.items()},
        }


@dataclass(frozen=True)
class Population:
    """Every population rises by 5, up to 9."""

    kind: ClassVar[str] = "population"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True)
class Scoring:
    """Score the 11 regions; without a grid, the one entered at income is used."""

    kind: ClassVar[str] = "scoring"
    regions: Grid | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.regions is not None:
            data["regions"] = grid_json(self.regions)
        return data


@dataclass(frozen=True)
class EndWar:
    """The end-of-war checklist is done: the next war begins."""

    kind: ClassVar[str] = "end_war"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True)
class EndGame:
    """After the third war: revolutions, unrest penalties, final VP and the winners."""

    kind: ClassVar[str] = "end_game"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True)
class Board:
    """Printed VP values filled in (or corrected) from the group's board during the game."""

    kind: ClassVar[str] = "board"
    regions: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "regions": {r: list(v) for r, v in self.regions.items()}}


def grid_json(grid: Grid) -> dict[str, dict[str, int]]:
    return {r: {p: n for p, n in row.items()} for r, row in grid.items()}


# ---------------------------------------------------------------- state

@dataclass(frozen=True)
class RegionResult:
    """The awards of one region at one scoring."""

    region: str
    values: tuple[int, ...]
    awards: tuple[Award, ...]


@dataclass(frozen=True)
class Ending:
    """The end of the game, per power: penalty, revolution, final VP; and the winners."""

    penalty: Mapping[str, int]
    revolution: frozenset[str]
    final_vp: Mapping[str, int]
    winners: tuple[str, ...]  # powers
    result: str  # win, shared or draw


@dataclass(frozen=True)
class SoeState:
    """A Struggle of Empires game after some steps."""

    settings: SoeSettings
    seats: tuple[SoeSeat, ...]
    empires: Mapping[str, Empire]  # by power
    war: int = 1
    phase: str = "actions"
    grid: Grid | None = None  # the region grid of this war's income, reused at scoring
    last_scoring: tuple[RegionResult, ...] = ()
    vp_by_war: tuple[Mapping[str, int], ...] = ()  # VP after each war's scoring
    ending: Ending | None = None

    @property
    def finished(self) -> bool:
        return self.ending is not None

    @property
    def powers(self) -> tuple[str, ...]:
        return tuple(s.power for s in self.seats)

    @property
    def expected(self) -> str | None:
        """The kind of step the table is waiting for."""
        return EXPECTED.get(self.phase)

    def seat_of(self, power: str) -> SoeSeat:
        return next(s for s in self.seats if s.power == power)

    def upkeep_needs(self, power: str, units: Units) -> int:
        """How many taxations `power` must take to pay upkeep for `units`."""
        short = units.upkeep - self.empires[power].gold
        return -(-short // self.settings.gold_per_tax) if short > 0 else 0  # exact, any size


# ---------------------------------------------------------------- the game

class StruggleOfEmpires:
    """The rules of Struggle of Empires as the tracker applies them."""

    game = "soe"
    name = "Struggle of Empires"

    # -- reading

    def read_settings(self, data: Any) -> SoeSettings:
        data = obj(data if data is not None else {}, "settings", set(),
                   {"friendly_ties", "unfriendly_ties", "gold_per_tax", "unrest_ranking",
                    "regions", "board"})
        defaults = SoeSettings()
        regions = dict(default_regions())
        if "regions" in data:
            regions = {r: () for r in REGIONS}
            regions.update(read_values(data["regions"], "settings.regions", allow_empty=True))
        return SoeSettings(
            friendly_ties=choice(data.get("friendly_ties", defaults.friendly_ties),
                                 "friendly_ties", ("split", "full")),
            unfriendly_ties=choice(data.get("unfriendly_ties", defaults.unfriendly_ties),
                                   "unfriendly_ties", ("demote", "cascade")),
            gold_per_tax=whole(data.get("gold_per_tax", defaults.gold_per_tax),
                               "gold_per_tax", low=1, high=20),
            unrest_ranking=choice(data.get("unrest_ranking", defaults.unrest_ranking),
                                  "unrest_ranking", ("distinct", "competition")),
            regions=regions,
            board=text(data["board"], "The board's name", BOARD_LIMIT)
            if data.get("board") is not None
            else None,
        )

    def read_players(self, data: Any, settings: SoeSettings) -> tuple[SoeSeat, ...]:
        players = listing(data, "players")
        if not 2 <= len(players) <= 7:
            raise RuleError(f"Struggle of Empires takes 2 to 7 players, not {len(players)}")
        seats: list[SoeSeat] = []
        for i, raw in enumerate(players, 1):
            p = obj(raw, f"player {i}", {"name", "power"},
                    {"gold", "population", "unrest", "vp"})
            name = text(p["name"], f"player {i}'s name")
            power = power_named(p["power"])
            seat = SoeSeat(
                name=name, power=power,
                gold=whole(p.get("gold", 10), f"{name}'s starting gold", high=MAX_GOLD),
                population=whole(p.get("population", 5), f"{name}'s starting population",
                                 high=MAX_POPULATION),
                unrest=whole(p.get("unrest", 0), f"{name}'s starting unrest", high=MAX_UNREST),
                vp=whole(p.get("vp", 0), f"{name}'s starting VP", high=MAX_VP),
            )
            for other in seats:
                if other.name.lower() == name.lower():
                    raise RuleError(f"Two players are called {name}")
                if other.power == power:
                    raise RuleError(f"{other.name} and {name} both play {power}")
            seats.append(seat)
        return tuple(seats)

    def read_step(self, data: Any) -> Any:
        if not isinstance(data, Mapping) or "kind" not in data:
            raise RuleError("a step must be an object with a 'kind'")
        kind = data["kind"]
        if kind == "tax":
            d = obj(data, "tax step", {"kind", "power"}, {"unrest"})
            power = power_named(d["power"])
            return Tax(power, whole(d.get("unrest", 1), f"{power}'s unrest token", low=1,
                                    high=MAX_TOKEN))
        if kind == "adjust":
            d = obj(data, "adjust step", {"kind", "power"},
                    {"gold", "population", "unrest", "note"})
            power = power_named(d["power"])
            changes = {k: whole(d.get(k, 0), f"{power}'s {k} change", low=-limit, high=limit)
                       for k, limit in (("gold", MAX_GOLD), ("population", MAX_POPULATION),
                                        ("unrest", MAX_UNREST))}
            return Adjust(power, note=note(d.get("note", ""), "The correction's reason"),
                          **changes)
        if kind == "income":
            d = obj(data, "income step", {"kind"}, {"markers", "regions"})
            if ("markers" in d) == ("regions" in d):
                raise RuleError("income needs either 'markers' (a total per power) or "
                                "'regions' (the region grid), not both or neither")
            if "regions" in d:
                return Income(regions=read_grid(d["regions"]))
            markers = {power: whole(n, f"{power}'s control markers", high=MAX_MARKERS)
                       for power, n in
                       by_name(d["markers"], "income markers", power_named).items()}
            return Income(markers=markers)
        if kind == "upkeep":
            d = obj(data, "upkeep step", {"kind"}, {"units", "taxes"})
            units = {}
            for power, u in by_name(d.get("units", {}), "upkeep units", power_named).items():
                u = obj(u, f"{power}'s units", set(), {"armies", "fleets", "fortresses"})
                units[power] = Units(**{k: whole(v, f"{power}'s {k}", high=MAX_UNITS)
                                        for k, v in u.items()})
            taxes = {}
            for power, tokens in by_name(d.get("taxes", {}), "upkeep taxes", power_named).items():
                drawn = listing(tokens, f"{power}'s taxes")
                whole(len(drawn), f"{power}'s number of taxations", high=MAX_TAXATIONS)
                taxes[power] = tuple(whole(t, f"{power}'s unrest token", low=1, high=MAX_TOKEN)
                                     for t in drawn)
            return Upkeep(units=units, taxes=taxes)
        if kind == "population":
            obj(data, "population step", {"kind"})
            return Population()
        if kind == "scoring":
            d = obj(data, "scoring step", {"kind"}, {"regions"})
            return Scoring(read_grid(d["regions"]) if "regions" in d else None)
        if kind == "board":
            d = obj(data, "board step", {"kind", "regions"})
            return Board(read_values(d["regions"], "board regions", allow_empty=False))
        if kind == "end_war":
            obj(data, "end_war step", {"kind"})
            return EndWar()
        if kind == "end_game":
            obj(data, "end_game step", {"kind"})
            return EndGame()
        raise RuleError(f"{kind!r} is not a Struggle of Empires step")

    # -- the fold

    def start(self, settings: SoeSettings, seats: tuple[SoeSeat, ...]) -> SoeState:
        empires = {s.power: Empire(s.gold, s.population, s.unrest, s.vp) for s in seats}
        return SoeState(settings=settings, seats=seats, empires=empires)

    def apply(self, state: SoeState, step: Any) -> SoeState:
        if state.finished:
            raise RuleError("The game is over")
        if isinstance(step, Tax | Adjust):
            return self._bookkeeping(state, step)
        if isinstance(step, Board):
            regions = {**state.settings.regions, **step.regions}
            return replace(state, settings=replace(state.settings, regions=regions))
        if step.kind != state.expected:
            raise RuleError(f"War {state.war} is at {PHASE_NAMES[state.phase].lower()}: "
                            f"the next step is {state.expected.replace('_', ' ')}, "
                            f"not {step.kind.replace('_', ' ')}")
        return getattr(self, f"_{step.kind}")(state, step)

    def _bookkeeping(self, state: SoeState, step: Tax | Adjust) -> SoeState:
        power = self._played(state, step.power)
        e = state.empires[power]
        if isinstance(step, Tax):
            new = replace(e, gold=e.gold + state.settings.gold_per_tax,
                          unrest=e.unrest + step.unrest)
        else:
            new = Empire(e.gold + step.gold, e.population + step.population,
                         e.unrest + step.unrest, e.vp)
            for key, low, high in (("gold", 0, None), ("population", 0, MAX_POPULATION),
                                   ("unrest", 0, None)):
                before, after = getattr(e, key), getattr(new, key)
                if after < low:
                    raise RuleError(f"{power} has {before} {key}: cannot take off "
                                    f"{before - after}")
                if high is not None and after > high:
                    raise RuleError(f"{power}'s population would be {after}: "
                                    f"it never goes above {high}")
        return replace(state, empires={**state.empires, power: new})

    def _income(self, state: SoeState, step: Income) -> SoeState:
        if step.regions is not None:
            markers = {p: sum(row.get(p, 0) for row in step.regions.values())
                       for p in state.powers}
        else:
            for p in step.markers or {}:
                self._played(state, p, "Income markers")
            markers = {p: (step.markers or {}).get(p, 0) for p in state.powers}
        empires = {p: replace(e, gold=e.gold + e.population + markers[p])
                   for p, e in state.empires.items()}
        return replace(state, empires=empires, phase="upkeep", grid=step.regions)

    def _upkeep(self, state: SoeState, step: Upkeep) -> SoeState:
        for p in list(step.units) + list(step.taxes):
            self._played(state, p, "Upkeep")
        gpt = state.settings.gold_per_tax
        empires = dict(state.empires)
        for power, e in state.empires.items():
            units = step.units.get(power, Units())
            tokens = step.taxes.get(power, ())
            needed = state.upkeep_needs(power, units)
            if len(tokens) < needed:
                raise RuleError(
                    f"{power} must pay {units.upkeep} upkeep with {e.gold} gold: "
                    f"{needed} taxation{'s' if needed != 1 else ''} needed, {len(tokens)} given")
            empires[power] = replace(e, gold=e.gold + len(tokens) * gpt - units.upkeep,
                                     unrest=e.unrest + sum(tokens))
        return replace(state, empires=empires, phase="population")

    def _population(self, state: SoeState, step: Population) -> SoeState:
        empires = {p: replace(e, population=min(MAX_POPULATION,
                                                max(0, e.population + POPULATION_GROWTH)))
                   for p, e in state.empires.items()}
        return replace(state, empires=empires, phase="scoring")

    def _scoring(self, state: SoeState, step: Scoring) -> SoeState:
        grid = step.regions if step.regions is not None else state.grid
        if grid is None:
            raise RuleError("Enter the control markers of each region: income was entered "
                            "as totals, so there is no region grid to score")
        missing = state.settings.regions_missing_values
        if missing:
            raise RuleError(f"{', '.join(missing)} {'has' if len(missing) == 1 else 'have'} "
                            "no printed VP values yet: fill in the board profile first")
        results = self.score_regions(state, grid)
        gained = {p: 0 for p in state.powers}
        for result in results:
            for award in result.awards:
                if award.scores:
                    gained[award.power] += award.vp
        empires = {p: replace(e, vp=e.vp + gained[p]) for p, e in state.empires.items()}
        phase = "end_game" if state.war == WARS else "end_war"
        return replace(state, empires=empires, phase=phase, last_scoring=tuple(results),
                       vp_by_war=state.vp_by_war + ({p: e.vp for p, e in empires.items()},))

    def score_regions(self, state: SoeState, grid: Grid) -> list[RegionResult]:
        """Score every region of `grid` with the settings of this game (no state change)."""
        s = state.settings
        return [
            RegionResult(region, tuple(s.regions[region]), tuple(score_region(
                region, s.regions[region], grid.get(region, {}), frozenset(state.powers),
                player_count=len(state.seats), friendly_ties=s.friendly_ties,
                unfriendly_ties=s.unfriendly_ties)))
            for region in REGIONS
        ]

    def _end_war(self, state: SoeState, step: EndWar) -> SoeState:
        return replace(state, war=state.war + 1, phase="actions", grid=None)

    def _end_game(self, state: SoeState, step: EndGame) -> SoeState:
        unrest = {p: e.unrest for p, e in state.empires.items()}
        penalty, revolution = unrest_penalties(unrest, len(state.seats),
                                               state.settings.unrest_ranking)
        final = {p: 0 if p in revolution else max(0, e.vp - penalty[p])
                 for p, e in state.empires.items()}
        standing = [p for p in state.powers if p not in revolution]
        if not standing:
            winners, result = (), "draw"
        else:
            best = max(final[p] for p in standing)
            winners = tuple(p for p in standing if final[p] == best)
            result = "win" if len(winners) == 1 else "shared"
        ending = Ending(penalty, frozenset(revolution), final, winners, result)
        return replace(state, phase="finished", ending=ending)

    @staticmethod
    def _played(state: SoeState, power: str, what: str = "") -> str:
        if power not in state.powers:
            prefix = f"{what}: " if what else ""
            raise RuleError(f"{prefix}{power} is not played in this game "
                            f"(the powers are {', '.join(state.powers)})")
        return power

    # -- reports

    def report(self, state: SoeState) -> dict[str, Any]:
        ending = state.ending
        rows = []
        for seat in state.seats:
            e = state.empires[seat.power]
            revolution = bool(ending and seat.power in ending.revolution)
            penalty = ending.penalty[seat.power] if ending else 0
            final = ending.final_vp[seat.power] if ending else e.vp
            rows.append({"player": seat.name, "power": seat.power, "gold": e.gold,
                         "population": e.population, "unrest": e.unrest, "vp": e.vp,
                         "penalty": penalty, "final_vp": final, "revolution": revolution})
        for row in rows:
            row["rank"] = 1 + sum(1 for o in rows if sort_key(o) < sort_key(row))
        rows.sort(key=sort_key)
        out: dict[str, Any] = {
            "game": self.game,
            "status": "finished" if ending else "in_progress",
            "result": ending.result if ending else None,
            "format": "victory_points" if ending else None,
            "rounds": WARS if ending else state.war,
            "winners": [state.seat_of(p).name for p in ending.winners] if ending else [],
            "standings": rows,
        }
        if not ending:
            out["phase"] = state.phase
            out["war"] = state.war
        return out

    def summary(self, state: SoeState) -> dict[str, Any]:
        if state.ending:
            leader = ", ".join(state.seat_of(p).name for p in state.ending.winners) or None
        else:
            top = max(state.seats, key=lambda s: state.empires[s.power].vp)
            leader = top.name if state.empires[top.power].vp > 0 else None
        return {"phase": state.phase, "war": state.war, "leader": leader}


def sort_key(row: Mapping[str, Any]) -> tuple[bool, int]:
    """Players in revolution after everyone else, then highest final VP first."""
    return (row["revolution"], -row["final_vp"])


def read_grid(data: Any) -> dict[str, dict[str, int]]:
    """A region grid: region -> power -> control markers (a power left out has 0)."""
    grid: dict[str, dict[str, int]] = {}
    for region, row in by_name(data, "regions", region_named).items():
        grid[region] = {power: whole(n, f"{power}'s markers in {region}", high=99)
                        for power, n in by_name(row, f"{region}'s markers", power_named).items()}
    return grid


def by_name(data: Any, what: str, named) -> dict[str, Any]:
    """An object keyed by power or region names, each spelled its canonical way; a name
    given twice (France and france, Italy and Mediterranean) is refused."""
    out: dict[str, Any] = {}
    for name, value in mapping(data, what).items():
        key = named(name)
        if key in out:
            raise RuleError(f"{what}: {key} is given twice")
        out[key] = value
    return out


def read_values(data: Any, what: str, *, allow_empty: bool) -> dict[str, tuple[int, ...]]:
    """Printed VP values per region; an empty list means 'not entered yet' where allowed."""
    regions: dict[str, tuple[int, ...]] = {}
    for region, values in by_name(data, what, region_named).items():
        got = tuple(whole(v, f"{region}'s VP value", high=MAX_VP)
                    for v in listing(values, f"{region}'s values"))
        if got or not allow_empty:
            check_values(region, got)
        regions[region] = got
    return regions


def unrest_penalties(unrest: Mapping[str, int], started: int,
                     ranking: str = "distinct") -> tuple[dict[str, int], set[str]]:
    """VP penalties for unrest at the end of the game (RULES.md B.6), and who is in revolution.

    With 2 players only the one with more unrest loses 7 (a tie costs nobody anything);
    with 3 or more, the highest unrest loses 7 and the second highest 4, all tied players
    losing the full amount. `distinct` takes the next lower unrest value as second highest
    even after a tie for highest; `competition` lets that tie use up the -4 place.
    A player with 0 unrest is never penalised, nor anyone when fewer than 2 are left.
    """
    revolution = {p for p, u in unrest.items() if u >= REVOLUTION_AT}
    penalty = {p: 0 for p in unrest}
    rest = {p: u for p, u in unrest.items() if p not in revolution}
    if len(rest) < 2:
        return penalty, revolution
    levels = sorted({u for u in rest.values() if u > 0}, reverse=True)
    if not levels:
        return penalty, revolution
    at_top = [p for p, u in rest.items() if u == levels[0]]
    if started == 2:
        if len(at_top) == 1:
            penalty[at_top[0]] = 7
        return penalty, revolution
    for p in at_top:
        penalty[p] = 7
    if len(levels) > 1 and not (ranking == "competition" and len(at_top) > 1):
        for p, u in rest.items():
            if u == levels[1]:
                penalty[p] = 4
    return penalty, revolution


SOE = StruggleOfEmpires()
__all__ = ["SOE", "POWERS", "REGIONS", "PHASES", "PHASE_NAMES", "END_OF_WAR_CHECKLIST",
           "NEUTRAL_TOKENS_REMINDER", "SoeState", "SoeSettings", "SoeSeat", "Empire",
           "Tax", "Adjust", "Board", "Income", "Upkeep", "Units", "Population", "Scoring", "EndWar",
           "EndGame", "unrest_penalties", "read_grid"]
