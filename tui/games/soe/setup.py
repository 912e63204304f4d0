"""New game: Struggle of Empires. Players and powers, starting totals, the options of
RULES.md part B and the board profile whose printed values the game will score with. The
rest of the screen is NewGameScreen's (setup.py)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Button, Input, Label, Select, Static
from textual.worker import Worker

from i18n import N_, _
from rules.soe import (
    FRIENDLY_COUNTS,
    MAX_GOLD,
    MAX_POPULATION,
    POWERS,
    SOE,
    UNFRIENDLY_COUNTS,
)
from rules.soe.regions import shown
from tui.games.soe.board import BUILTIN_PROFILE, builtin_regions, missing_regions
from tui.screens.setup import NewGameScreen
from tui.text.literal import literal

# Each option: (id, label, [(value, name, one-line explanation)]), the RULES.md default first.
# The labels, names and explanations are message ids (shown through _()); a label's {low}
# and {high} are the player counts (OPTION_COUNTS); the values are what the game stores.
OPTIONS = [
    # TRANSLATORS: {low}–{high}: the player counts an option is for (4–7).
    ("friendly_ties", N_("Ties, {low}–{high} players"), [
        ("split", N_("split"), N_("tied powers share the values of the places they cover: "
                                  "(8+5)/2 = 6 each")),
        ("full", N_("full"), N_("each tied power gets the value of the place they tie for: "
                                "8 each")),
    ]),
    ("unfriendly_ties", N_("Ties, {low}–{high} players"), [
        ("demote", N_("demote"), N_("tied powers each get the next place's value: tied 1st "
                                    "get 2nd")),
        ("cascade", N_("cascade"), N_("tied powers each get the value of the place after the "
                                      "whole tied block")),
    ]),
    ("unrest_ranking", N_("Unrest penalties"), [
        ("distinct", N_("distinct"), N_("−4 goes to the next unrest below the highest, even "
                                        "after a tie for highest")),
        ("competition", N_("competition"), N_("a tie for highest uses up the −4 (like 1st, "
                                              "1st, 3rd)")),
    ]),
]
OPTION_COUNTS = {"friendly_ties": FRIENDLY_COUNTS, "unfriendly_ties": UNFRIENDLY_COUNTS}


def option_label(key: str, label: str) -> str:
    """An option's label in the reader's language, with its player counts."""
    counts = OPTION_COUNTS.get(key)
    if counts is None:
        return _(label)
    return _(label).format(low=counts[0], high=counts[-1])


class NewSoeGameScreen(NewGameScreen):
    """Set up a Struggle of Empires game."""

    RULES = SOE
    PLAYERS_HINT = N_("Players: {low} to {high}, each with a different power. A row with no "
                      "name is left out; → takes a name offered from earlier games.")
    HELP_TITLE = N_("New game: Struggle of Empires")
    BINDINGS = [
        Binding("e", "edit_board", N_("Edit board"), id="edit_board",
                tooltip=N_("Edit the printed values of the chosen board (when not typing a "
                           "name)")),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.profiles: dict[str, dict[str, list[int]]] = {}

    # ------------------------------------------------------------ layout

    def compose_player(self, seat: int) -> ComposeResult:
        yield Select([(shown(p), p) for p in POWERS], value=POWERS[seat - 1],
                     allow_blank=False, compact=True, id=f"power-{seat}",
                     classes="player-power")

    def compose_after_players(self) -> ComposeResult:
        with Horizontal(classes="setup-row"):
            yield Label(_("Starting gold"), classes="setup-label")
            yield Input("10", id="gold", type="integer", compact=True, classes="setup-number")
            yield Label(_("Population"), classes="setup-label -short")
            yield Input("5", id="population", type="integer", compact=True,
                        classes="setup-number")
            yield Label(_("Gold per taxation"), classes="setup-label -short")
            yield Input("2", id="gold-per-tax", type="integer", compact=True,
                        classes="setup-number")
        for key, label, choices in OPTIONS:
            with Horizontal(classes="setup-row"):
                yield Label(option_label(key, label), classes="setup-label")
                yield Select([(_(name), value) for value, name, _why in choices],
                             value=choices[0][0], allow_blank=False, compact=True,
                             id=key.replace("_", "-"), classes="setup-option")
                yield Static(_(choices[0][2]), id=f"{key.replace('_', '-')}-why",
                             classes="hint setup-why")
        with Horizontal(classes="setup-row"):
            yield Label(_("Board"), classes="setup-label")
            yield Select([(BUILTIN_PROFILE, BUILTIN_PROFILE)], value=BUILTIN_PROFILE,
                         allow_blank=False, compact=True, id="board")
            # TRANSLATORS: a button; {key} is its key (e).
            yield Button(_("Edit board ({key})").format(key=self.key_of("edit_board")),
                         id="edit-board", compact=True)
        yield Static("", id="board-status", classes="message")

    def on_mount(self) -> None:
        self.load_boards()

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
            # TRANSLATORS: {regions}: VP regions, with commas; {key}: a key (e).
            status.update(literal(_("{regions} lack printed values: the game cannot reach "
                                    "scoring until you fill them in ({key}: edit board)").format(
                regions=", ".join(shown(r) for r in missing), key=self.key_of("edit_board"))))
            status.set_classes("message -warning")
        else:
            status.update(_("Every region has its printed values."))
            status.set_classes("message -ok")

    # ------------------------------------------------------------ reacting

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "board":
            self.show_board_status()
            return
        for key, _label, choices in OPTIONS:
            if event.select.id == key.replace("_", "-"):
                why = next(w for value, _name, w in choices if value == event.value)
                self.query_one(f"#{event.select.id}-why", Static).update(_(why))

    def button_actions(self):
        return {**super().button_actions(), "edit-board": self.action_edit_board}

    # ------------------------------------------------------------ reading the form

    def player(self, seat: int, name: str) -> dict[str, Any]:
        """Gold and population are filled in from their fields by `settings`."""
        return {"name": name, "power": self.query_one(f"#power-{seat}", Select).value}

    def settings(self, players: list[dict[str, Any]]) -> dict[str, Any]:
        """The options, and the chosen board's values; each player's starting totals."""
        # Checked here, under the fields' labels: the rules would name each player
        # ("Ana's starting gold"), and the screen has one field for all of them.
        gold = self.whole_number("gold", _("Starting gold"), high=MAX_GOLD)
        population = self.whole_number("population", _("Population"), high=MAX_POPULATION)
        for p in players:
            p.update(gold=gold, population=population)
        data: dict[str, Any] = {
            key: self.query_one(f"#{key.replace('_', '-')}", Select).value
            for key, _label, _choices in OPTIONS}
        data["gold_per_tax"] = self.whole_number("gold-per-tax", _("Gold per taxation"))
        data["regions"] = self.board_regions()
        data["board"] = self.query_one("#board", Select).value
        return data

    # ------------------------------------------------------------ actions

    def create(self, title: str, settings: dict[str, Any],
               players: list[dict[str, Any]]) -> Worker:
        # The built-in profile is stored the first time a game uses it.
        keep_board = settings["board"] == BUILTIN_PROFILE and not self.profiles
        group = self.group_typed()

        def create(ledger):
            game = ledger.create_game("soe", title, settings, players, group=group)
            if keep_board:
                ledger.save_board_profile(BUILTIN_PROFILE, builtin_regions())
            return game

        return self.call_ledger(create, self.created)

    def action_edit_board(self) -> None:
        from tui.games.soe.board import BoardProfileScreen

        def back(saved: str | None) -> None:
            self.load_boards(select=saved)

        board = self.query_one("#board", Select).value
        assert isinstance(board, str)  # allow_blank=False: a board's name is always chosen
        self.app.push_screen(BoardProfileScreen(board), back)

    # ------------------------------------------------------------ help

    def help_text(self) -> str:
        key = self.key_of
        # TRANSLATORS: {edit_board}, {start} and {cancel} are keys (e, ctrl+s, escape).
        return _("Type a title and the players' names (Tab or Enter moves on; → takes a name "
                 "offered from earlier games), and pick each player's power (Enter opens the "
                 "list, arrows or the first letters choose). Rows without a name are left "
                 "out. The options follow the rule book unless your group plays otherwise. "
                 "The board profile holds the VP printed on each region: only German States "
                 "8/5/3 (2004 edition) is public, so copy the others from your own board once "
                 "with {edit_board} (edit board); they are kept for later games. {start} "
                 "starts the game, {cancel} goes back without creating anything.").format(
            edit_board=key("edit_board"), start=key("start"),
            cancel=key("cancel")) + " " + self.group_help()

    def commands(self):
        yield from super().commands()
        # TRANSLATORS: a palette entry; {key} is its key (e).
        yield SystemCommand(_("Edit board profile"), _("Printed VP of each region of the "
                                                       "chosen board ({key})").format(
            key=self.key_of("edit_board")), self.action_edit_board)
