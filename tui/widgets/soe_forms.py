"""The entry forms of Struggle of Empires, one per end-of-war step (on StepForm, in
step_form.py: typed values in, the step's JSON out, nothing of the rules computed here)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widgets import SelectionList, Static

from rules.soe import (
    END_OF_WAR_CHECKLIST,
    NEUTRAL_TOKENS_REMINDER,
    POWERS,
    REGIONS,
    WARS,
    SoeState,
)
from tui.widgets.number_grid import Column, NumberGrid
from tui.widgets.step_form import StepForm


def power_columns(state: SoeState) -> list[Column]:
    """Players' powers first, then the non-player powers (dimmed)."""
    played = list(state.powers)
    return ([Column(p, short(p)) for p in played]
            + [Column(p, f"{short(p)}°", dim=True) for p in POWERS if p not in played])


SHORT = {"Austria": "Aus", "Britain": "Bri", "France": "Fra", "Prussia": "Pru",
         "Russia": "Rus", "Spain": "Spa", "United Provinces": "UP"}


def short(power: str) -> str:
    """Three letters, so all seven powers fit beside the totals."""
    return SHORT[power]


def grid_step(grid: NumberGrid) -> dict[str, dict[str, int]]:
    """Region grid JSON: only the markers that are there."""
    out: dict[str, dict[str, int]] = {}
    for region in grid.row_keys:
        row = {p: int(n) for p, n in grid.values[region].items() if n}
        if row:
            out[region] = row
    return out


class IncomeForm(StepForm):
    """Control markers: the region grid (all seven powers), or one total per player."""

    def __init__(self, state: SoeState, keys: dict[str, str] | None = None, *,
                 mode: str = "grid") -> None:
        super().__init__(state, keys)
        self.mode = mode

    def compose(self) -> ComposeResult:
        if self.mode == "grid":
            yield NumberGrid([(r, r) for r in REGIONS], power_columns(self.state), id="grid")
        else:
            rows = [(s.power, f"{s.name} ({s.power})") for s in self.state.seats]
            yield NumberGrid(rows, [Column("markers", "Control markers")], id="grid")

    def pending_step(self) -> dict[str, Any]:
        grid = self.grid
        if self.mode == "grid":
            return {"kind": "income", "regions": grid_step(grid)}
        return {"kind": "income",
                "markers": {p: int(grid.values[p]["markers"]) for p in grid.row_keys}}

    def draft(self) -> dict[str, Any]:
        return {"mode": self.mode, **super().draft()}


class UpkeepForm(StepForm):
    """Units on the map per player, and the unrest token of each taxation."""

    def compose(self) -> ComposeResult:
        rows = [(s.power, f"{s.name} ({s.power})") for s in self.state.seats]
        yield NumberGrid(rows, [Column("armies", "Armies"), Column("fleets", "Fleets"),
                                Column("fortresses", "Fortresses"),
                                Column("tokens", "Tax tokens drawn", tokens=True)], id="grid")

    def pending_step(self) -> dict[str, Any]:
        grid = self.grid
        units, taxes = {}, {}
        for power in grid.row_keys:
            row = grid.values[power]
            units[power] = {k: int(row[k]) for k in ("armies", "fleets", "fortresses")}
            if row["tokens"]:
                taxes[power] = list(row["tokens"])
        return {"kind": "upkeep", "units": units, "taxes": taxes}


class PopulationForm(StepForm):
    """Nothing to type: every population rises by 5, up to 9."""

    def compose(self) -> ComposeResult:
        yield Static("Every player's population rises by 5 (never above 9). "
                     "Check the totals and press Enter.", classes="hint")

    def pending_step(self) -> dict[str, Any]:
        return {"kind": "population"}

    def focus_target(self):
        return None


class ScoringForm(StepForm):
    """The region grid, prefilled from income: who has most control markers where."""

    def compose(self) -> ComposeResult:
        values = {r: dict(row) for r, row in (self.state.grid or {}).items()}
        yield NumberGrid([(r, r) for r in REGIONS], power_columns(self.state),
                         values=values, id="grid")

    def pending_step(self) -> dict[str, Any]:
        return {"kind": "scoring", "regions": grid_step(self.grid)}


class Checklist(SelectionList):
    """SelectionList where Enter confirms the step and Space ticks an item."""

    BINDINGS = [Binding("enter", "submit", "Confirm", show=False)]

    class Submitted(Message):
        """Enter was pressed on the checklist."""

    def action_submit(self) -> None:
        self.post_message(self.Submitted())


class EndOfWarForm(StepForm):
    """The end-of-war checklist; confirming it starts the next war."""

    def items(self) -> list[str]:
        items = list(END_OF_WAR_CHECKLIST)
        if self.state.war < WARS:
            items.append(NEUTRAL_TOKENS_REMINDER)
        return items

    def compose(self) -> ComposeResult:
        yield Checklist(*((text, i) for i, text in enumerate(self.items())), id="checklist")
        yield Static(f"Space ticks an item, {self.keys['tick_all']} ticks them all, Enter "
                     "starts the next war.", classes="hint")

    def on_checklist_submitted(self, event: Checklist.Submitted) -> None:
        event.stop()
        self.post_message(self.Confirmed(self))

    def tick_all(self) -> None:
        self.query_one(Checklist).select_all()

    def not_ready(self) -> str:
        left = len(self.items()) - len(self.query_one(Checklist).selected)
        if left:
            return (f"{left} item{'s' if left != 1 else ''} of the checklist "
                    f"{'are' if left != 1 else 'is'} not ticked yet (Space ticks, "
                    f"{self.keys['tick_all']} ticks all)")
        return ""

    def pending_step(self) -> dict[str, Any]:
        return {"kind": "end_war"}

    def draft(self) -> dict[str, Any]:
        return {"ticked": list(self.query_one(Checklist).selected)}

    def restore(self, draft: dict[str, Any]) -> None:
        checklist = self.query_one(Checklist)
        for i in draft.get("ticked", []):
            checklist.select(i)

    def focus_target(self):
        return self.query_one(Checklist)


class EndOfGameForm(StepForm):
    """Revolutions, unrest penalties and final VP, shown before they are confirmed."""

    def compose(self) -> ComposeResult:
        yield Static("The third war is over: below, each player's unrest, penalty and final "
                     "VP.", classes="hint")

    def pending_step(self) -> dict[str, Any]:
        return {"kind": "end_game"}

    def focus_target(self):
        return None


FORMS = {"actions": IncomeForm, "upkeep": UpkeepForm, "population": PopulationForm,
         "scoring": ScoringForm, "end_war": EndOfWarForm, "end_game": EndOfGameForm}
