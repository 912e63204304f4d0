"""Home: saved games newest first, and the ways to start or look at something else."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.widgets import DataTable, Footer, Header, Static

from tui.formatting import describe_where, game_name, local_time
from tui.ledger_calls import LedgerCalls
from tui.literal import literal, words
from tui.screens.base import WIDE_FROM, FirstFrame, WarledgerScreen

COLUMNS = tuple(map(Text, ("Title", "Game", "Where", "Leader", "Players", "Last played")))


class HomeScreen(LedgerCalls, WarledgerScreen[None]):
    """Saved games; Enter opens the highlighted one."""

    HELP_TITLE = "Home: saved games"
    DEFAULT_CLASSES = "-loading"
    BINDINGS = [
        Binding("enter", "open_game", "Open", id="open", show=True),
        Binding("n", "new_soe", "New Struggle of Empires", id="new_soe"),
        Binding("r", "new_risk", "New Risk", id="new_risk"),
        Binding("l", "league", "League", id="league"),
        Binding("b", "boards", "Board profiles", id="boards"),
        Binding("d", "demo", "Try a demo", id="demo", show=False),
        Binding("delete", "delete_game", "Delete game", id="delete", show=False),
    ]
    _listed = False  # the saved games have been asked for once
    _games: list | None = None  # as last listed
    _short_names = False  # the games were listed with their short names
    # How many saved games are listed; None until the ledger answered. The screen carries
    # it as a class (-loading, -no-games): app.tcss shows the list or the words instead.
    games_listed: reactive[int | None] = reactive(None, init=False)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Loading saved games…", id="empty")
        yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#games", DataTable)
        # Text labels, not markup: parsing markup would load Rich's emoji table before the
        # first frame.
        table.add_columns(*COLUMNS)
        # The games read while Textual was imported are in the first frame; otherwise the
        # database opens after the first frame is drawn (FirstFrame, at start).
        if (games := self.app.games_read_already()) is not None:
            self.list_games(games)
        elif self.app.drawn:
            self.call_after_refresh(self.refresh_games)

    def on_first_frame(self, event: FirstFrame) -> None:
        # Draw once more (what Textual drew while mounting never reached the terminal),
        # then list the games unless they are in already.
        self.refresh()
        if self.games_listed is None:
            self.call_after_refresh(self.refresh_games)

    def watch_games_listed(self, count: int | None) -> None:
        self.set_class(count is None, "-loading")
        self.set_class(count == 0, "-no-games")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Nothing to open or delete on an empty list: its keys leave the footer, so Help
        # fits at 80 columns.
        if action in ("open_game", "delete_game"):
            return self.games_listed != 0
        return True

    def on_screen_resume(self) -> None:
        # Back from another screen. The first showing is on_mount's (after the first frame,
        # or at once with the games read at start): listing here then would open the
        # database before anything is drawn.
        if self._listed:
            self.refresh_games()
        elif self.games_listed is not None:
            self._listed = True  # listed at mount: the next showing lists them anew

    def refresh_games(self) -> None:
        """Ask for the saved games; they are listed when the ledger answers."""
        self._listed = True
        self.call_ledger(lambda ledger: ledger.games(), self.list_games)

    def ledger_failed(self, message: str, error: BaseException) -> None:
        if self.query_one("#games", DataTable).row_count:
            super().ledger_failed(message, error)
        else:  # nothing listed yet: say it where the games would be
            empty = self.query_one("#empty", Static)
            empty.add_class("-error")
            empty.update(literal(message))

    def on_resize(self, event) -> None:
        # Across the 120-column breakpoint the games are listed again, with the game's name
        # long or short.
        if self._games is not None and self._narrow() != self._short_names:
            self.list_games(self._games)

    def _narrow(self) -> bool:
        # The window's width, not the -narrow class: that comes with the first resize, and
        # the games read at start are listed before it.
        return self.app.size.width < WIDE_FROM

    def list_games(self, games: list) -> None:
        table = self.query_one("#games", DataTable)
        keep = table.cursor_row
        table.clear()
        for column in table.columns.values():  # widths fit what the rows hold now
            column.content_width = column.label.cell_len
        # Narrow, "SoE" leaves the players' names room at 80 columns.
        self._games, self._short_names = games, self._narrow()
        for g in games:
            table.add_row(*map(literal, (g.title, game_name(g.game, short=self._short_names),
                                         describe_where(g), g.leader or "—",
                                         ", ".join(g.players), local_time(g.updated_at))),
                          key=str(g.id))
        empty = self.query_one("#empty", Static)
        empty.remove_class("-error")
        key = self.key_of
        empty.update(words("No saved games yet. Press ", (key("new_soe"), "bold"), " for a new "
                           "Struggle of Empires game, ", (key("new_risk"), "bold"), " for a new "
                           "Risk game, or ", (key("demo"), "bold"), " to try a demo of each."))
        self.games_listed = len(games)
        if games:
            table.move_cursor(row=min(keep, len(games) - 1))
            table.focus()

    def help_text(self) -> str:
        return ("Your saved games, the most recently played first. Highlight one with the "
                "arrows and press Enter to carry on exactly where you stopped.")

    def selected_game(self) -> int | None:
        table = self.query_one("#games", DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return int(key.value)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open_game()

    def action_open_game(self) -> None:
        session_id = self.selected_game()
        if session_id is not None:
            self.app.open_game(session_id)

    def action_new_soe(self) -> None:
        from tui.games.soe.setup import NewSoeGameScreen

        self.app.push_screen(NewSoeGameScreen(), self._opened)

    def action_new_risk(self) -> None:
        from tui.games.risk.setup import NewRiskGameScreen

        self.app.push_screen(NewRiskGameScreen(), self._opened)

    def _opened(self, session_id: int | None) -> None:
        if session_id is not None:
            self.app.open_game(session_id)

    def action_league(self) -> None:
        from tui.screens.league import LeagueScreen

        self.app.push_screen(LeagueScreen())

    def action_boards(self) -> None:
        from tui.games.soe.board import BoardProfileScreen

        self.app.push_screen(BoardProfileScreen())

    def action_demo(self) -> None:
        from tui.demo import load_demos

        def added(_ids) -> None:
            self.refresh_games()
            self.notify("Two demo games added: open one with Enter.")

        self.call_ledger(load_demos, added)

    def action_delete_game(self) -> None:
        session_id = self.selected_game()
        if session_id is None:
            return
        from tui.screens.dialogs import ConfirmDialog

        table = self.query_one("#games", DataTable)
        title = table.get_row_at(table.cursor_row)[0].plain

        def done(yes: bool | None) -> None:
            if yes:
                self.call_ledger(lambda ledger: ledger.delete_game(session_id),
                                 lambda _: self.refresh_games())

        self.app.push_screen(ConfirmDialog(words(
            "Delete ", (title, "bold"), " and every step recorded in it? "
            "This cannot be undone.")), done)

    def commands(self):
        key = self.key_of
        yield SystemCommand("New game: Struggle of Empires", f"Set up a new game ({key('new_soe')})",
                            self.action_new_soe)
        yield SystemCommand("New game: Risk", f"Set up a new game ({key('new_risk')})",
                            self.action_new_risk)
        yield SystemCommand("Open: league", f"League table across finished games ({key('league')})",
                            self.action_league)
        yield SystemCommand("Open: board profiles", f"Region values of your boards ({key('boards')})",
                            self.action_boards)
        yield SystemCommand("Try: demo games", "Add a Struggle of Empires and a Risk demo "
                            f"({key('demo')})", self.action_demo)
        yield SystemCommand("Delete: highlighted game", f"Remove a game, asks first ({key('delete')})",
                            self.action_delete_game)
