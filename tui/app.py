"""The Textual app: thin. It holds the ledger (opened after the first frame), knows who is
at the keyboard, and pushes the home screen; each screen lives in tui/screens/."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import threading
import time
from collections.abc import Iterable
from contextlib import suppress
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.content import Content
from textual.notifications import SeverityLevel
from textual.screen import Screen

import tui.games  # noqa: F401 - the games of this warledger join the screens' registry
from i18n import N_, _, language, language_name, languages, set_language
from tui.plumbing.drafts import KEEP_AT_MOST, DraftKeeper
from tui.plumbing.key_order import KeysInOrder
from tui.plumbing.ledger_calls import LedgerCalls
from tui.screens.base import WIDE_FROM, FirstFrame, ScreenFeatures
from tui.text.literal import visible

if TYPE_CHECKING:
    from storage.ledger import Ledger
    from storage.listing import Page


# Seconds after the first frame: every other screen's look is read (while players read).
WHOLE_LOOK_AFTER = 0.1
# Quitting waits this long at most for the database to keep the last moment's typing.
QUIT_KEEPS_TYPING_FOR = 2.0
# The terminal went away: what was typed is kept (tui/plumbing/drafts.py), then the process ends.
TERMINAL_GONE = (signal.SIGHUP, signal.SIGTERM)
# Keys that reached the app before the terminal went are handled first, for at most this
# many seconds (they may be held behind a form being built).
KEYS_WITHIN = 0.5
# A process whose terminal went and that has not ended this long after its drafts were kept
# (its exit stuck writing to a terminal that is not there) ends at once.
GONE_WITHIN = 1.0


class TableApp(App):
    """What every warledger app shares (the full app and the spectator's scoreboard): the
    look, quit, help and the palette, the languages, and player text never read as markup."""

    TITLE = "warledger"
    # Beside this module, for every subclass wherever it lives (the scoreboard's app). What
    # the first screen needs; every other screen's look is read later (read_the_whole_look).
    CSS_PATH = Path(__file__).with_name("app.tcss")
    REST_OF_THE_LOOK = Path(__file__).with_name("screens.tcss")
    _whole_look = False  # REST_OF_THE_LOOK is read
    ENABLE_COMMAND_PALETTE = True
    # Classes every screen gets from the terminal's size, for app.tcss: from 120 columns
    # the game screens show the totals beside the form (-wide), under it below (-narrow);
    # under 30 rows (-short) they leave out what the help says anyway (-tall: the rest).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE_FROM, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    # Each app has its own BINDINGS: quit, help and the palette come first in both.

    def on_load(self) -> None:
        # Before any screen but the first shows, the whole look is read: at once (a callback
        # posted would come after the screen is styled).
        self.screen_change_signal.subscribe(self, lambda screen: self.read_the_whole_look(),
                                            immediate=True)

    def read_the_whole_look(self) -> None:
        """Read every screen's look (screens.tcss) into the stylesheet, once: after the
        first frame, or as another screen shows if that comes first. Parsing it all before
        the first frame made a start with nothing stored cost about 80 million instructions
        more (of 1,250; a bare Textual app's start is 950)."""
        if self._whole_look:
            return
        self._whole_look = True
        self.stylesheet.read(self.REST_OF_THE_LOOK)
        self.stylesheet.update(self)

    def language_commands(self) -> Iterable[SystemCommand]:
        """A palette entry for each other language."""
        for code in languages():
            if code != language():
                name = language_name(code)
                yield SystemCommand(
                    _("Language: {name}").format(name=name),
                    _("Show warledger in {name} from now on, on this terminal").format(name=name),
                    # Textual's WorkType union leaves mypy no way to solve an async
                    # function's result type (it settles on Never)
                    partial(self.run_worker, partial(self.switch_language, code)))  # type: ignore[arg-type]

    async def switch_language(self, code: str) -> None:
        """Show `code` from now on, on this terminal (each app makes its screens again)."""
        raise NotImplementedError

    # Every notification and title carries player text: never markup, never raw controls.
    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        super().notify(visible(message), title=visible(title), severity=severity,
                       timeout=timeout, markup=False)

    def format_title(self, title: str, sub_title: str) -> Content:
        return super().format_title(visible(title), visible(sub_title))

    def action_command_palette(self) -> None:
        if self.use_command_palette and not CommandPalette.is_open(self):
            from tui.screens.palette import Palette

            self.push_screen(Palette())

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))


class WarledgerApp(KeysInOrder, LedgerCalls, TableApp):
    """warledger: a table helper for Risk and Struggle of Empires."""

    BINDINGS = [
        Binding("ctrl+q", "quit", N_("Quit"), priority=True, id="quit",
                tooltip=N_("Quit (everything confirmed is already saved)")),
        Binding("f1,question_mark", "help", N_("Help"), id="help", tooltip=N_("This help")),
        # Textual's own palette binding, with an id and words, so the help lists it.
        Binding("ctrl+p", "command_palette", N_("palette"), show=False, priority=True,
                id="command_palette", tooltip=N_("Command palette: every less common entry")),
        # Keys are handed on one at a time once the last has settled (tui/plumbing/key_order.py), so
        # these priority keys never overtake what was typed before them.
        Binding("tab", "move_focus(1)", N_("Next field"), show=False, priority=True),
        Binding("shift+tab", "move_focus(-1)", N_("Previous field"), show=False,
                priority=True),
    ]

    def __init__(self, db: str | None = None, *, ledger: Ledger | None = None,
                 player: str | None = None) -> None:
        super().__init__()
        self._keys_init()
        self.db = db
        self._ledger = ledger
        self._opening = threading.Lock()
        self.player = player  # the connected player over SSH; None at a shared screen
        self.drawn = False  # the first frame is on the terminal
        self.collect_once_drawn = False  # cyclic collection is off until then (run())
        # What the game screens' forms hold, on its way to the ledger (its own thread).
        self.drafts = DraftKeeper(lambda: self.ledger)
        self.gone_by: int | None = None  # the signal that said the terminal went away
        self._modes_made = 0  # homes made again, each the base of a mode (switch_language)
        if player:
            self.sub_title = self.as_seen_by_player("")

    @property
    def ledger(self) -> Ledger:
        """The ledger, opened on first use (in a worker thread: see tui/plumbing/ledger_calls.py) so
        no frame waits for the database. Until then, what stands in for it lists the saved
        games at a glance, without waiting for SQLAlchemy's import (storage/glance.py)."""
        if self._ledger is None:
            from storage.glance import Unopened

            return Unopened(self.db, self._open_ledger)  # type: ignore[return-value]
        return self._ledger

    def games_read_already(self) -> Page | None:
        """The saved games, if they were read at start (tui/cli/start.py) and are in by now;
        None otherwise (the home screen asks the ledger). Never waits."""
        if self._ledger is not None:
            return None
        from storage.glance import read_already

        return read_already(self.db)

    def _open_ledger(self) -> Ledger:
        with self._opening:  # two workers asking at once open it once
            if self._ledger is None:
                from storage.service import open_ledger

                self._ledger = open_ledger(self.db)
            return self._ledger

    def get_default_screen(self) -> Screen:
        # Home is the app's first screen itself, not pushed over Textual's blank one: the
        # first frame on the terminal is then the whole home screen (a screen pushed in
        # on_mount, or a mode's first, reached it a frame later, once drawn again).
        return _home()

    def on_mount(self) -> None:
        self.set_interval(0.25, self._keys_watchdog)
        if not self.is_headless and threading.current_thread() is threading.main_thread():
            loop = asyncio.get_running_loop()
            for sig in TERMINAL_GONE:  # in place of the default (an end on the spot)
                loop.add_signal_handler(sig, self._terminal_gone, sig)

    def _terminal_gone(self, sig: int) -> None:
        """SIGHUP or SIGTERM: the terminal went away (a closed window, a dropped SSH link, a
        closed tab), or the host ends the player. The keys that reached the app are handled
        (KEYS_WITHIN at most), the drafts not written yet are written in a thread that the
        process waits for as it ends (KEEP_AT_MOST at most), and the app exits; `run` then
        ends the process by the same signal, as it would have ended."""
        if self.gone_by is not None:
            return  # a second hang-up (the shell passes its own on): already on the way out
        self.gone_by = sig

        def stop_a_stuck_exit() -> None:
            time.sleep(KEYS_WITHIN + KEEP_AT_MOST + GONE_WITHIN)
            os._exit(128 + sig)

        async def leave() -> None:
            until = time.monotonic() + KEYS_WITHIN
            while self.keys_waiting and time.monotonic() < until:
                await asyncio.sleep(0.01)
            drafts, ledger = self.drafts, self._ledger
            if sig == signal.SIGHUP or terminal_hung_up():
                # No terminal to give back, and Textual's exit (writing to a terminal that is
                # not there) can stall the event loop: the drafts, then the end, in a thread.
                def keep_then_end() -> None:
                    drafts.keep(ledger)
                    os._exit(128 + sig)

                threading.Thread(target=keep_then_end, name="keep-last-drafts").start()
                return
            # Not a daemon: the interpreter waits for it on its way out, however the app ends.
            threading.Thread(target=drafts.keep, args=(ledger,),
                             name="keep-last-drafts").start()
            self.exit(return_code=128 + sig)

        try:
            # as in language_commands: Textual's WorkType union, an async function
            self.run_worker(leave, group="leaving", exit_on_error=False)  # type: ignore[arg-type]
        except RuntimeError:
            # The app is ending already (a web tab's quit came first, then the host's
            # SIGTERM): `run` keeps the drafts as it ends, then ends by this signal.
            return
        threading.Thread(target=stop_a_stuck_exit, name="gone-within", daemon=True).start()

    def on_unmount(self) -> None:
        self.drafts.close()  # its thread ends; what is left is written as the app ends (run)

    def panic(self, *renderables) -> None:
        """A terminal hung up makes Textual's input thread fail (EIO) and panic: that is the
        terminal gone, left as SIGHUP leaves (the keys handled, the drafts kept)."""
        if self.gone_by is not None:
            return  # leaving already, within its deadline
        if not self.is_headless and terminal_hung_up():
            self._terminal_gone(signal.SIGHUP)
            return
        super().panic(*renderables)

    def run(self, *args, **kwargs):
        """Run the app; on its way out, keep the drafts not written yet (however it ended:
        quit, a closed web tab, a terminal gone), and end by the signal that ended it."""
        try:
            return super().run(*args, **kwargs)
        finally:
            main = threading.current_thread() is threading.main_thread()
            # Nothing interrupts the last write (a web tab's SIGTERM after its quit); the
            # handlers are put back after it, or every process this one starts later would
            # inherit the ignoring (an `ssh` that no SIGTERM ends).
            before = {sig: signal.signal(sig, signal.SIG_IGN) for sig in TERMINAL_GONE} \
                if main else {}
            try:
                self.drafts.keep(self._ledger)
            finally:
                for sig, handler in before.items():
                    signal.signal(sig, handler)
            if main and self.gone_by is not None:
                signal.signal(self.gone_by, signal.SIG_DFL)
                os.kill(os.getpid(), self.gone_by)

    def on_ready(self) -> None:
        # The first frame is on the terminal (refresh callbacks run before it is): only now
        # does the home screen open the database (SQLAlchemy, the schema check), which
        # takes longer than drawing, and the rest of the look is read.
        self.drawn = True
        if self.collect_once_drawn:  # what start-up made is set aside, never walked again
            gc.freeze()
            gc.enable()
        self.screen.post_message(FirstFrame())
        self.set_timer(WHOLE_LOOK_AFTER, self.read_the_whole_look)

    # ------------------------------------------------------------ going to a game

    def open_game(self, session_id: int) -> None:
        """Load a saved game (and what was typed but not confirmed) off the event loop, then
        show it."""
        def load(ledger: Ledger) -> tuple:
            draft = ledger.draft(session_id)
            # A draft is its player's: a seated player's terminal takes up only what that
            # player typed (where their cursor was), never another seat's.
            if draft is not None and draft.get("player") != self.player:
                draft = None
            return ledger.load(session_id), draft

        def loaded(answer: tuple) -> None:
            self.show_game(*answer)
            self.release_keys(self, "opening")

        # What is typed while the game loads waits for its screen (tui/plumbing/key_order.py).
        self.hold_keys(self, "opening")
        self.call_ledger(load, loaded)

    def ledger_failed(self, message: str, error: BaseException) -> None:
        self.release_keys(self, "opening")
        super().ledger_failed(message, error)

    def screen_for(self, game, draft: dict | None = None) -> Screen:
        """The screen that shows `game` as it stands (tui/plumbing/navigation.py): screens ask the
        app, so that they never import each other to move between them."""
        from tui.plumbing.navigation import screen_for

        return screen_for(game, draft)

    def show_game(self, game, draft: dict | None = None, *, instead: bool = False) -> None:
        """Show `game` on its screen (results once it is over); `instead` replaces the
        current screen rather than going on top of it."""
        screen = self.screen_for(game, draft)
        if instead:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            # A player over SSH is not offered Screenshot: it would write a file on the host.
            # Keys (Textual's panel, in English) gives way to F1's help, which lists them all.
            if command.title == "Keys" or (self.player and command.title == "Screenshot"):
                continue
            yield SystemCommand(_(command.title), _(command.help), command.callback,
                                command.discover)
        yield from self.language_commands()
        if isinstance(screen, ScreenFeatures):
            yield from screen.commands()
        from tui.scoreboard.screen import ScoreboardScreen  # once the palette is opened

        if not isinstance(screen, ScoreboardScreen):
            yield SystemCommand(_("Scoreboard"), _(
                "The game on screen (else the game played last) in large figures, for "
                "everyone at the table to see: it follows every step and records nothing"),
                partial(self.show_scoreboard, screen))

    def show_scoreboard(self, screen: Screen) -> None:
        """The scoreboard of the game `screen` shows; on a screen about no game, of the game
        played last, following the table from game to game."""
        from tui.scoreboard.screen import ScoreboardScreen

        game = getattr(screen, "game", None)
        session = getattr(game, "id", None)
        self.push_screen(ScoreboardScreen(session if isinstance(session, int) else None))

    async def switch_language(self, code: str) -> None:
        """Show `code` from now on: every screen open is made again in it (what a form holds
        goes with it; a dialog open is closed)."""
        set_language(code)
        self.sub_title = self.as_seen_by_player("") if self.player else ""
        self.hold_keys(self, "language")
        try:
            fresh = [again for screen in self.screen_stack
                     if isinstance(screen, ScreenFeatures) and (again := screen.again())]
            home, above = fresh[0], fresh[1:]  # home is always the first screen
            while len(self.screen_stack) > 1:  # each screen goes as it would on Esc
                await self.pop_screen()
            # The first screen of a mode cannot be popped: home comes again as the first of
            # a mode of its own, and the old mode goes with its home. Textual's own first
            # mode cannot go: its home is left empty, without a look (it is not shown).
            old, old_home = self.current_mode, self.screen
            self._modes_made += 1
            new = f"home-{self._modes_made}"
            self.add_mode(new, lambda: home)
            await self.switch_mode(new)
            for screen in above:
                await self.push_screen(screen)
            if old == self.DEFAULT_MODE:
                await old_home.remove_children()
            else:
                await self.remove_mode(old)
        finally:
            self.release_keys(self, "language")

    def as_seen_by_player(self, sub_title: str) -> str:
        """A screen's sub-title, with who is at this terminal when that is known (SSH)."""
        if not self.player:
            return sub_title
        you = _("you are {player}").format(player=self.player)
        return f"{sub_title} · {you}" if sub_title else you


    def action_move_focus(self, step: int) -> None:
        """Tab: the next cell inside a grid, else the next field. Done here, at once, so the
        key typed next lands where Tab went."""
        from tui.widgets.number_grid import NumberGrid  # not needed for the home screen

        focused = self.focused
        if isinstance(focused, NumberGrid) and focused.move_cell(step):
            return
        if step > 0:
            self.screen.focus_next()
        else:
            self.screen.focus_previous()

    def on_number_grid_refused(self, event) -> None:
        # A grid on a screen that has no place of its own for it (a board profile).
        self.notify(event.reason, severity="warning", timeout=4)

    async def action_quit(self) -> None:
        """Quit, keeping first what was typed in the last moment (the draft being written):
        in a thread, for at most QUIT_KEEPS_TYPING_FOR seconds."""
        keeps = [keep for screen in self.screen_stack
                 if (keep := getattr(screen, "unsaved_draft", lambda: None)()) is not None]
        if keeps and self._ledger is not None:
            ledger, loop = self._ledger, asyncio.get_running_loop()
            kept = loop.create_future()

            def keep_all() -> None:
                try:
                    for keep in keeps:
                        keep(ledger)
                finally:  # a draft lost costs typing, never a step: quitting goes on
                    with suppress(RuntimeError):  # the loop may be gone already
                        loop.call_soon_threadsafe(
                            lambda: None if kept.done() else kept.set_result(None))

            # A thread of its own, a daemon: a database that never answers keeps no one in.
            threading.Thread(target=keep_all, name="keep-drafts", daemon=True).start()
            with suppress(asyncio.TimeoutError):
                await asyncio.wait_for(kept, QUIT_KEEPS_TYPING_FOR)
        self.exit()


def _home() -> Screen:
    from tui.screens.home import HomeScreen

    return HomeScreen()


def terminal_hung_up() -> bool:
    """Whether this process's terminal (standard input) has hung up."""
    import errno
    import sys
    import termios

    if sys.__stdin__ is None:  # no standard input
        return False
    try:
        termios.tcgetattr(sys.__stdin__.fileno())
    except OSError as e:
        return e.errno == errno.EIO
    except (AttributeError, ValueError):  # no standard input
        return False
    return False


def run(db: str | None = None, *, player: str | None = None) -> None:
    """Run the TUI on this terminal; started with cyclic collection off (tui/cli/start.py),
    it is turned on once the first frame is drawn."""
    app = WarledgerApp(db, player=player)
    app.collect_once_drawn = not gc.isenabled()
    app.run()


if TYPE_CHECKING:
    from tui.screens.base import Table

    # The screens type their app as a Table (tui/screens/base.py): this app is one.
    _shows_the_screens: type[Table] = WarledgerApp
