"""Dialogs for the Risk events that can happen at any time: elimination, concession,
stalemate, a mission claim, and revealing a secret mission to its holder alone.

The step dialogs (StepDialog, step_dialog.py, with the Risk rules) return the step's JSON,
already checked against the rules, or None when cancelled.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Key
from textual.widgets import Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from i18n import N_, _
from rules.errors import RuleError
from rules.fields import person
from rules.risk import RISK, RiskState, mission_text, unproven_claim
from rules.risk.board import shown
from tui.games.risk.forms import (
    PositionGrid,
    grid_positions,
    player_rows,
    position_columns,
    position_values,
)
from tui.screens.base import WarledgerModal
from tui.screens.dialogs import ConfirmDialog
from tui.screens.step_dialog import StepDialog
from tui.text.literal import literal, words


class RiskStepDialog(StepDialog):
    """A Risk event: players are chosen from those still in the game."""

    def __init__(self, state: RiskState) -> None:
        super().__init__(RISK, state)

    def player_select(self, id: str, default: str | None = None,
                      exclude: str | None = None) -> Select:
        names = [n for n in self.state.in_game if n != exclude]
        value = default if default in names else names[0]
        return Select(self.player_options(names), value=value, allow_blank=False, id=id)

    def player_options(self, names: list[str]) -> list[tuple[Text, str]]:
        return [(literal(f"{n} ({shown(self.state.seat(n).color)})"), n) for n in names]

    def offer_all_but(self, id: str, player: str, default: str | None = None) -> None:
        """The list `id` offers every player still in but `player` (who cannot be the other
        side of their own elimination or concession), keeping its choice where it can."""
        select = self.query_one(f"#{id}", Select)
        names = [n for n in self.state.in_game if n != player]
        wanted = default if default is not None else select.value
        select.set_options(self.player_options(names))
        select.value = wanted if wanted in names else names[0]

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
            # TRANSLATORS: a dialog's heading: the words before the first colon are bold.
            yield Static(headed(_("Elimination: a player lost their last territory")))
            yield Label(_("Who is out"))
            yield self.player_select("player", who)
            yield Label(_("Eliminated by"))
            yield self.player_select("by", by, exclude=who)
            yield from self.buttons()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "player" and event.value != Select.BLANK:
            self.offer_all_but("by", str(event.value))

    def step(self) -> dict[str, Any]:
        return {"kind": "eliminate", "player": self.chosen("player"), "by": self.chosen("by")}


class ConcedeDialog(RiskStepDialog):
    """A player offers to concede; the group accepts or refuses; who receives what they held."""

    def __init__(self, state: RiskState, player: str | None = None) -> None:
        super().__init__(state)
        self.player = player if player in state.in_game else state.in_game[0]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            # TRANSLATORS: a dialog's heading: the words before the first colon are bold.
            yield Static(headed(_("Concession: only with the group's acceptance. The "
                                  "territories and cards go to the player who would next "
                                  "attack (the next seat), unless the group agrees "
                                  "otherwise.")))
            yield Label(_("Who concedes"))
            yield self.player_select("player", self.player)
            yield Label(_("Does the group accept?"))
            yield Select([(_("yes, accepted"), "yes"),
                          (_("no, refused (kept in the history)"), "no")],
                         value="yes", allow_blank=False, id="accepted")
            yield Label(_("Territories and cards go to"), id="to-label")
            yield self.player_select("to", self.state.next_in_seat_order(self.player),
                                     exclude=self.player)
            yield from self.buttons()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "player" and event.value != Select.BLANK:
            self.offer_all_but("to", str(event.value),
                               self.state.next_in_seat_order(str(event.value)))
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


STALEMATES = (("draw", N_("a draw")),
              ("fixed_round", N_("score the current position (fixed-round scoring)")),
              ("agreed", N_("an agreed winner, named by the group")))


class StalemateDialog(RiskStepDialog):
    """Every remaining player agrees the game is stalled: how the group settles it. Scored,
    it scores the current position: typed here, or the latest one entered if nothing has
    changed hands since (RULES.md A.4)."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="stalemate"):
            # TRANSLATORS: a dialog's heading: the words before the first colon are bold.
            yield Static(headed(_("Stalemate: every player still in the game agrees the "
                                  "position is stalled. Nobody wins for looking strongest "
                                  "unless the group agrees to it.")))
            yield Label(_("The group settles it by"))
            yield Select([(_(label), key) for key, label in STALEMATES], value="draw",
                         allow_blank=False, id="resolution")
            yield Label(_("Agreed winner"), id="winner-label")
            yield self.player_select("winner")
            yield Static(literal(self.position_hint()), classes="hint", id="position-hint")
            yield latest_position_grid(self.state, "position")
            yield from self.buttons()

    def position_hint(self) -> str:
        """Whether the position must be typed to score the stalemate, and why."""
        state = self.state
        if not state.positions:
            return _("The position as it stands now (needed: no position has been entered "
                     "yet). 1 or x marks a continent held.")
        if state.positions_predate:
            # TRANSLATORS: {event} is an event of the game: "Cy's elimination by Bo".
            return _("The position as it stands now (needed: the latest one was entered "
                     "before {event}). 1 or x marks a continent held.").format(
                event=state.positions_predate)
        return _("The position as it stands now (as last entered: untouched, the latest "
                 "position is scored). 1 or x marks a continent held.")

    def on_mount(self) -> None:
        # As wide as the claim's dialog (app.tcss #claim): the position grid needs 80.
        self.query_one("#stalemate").styles.width = 80
        self.show_for("draw")

    def show_for(self, resolution: object) -> None:
        """The winner for an agreed stalemate, the position for a scored one."""
        for id, on in (("#winner", resolution == "agreed"),
                       ("#winner-label", resolution == "agreed"),
                       ("#position", resolution == "fixed_round"),
                       ("#position-hint", resolution == "fixed_round")):
            self.query_one(id).display = on

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "resolution":
            self.show_for(event.value)

    def on_number_grid_submitted(self, event) -> None:
        event.stop()
        self.action_submit()

    def step(self) -> dict[str, Any]:
        step: dict[str, Any] = {"kind": "stalemate", "resolution": self.chosen("resolution")}
        if step["resolution"] == "agreed":
            step["winner"] = self.chosen("winner")
        if step["resolution"] == "fixed_round":
            positions = typed_positions(self.query_one(PositionGrid))
            if positions is not None:
                step["positions"] = positions
        return step


class ClaimDialog(RiskStepDialog):
    """A player reveals a completed mission; the counts, when given, are checked against it."""

    def __init__(self, state: RiskState, player: str | None = None) -> None:
        super().__init__(state)
        self.player = player

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="claim"):
            # TRANSLATORS: a dialog's heading: the words before the first colon are bold.
            yield Static(headed(_("Mission claim: the player shows their card to the table")))
            yield Label(_("Who claims"))
            yield self.player_select("player", self.player)
            yield Static(_("The position now, as the last round left it: change what changed "
                           "(untouched, the table vouches for the claim; a destroy mission "
                           "needs none). 1 or x marks a continent held."), classes="hint")
            yield latest_position_grid(self.state, "claim-grid")
            yield from self.buttons()

    def on_number_grid_submitted(self, event) -> None:
        event.stop()
        self.action_submit()

    def step(self) -> dict[str, Any]:
        step: dict[str, Any] = {"kind": "mission_complete", "player": self.chosen("player")}
        positions = typed_positions(self.query_one(PositionGrid))
        if positions is not None:
            step["positions"] = positions
        return step

    def action_submit(self) -> None:
        """A claim the tracker cannot check (no position typed, and none entered that
        proves it) is recorded as every step dialog records, once the table vouches for it."""
        try:
            step = self.step()
            self.rules.apply(self.state, self.rules.read_step(step))
            question = self.vouch_question(step)
        except (RuleError, ValueError):
            question = ""  # nothing to ask: StepDialog says what is wrong
        if not question:
            super().action_submit()
            return

        def answered(vouched: bool | None) -> None:
            if vouched:
                StepDialog.action_submit(self)
            else:
                self.query_one("#dialog-message", Static).update(
                    _("Not recorded. Type the position now and the tracker checks the claim."))

        self.app.push_screen(ConfirmDialog(question, yes=_("Yes, record it")), answered)

    def vouch_question(self, step: dict[str, Any]) -> str:
        """'No positions were entered: the table vouches that Ana completed 'Conquer Asia
        and Africa'?', or '' when the tracker checks the claim itself. The card is named
        only where its holder may show it: on a shared terminal, or the holder's own."""
        who = self.state.player_named(step["player"])
        doubt = "" if "positions" in step else unproven_claim(self.state, who)
        if not doubt:
            return ""
        viewer = self.app.player
        if viewer and person(viewer) != person(who):
            return _("The tracker cannot check {player}'s claim: the table vouches that "
                     "{player} completed their secret mission?").format(player=who)
        card = mission_text(self.state.missions[who])
        # TRANSLATORS: {doubt} says why the tracker cannot check the claim ("No positions
        # were entered"); {card} is the mission's text.
        return _("{doubt}: the table vouches that {player} completed '{card}'?").format(
            doubt=doubt, player=who, card=card)


class WhoseMissionDialog(WarledgerModal[str | None]):
    """Which player looks at their mission (the others look away)."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"), id="cancel")]

    def __init__(self, state: RiskState) -> None:
        super().__init__()
        self.state = state

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            # TRANSLATORS: a dialog's heading: the words before the first colon are bold.
            yield Static(headed(_("Reveal my mission: whose? Everyone else looks away. Enter "
                                  "chooses, Escape cancels.")))
            yield OptionList(*(Option(literal(f"{s.name} ({shown(s.color)})"), id=s.name)
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
            yield Static(words((_("{player}'s secret mission").format(player=self.player),
                                "bold")))
            yield Static(literal(mission_text(self.mission)), classes="title", id="mission-text")
            if self.note:
                yield Static(literal(self.note), classes="hint")
            yield Static(_("Press any key to hide it."), classes="hint")

    async def on_key(self, event: Key) -> None:
        event.stop()
        event.prevent_default()
        self.dismiss(None)


def headed(sentence: str) -> Text:
    """A dialog's opening sentence, its words up to the first colon in bold ("Stalemate: ...")."""
    head, colon, rest = sentence.partition(":")
    return words((head, "bold"), colon + rest) if colon else words(sentence)


def latest_position_grid(state: RiskState, id: str) -> PositionGrid:
    """A position grid that starts from the latest position entered, like a round's: the
    table types only what changed since."""
    latest = position_values({name: pos.to_json() for name, pos in state.positions.items()
                              if name in state.in_game})
    return PositionGrid(player_rows(state), position_columns(), values=latest, id=id)


def typed_positions(grid: PositionGrid) -> dict[str, dict[str, Any]] | None:
    """The position in the grid if the table typed into it; None when it is still the latest
    position as entered (the step then goes without one, as the rules read that)."""
    return grid_positions(grid) if grid.typed else None
