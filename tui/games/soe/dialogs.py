"""Dialogs for the less common Struggle of Empires entries: taxation, correction, region values.

Each is a StepDialog (step_dialog.py): it returns the step's JSON, already checked against
the rules, or None when cancelled.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Label, Select, Static

from rules.errors import RuleError
from rules.soe import SOE, SoeState
from tui.literal import TYPED_TEXT, literal, words
from tui.screens.step_dialog import StepDialog, number
from tui.widgets.number_grid import Column, NumberGrid


class SoeStepDialog(StepDialog):
    """A Struggle of Empires entry: the powers at the table to choose from."""

    def __init__(self, state: SoeState) -> None:
        super().__init__(SOE, state)

    def power_select(self, default: str | None = None) -> Select:
        options = [(literal(f"{s.name} ({s.power})"), s.power) for s in self.state.seats]
        return Select(options, value=default or options[0][1], allow_blank=False, id="power")


class TaxDialog(SoeStepDialog):
    """A taxation during the war: gold_per_tax gold and the unrest token drawn."""

    def __init__(self, state: SoeState, player: str | None = None) -> None:
        super().__init__(state)
        self.default = next((s.power for s in state.seats if s.name == player), None)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(words(("Taxation", "bold"), f": +{self.state.settings.gold_per_tax} "
                               "gold, and one unrest token drawn from the bag"))
            yield Label("Who taxes")
            yield self.power_select(self.default)
            yield Label("Unrest token drawn")
            yield Input("1", id="token", type="integer")
            yield from self.buttons()

    def step(self) -> dict[str, Any]:
        token = number(self.query_one("#token", Input).value, "The unrest token", 1)
        return {"kind": "tax", "power": self.query_one("#power", Select).value, "unrest": token}


class AdjustDialog(SoeStepDialog):
    """A correction of gold, population or unrest, with its reason."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(words(("Correction", "bold"), ": add or take off (use - to take off)"))
            yield Label("Whose")
            yield self.power_select()
            for key, label in (("gold", "Gold"), ("population", "Population"),
                               ("unrest", "Unrest")):
                yield Label(label)
                yield Input("0", id=key, type="integer")
            yield Label("Why (needed: a battle, a colony, building…)")
            yield Input("", id="note", placeholder="lost a battle", restrict=TYPED_TEXT)
            yield from self.buttons()

    def step(self) -> dict[str, Any]:
        step: dict[str, Any] = {"kind": "adjust", "power": self.query_one("#power", Select).value}
        for key in ("gold", "population", "unrest"):
            value = number(self.query_one(f"#{key}", Input).value, key.capitalize())
            if value:
                step[key] = value
        note = self.query_one("#note", Input).value.strip()
        if note:
            step["note"] = note
        if len(step) == 2 or (len(step) == 3 and "note" in step):
            raise RuleError("Nothing to correct: type a change of gold, population or unrest")
        return step


class RegionValuesDialog(SoeStepDialog):
    """The printed VP values of the regions that lack them, copied from the group's board."""

    def compose(self) -> ComposeResult:
        missing = self.state.settings.regions_missing_values
        with Vertical(classes="dialog"):
            yield Static(words(("Region values", "bold"), " from your board: 1st, 2nd and (if "
                               "printed) 3rd. Leave 3rd at 0 when the region prints two values."))
            yield NumberGrid([(r, r) for r in missing],
                             [Column("1", "1st"), Column("2", "2nd"), Column("3", "3rd")],
                             id="values")
            yield from self.buttons()

    def on_number_grid_submitted(self, event: NumberGrid.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        """Recorded as every step dialog records, but values unlike the published board's
        (German States 8/5/3) are first put to the table, after the rules have had their say."""
        from tui.games.soe.board import confirm_unlike_print, unlike_print

        try:
            step = self.step()
            self.rules.apply(self.state, self.rules.read_step(step))
            question = unlike_print(step["regions"])
        except (RuleError, ValueError):
            question = ""  # nothing to ask: StepDialog says what is wrong
        if question:
            confirm_unlike_print(self, question, super().action_submit)
        else:
            super().action_submit()

    def step(self) -> dict[str, Any]:
        grid = self.query_one(NumberGrid)
        regions = {}
        for region in grid.row_keys:
            values = [int(grid.values[region][c]) for c in ("1", "2", "3")]
            while values and values[-1] == 0:
                values.pop()
            if values:
                regions[region] = values
        if not regions:
            raise RuleError("Type the values of at least one region")
        return {"kind": "board", "regions": regions}
