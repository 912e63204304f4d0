"""Home: saved games newest first, and the ways to start or look at something else."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.widgets import DataTable, Static

from i18n import N_, _, ngettext
from tui.plumbing.keys import bind_more
from tui.plumbing.ledger_calls import LedgerCalls, while_live
from tui.screens.base import WIDE_FROM, FirstFrame, WarledgerScreen
from tui.screens.registry import games, load, screens_of, store_demos
from tui.text.formatting import describe_where, game_name, local_time
from tui.text.literal import filled, literal
from tui.widgets.footer import Footer
from tui.widgets.header import Header
from tui.widgets.measured_table import MeasuredTable

if TYPE_CHECKING:
    from textual.worker import Worker

    from storage.watch import GamesWatch

# Other terminals' games: a look waits (in a worker thread) up to LOOK_WAITS seconds for the
# saved games to change, on SQLite's data_version or PostgreSQL's notification; a new look
# starts within LIVE_EVERY of the last one's end (as the game screen's, tui/screens/game.py).
LIVE_EVERY = 0.05
LOOK_WAITS = 0.5
LOOK_GROUP = "games-watch"  # the look's workers (a test's pause does not wait for them)

COLUMNS = (N_("Title"), N_("Game"), N_("Where"), N_("Leader"), N_("Players"),
           N_("Last played"))


class HomeScreen(LedgerCalls, WarledgerScreen[None]):
    """Saved games; Enter opens the highlighted one."""

    HELP_TITLE = N_("Home: saved games")
    BINDINGS = [
        Binding("enter", "open_game", N_("Open"), id="open", show=True),
        # Then a key per game to set one up (__init__),
        Binding("l", "league", N_("League"), id="league"),
        # then the games' own screens (__init__).
        Binding("d", "demo", N_("Try a demo"), id="demo", show=False),
        Binding("delete", "delete_game", N_("Delete game"), id="delete", show=False),
    ]
    _listed = False  # the saved games have been asked for once
    _games: list | None = None  # as last listed
    _short_names = False  # the games were listed with their short names
    _start_row = 0  # where the cursor opens, the first time the games are listed
    # How many saved games are listed; None until the ledger answered. While loading, and
    # when there is no game, words stand in for the list (watch_games_listed).
    games_listed: reactive[int | None] = reactive(None, init=False)

    def __init__(self) -> None:
        super().__init__()
        self._watch: GamesWatch | None = None  # made in the first look
        self._gone = False  # unmounted: no watch is kept any more
        self._looking: Worker[Any] | None = None  # the look's worker

        # Words made here, in the language of the moment: a language chosen from the
        # palette makes the screen again (again()).
        bind_more(self, [Binding(g.new_key, f"new_game({g.game!r})",
                                 # TRANSLATORS: the home screen's footer: set up a new game.
                                 _("New {game}").format(game=game_name(g.game)),
                                 id=g.new_binding) for g in games()], after="enter")
        bind_more(self, [Binding(more.key, f"more_screen({more.screen!r})", _(more.footer),
                                 id=more.binding_id) for g in games() for more in g.more])

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(_("Loading saved games…"), id="empty")
        yield MeasuredTable(id="games", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def again(self) -> HomeScreen:
        screen = HomeScreen()
        screen._start_row = self.query_one("#games", DataTable).cursor_row  # the same game
        return screen

    def on_mount(self) -> None:
        table = self.query_one("#games", DataTable)
        # Text labels, not markup: parsing markup would load Rich's emoji table before the
        # first frame.
        table.add_columns(*(Text(_(column)) for column in COLUMNS))
        # The games read while Textual was imported are in the first frame; otherwise the
        # database opens after the first frame is drawn (FirstFrame, at start).
        if (games := self.app.games_read_already()) is not None:
            self.list_games(games)
        elif self.app.drawn:
            self.call_after_refresh(while_live(self, self.refresh_games))
        # Games set up, played on, finished or deleted on other terminals show within a
        # moment. Timers run out of the screen's turn: their callbacks stop once it is going.
        self.set_interval(LIVE_EVERY, while_live(self, self.look_for_changes))

    def on_unmount(self) -> None:
        self._gone = True  # a look making its watch now closes it itself
        self.close_watch()

    def on_screen_suspend(self) -> None:
        # Under another screen the list is not looked at (it is read anew on the way
        # back): its connection, a LISTEN of its own on PostgreSQL, is given back.
        self.close_watch()

    def close_watch(self) -> None:
        watch, self._watch = self._watch, None
        if watch is not None:  # in a worker: closing may talk to the database
            self.app.call_ledger(lambda ledger: watch.close(), group="watch-close",
                                 quiet=True)

    def look_for_changes(self) -> None:
        """Has another terminal changed the saved games? One look at a time, only while the
        list is on screen (it is read anew when the screen shows again) and listed."""
        if (self._games is None or self.app.screen is not self
                or (self._looking is not None and self._looking.is_running)):
            return
        shown = self._games

        def look(ledger):
            watch = self._watch
            if watch is None:
                watch = self._watch = ledger.games_watch()
                if self._gone:  # the screen went while the watch was made: close it here
                    self._watch = None
                    watch.close()
                    return None
            return watch.changed_from(shown, wait=LOOK_WAITS)

        def changed(games: list | None) -> None:
            # Listed meanwhile (back from another screen, a demo, a deletion): the look's
            # list may be older than what is shown; the next look compares with that.
            if games is not None and self._games is shown and self.app.screen is self:
                self.list_games(games)

        self._looking = self.call_ledger(look, changed, group=LOOK_GROUP, quiet=True)

    def on_first_frame(self, event: FirstFrame) -> None:
        # Draw once more (what Textual drew while mounting never reached the terminal),
        # then list the games unless they are in already.
        self.refresh()
        if self.games_listed is None:
            self.call_after_refresh(while_live(self, self.refresh_games))

    def watch_games_listed(self, count: int | None) -> None:
        # A class on each widget, not on the screen: that would style every widget of it
        # again. (Not `display` itself: a window too small hides both, app.tcss.)
        self.query_one("#empty").set_class(bool(count), "-unwanted")  # listed games
        self.query_one("#games").set_class(count == 0, "-unwanted")
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
        keep = table.cursor_row if table.row_count else self._start_row
        # The cursor stays on its game when games come or go above it (another terminal's).
        highlighted = self.selected_game()
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
        empty.update(self.nothing_saved())
        self.games_listed = len(games)
        if games:
            at = next((i for i, g in enumerate(games) if g.id == highlighted), None)
            table.move_cursor(row=at if at is not None else min(keep, len(games) - 1))
            table.focus()

    def nothing_saved(self) -> Text:
        """'No saved games yet. Press n for a new Struggle of Empires game, r for a new
        Risk game, or d to try a demo of each.'"""
        choices = Text(", ", end="").join(
            # TRANSLATORS: one of the keys the empty home screen offers ("n for a new Risk
            # game"); they are listed with ", " between them.
            filled(_("{key} for a new {game} game"), key=(self.key_of(g.new_binding), "bold"),
                   game=game_name(g.game)) for g in games())
        return filled(_("No saved games yet. Press {new_games}, or {demo} to try a demo of "
                        "each."), new_games=choices, demo=(self.key_of("demo"), "bold"))

    def help_text(self) -> str:
        return _("Your saved games, the most recently played first. Highlight one with the "
                 "arrows and press Enter to carry on exactly where you stopped.")

    def selected_game(self) -> int | None:
        table = self.query_one("#games", DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        assert key.value is not None  # each row's key is its game's number (list_games)
        return int(key.value)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open_game()

    def action_open_game(self) -> None:
        session_id = self.selected_game()
        if session_id is not None:
            self.app.open_game(session_id)

    def action_new_game(self, game: str) -> None:
        screens = screens_of(game)
        assert screens is not None  # the key is bound for each registered game only
        self.app.push_screen(load(screens.setup)(), self._opened)

    def _opened(self, session_id: int | None) -> None:
        if session_id is not None:
            self.app.open_game(session_id)

    def action_league(self) -> None:
        from tui.screens.league import LeagueScreen

        self.app.push_screen(LeagueScreen())

    def action_more_screen(self, screen: str) -> None:
        self.app.push_screen(load(screen)())

    def action_demo(self) -> None:
        def added(stored: list[tuple[int, bool]]) -> None:
            self.refresh_games()
            self.notify(demos_said(stored))

        self.call_ledger(store_demos, added)

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
                                 lambda _gone: self.refresh_games())

        self.app.push_screen(ConfirmDialog(filled(
            _("Delete {title} and every step recorded in it? This cannot be undone."),
            title=(title, "bold"))), done)

    def commands(self):
        from functools import partial

        key = self.key_of
        for g in games():
            yield SystemCommand(_("New game: {game}").format(game=game_name(g.game)),
                                _("Set up a new game ({key})").format(key=key(g.new_binding)),
                                partial(self.action_new_game, g.game))
        yield SystemCommand(_("Open: league"), _("League table across finished games ({key})")
                            .format(key=key("league")), self.action_league)
        for g in games():
            for more in g.more:
                title, help_ = more.palette
                # TRANSLATORS: a palette entry's help, then its key: "Region values of your
                # boards (b)".
                yield SystemCommand(_(title), _("{help} ({key})").format(
                    help=_(help_), key=key(more.binding_id)),
                    partial(self.action_more_screen, more.screen))
        yield SystemCommand(_("Try: demo games"), _("Add a demo of each game ({key})")
                            .format(key=key("demo")), self.action_demo)
        yield SystemCommand(_("Delete: highlighted game"), _("Remove a game, asks first ({key})")
                            .format(key=key("delete")), self.action_delete_game)


def demos_said(stored: list[tuple[int, bool]]) -> str:
    """What the demo key did: how many demo games it added, or that they were there."""
    added = sum(1 for _id, now in stored if now)
    if not added:
        return _("The demo games are in the list already: open one with Enter.")
    return ngettext("{n} demo game added: open one with Enter.",
                    "{n} demo games added: open one with Enter.", added).format(n=added)
