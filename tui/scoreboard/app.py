"""The spectator's app: the scoreboard and nothing else (`warledger scoreboard`, an SSH key
line with `spectator`, the web's spectator link).

It is an App of its own, not a mode of WarledgerApp: it has no home screen, no game screen,
no setup and no dialog to reach, and the ledger it holds can only read (`Onlooker`): no key,
no palette entry and no message in this process can record, undo, delete or rename. What
it offers: quit, help (with the rules), the language, and the scoreboard itself.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from i18n import N_, _, set_language
from tui.app import TableApp
from tui.plumbing.ledger_calls import LedgerCalls
from tui.screens.base import ScreenFeatures

if TYPE_CHECKING:
    from storage.ledger import Ledger


class Onlooker:
    """What the scoreboard may ask of the ledger, and nothing more: read a game, its
    history and which game was played last, and watch a game for steps. No method here
    writes a step, a draft or a title."""

    def __init__(self, ledger: Ledger) -> None:
        self._ledger = ledger
        self.engine = ledger.engine  # a watch looks at it (storage/watch.py)

    def load(self, session_id: int) -> Any:
        return self._ledger.load(session_id)

    def head(self, session_id: int) -> int:
        return self._ledger.head(session_id)

    def step_log(self, session_id: int) -> list:
        return self._ledger.step_log(session_id)

    def last_played(self) -> tuple | None:
        return self._ledger.last_played()

    def watch(self, session_id: int):
        from storage.watch import GameWatch

        return GameWatch(self, session_id)


class ScoreboardApp(LedgerCalls, TableApp):
    """The scoreboard of game `session`, or of the game played last (following the table
    from game to game), for whoever watches: `viewer` names them over SSH."""

    BINDINGS = [
        Binding("ctrl+q", "quit", N_("Quit"), priority=True, id="quit",
                tooltip=N_("Quit the scoreboard")),
        Binding("q", "quit", N_("Quit"), show=False, id="quit_q",
                tooltip=N_("Quit the scoreboard")),
        Binding("f1,question_mark", "help", N_("Help"), id="help", tooltip=N_("This help")),
        Binding("ctrl+p", "command_palette", N_("palette"), show=False, priority=True,
                id="command_palette", tooltip=N_("Command palette: every less common entry")),
    ]

    def __init__(self, db: str | None = None, session: int | None = None, *,
                 ledger: Ledger | None = None, viewer: str | None = None) -> None:
        super().__init__()
        self.db = db
        self.session = session
        self._ledger = Onlooker(ledger) if ledger is not None else None
        self._opening = threading.Lock()
        self.viewer = viewer
        self.player = None  # nobody records here (screens ask the app who records)

    @property
    def ledger(self) -> Onlooker:
        """The ledger, read-only, opened on first use (in a worker thread)."""
        with self._opening:
            if self._ledger is None:
                from storage.service import open_ledger

                self._ledger = Onlooker(open_ledger(self.db))
            return self._ledger

    def on_mount(self) -> None:
        from tui.scoreboard.screen import ScoreboardScreen

        self.push_screen(ScoreboardScreen(self.session))

    def as_seen_by_player(self, sub_title: str) -> str:
        """A screen's sub-title, with who watches when that is known (SSH)."""
        if not self.viewer:
            return sub_title
        # TRANSLATORS: who watches the scoreboard at this terminal (an SSH spectator).
        return f"{sub_title} · " + _("{player} watching").format(player=self.viewer)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Quit, help and the languages: no screenshot (it would write a file on the host),
        nothing else of Textual's."""
        yield SystemCommand(_("Quit"), _("Quit the scoreboard"), self.exit)
        yield SystemCommand(_("Help"), _("This help"), self.action_help)
        yield from self.language_commands()

    async def switch_language(self, code: str) -> None:
        """Show `code` from now on: the scoreboard is made again in it."""
        set_language(code)
        boards = [again for screen in self.screen_stack[1:]
                  if isinstance(screen, ScreenFeatures) and (again := screen.again())]
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        for screen in boards[:1]:
            await self.push_screen(screen)


def scoreboard(db: str | None, session: int | None = None) -> None:
    """`warledger scoreboard [SESSION]`: a game named that is not stored is one line and
    exit 1; else the scoreboard, on this terminal (or in a browser tab: textual-serve picks
    its driver through TEXTUAL_DRIVER)."""
    ledger = None
    if session is not None:
        from tui.cli.commands import database_errors, open_ledger

        ledger = open_ledger(db)
        with database_errors():
            ledger.head(session)  # "There is no game 7"
    ScoreboardApp(db, session, ledger=ledger).run()
