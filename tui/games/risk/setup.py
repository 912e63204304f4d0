"""New game: Risk. Players and colours, the victory mode, the agreed rounds or the mission
deck, and the missions dealt at random (privately) or entered by hand. The rest of the
screen is NewGameScreen's (setup.py)."""

from __future__ import annotations

import random
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Label, Select, Static

from i18n import N_, _, ngettext
from rules.errors import RuleError
from rules.risk import (
    DEFAULT_COLOURS,
    RISK,
    TERRITORY_COUNT,
    deal,
    deck,
    mission_text,
    read_settings,
)
from rules.risk.board import shown
from tui.games.risk.game import RiskGameScreen, tell_the_holder
from tui.plumbing.keys import key_of
from tui.screens.setup import NewGameScreen
from tui.text.literal import literal


def modes() -> list[tuple[str, str]]:
    """The victory modes, as the choice of them reads."""
    return [(_("fixed rounds: score after the agreed round"), "fixed_rounds"),
            (ngettext("world conquest: hold all {n} territories",
                      "world conquest: hold all {n} territories", TERRITORY_COUNT).format(
                n=TERRITORY_COUNT), "conquest"),
            (_("secret missions: complete your card"), "missions")]


# TRANSLATORS: the mission decks: "european" and "us1993" are the decks' names.
DECKS = [(N_("european (14 cards)"), "european"), (N_("us1993 (12 cards)"), "us1993")]
DEALS = [(N_("deal at random (kept secret)"), "random"), (N_("enter by hand"), "hand")]


class NewRiskGameScreen(NewGameScreen):
    """Set up a Risk game."""

    RULES = RISK
    PLAYERS_HINT = N_("Players: {low} to {high} in seat order, each a colour of their own. A "
                      "row with no name is left out; → takes a name offered from earlier "
                      "games.")
    HELP_TITLE = N_("New game: Risk")

    def __init__(self) -> None:
        super().__init__()
        self._cards: list[str] = []  # the mission cards offered, to refill only on a change

    def compose_before_players(self) -> ComposeResult:
        with Horizontal(classes="setup-row"):
            yield Label(_("Victory"), classes="setup-label")
            yield Select(modes(), value="fixed_rounds", allow_blank=False, compact=True,
                         id="mode")
        with Horizontal(classes="setup-row", id="rounds-row"):
            yield Label(_("Rounds (1 to 50)"), classes="setup-label")
            yield Input("10", id="rounds", type="integer", compact=True,
                        classes="setup-number")
            yield Static(_("complete rounds, every player the same number of turns"),
                         classes="hint")
        with Horizontal(classes="setup-row", id="missions-row"):
            yield Label(_("Mission deck"), classes="setup-label")
            yield Select([(_(label), deck) for label, deck in DECKS], value="european",
                         allow_blank=False, compact=True, id="deck")
            yield Select([(_(label), way) for label, way in DEALS], value="random",
                         allow_blank=False, compact=True, id="deal")

    def compose_player(self, seat: int) -> ComposeResult:
        yield Select([(shown(c), c) for c in DEFAULT_COLOURS], value=DEFAULT_COLOURS[seat - 1],
                     allow_blank=False, compact=True, id=f"colour-{seat}",
                     classes="player-colour")
        yield Select([], prompt=_("mission card"), compact=True, id=f"mission-{seat}",
                     classes="player-mission")

    def on_mount(self) -> None:
        self.show_mode()

    # ------------------------------------------------------------ reacting

    def value(self, id: str) -> str:
        return str(self.query_one(f"#{id}", Select).value)

    def show_mode(self) -> None:
        """Only the fields of the chosen mode are shown (hidden ones are skipped by Tab)."""
        mode = self.value("mode")
        self.query_one("#rounds-row").display = mode == "fixed_rounds"
        self.query_one("#missions-row").display = mode == "missions"
        by_hand = mode == "missions" and self.value("deal") == "hand"
        for i in self.seats:
            self.query_one(f"#mission-{i}", Select).display = by_hand
        hint = self.query_one("#players-hint", Static)
        if by_hand:
            self.fill_missions()
            low, high = self.RULES.players
            hint.update(_("Players: {low} to {high} in seat order. Each player picks their "
                          "own mission card while the others look away; in the game only its "
                          "holder sees it again ({key}).").format(low=low, high=high,
                                                                  key=self.reveal_key()))
        else:
            hint.update(self.players_hint())

    def reveal_key(self) -> str:
        """The game screen's key that shows a player their mission."""
        return key_of(RiskGameScreen, "reveal")

    def fill_missions(self) -> None:
        """The cards of the chosen deck for the colours at the table, in every mission field."""
        settings = read_settings({"mission_deck": self.value("deck")})
        cards = deck(settings, [p["color"] for p in self.players()])
        if cards == self._cards:
            return
        self._cards = cards
        options = [(literal(mission_text(c)), c) for c in cards]
        for i in self.seats:
            field = self.query_one(f"#mission-{i}", Select)
            kept = field.value
            field.set_options(options)
            if kept in cards:
                field.value = kept

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id and not event.select.id.startswith("mission-"):
            self.show_mode()

    def on_input_changed(self, event: Input.Changed) -> None:
        if (event.input.id or "").startswith("name-") and self.value("deal") == "hand":
            self.show_mode()

    # ------------------------------------------------------------ reading the form

    def player(self, seat: int, name: str) -> dict[str, Any]:
        row: dict[str, Any] = {"name": name, "color": self.value(f"colour-{seat}")}
        mission = self.query_one(f"#mission-{seat}", Select).value
        if mission != Select.BLANK:
            row["mission"] = mission
        return row

    def settings(self, players: list[dict[str, Any]]) -> dict[str, Any]:
        """The victory mode and its rounds or deck; missions dealt now when at random."""
        mode = self.value("mode")
        data: dict[str, Any] = {"mode": mode}
        if mode == "fixed_rounds":
            raw = self.query_one("#rounds", Input).value.strip()
            try:
                data["rounds"] = int(raw)
            except ValueError:
                raise RuleError(_("Rounds must be a whole number from 1 to 50, not "
                                  "{typed}").format(typed=repr(raw))) from None
        if mode == "missions":
            data["mission_deck"] = self.value("deck")
        if mode != "missions":
            for p in players:
                p.pop("mission", None)
        elif self.value("deal") == "random":
            cards = deal(read_settings(data), [p["color"] for p in players], random.Random())
            for p, card in zip(players, cards, strict=True):
                p["mission"] = card
        return data

    def created(self, game) -> None:
        # A card replaced as the game starts (its colour absent, or the holder's own) is
        # told to its holder alone.
        tell_the_holder(self.app, game.state)
        super().created(game)

    # ------------------------------------------------------------ help

    def help_text(self) -> str:
        key = self.key_of
        return _("Type a title and the players' names in seat order (Tab or Enter moves on; → "
                 "takes a name offered from earlier games), and pick each colour and the "
                 "victory mode (Enter opens a list; arrows or typing choose). Fixed rounds "
                 "asks for the agreed number of rounds; secret missions for the deck and how "
                 "the cards are dealt. A random deal is never shown: each player sees their "
                 "own card in the game with {reveal}. {start} starts the game, {cancel} goes "
                 "back without creating anything.").format(reveal=self.reveal_key(),
                                                           start=key("start"),
                                                           cancel=key("cancel")) \
            + " " + self.group_help()
