"""New game: Struggle of Empires. Players and powers, starting totals, the options of
RULES.md part B and the board profile whose printed values the game will score with."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static

from rules.errors import RuleError
from rules.soe import MAX_PLAYERS, POWERS
from tui.ledger_calls import LedgerCalls
from tui.literal import TYPED_TEXT, literal
from tui.screens import setup
from tui.screens.board import BUILTIN_PROFILE, builtin_regions, missing_regions

# Each option: (id, label, [(value, name, one-line explanation)]), the RULES.md default first.
OPTIONS = [
    ("friendly_ties", "Ties, 4–7 players", [
        ("split", "split", "tied powers share the values of the places they cover: "
                           "(8+5)/2 = 6 each"),
        ("full", "full", "each tied power gets the value of the place they tie for: 8 each"),
    ]),
    ("unfriendly_ties", "Ties, 2–3 players", [
        ("demote", "demote", "tied powers each get the next place's value: tied 1st get 2nd"),
        ("cascade", "cascade", "tied powers each get the value of the place after the whole "
                               "tied block"),
    ]),
    ("unrest_ranking", "Unrest penalties", [
        ("distinct", "distinct", "−4 goes to the next unrest below the highest, even after "
                                 "a tie for highest"),
        ("competition", "competition", "a tie for highest uses up the −4 (like 1st, 1st, 3rd)"),
    ]),
]


class NewSoeGameScreen(LedgerCalls, Screen[int | None]):
    """Set up a game; dismisses with the new game's id, or None when left with Escape."""

    HELP_TITLE = "New game: Struggle of Empires"
    AUTO_FOCUS = "#title"
    BINDINGS = [
        Binding("ctrl+s", "start", "Start game", id="start", priority=True),
        Binding("e", "edit_board", "Edit board", id="edit_board",
                tooltip="Edit the printed values of the chosen board (when not typing a name)"),
        Binding("escape", "cancel", "Back", id="cancel"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.profiles: dict[str, dict[str, list[int]]] = {}

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="soe-setup", can_focus=False):
            yield Static("New game: Struggle of Empires", classes="title")
            with Horizontal(classes="setup-row"):
                yield Label("Title", classes="setup-label")
                yield Input(setup.default_title(), id="title", compact=True, restrict=TYPED_TEXT,
                            placeholder="what you will call this game")
            yield Static("Players: 2 to 7, each with a different power. A row with no name "
                         "is left out; → takes a name offered from earlier games.",
                         classes="hint")
            for i in range(1, MAX_PLAYERS + 1):
                with Horizontal(classes="setup-row player-row"):
                    yield Label(f"Player {i}", classes="setup-label")
                    yield Input(restrict=TYPED_TEXT, id=f"name-{i}", compact=True, placeholder="name",
                                classes="player-name")
                    yield Select([(p, p) for p in POWERS], value=POWERS[i - 1],
                                 allow_blank=False, compact=True, id=f"power-{i}",
                                 classes="player-power")
            with Horizontal(classes="setup-row"):
                yield Label("Starting gold", classes="setup-label")
                yield Input("10", id="gold", type="integer", compact=True,
                            classes="setup-number")
                yield Label("Population", classes="setup-label -short")
                yield Input("5", id="population", type="integer", compact=True,
                            classes="setup-number")
                yield Label("Gold per taxation", classes="setup-label -short")
                yield Input("2", id="gold-per-tax", type="integer", compact=True,
                            classes="setup-number")
            for key, label, choices in OPTIONS:
                with Horizontal(classes="setup-row"):
                    yield Label(label, classes="setup-label")
                    yield Select([(name, value) for value, name, _ in choices],
                                 value=choices[0][0], allow_blank=False, compact=True,
                                 id=key.replace("_", "-"), classes="setup-option")
                    yield Static(choices[0][2], id=f"{key.replace('_', '-')}-why",
                                 classes="hint setup-why")
            with Horizontal(classes="setup-row"):
                yield Label("Board", classes="setup-label")
                yield Select([(BUILTIN_PROFILE, BUILTIN_PROFILE)], value=BUILTIN_PROFILE,
                             allow_blank=False, compact=True, id="board")
                yield Button("Edit board (e)", id="edit-board", compact=True)
            yield Static("", id="board-status", classes="message")
            yield Static("", id="message", classes="message -error")
            yield from setup.start_buttons()
        yield Footer()

    def on_mount(self) -> None:
        setup.offer_names(self)
        self.load_boards()

    def ledger_failed(self, message: str, error: BaseException) -> None:
        self.show_error(message)

    def load_boards(self, select: str | None = None) -> None:
        """Fill the board choice from the ledger (the built-in profile when there is none)."""
        self.call_ledger(lambda ledger: ledger.board_profiles(),
                         lambda profiles: self.list_boards(profiles, select))

    def list_boards(self, profiles: dict[str, dict[str, list[int]]],
                    select: str | None = None) -> None:
        board = self.query_one("#board", Select)
        current = select or board.value
        self.profiles = profiles
        names = list(self.profiles) or [BUILTIN_PROFILE]
        board.set_options([(literal(n), n) for n in names])
        board.value = current if current in names else names[0]
        self.show_board_status()

    def board_regions(self) -> dict[str, list[int]]:
        name = self.query_one("#board", Select).value
        if name in self.profiles:
            return {r: list(v) for r, v in self.profiles[name].items()}
        return builtin_regions()

    def show_board_status(self) -> None:
        status = self.query_one("#board-status", Static)
        missing = missing_regions(self.board_regions())
        if missing:
            status.update(literal(f"{', '.join(missing)} lack printed values: the game cannot "
                                  "reach scoring until you fill them in (e: edit board)"))
            status.set_classes("message -warning")
        else:
            status.update("Every region has its printed values.")
            status.set_classes("message -ok")

    # ------------------------------------------------------------ reacting

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "board":
            self.show_board_status()
            return
        for key, _, choices in OPTIONS:
            if event.select.id == key.replace("_", "-"):
                why = next(w for value, _, w in choices if value == event.value)
                self.query_one(f"#{event.select.id}-why", Static).update(why)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        # Enter in a field moves on, as Tab does; ctrl+s starts the game.
        event.stop()
        self.focus_next()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"start": self.action_start, "cancel": self.action_cancel,
                   "edit-board": self.action_edit_board}
        if event.button.id in actions:
            actions[event.button.id]()

    def show_error(self, text: str) -> None:
        self.query_one("#message", Static).update(literal(text))

    # ------------------------------------------------------------ reading the form

    def players(self) -> list[dict[str, object]]:
        """The named rows as session-file players (gold and population filled in later)."""
        rows = []
        for i in range(1, MAX_PLAYERS + 1):
            name = self.query_one(f"#name-{i}", Input).value.strip()
            if name:
                rows.append({"name": name, "power": self.query_one(f"#power-{i}", Select).value})
        return rows

    def whole_number(self, field_id: str, what: str) -> int:
        raw = self.query_one(f"#{field_id}", Input).value.strip()
        try:
            return int(raw)
        except ValueError:
            raise RuleError(f"{what} must be a whole number") from None

    def settings(self) -> dict[str, object]:
        """The session file's settings: the options, and the chosen board's values."""
        data: dict[str, object] = {
            key: self.query_one(f"#{key.replace('_', '-')}", Select).value
            for key, _, _ in OPTIONS}
        data["gold_per_tax"] = self.whole_number("gold-per-tax", "Gold per taxation")
        data["regions"] = self.board_regions()
        data["board"] = self.query_one("#board", Select).value
        return data

    # ------------------------------------------------------------ actions

    def action_start(self) -> None:
        self.show_error("")
        title = self.query_one("#title", Input).value.strip() or setup.default_title()
        try:
            players = self.players()
            if len(players) < 2:
                raise RuleError("Name at least 2 players: Struggle of Empires takes 2 to 7, "
                                f"and {len(players)} {'is' if len(players) == 1 else 'are'} "
                                "named")
            gold = self.whole_number("gold", "Starting gold")
            population = self.whole_number("population", "Starting population")
            for p in players:
                p.update(gold=gold, population=population)
            settings = self.settings()
        except RuleError as e:
            self.show_error(str(e))
            return
        # The built-in profile is stored the first time a game uses it.
        keep_board = settings["board"] == BUILTIN_PROFILE and not self.profiles

        def create(ledger) -> int:
            game = ledger.create_game("soe", title, settings, players)
            if keep_board:
                ledger.save_board_profile(BUILTIN_PROFILE, builtin_regions())
            return game.id

        self.call_ledger(create, self.dismiss)

    def action_edit_board(self) -> None:
        from tui.screens.board import BoardProfileScreen

        def back(saved: str | None) -> None:
            self.load_boards(select=saved)

        self.app.push_screen(BoardProfileScreen(self.query_one("#board", Select).value), back)

    def action_cancel(self) -> None:
        self.dismiss(None)

    # ------------------------------------------------------------ help

    def help_text(self) -> str:
        return ("Type a title and the players' names (Tab or Enter moves on; → takes a name "
                "offered from earlier games), and pick each player's power (Enter opens the "
                "list, arrows or the first letters choose). Rows without a name are left out. "
                "The options follow the rule book unless your group plays otherwise. The board "
                "profile holds the VP printed on each region: only German States 8/5/3 "
                "(2004 edition) is public, so copy the others from your own board once with "
                "e (edit board); they are kept for later games. ctrl+s starts the game, "
                "Escape goes back without creating anything.")

    def commands(self):
        from textual.app import SystemCommand

        yield SystemCommand("Start game", "Create this game and open it", self.action_start)
        yield SystemCommand("Edit board profile", "Printed VP of each region of the chosen board",
                            self.action_edit_board)
        yield SystemCommand("Back", "Leave without creating a game", self.action_cancel)
