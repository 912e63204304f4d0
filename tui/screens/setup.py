"""What the two new-game screens share (each game's setup.py in tui/games): the evening's title,
one row per possible player with names from earlier games offered, the message line, the
Start / Back buttons and keys, and the creating of the game through the ledger. Each game's
screen adds only its own fields and reading of them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any, ClassVar

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.suggester import SuggestFromList
from textual.widgets import Button, Header, Input, Label, Static

from rules.errors import RuleError
from rules.fields import player_name, whole
from rules.ruleset import GameRules
from tui.ledger_calls import LedgerCalls
from tui.literal import TYPED_TEXT, literal, visible
from tui.screens.base import WarledgerScreen
from tui.widgets.footer import Footer


def default_title() -> str:
    """'Friday 14 March': the evening the game is played."""
    today = date.today()
    return f"{today:%A} {today.day} {today:%B}"


class NewGameScreen(LedgerCalls, WarledgerScreen[int | None]):
    """Set up a game of `RULES`; dismisses with the new game's id, or None when left with
    Escape. A game's screen composes its fields around the player rows
    (`compose_before_players`, `compose_player`, `compose_after_players`) and reads them
    (`player`, `settings`)."""

    RULES: ClassVar[GameRules]
    PLAYERS_ARE: ClassVar[str]  # after "Players: 2 to 7": ", each with a different power"
    AUTO_FOCUS = "#title"
    BINDINGS = [
        Binding("ctrl+s", "start", "Start game", id="start", priority=True),
        Binding("escape", "cancel", "Back", id="cancel"),
    ]

    @property
    def game_shown(self) -> str:
        return self.RULES.game

    @property
    def seats(self) -> range:
        """The player rows' numbers, 1 to the most players the game takes."""
        return range(1, self.RULES.players[1] + 1)

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="setup", can_focus=False):
            yield Static(literal(f"New game: {self.RULES.name}"), classes="title")
            with Horizontal(classes="setup-row"):
                yield Label("Title", classes="setup-label")
                yield Input(default_title(), id="title", compact=True, restrict=TYPED_TEXT,
                            placeholder="what you will call this game")
            yield from self.compose_before_players()
            yield Static(self.players_hint(), classes="hint", id="players-hint")
            for i in self.seats:
                with Horizontal(classes="setup-row player-row"):
                    yield Label(f"Player {i}", classes="setup-label")
                    yield Input(restrict=TYPED_TEXT, id=f"name-{i}", compact=True,
                                placeholder="name", classes="player-name")
                    yield from self.compose_player(i)
            yield from self.compose_after_players()
            yield Static("", id="message", classes="message -error")
            with Horizontal(classes="setup-buttons"):
                yield Button(f"Start ({self.key_of('start')})", id="start", variant="primary")
                yield Button(f"Back ({self.key_of('cancel')})", id="cancel")
        yield Footer()

    def compose_before_players(self) -> ComposeResult:
        """The game's fields above the player rows."""
        return ()

    def compose_player(self, seat: int) -> ComposeResult:
        """The fields of player row `seat` after the name."""
        return ()

    def compose_after_players(self) -> ComposeResult:
        """The game's fields below the player rows."""
        return ()

    def players_hint(self) -> str:
        low, high = self.RULES.players
        return (f"Players: {low} to {high}{self.PLAYERS_ARE}. A row with no name is left "
                "out; → takes a name offered from earlier games.")

    def on_mount(self) -> None:
        self.offer_names()

    def offer_names(self) -> None:
        """The name fields offer the names of everyone who played before, once the ledger
        has said them (suggestions are a comfort: the form works without)."""
        def offer(names: list[str]) -> None:
            names = [n for n in names if visible(n) == n]  # an old row's controls never offered
            if names:
                suggester = SuggestFromList(names, case_sensitive=False)
                for field in self.query(".player-name").results(Input):
                    field.suggester = suggester

        self.call_ledger(lambda ledger: ledger.player_names(), offer, quiet=True)

    # ------------------------------------------------------------ reacting

    def ledger_failed(self, message: str, error: BaseException) -> None:
        self.show_error(message)

    def show_error(self, text: str) -> None:
        self.query_one("#message", Static).update(literal(text))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        # Enter in a field moves on, as Tab does; ctrl+s starts the game.
        event.stop()
        self.focus_next()

    def button_actions(self) -> dict[str, Callable[[], None]]:
        """What each button does, by its id."""
        return {"start": self.action_start, "cancel": self.action_cancel}

    def on_button_pressed(self, event: Button.Pressed) -> None:
        action = self.button_actions().get(event.button.id or "")
        if action is not None:
            action()

    # ------------------------------------------------------------ reading the form

    def player(self, seat: int, name: str) -> dict[str, Any]:
        """Player row `seat`, named `name`, as a session-file player."""
        raise NotImplementedError

    def players(self) -> list[dict[str, Any]]:
        """The named rows as session-file players, in seat order. A name is checked here,
        under its row's number: the rules count only the named rows, and a wrong name in
        row 3 below an empty row 2 would be "player 2's name" there."""
        rows = []
        for i in self.seats:
            name = self.query_one(f"#name-{i}", Input).value.strip()
            if name:
                rows.append(self.player(i, player_name(name, f"player {i}'s name")))
        return rows

    def settings(self, players: list[dict[str, Any]]) -> dict[str, Any]:
        """The session file's settings from the game's fields (may complete `players`);
        RuleError, in the players' words, when a field is wrong."""
        raise NotImplementedError

    def whole_number(self, field_id: str, what: str, *, low: int | None = 0,
                     high: int | None = None) -> int:
        """The number in a field, within [low, high]; `what` is the field's label, so a
        refusal names the field as the screen does."""
        raw = self.query_one(f"#{field_id}", Input).value.strip()
        try:
            value = int(raw)
        except ValueError:
            raise RuleError(f"{what} must be a whole number") from None
        return whole(value, what, low=low, high=high)

    # ------------------------------------------------------------ actions

    def action_start(self) -> None:
        self.show_error("")
        title = self.query_one("#title", Input).value.strip() or default_title()
        try:
            players = self.players()
            low, high = self.RULES.players
            if len(players) < low:
                raise RuleError(f"Name at least {low} players: {self.RULES.name} takes {low} "
                                f"to {high}, and {len(players)} "
                                f"{'is' if len(players) == 1 else 'are'} named")
            settings = self.settings(players)
        except RuleError as e:
            self.show_error(str(e))
            return
        self.create(title, settings, players)

    def create(self, title: str, settings: dict[str, Any],
               players: list[dict[str, Any]]) -> None:
        """Create the game through the ledger (the rules check it there), then leave with
        its id."""
        game = self.RULES.game
        self.call_ledger(lambda ledger: ledger.create_game(game, title, settings, players),
                         self.created)

    def created(self, game) -> None:
        self.dismiss(game.id)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def commands(self):
        yield SystemCommand("Start game", f"Create this {self.RULES.name} game and open it "
                            f"({self.key_of('start')})", self.action_start)
        yield SystemCommand("Back", f"Leave without creating a game ({self.key_of('cancel')})",
                            self.action_cancel)
