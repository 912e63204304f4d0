"""Dialogs for the Risk events that can happen at any time: elimination, concession,
stalemate, a mission claim, and revealing a secret mission to its holder alone.

The step dialogs (StepDialog, step_dialog.py, with the Risk rules) return the step's JSON,
already checked against the rules, or None when cancelled.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Key
from textual.widgets import Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from rules.risk import RISK, RiskState, mission_text
from tui.literal import literal, words
from tui.screens.base import WarledgerModal
from tui.screens.step_dialog import StepDialog
from tui.widgets.risk_forms import PositionGrid, grid_positions, player_rows, position_columns


class RiskStepDialog(StepDialog):
    """A Risk event: players are chosen from those still in the game."""

    def __init__(self, state: RiskState) -> None:
        super().__init__(RISK, state)

    def player_select(self, id: str, default: str | None = None,
                      exclude: str | None = None) -> Select:
        names = [n for n in self.state.in_game if n != exclude]
        value = default if default in names else names[0]
        options = [(literal(f"{n} ({self.state.seat(n).color})"), n) for n in names]
        return Select(options, value=value, allow_blank=False, id=id)

    def chosen(self, id: str) -> str:
        return str(self.query_one(f"#{id}", Select).value)


class EliminateDialog(RiskStepDialog):
    """A player lost their last territory: who, and who took it."""

    def __init__(self, state: RiskState, by: str | None = None) -> None:
        super().__init__(state)
        self.by = by

    def compose(self) -> ComposeResult:
        players = self.state.in_game
        by = self.by if self.by in players else players[0]
        who = next(n for n in players if n != by)
        with Vertical(classes="dialog"):
            yield Static(words(("Elimination", "bold"), ": a player lost their last territory"))
            yield Label("Who is out")
            yield self.player_select("player", who)
            yield Label("Eliminated by")
            yield self.player_select("by", by)
            yield from self.buttons()

    def step(self) -> dict[str, Any]:
        return {"kind": "eliminate", "player": self.chosen("player"), "by": self.chosen("by")}


class ConcedeDialog(RiskStepDialog):
    """A player offers to concede; the group accepts or refuses; who receives what they held."""

    def __init__(self, state: RiskState, player: str | None = None) -> None:
        super().__init__(state)
        self.player = player if player in state.in_game else state.in_game[0]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(words(("Concession", "bold"), ": only with the group's acceptance. The "
                               "territories and cards go to the player who would next attack "
                               "(the next seat), unless the group agrees otherwise."))
            yield Label("Who concedes")
            yield self.player_select("player", self.player)
            yield Label("Does the group accept?")
            yield Select([("yes, accepted", "yes"), ("no, refused (kept in the history)", "no")],
                         value="yes", allow_blank=False, id="accepted")
            yield Label("Territories and cards go to", id="to-label")
            yield self.player_select("to", self.state.next_in_seat_order(self.player))
            yield from self.buttons()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "player" and event.value != Select.BLANK:
            following = self.state.next_in_seat_order(str(event.value))
            if following is not None:
                self.query_one("#to", Select).value = following
        elif event.select.id == "accepted":
            accepted = event.value == "yes"
            self.query_one("#to", Select).display = accepted
            self.query_one("#to-label", Label).display = accepted

    def step(self) -> dict[str, Any]:
        step: dict[str, Any] = {"kind": "concede", "player": self.chosen("player"),
                                "accepted": self.chosen("accepted") == "yes"}
        if step["accepted"]:
            step["to"] = self.chosen("to")
        return step


STALEMATES = (("draw", "a draw"),
              ("fixed_round", "score the current position (fixed-round scoring)"),
              ("agreed", "an agreed winner, named by the group"))


class StalemateDialog(RiskStepDialog):
    """Every remaining player agrees the game is stalled: how the group settles it."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(words(("Stalemate", "bold"), ": every player still in the game agrees "
                               "the position is stalled. Nobody wins for looking strongest "
                               "unless the group agrees to it."))
            yield Label("The group settles it by")
            yield Select([(label, key) for key, label in STALEMATES], value="draw",
                         allow_blank=False, id="resolution")
            yield Label("Agreed winner", id="winner-label")
            yield self.player_select("winner")
            yield from self.buttons()

    def on_mount(self) -> None:
        self.show_winner(False)

    def show_winner(self, shown: bool) -> None:
        self.query_one("#winner", Select).display = shown
        self.query_one("#winner-label", Label).display = shown

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "resolution":
            self.show_winner(event.value == "agreed")

    def step(self) -> dict[str, Any]:
        step = {"kind": "stalemate", "resolution": self.chosen("resolution")}
        if step["resolution"] == "agreed":
            step["winner"] = self.chosen("winner")
        return step


class ClaimDialog(RiskStepDialog):
    """A player reveals a completed mission; the counts, when given, are checked against it."""

    def __init__(self, state: RiskState, player: str | None = None) -> None:
        super().__init__(state)
        self.player = player

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="claim"):
            yield Static(words(("Mission claim", "bold"), ": the player shows their card to "
                               "the table"))
            yield Label("Who claims")
            yield self.player_select("player", self.player)
            yield Static("The position now (optional; a destroy mission needs none). "
                         "Space or 1 marks a continent held.", classes="hint")
            yield PositionGrid(player_rows(self.state), position_columns(), id="claim-grid")
            yield from self.buttons()

    def on_number_grid_submitted(self, event) -> None:
        event.stop()
        self.action_submit()

    def step(self) -> dict[str, Any]:
        step: dict[str, Any] = {"kind": "mission_complete", "player": self.chosen("player")}
        positions = grid_positions(self.query_one(PositionGrid))
        if positions is not None:
            step["positions"] = positions
        return step


class WhoseMissionDialog(WarledgerModal[str | None]):
    """Which player looks at their mission (the others look away)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="cancel")]

    def __init__(self, state: RiskState) -> None:
        super().__init__()
        self.state = state

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(words(("Reveal my mission", "bold"), ": whose? Everyone else looks "
                               "away. Enter chooses, Escape cancels."))
            yield OptionList(*(Option(literal(f"{s.name} ({s.color})"), id=s.name)
                               for s in self.state.seats), id="whose")

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class MissionCardDialog(WarledgerModal[None]):
    """One player's secret mission, until any key is pressed."""

    def __init__(self, player: str, mission: str, note: str = "") -> None:
        super().__init__()
        self.player, self.mission, self.note = player, mission, note

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="mission-card"):
            yield Static(words((f"{self.player}'s secret mission", "bold")))
            yield Static(literal(mission_text(self.mission)), classes="title", id="mission-text")
            if self.note:
                yield Static(literal(self.note), classes="hint")
            yield Static("Press any key to hide it.", classes="hint")

    async def on_key(self, event: Key) -> None:
        event.stop()
        event.prevent_default()
        self.dismiss(None)
