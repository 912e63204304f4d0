"""The state of a Struggle of Empires game, the order of the end-of-war steps, and the fold:
the state before any step (`start`) and after each one (`apply`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules import names
from rules.errors import RuleError
from rules.ruleset import StepKinds
from rules.soe.regions import Award
from rules.soe.settings import SoeSeat, SoeSettings

WARS = 3

# The end-of-war steps in order; "actions" is the war itself, ended by the income step.
PHASES = ("actions", "upkeep", "population", "scoring", "end_war")
PHASE_NAMES = names.PHASE_NAMES["soe"]
# Which step each phase waits for; the steps not named here (tax, adjust, board) can be
# recorded at any time of the war.
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

# Every Struggle of Empires step type, by kind (rules/soe/steps.py registers them).
STEPS = StepKinds("Struggle of Empires")

Grid = Mapping[str, Mapping[str, int]]  # region -> power -> control markers


@dataclass(frozen=True)
class Empire:
    """One power's running totals."""

    gold: int
    population: int
    unrest: int
    vp: int


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
    # What the table last entered, kept from war to war so that the next form starts from
    # it (markers and units stay on the map): the latest region grid, the markers per power
    # at the latest income, the units at the latest upkeep.
    markers_map: Grid | None = None
    markers: Mapping[str, int] | None = None
    units: Mapping[str, Units] | None = None
    last_scoring: tuple[RegionResult, ...] = ()
    vp_by_war: tuple[Mapping[str, int], ...] = ()  # VP after each war's scoring
    ending: Ending | None = None

    @property
    def finished(self) -> bool:
        return self.ending is not None

    @property
    def last_war(self) -> bool:
        """Whether this is the third war: its scoring ends the game, not the war."""
        return self.war == WARS

    @property
    def checklist(self) -> tuple[str, ...]:
        """The end-of-war checklist of this war: new neutral tokens only when a war follows."""
        return END_OF_WAR_CHECKLIST + (() if self.last_war else (NEUTRAL_TOKENS_REMINDER,))

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

    def played(self, power: str, what: str = "") -> str:
        """`power`, if someone plays it in this game; else a RuleError naming the powers."""
        if power not in self.powers:
            prefix = f"{what}: " if what else ""
            raise RuleError(f"{prefix}{power} is not played in this game "
                            f"(the powers are {', '.join(self.powers)})")
        return power


def step_by_itself(state: SoeState) -> dict[str, Any] | None:
    """The next step when it needs nothing from the table, or None: population always (every
    population rises by 5), scoring when this war's region grid was entered at income (the
    markers cannot move between income and scoring) and every region has its values."""
    if state.phase == "population":
        return {"kind": "population"}
    if (state.phase == "scoring" and state.grid is not None
            and not state.settings.regions_missing_values):
        return {"kind": "scoring"}
    return None


def start(settings: SoeSettings, seats: tuple[SoeSeat, ...]) -> SoeState:
    """The state before any step: every power at its starting totals, war 1."""
    empires = {s.power: Empire(s.gold, s.population, s.unrest, s.vp) for s in seats}
    return SoeState(settings=settings, seats=seats, empires=empires)


def apply(state: SoeState, step: Any) -> SoeState:
    """The state after `step`: the end-of-war steps in their order, the others at any time;
    the step's own rule (its `apply`) does the rest."""
    if state.finished:
        raise RuleError("The game is over")
    if not STEPS.holds(step):
        raise RuleError(f"{type(step).__name__} is not a Struggle of Empires step")
    if step.kind in EXPECTED.values() and step.kind != state.expected:
        raise RuleError(f"War {state.war} is at {PHASE_NAMES[state.phase].lower()}: "
                        f"the next step is {state.expected.replace('_', ' ')}, "
                        f"not {step.kind.replace('_', ' ')}")
    return step.apply(state)
