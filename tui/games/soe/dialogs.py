"""Dialogs for the less common Struggle of Empires entries: taxation, correction, region values.

Each is a StepDialog (step_dialog.py): it returns the step's JSON, already checked against
the rules, or None when cancelled.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Label, Select, Static

from i18n import N_, _
from rules.errors import RuleError
from rules.soe import SOE, SoeState
from tui.games.soe.labels import places, region_rows, seat_rows
from tui.screens.step_dialog import StepDialog, number
from tui.text.literal import TYPED_TEXT, filled, literal
from tui.widgets.number_grid import NumberGrid

# A correction's fields: (id, label).
FIGURES = (("gold", N_("Gold")), ("population", N_("Population")), ("unrest", N_("Unrest")))


class SoeStepDialog(StepDialog):
    """A Struggle of Empires entry: the powers at the table to choose from."""

    def __init__(self, state: SoeState) -> None:
        super().__init__(SOE, state)

    def power_select(self, default: str | None = None) -> Select:
        options = [(literal(label), power) for power, label in seat_rows(self.state)]
        return Select(options, value=default or options[0][1], allow_blank=False, id="power")


class TaxDialog(SoeStepDialog):
    """A taxation during the war: gold_per_tax gold and the unrest token drawn."""

    def __init__(self, state: SoeState, player: str | None = None) -> None:
        super().__init__(state)
        self.default = next((s.power for s in state.seats if s.name == player), None)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            # TRANSLATORS: {title} is "Taxation", in bold.
            yield Static(filled(_("{title}: +{gold} gold, and one unrest token drawn from "
                                  "the bag"), title=(_("Taxation"), "bold"),
                                gold=self.state.settings.gold_per_tax))
            yield Label(_("Who taxes"))
            yield self.power_select(self.default)
            yield Label(_("Unrest token drawn"))
            yield Input("1", id="token", type="integer")
            yield from self.buttons()

    def step(self) -> dict[str, Any]:
        token = number(self.query_one("#token", Input).value, _("The unrest token"), 1)
        return {"kind": "tax", "power": self.query_one("#power", Select).value, "unrest": token}


class AdjustDialog(SoeStepDialog):
    """A correction of gold, population or unrest, with its reason."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            # TRANSLATORS: {title} is "Correction", in bold.
            yield Static(filled(_("{title}: add or take off (use - to take off)"),
                                title=(_("Correction"), "bold")))
            yield Label(_("Whose"))
            yield self.power_select()
            for key, label in FIGURES:
                yield Label(_(label))
                yield Input("0", id=key, type="integer")
            yield Label(_("Why (needed: a battle, a colony, building…)"))
            yield Input("", id="note", placeholder=_("lost a battle"), restrict=TYPED_TEXT)
            yield from self.buttons()

    def step(self) -> dict[str, Any]:
        step: dict[str, Any] = {"kind": "adjust", "power": self.query_one("#power", Select).value}
        for key, label in FIGURES:
            value = number(self.query_one(f"#{key}", Input).value, _(label))
            if value:
                step[key] = value
        note = self.query_one("#note", Input).value.strip()
        if note:
            step["note"] = note
        if len(step) == 2 or (len(step) == 3 and "note" in step):
            raise RuleError(_("Nothing to correct: type a change of gold, population or "
                              "unrest"))
        return step


class RegionValuesDialog(SoeStepDialog):
    """The printed VP values of the regions that lack them, copied from the group's board."""

    def compose(self) -> ComposeResult:
        missing = self.state.settings.regions_missing_values
        with Vertical(classes="dialog"):
            # TRANSLATORS: {title} is "Region values", in bold; 1st, 2nd and 3rd are the
            # headings of the grid below (the VP of each place).
            yield Static(filled(_("{title} from your board: 1st, 2nd and (if printed) 3rd. "
                                  "Leave 3rd at 0 when the region prints two values."),
                                title=(_("Region values"), "bold")))
            yield NumberGrid(region_rows(missing), places(), id="values")
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
            raise RuleError(_("Type the values of at least one region"))
        return {"kind": "board", "regions": regions}
