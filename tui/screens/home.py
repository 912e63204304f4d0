"""Home: saved games newest first, and the ways to start or look at something else.

The list is read a page at a time (storage/listing.py): the games played last at once, the
next page as the cursor or the scroll nears the end of what is listed, so the first frame
costs the same whatever the club's history holds. `/` opens a search typed at once: each
word must be in a game's title, a player's name or its group's name, or name its game or
its status; Esc clears it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Static

from i18n import N_, _, ngettext, pgettext
from tui.plumbing.keys import bind_instead, bind_more
from tui.plumbing.ledger_calls import LedgerCalls, while_live
from tui.screens.base import GRID_WIDTH, WIDE_FROM, FirstFrame, WarledgerScreen
from tui.screens.registry import games, load, screens_of, store_demos
from tui.text.formatting import describe_where, game_name, local_time
from tui.text.literal import filled, literal
from tui.widgets.footer import Footer
from tui.widgets.header import Header

if TYPE_CHECKING:
    from textual.timer import Timer
    from textual.widgets import DataTable, Input
    from textual.worker import Worker

    from storage.listing import GameListing, Page
    from storage.watch import GamesWatch

# Other terminals' games: a look waits (in a worker thread) up to LOOK_WAITS seconds for the
# saved games to change, on SQLite's data_version or PostgreSQL's notification; a new look
# starts within LIVE_EVERY of the last one's end (as the game screen's, tui/screens/game.py).
LIVE_EVERY = 0.05
LOOK_WAITS = 0.5
LOOK_AFTER_START = 0.3  # seconds after the first frame: the list is drawn by then
LOOK_GROUP = "games-watch"  # the look's workers (a test's pause does not wait for them)
# The next page is asked for when the cursor, or the scroll, comes this close to the end of
# the games listed.
LOAD_AHEAD = 10

COLUMNS = (N_("Title"), N_("Game"), N_("Where"), N_("Leader"), N_("Players"),
           N_("Last played"))
# Under 76 columns (a phone) the list keeps the first three, the title cut to fit beside
# the others (each column's padding and the scrollbar take 8 cells): a game is found by its
# name and where it stands; the rest is on the game's own screen.
POCKET_COLUMNS = 3
POCKET_TITLE_AT_LEAST = 10


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
        Binding("slash", "search", N_("Search"), id="search", show=False),
        Binding("escape", "clear_search", N_("Clear search"), id="clear-search", show=False),
    ]
    _listed = False  # the saved games have been asked for once
    _games: list[GameListing] | None = None  # as last listed: the pages read so far
    _read_at_start: Page | None = None  # the games read at start, if they were in (compose)
    _after = None  # where the next page starts (storage.listing.Page.after); None: no more
    _more = None  # the worker reading the next page
    searched = ""  # what was typed in the search; "" lists every game
    _glanced = False  # the first page was read at start, before the ledger (storage/glance.py)
    _look_again = False  # a look's answer came after the list changed: read it again
    _short_names = False  # the games were listed with their short names
    _pocket_listed = False  # ... and only their first columns (under 76 columns)
    start_row = 0  # where the cursor opens, the first time the games are listed
    # How many saved games are listed; None until the ledger answered. While loading, and
    # when there is no game, words stand in for the list (watch_games_listed).
    games_listed: reactive[int | None] = reactive(None, init=False)

    def __init__(self) -> None:
        super().__init__()
        self._watch: GamesWatch | None = None  # made in the first look
        self._gone = False  # unmounted: no watch is kept any more
        self._looking: Worker[Any] | None = None  # the look's worker
        self._look_timer: Timer | None = None  # its timer, from start_looking

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
        # The games read while Textual was imported are in the first frame. With none
        # saved, the list is made only once there is a game to list: a table is the
        # costliest widget to draw at start (issue 48).
        self._read_at_start = self.app.games_read_already()
        if self._read_at_start is None or self._read_at_start.games:
            yield self._new_table()
        yield Footer()

    def _new_table(self) -> DataTable:
        from tui.widgets.measured_table import MeasuredTable

        table = MeasuredTable(id="games", cursor_type="row", zebra_stripes=True)
        # Enter opens the highlighted game: the table's own Enter (Textual's, unnamed),
        # named in the footer, where it hides the screen's Open.
        bind_instead(table, Binding("enter", "select_cursor", N_("Open"), id="open"))
        # Text labels, not markup: parsing markup would load Rich's emoji table before the
        # first frame.
        table.add_columns(*(Text(_(column)) for column in COLUMNS))
        self._pocket_listed = False  # every column, so far
        # Scrolled near the end of what is listed (the wheel, a page down), or all of it
        # fits with room to spare: the next page.
        self.watch(table, "scroll_y", while_live(self, self._scrolled), init=False)
        self.watch(table, "virtual_size", while_live(self, self._scrolled), init=False)
        return table

    def shown_table(self) -> DataTable | None:
        """The list of games, if it was made (compose, list_games)."""
        found = self.query("#games")
        return cast("DataTable", found.first()) if found else None

    def again(self) -> HomeScreen:
        screen = HomeScreen()
        if (table := self.shown_table()) is not None:
            screen.start_row = table.cursor_row  # the same game
        screen.searched = self.searched
        return screen

    def on_mount(self) -> None:
        # The games read at start are listed now, in the first frame; otherwise the
        # database opens after the first frame is drawn (FirstFrame, at start).
        if self.searched:  # made again in another language: the search goes on
            self.call_after_refresh(while_live(self, self.show_search))
        if (games := self._read_at_start) is not None:
            self.list_games(games)
            self._glanced = True
        elif self.app.drawn:
            self.call_after_refresh(while_live(self, self.refresh_games))
        # Games set up, played on, finished or deleted on other terminals show within a
        # moment: looks start once the first frame is on the terminal (FirstFrame), and a
        # moment after, as the first look opens the ledger (SQLAlchemy's import, which
        # would hold the interpreter while the first frame is drawn).
        if self.app.drawn:
            self.start_looking()

    def on_unmount(self) -> None:
        self._gone = True  # a look making its watch now closes it itself
        self.close_watch()

    def on_screen_suspend(self) -> None:
        # Under another screen the list is not looked at (it is read anew on the way
        # back): its connection, a LISTEN of its own on PostgreSQL, is given back, and its
        # timer waits.
        self.close_watch()
        if self._look_timer is not None:
            self._look_timer.pause()

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
        from storage.listing import PAGE, Page

        # What is listed, read again (no more than that): the pages read so far.
        games, words = self._games, self._words()
        shown = Page(games, self._after)

        def look(ledger):
            watch = self._watch
            if watch is None:
                watch = self._watch = ledger.games_watch()
                if self._gone:  # the screen went while the watch was made: close it here
                    self._watch = None
                    watch.close()
                    return None
            def read():
                return ledger.games_page(words, size=max(PAGE, len(games)))

            if again:  # the last look's answer came too late: what it saw is read here
                page = read()
                if page != shown:
                    return page
            return watch.changed_from(shown, wait=LOOK_WAITS, read=read)

        def changed(page: Page | None) -> None:
            # Listed meanwhile (back from another screen, a demo, a deletion, a search, a
            # page more): the look's list may be older than what is shown, and the next
            # look reads again what this one saw change.
            if page is None:
                return
            if self._games is games and self.app.screen is self:
                self.list_games(page)
            else:
                self._look_again = True

        again, self._look_again = self._look_again, False

        self._looking = self.call_ledger(look, changed, group=LOOK_GROUP, quiet=True)

    def start_looking(self) -> None:
        # Timers run out of the screen's turn: their callbacks stop once it is going.
        if self._look_timer is None:
            self._look_timer = self.set_interval(LIVE_EVERY,
                                                 while_live(self, self.look_for_changes))

    def on_first_frame(self, event: FirstFrame) -> None:
        # The first frame is on the terminal (home is the app's first screen: it is drawn
        # whole): list the games unless they are in already, and look for changes.
        self.set_timer(LOOK_AFTER_START, while_live(self, self.start_looking))
        if self._glanced:  # read without the ledger: its modules load while players read
            from storage.glance import load_the_ledger_soon

            load_the_ledger_soon()
        if self.games_listed is None:
            self.call_after_refresh(while_live(self, self.refresh_games))

    def watch_games_listed(self, count: int | None) -> None:
        # A class on each widget, not on the screen: that would style every widget of it
        # again. (Not `display` itself: a window too small hides both, app.tcss.)
        self.query_one("#empty").set_class(bool(count), "-unwanted")  # listed games
        if (table := self.shown_table()) is not None:
            table.set_class(count == 0, "-unwanted")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Nothing to open or delete on an empty list: its keys leave the footer, so Help
        # fits at 80 columns.
        if action in ("open_game", "delete_game"):
            return bool(self.games_listed)  # none yet while they are read
        if action == "clear_search":
            return bool(self.searched) or any(w.display for w in self.query("#search"))
        return True

    def on_screen_resume(self) -> None:
        # Back from another screen. The first showing is on_mount's (after the first frame,
        # or at once with the games read at start): listing here then would open the
        # database before anything is drawn.
        if self._look_timer is not None:
            self._look_timer.resume()
        if self._listed:
            self.refresh_games()
        elif self.games_listed is not None:
            self._listed = True  # listed at mount: the next showing lists them anew

    def refresh_games(self) -> None:
        """Ask for the first page of the saved games (those the search finds); they are
        listed when the ledger answers, unless the search changed meanwhile."""
        self._listed = True
        search, words = self.searched, self._words()

        def listed(page) -> None:
            if search == self.searched:
                self.list_games(page)

        self.call_ledger(lambda ledger: ledger.games_page(words), listed)

    def load_more(self) -> None:
        """Ask for the next page, unless every game is listed or it is being read."""
        if self._after is None or self._games is None or (
                self._more is not None and self._more.is_running):
            return
        games, after, words = self._games, self._after, self._words()

        def more(page) -> None:
            # Listed anew meanwhile (another terminal, a search): that list goes on.
            if self._games is games:
                self._add_games(page)

        self._more = self.call_ledger(lambda ledger: ledger.games_page(words, after), more,
                                      group="home-more")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.cursor_row >= event.data_table.row_count - LOAD_AHEAD:
            self.load_more()

    def _scrolled(self, *_values: object) -> None:
        table = self.shown_table()
        if (table is not None and table.row_count
                and table.scroll_y >= table.max_scroll_y - LOAD_AHEAD):
            self.load_more()

    def _words(self) -> tuple:
        """The search as storage.listing.Words: each with the games and statuses whose
        names, as the player reads them, hold it."""
        if not self.searched.strip():
            return ()
        from storage.listing import Word

        named = [(g.game, {g.game, game_name(g.game).lower(),
                           game_name(g.game, short=True).lower()}) for g in games()]
        # As the list and `warledger sessions` say them, and in English.
        statuses = [("finished", {"finished", _("Finished").lower(), _("Result only").lower(),
                                  pgettext("game status", "finished").lower()}),
                    ("in_progress", {"in progress",
                                     pgettext("game status", "in progress").lower()})]
        words = []
        for text in self.searched.lower().split():
            words.append(Word(text, tuple(g for g, names in named
                                          if any(text in n for n in names)),
                              tuple(s for s, names in statuses
                                    if any(text in n for n in names))))
        return tuple(words)

    # ------------------------------------------------------------ the search

    async def action_search(self) -> None:
        await self.show_search()

    async def show_search(self) -> None:
        """The search line, under the heading, focused; made on first use (a start that
        never searches never builds it)."""
        found = self.query("#search")
        if found:
            search = found.first()
        else:
            from tui.widgets.search import SearchInput

            search = SearchInput(self.searched, placeholder=_(
                "Search: title, player, game, group or status"), id="search")
            await self.mount(search, before="#empty")
        search.display = True
        search.focus()

    def action_clear_search(self) -> None:
        """Esc: the search is emptied and closed, every game listed again."""
        found = self.query("#search")
        if not found:
            return
        # #search is the SearchInput show_search mounts (imported only when first used)
        search = cast("Input", found.first())
        search.display = False
        if search.value:
            search.value = ""  # its Changed lists every game again
        self.action_focus_games()

    def on_input_changed(self, event) -> None:
        if event.input.id == "search" and event.value != self.searched:
            self.searched = event.value
            self.refresh_games()

    def on_input_submitted(self, event) -> None:
        if event.input.id == "search":  # Enter: on to the games found
            self.action_focus_games()

    def ledger_failed(self, message: str, error: BaseException) -> None:
        if (table := self.shown_table()) is not None and table.row_count:
            super().ledger_failed(message, error)
        else:  # nothing listed yet: say it where the games would be
            empty = self.query_one("#empty", Static)
            empty.add_class("-error")
            empty.update(literal(message))

    def on_resize(self, event) -> None:
        # Across the 120-column breakpoint the games are listed again, with the game's name
        # long or short.
        if self._games is not None and (self._narrow() != self._short_names
                                        or self._pocket() != self._pocket_listed):
            from storage.listing import Page

            self.list_games(Page(self._games, self._after))

    def _narrow(self) -> bool:
        # The window's width, not the -narrow class: that comes with the first resize, and
        # the games read at start are listed before it.
        return self.app.size.width < WIDE_FROM

    def _pocket(self) -> bool:
        return self.app.size.width < GRID_WIDTH

    def list_games(self, page) -> None:
        """List `page` (storage.listing.Page) in place of what was listed."""
        table = self.shown_table()
        if table is None:
            if not page.games:  # nothing to list yet: the words say so
                self._games, self._after = [], page.after
                self._show_count(0)
                return
            table = self._new_table()
            self.mount(table, before=self.query_one(Footer))
        keep = table.cursor_row if table.row_count else self.start_row
        # The cursor stays on its game when games come or go above it (another terminal's).
        highlighted = self.selected_game()
        table.clear()
        for column in table.columns.values():  # widths fit what the rows hold now
            column.content_width = column.label.cell_len
        # Narrow, "SoE" leaves the players' names room at 80 columns.
        self._games, self._after, self._short_names = [], page.after, self._narrow()
        if self._pocket() != self._pocket_listed:
            self._pocket_listed = self._pocket()
            shown = POCKET_COLUMNS if self._pocket_listed else len(COLUMNS)
            table.clear(columns=True)
            table.add_columns(*(Text(_(column)) for column in COLUMNS[:shown]))
        self._add_rows(page.games)
        games = self._games
        self._show_count(len(games))
        if games:
            at = next((i for i, g in enumerate(games) if g.id == highlighted), None)
            table.move_cursor(row=at if at is not None else min(keep, len(games) - 1))
            if getattr(self.focused, "id", None) != "search":  # the search keeps the typing
                table.focus()
            if table.cursor_row >= len(games) - LOAD_AHEAD:
                self.load_more()

    def _show_count(self, count: int) -> None:
        empty = self.query_one("#empty", Static)
        empty.remove_class("-error")
        empty.update(self.nothing_found() if self.searched.strip() else self.nothing_saved())
        self.games_listed = count

    def _add_games(self, page) -> None:
        """`page`, the page after those listed, added below them."""
        self._after = page.after
        assert self._games is not None  # a page after those listed (list_games)
        listed = {g.id for g in self._games}
        self._add_rows([g for g in page.games if g.id not in listed])
        self.games_listed = len(self._games)

    def _add_rows(self, games: list[GameListing]) -> None:
        assert self._games is not None  # list_games began the list
        table = self.shown_table()
        if table is None:  # an empty list's next page is empty too
            return
        shown = len(table.columns)
        rows = [(literal(g.title), *map(literal, (
            game_name(g.game, short=self._short_names), describe_where(g), g.leader or "—",
            ", ".join(g.players), local_time(g.updated_at)))) for g in games]
        if shown < len(COLUMNS) and rows:  # a phone's columns: the title and where cut to fit
            game, where = (max([Text(_(COLUMNS[j])).cell_len, *(r[j].cell_len for r in rows)])
                           for j in (1, 2))
            room = self.app.size.width - 8 - game  # for the title and where
            title = max(POCKET_TITLE_AT_LEAST, room - where)
            for cells in rows:
                cells[0].truncate(title, overflow="ellipsis")
                cells[2].truncate(room - title, overflow="ellipsis")  # a longer language's
        for g, cells in zip(games, rows, strict=True):
            table.add_row(*cells[:shown], key=str(g.id))
        self._games = [*self._games, *games]

    def nothing_found(self) -> Text:
        """'No saved game matches “…”. Esc clears the search.'"""
        return filled(_("No saved game matches {search}. {key} clears the search."),
                      search=(f"“{self.searched.strip()}”", "bold"),
                      key=(self.key_of("clear-search"), "bold"))

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

    def pocket_keys(self) -> tuple[str, ...]:
        # A new game's screen needs 76 columns: on a phone the saved games come first.
        return ("open", "league", "help", "quit")

    def narrow_keys(self) -> tuple[str, ...]:
        # At 80 columns Open, a new game of each, the league, Quit and Help fit; the games'
        # other screens (board profiles) are in the help and the palette.
        return ("open", *(g.new_binding for g in games()), "league", "quit", "help")

    def help_text(self) -> str:
        return _("Your saved games, the most recently played first; more come as you scroll "
                 "down. Highlight one with the arrows and press Enter to carry on exactly "
                 "where you stopped. Press / to search by title, player, game, group or "
                 "status (every word you type must match), and Esc to clear the search.")

    def selected_game(self) -> int | None:
        table = self.shown_table()
        if table is None or not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        assert key.value is not None  # each row's key is its game's number (list_games)
        return int(key.value)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open_game()

    def action_focus_games(self) -> None:
        if (table := self.shown_table()) is not None:
            table.focus()

    def action_open_game(self) -> None:
        session_id = self.selected_game()
        if session_id is not None:
            self.app.open_game(session_id)

    def action_new_game(self, game: str) -> None:
        screens = screens_of(game)
        assert screens is not None  # the key is bound for each registered game only
        self.open_if_room(load(screens.setup)(), self._opened)

    def open_if_room(self, screen: Screen, then=None) -> None:
        """Show `screen` if the window is as big as it needs (setting a game up needs 76
        columns); else say so, and stay: its size notice would hold every key but ctrl+q,
        and a phone's player could not leave it."""
        width, height = getattr(screen, "LEAST_SIZE", (0, 0))
        now = self.app.size
        if now.width < width or now.height < height:
            self.notify(_("This needs a window at least {width}x{height} (it is "
                          "{now_width}x{now_height} now)").format(
                width=width, height=height, now_width=now.width, now_height=now.height),
                severity="warning")
            return
        self.app.push_screen(screen, then)

    def _opened(self, session_id: int | None) -> None:
        if session_id is not None:
            self.app.open_game(session_id)

    def action_league(self) -> None:
        from tui.screens.league import LeagueScreen

        self.app.push_screen(LeagueScreen())

    def action_more_screen(self, screen: str) -> None:
        self.open_if_room(load(screen)())

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

        table = self.shown_table()
        assert table is not None  # a game is selected in it
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
        yield SystemCommand(_("Search: saved games"), _("By title, player, game, group or "
                                                        "status ({key})").format(
                                                            key=key("search")),
                            self.action_search)
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

