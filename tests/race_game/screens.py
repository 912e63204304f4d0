"""Race to 10 on screen: its setup, its game screen with one form, its result words, and
its entry in the registry of the games' screens. Built only from the shared screens'
bases (tui/screens/setup.py, game.py, results.py), as a new game in tui/games would be."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult

from tests.race_game.rules import GOAL, MOST_A_TURN, RACE, RaceState
from tui.screens.game import GameScreen
from tui.screens.registry import GameScreens
from tui.screens.results import ResultWords
from tui.screens.setup import NewGameScreen
from tui.text.literal import literal
from tui.widgets.number_grid import Column, NumberGrid
from tui.widgets.step_form import StepForm
from tui.widgets.totals import TotalsPanel


class NewRaceScreen(NewGameScreen):
    RULES = RACE

    def player(self, seat: int, name: str) -> dict[str, Any]:
        return {"name": name}

    def settings(self, players: list[dict[str, Any]]) -> dict[str, Any]:
        return {}


class TurnForm(StepForm):
    """The points each player scored this turn."""

    def compose(self) -> ComposeResult:
        yield NumberGrid([(s.name, s.name) for s in self.state.seats],
                         [Column("points", "Points", quick=True, most=MOST_A_TURN)],
                         values={s.name: {"points": 0} for s in self.state.seats}, id="grid")

    def pending_step(self) -> dict[str, Any] | None:
        grid = self.grid
        if grid is None:
            return None
        return {"kind": "turn",
                "points": {name: int(grid.values[name]["points"]) for name in grid.row_keys}}


class RaceScreen(GameScreen):
    HELP_TITLE = "Race to 10: game keys"

    @property
    def state(self) -> RaceState:
        return self.game.state

    def compose_totals(self) -> ComposeResult:
        yield TotalsPanel(["Player", "Points"], id="totals-panel")

    def step_at(self, state: RaceState) -> tuple:
        return (state.turn, state.phase)

    def build_form(self) -> StepForm:
        return TurnForm(self.state, self.keys)

    def show_header(self) -> None:
        self.sub_title = f"Race to {GOAL} · turn {self.state.turn}"
        self.query_one("#phase-bar").show(f"Turn {self.state.turn}", ["Racing"], "Racing")
        self.query_one("#step-title").update(literal("Points scored this turn"))
        self.query_one("#step-hint").update(literal(f"First to {GOAL} wins. Enter records."))

    def show_totals(self, preview: Any | None) -> None:
        def rows(state: RaceState) -> list[list[object]]:
            return [[s.name, p] for s, p in zip(state.seats, state.points, strict=True)]

        self.query_one(TotalsPanel).show(rows(self.state),
                                         rows(preview) if preview is not None else None)


RESULT_WORDS = ResultWords()

SCREENS = GameScreens(
    game="race", new_key="t", league_key="t",
    setup="tests.race_game.screens:NewRaceScreen", play="tests.race_game.screens:RaceScreen",
    results="tests.race_game.screens:RESULT_WORDS", rules_section="")
