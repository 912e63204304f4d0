"""The state of a Struggle of Empires game, the order of the end-of-war steps, and the fold:
the state before any step (`start`) and after each one (`apply`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from i18n import N_, _, pgettext
from rules import names
from rules.errors import RuleError
from rules.ruleset import StepKinds
from rules.soe.regions import Award, shown
from rules.soe.settings import SoeSeat, SoeSettings

WARS = 3

# The end-of-war steps in order; "actions" is the war itself, ended by the income step.
PHASES = ("actions", "upkeep", "population", "scoring", "end_war")
PHASE_NAMES = names.PHASE_NAMES["soe"]  # message ids: names.phase_named shows one
# Which step each phase waits for; the steps not named here (tax, adjust, board) can be
# recorded at any time of the war.
EXPECTED = {"actions": "income", "upkeep": "upkeep", "population": "population",
            "scoring": "scoring", "end_war": "end_war", "end_game": "end_game"}

# Message ids; `SoeState.checklist` gives them in the reader's language.
END_OF_WAR_CHECKLIST = (
    N_("Return the local alliance tokens to their owners"),
    N_("Set the grand alliance tokens aside for the next auction"),
    N_("Restore every flipped tile to its ready side"),
    N_("Advance the war marker"),
    N_("Put the phase marker back on Phase 1"),
)
NEUTRAL_TOKENS_REMINDER = N_("Place 10 new neutral region tokens on the board")

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
        """The end-of-war checklist of this war, in the reader's language: new neutral
        tokens only when a war follows."""
        items = END_OF_WAR_CHECKLIST + (() if self.last_war else (NEUTRAL_TOKENS_REMINDER,))
        return tuple(map(_, items))

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
            said = _("{power} is not played in this game (the powers are {powers})").format(
                power=shown(power), powers=", ".join(map(shown, self.powers)))
            # TRANSLATORS: {what} names the step's part ("Upkeep"), {refusal} what is wrong.
            raise RuleError(_("{what}: {refusal}").format(what=what, refusal=said) if what
                            else said)
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
        raise RuleError(_("The game is over"))
    if not STEPS.holds(step):
        raise RuleError(_("{kind} is not a Struggle of Empires step").format(
            kind=type(step).__name__))
    expected = EXPECTED[state.phase]  # every phase waits for one step
    if step.kind in EXPECTED.values() and step.kind != expected:
        # TRANSLATORS: {phase} is the phase in lower case ("upkeep"); {expected} and {kind}
        # are steps as step_named() says them ("population", "end war").
        raise RuleError(_("War {war} is at {phase}: the next step is {expected}, not "
                          "{kind}").format(
            war=state.war, phase=names.phase_named("soe", state.phase).lower(),
            expected=step_named(expected), kind=step_named(step.kind)))
    after: SoeState = step.apply(state)
    return after


def step_named(kind: str) -> str:
    """An end-of-war step as a refusal names it, in the reader's language: 'income',
    'end war'."""
    said = {"income": pgettext("step", "income"), "upkeep": pgettext("step", "upkeep"),
            "population": pgettext("step", "population"),
            "scoring": pgettext("step", "scoring"), "end_war": pgettext("step", "end war"),
            "end_game": pgettext("step", "end game")}
    return said.get(kind, kind.replace("_", " "))
