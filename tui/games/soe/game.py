"""The Struggle of Empires game screen: one war after another, step by step."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.widgets import Static

from rules.soe import (
    MAX_POPULATION,
    PHASE_NAMES,
    PHASES,
    POPULATION_GROWTH,
    REVOLUTION_WORDS,
    UNFRIENDLY_COUNTS,
    WARS,
    SoeState,
    counts_said,
    vp_of_last_scoring,
)
from rules.soe.state import step_by_itself
from tui.formatting import signed
from tui.games.soe.forms import (
    FORMS,
    EndOfWarForm,
    IncomeForm,
    ScoringForm,
    UpkeepForm,
    shows_non_players,
)
from tui.literal import lines, literal, words
from tui.screens.game import GameScreen
from tui.widgets.number_grid import TYPING_HELP
from tui.widgets.totals import TotalsPanel

STEP_TITLES = {
    "actions": "Actions of the war, then income",
    "upkeep": "Upkeep: 1 gold per army, fleet and fortress on the map",
    "population": f"Population: +{POPULATION_GROWTH} each, up to {MAX_POPULATION}",
    "scoring": "Scoring: the 11 VP regions",
    "end_war": "End of war: the checklist",
    "end_game": "End of game: unrest, revolution and final VP",
}
# {tax} and the like are the keys of those bindings (SoeGameScreen.step_hint fills them in).
STEP_HINTS = {
    "actions": ("During the war: taxation {tax}, correction {adjust}. At its end, each power's "
                "control markers per region (as last entered: change what changed), Enter "
                "confirms. {toggle_income}: one total per player; {non_players}: non-player "
                "powers (°)."),
    "upkeep": ("Units on the map, as at the last upkeep: change what changed. A player short "
               "of gold must tax: type each unrest token drawn under 'Tax tokens drawn'."),
    "population": "",
    "scoring": ("Control markers per region, as entered at income (correct them if the map "
                "changed). Non-player powers (°) take places but never score."),
    "end_war": "Tick each item as the table does it (x), then Enter; {tick_all}: all "
               "done, the next war.",
    "end_game": "Press Enter to end the game; {undo} still takes it back.",
}
class SoeGameScreen(GameScreen):
    """A Struggle of Empires game: phase bar, the current step's form, the totals."""

    HELP_TITLE = "Struggle of Empires: game keys"
    BINDINGS = [
        *GameScreen.BINDINGS,
        # Letters type into the grids (they jump to a row), so the game's own keys are
        # ctrl keys: a stray letter never opens a dialog.
        Binding("ctrl+x", "tax", "Tax", id="tax", tooltip="Taxation"),
        Binding("ctrl+e", "adjust", "Correction", id="adjust"),
        Binding("ctrl+g", "toggle_income", "Grid / totals", id="toggle_income", show=False,
                tooltip="Income: enter markers per region, or one total per player"),
        Binding("ctrl+l", "toggle_non_players", "Non-player powers", id="non_players",
                show=False, tooltip="Show or fold the columns of the powers nobody plays "
                f"(shown by themselves with {counts_said(UNFRIENDLY_COUNTS)} players, or once "
                "they hold markers)"),
        Binding("a", "tick_all", "All done", id="tick_all", show=False,
                tooltip="End of war: every item of the checklist is done: the next war"),
        Binding("ctrl+b", "board_values", "Region values", id="board_values", show=False,
                tooltip="Copy the printed VP values of a region from your board"),
    ]

    def __init__(self, game, draft: dict | None = None) -> None:
        super().__init__(game, draft)
        self.income_mode = "grid"
        self.non_players = False  # asked to show the non-player powers' columns

    @property
    def state(self) -> SoeState:
        return self.game.state

    def compose_totals(self) -> ComposeResult:
        yield TotalsPanel(["Player", "Power", "Gold", "Pop", "Unrest", "VP"], id="totals-panel")

    def form_key(self) -> tuple:
        return (*super().form_key(), self.income_mode, self.non_players)

    def build_form(self):
        phase = self.state.phase
        if phase == "actions":
            return IncomeForm(self.state, self.keys, mode=self.income_mode,
                              non_players=self.non_players)
        if phase == "scoring":
            return ScoringForm(self.state, self.keys, non_players=self.non_players)
        return FORMS[phase](self.state, self.keys)

    def step_at(self, state: SoeState) -> tuple:
        return (state.war, state.phase)

    def use_draft(self, draft: dict) -> None:
        if draft.get("mode") in ("grid", "totals"):
            self.income_mode = draft["mode"]
        values = draft.get("values")
        if isinstance(values, dict) and shows_non_players(self.state, values, False):
            self.non_players = True  # typed in a non-player power's column: shown again

    def step_by_itself(self, state: SoeState) -> dict | None:
        return step_by_itself(state)

    def form_of_step(self, kind: str):
        return {"income": IncomeForm, "upkeep": UpkeepForm, "scoring": ScoringForm}.get(kind)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        phase = self.state.phase
        if action == "toggle_income":
            return phase == "actions"
        if action == "toggle_non_players":
            return phase in ("actions", "scoring") and self.income_mode == "grid"
        if action == "tick_all":
            return phase == "end_war"
        if action == "board_values":
            return bool(self.state.settings.regions_missing_values) or None
        return super().check_action(action, parameters)

    def show_header(self) -> None:
        state = self.state
        self.sub_title = f"Struggle of Empires · war {state.war} of {WARS}"
        names = [PHASE_NAMES[p] for p in PHASES]
        if state.last_war:
            names[-1] = PHASE_NAMES["end_game"]
        current = PHASE_NAMES["end_game" if state.phase == "end_game" else state.phase]
        self.query_one("#phase-bar").show(f"War {state.war} of {WARS}", names, current)
        self.query_one("#step-title").update(literal(STEP_TITLES[state.phase]))
        self.query_one("#step-hint").update(literal(self.step_hint()))
        missing = state.settings.regions_missing_values
        warning = ""
        if missing and state.phase in ("actions", "upkeep", "population", "scoring"):
            warning = (f"{', '.join(missing)} still lack printed VP values: press "
                       f"{self.key_of('board_values')} to copy them from your board before "
                       "scoring.")
        shown = self.query_one("#step-warning", Static)
        shown.update(literal(warning))
        shown.display = bool(warning)
        self.refresh_bindings()

    def step_hint(self) -> str:
        """What the current step expects, with this screen's keys."""
        return STEP_HINTS[self.state.phase].format(**self.keys)

    # ------------------------------------------------------------ totals and explanations

    def rows(self, state: SoeState) -> list[list[object]]:
        ending = state.ending
        rows = []
        for seat in state.seats:
            e = state.empires[seat.power]
            vp = ending.final_vp[seat.power] if ending is not None else e.vp
            rows.append([seat.name, seat.power, e.gold, e.population, e.unrest, vp])
        return rows

    def show_totals(self, preview: Any | None) -> None:
        state = self.state
        note = ""
        if state.phase == "upkeep":
            note = self.upkeep_note()
        self.query_one(TotalsPanel).show(self.rows(state),
                                         self.rows(preview) if preview is not None else None,
                                         note)

    def upkeep_note(self) -> str:
        """Who must tax, and how many times, for the units typed so far."""
        step = self.pending() or {}
        lines = []
        for seat in self.state.seats:
            from rules.soe import Units

            units = Units(**step.get("units", {}).get(seat.power, {}))
            needs = self.state.upkeep_needs(seat.power, units)
            given = len(step.get("taxes", {}).get(seat.power, []))
            if needs:
                lines.append(f"{seat.power}: {units.upkeep} upkeep with "
                             f"{self.state.empires[seat.power].gold} gold → {needs} "
                             f"taxation{'s' if needs != 1 else ''} needed, {given} given")
        return "\n".join(lines) or "Nobody is short of gold."

    def explain(self, preview: Any | None) -> Text | str:
        state = self.state
        if state.phase == "scoring" and preview is not None:
            return scoring_lines("VP this scoring", preview, vp_of_last_scoring(preview))
        if state.phase == "end_game" and preview is not None and preview.ending is not None:
            return self.explain_ending(preview)
        if state.phase == "end_war" and state.last_scoring:
            # The scoring may have followed upkeep by itself: the table reads it here.
            return scoring_lines(f"VP of war {state.war}'s scoring", state,
                                 vp_of_last_scoring(state))
        if state.vp_by_war:
            return "VP after each war: " + "; ".join(
                f"war {i}: " + ", ".join(f"{p} {v}" for p, v in vp.items())
                for i, vp in enumerate(state.vp_by_war, 1))
        return ""

    def explain_ending(self, after: SoeState) -> Text:
        """Who is in revolution, who pays which penalty, and who wins."""
        ending = after.ending
        rows: list[Text | str] = [words(("End of the game", "bold"))]
        for seat in after.seats:
            e = after.empires[seat.power]
            if seat.power in ending.revolution:
                rows.append(f"{seat.name} ({seat.power}): unrest {e.unrest}, "
                            f"{REVOLUTION_WORDS}: revolution, VP 0, out of the game")
            elif ending.penalty[seat.power]:
                rows.append(f"{seat.name} ({seat.power}): unrest {e.unrest}, "
                            f"-{ending.penalty[seat.power]} VP: {e.vp} → "
                            f"{ending.final_vp[seat.power]}")
            else:
                rows.append(f"{seat.name} ({seat.power}): unrest {e.unrest}, no penalty: "
                            f"{e.vp} VP")
        names = " and ".join(after.seat_of(p).name for p in ending.winners)
        rows.append(words(({"win": f"{names} wins", "shared": f"Shared victory: {names}",
                            "draw": "Nobody wins: every empire is in revolution"}[ending.result],
                           "bold")))
        return lines(*rows)

    def help_text(self) -> str:
        return (f"War {self.state.war} of {WARS}, {PHASE_NAMES[self.state.phase].lower()}. "
                + self.step_hint() + "\n" + TYPING_HELP)

    # ------------------------------------------------------------ actions

    def action_toggle_income(self) -> None:
        self.income_mode = "totals" if self.income_mode == "grid" else "grid"
        self.show(self.game)
        self.say("Income by " + ("one total of control markers per player"
                                 if self.income_mode == "totals" else "the region grid")
                 + f" ({self.key_of('toggle_income')} switches back).", "ok")

    def action_toggle_non_players(self) -> None:
        self.non_players = not self.non_players
        self.show(self.game)  # the grid again, with what was typed in it
        self.say(("Non-player powers shown (°)" if self.non_players else
                  "Non-player powers folded away where they hold no markers")
                 + f" ({self.key_of('non_players')} switches back).", "ok")

    def action_tick_all(self) -> None:
        form = self.form
        if isinstance(form, EndOfWarForm):
            form.tick_all()
            self.action_confirm()

    def action_tax(self) -> None:
        from tui.games.soe.dialogs import TaxDialog

        self.app.push_screen(TaxDialog(self.state, self.app.player), self._bookkeeping)

    def action_adjust(self) -> None:
        from tui.games.soe.dialogs import AdjustDialog

        self.app.push_screen(AdjustDialog(self.state), self._bookkeeping)

    def action_board_values(self) -> None:
        from tui.games.soe.dialogs import RegionValuesDialog

        self.app.push_screen(RegionValuesDialog(self.state), self._board_values)

    def _bookkeeping(self, step: dict | None) -> None:
        if step is not None:  # the form keeps what was typed in it (GameScreen.show)
            self.record(step, describe_bookkeeping(step))

    def _board_values(self, step: dict | None) -> None:
        if step is None:
            return

        def update_profile() -> None:
            board = self.state.settings.board
            if board:  # the game has the values; its board profile gets them too
                regions = self.state.settings.to_json()["regions"]
                self.call_ledger(lambda ledger: ledger.save_board_profile(board, regions))

        self.record(step, "Region values recorded for this game.", then=update_profile)

    def commands(self):
        yield from super().commands()
        key = self.key_of
        yield SystemCommand("Record: taxation", "A taxation during the war: gold and one unrest "
                            f"token ({key('tax')})", self.action_tax)
        yield SystemCommand("Record: correction", "Correct gold, population or unrest with a "
                            f"reason ({key('adjust')})", self.action_adjust)
        if self.state.phase == "actions":
            yield SystemCommand("Switch: income entry", "Region grid or one total per player "
                                f"({key('toggle_income')})", self.action_toggle_income)
        if self.state.settings.regions_missing_values:
            yield SystemCommand("Enter: region values", "Printed VP values from your board "
                                f"({key('board_values')})", self.action_board_values)


def scoring_lines(title: str, scored: SoeState, gained: dict[str, int]) -> Text:
    """Why each region gave what it gave, then what each power won."""
    rows: list[Text | str] = [words((title, "bold"))]
    for result in scored.last_scoring:
        if result.awards:
            reasons = dict.fromkeys(a.reason for a in result.awards)  # a tie once
            rows.append(f"{result.region} ({'/'.join(map(str, result.values))}): "
                        + "; ".join(reasons))
    rows.append("Total: " + ", ".join(f"{p} {signed(v)}" for p, v in gained.items()))
    return lines(*rows)


def describe_bookkeeping(step: dict) -> str:
    if step["kind"] == "tax":
        return f"Recorded: {step['power']} taxed (unrest token {step['unrest']})."
    changes = ", ".join(f"{k} {signed(step[k])}" for k in ("gold", "population", "unrest")
                        if step.get(k))
    return f"Recorded: correction for {step['power']}: {changes or 'no change'}."
