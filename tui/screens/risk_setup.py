"""New game: Risk. Players and colours, the victory mode, the agreed rounds or the mission
deck, and the missions dealt at random (privately) or entered by hand."""

from __future__ import annotations

import random

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static

from rules.errors import RuleError
from rules.risk import DEFAULT_COLOURS, MAX_PLAYERS, deal, deck, mission_text, read_settings
from tui.ledger_calls import LedgerCalls
from tui.literal import TYPED_TEXT, literal
from tui.screens import setup
from tui.screens.risk_game import replaced_notice

MODES = [("fixed rounds: score after the agreed round", "fixed_rounds"),
         ("world conquest: hold all 42 territories", "conquest"),
         ("secret missions: complete your card", "missions")]
DECKS = [("european (14 cards)", "european"), ("us1993 (12 cards)", "us1993")]
DEALS = [("deal at random (kept secret)", "random"), ("enter by hand", "hand")]


class NewRiskGameScreen(LedgerCalls, Screen[int | None]):
    """Set up a Risk game; dismisses with the new game's id, or None when left with Escape."""

    HELP_TITLE = "New game: Risk"
    AUTO_FOCUS = "#title"
    BINDINGS = [
        Binding("ctrl+s", "start", "Start game", id="start", priority=True),
        Binding("escape", "cancel", "Back", id="cancel"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._cards: list[str] = []  # the mission cards offered, to refill only on a change

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="risk-setup", can_focus=False):
            yield Static("New game: Risk", classes="title")
            with Horizontal(classes="setup-row"):
                yield Label("Title", classes="setup-label")
                yield Input(setup.default_title(), id="title", compact=True, restrict=TYPED_TEXT,
                            placeholder="what you will call this game")
            with Horizontal(classes="setup-row"):
                yield Label("Victory", classes="setup-label")
                yield Select(MODES, value="fixed_rounds", allow_blank=False, compact=True,
                             id="mode")
            with Horizontal(classes="setup-row", id="rounds-row"):
                yield Label("Rounds (1 to 50)", classes="setup-label")
                yield Input("10", id="rounds", type="integer", compact=True,
                            classes="setup-number")
                yield Static("complete rounds, every player the same number of turns",
                             classes="hint")
            with Horizontal(classes="setup-row", id="missions-row"):
                yield Label("Mission deck", classes="setup-label")
                yield Select(DECKS, value="european", allow_blank=False, compact=True,
                             id="deck")
                yield Select(DEALS, value="random", allow_blank=False, compact=True,
                             id="deal")
            yield Static("Players: 2 to 6 in seat order, each a colour of their own. A row "
                         "with no name is left out; → takes a name offered from earlier games.",
                         classes="hint", id="players-hint")
            for i in range(1, MAX_PLAYERS + 1):
                with Horizontal(classes="setup-row player-row"):
                    yield Label(f"Player {i}", classes="setup-label")
                    yield Input(restrict=TYPED_TEXT, id=f"name-{i}", compact=True, placeholder="name",
                                classes="player-name")
                    yield Select([(c, c) for c in DEFAULT_COLOURS], value=DEFAULT_COLOURS[i - 1],
                                 allow_blank=False, compact=True, id=f"colour-{i}",
                                 classes="player-colour")
                    yield Select([], prompt="mission card", compact=True, id=f"mission-{i}",
                                 classes="player-mission")
            yield Static("", id="message", classes="message -error")
            yield from setup.start_buttons()
        yield Footer()

    def on_mount(self) -> None:
        setup.offer_names(self)
        self.show_mode()

    def ledger_failed(self, message: str, error: BaseException) -> None:
        self.show_error(message)

    # ------------------------------------------------------------ reacting

    def value(self, id: str) -> str:
        return str(self.query_one(f"#{id}", Select).value)

    def show_mode(self) -> None:
        """Only the fields of the chosen mode are shown (hidden ones are skipped by Tab)."""
        mode = self.value("mode")
        self.query_one("#rounds-row").display = mode == "fixed_rounds"
        self.query_one("#missions-row").display = mode == "missions"
        by_hand = mode == "missions" and self.value("deal") == "hand"
        for i in range(1, MAX_PLAYERS + 1):
            self.query_one(f"#mission-{i}", Select).display = by_hand
        hint = self.query_one("#players-hint", Static)
        if by_hand:
            self.fill_missions()
            hint.update("Players: 2 to 6 in seat order. Each player picks their own mission "
                        "card while the others look away; in the game only its holder sees "
                        "it again (r).")
        else:
            hint.update("Players: 2 to 6 in seat order, each a colour of their own. A row "
                        "with no name is left out; → takes a name offered from earlier games.")

    def fill_missions(self) -> None:
        """The cards of the chosen deck for the colours at the table, in every mission field."""
        settings = read_settings({"mission_deck": self.value("deck")})
        cards = deck(settings, [p["color"] for p in self.players()])
        if cards == self._cards:
            return
        self._cards = cards
        options = [(literal(mission_text(c)), c) for c in cards]
        for i in range(1, MAX_PLAYERS + 1):
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

    def on_input_submitted(self, event: Input.Submitted) -> None:
        # Enter in a field moves on, as Tab does; ctrl+s starts the game.
        event.stop()
        self.focus_next()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "cancel":
            self.action_cancel()

    def show_error(self, text: str) -> None:
        self.query_one("#message", Static).update(literal(text))

    # ------------------------------------------------------------ reading the form

    def players(self) -> list[dict[str, object]]:
        """The named rows as session-file players, in seat order."""
        rows = []
        for i in range(1, MAX_PLAYERS + 1):
            name = self.query_one(f"#name-{i}", Input).value.strip()
            if name:
                row: dict[str, object] = {"name": name, "color": self.value(f"colour-{i}")}
                mission = self.query_one(f"#mission-{i}", Select).value
                if mission != Select.BLANK:
                    row["mission"] = mission
                rows.append(row)
        return rows

    def settings(self) -> dict[str, object]:
        mode = self.value("mode")
        data: dict[str, object] = {"mode": mode}
        if mode == "fixed_rounds":
            raw = self.query_one("#rounds", Input).value.strip()
            try:
                data["rounds"] = int(raw)
            except ValueError:
                raise RuleError("The number of rounds must be a whole number from 1 to 50, "
                                f"not {raw!r}") from None
        if mode == "missions":
            data["mission_deck"] = self.value("deck")
        return data

    # ------------------------------------------------------------ actions

    def action_start(self) -> None:
        self.show_error("")
        title = self.query_one("#title", Input).value.strip() or setup.default_title()
        try:
            settings = self.settings()
            players = self.players()
            if len(players) < 2:
                raise RuleError(f"Name at least 2 players: Risk takes 2 to 6, and "
                                f"{len(players)} {'is' if len(players) == 1 else 'are'} named")
            if settings["mode"] != "missions":
                for p in players:
                    p.pop("mission", None)
            elif self.value("deal") == "random":
                cards = deal(read_settings(settings), [p["color"] for p in players],
                             random.Random())
                for p, card in zip(players, cards, strict=True):
                    p["mission"] = card
        except RuleError as e:
            self.show_error(str(e))
            return

        def created(game) -> None:
            replaced = replaced_notice(len(game.state.announcements))
            if replaced:
                # Which cards were replaced is secret: the table learns only how many.
                self.app.notify(replaced, title="Missions", timeout=10)
            self.dismiss(game.id)

        self.call_ledger(lambda ledger: ledger.create_game("risk", title, settings, players),
                         created)

    def action_cancel(self) -> None:
        self.dismiss(None)

    # ------------------------------------------------------------ help

    def help_text(self) -> str:
        return ("Type a title and the players' names in seat order (Tab or Enter moves on; → "
                "takes a name offered from earlier games), and pick each colour and the "
                "victory mode (Enter opens a list; arrows or typing choose). Fixed rounds "
                "asks for the agreed number of rounds; secret missions for the deck and how "
                "the cards are dealt. A random deal is never shown: each player sees their "
                "own card in the game with r. ctrl+s starts the game, Escape goes back "
                "without creating anything.")

    def commands(self):
        yield SystemCommand("Start game", "Create this Risk game and open it (ctrl+s)",
                            self.action_start)
        yield SystemCommand("Back", "Leave without creating a game (esc)", self.action_cancel)
