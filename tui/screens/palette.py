"""The command palette in the reader's language: Textual's, with its placeholder and its
"No matches found" through the catalogs (Textual writes both in English), and keys that
act on the entries found for what was typed before them, not on the list before it."""

from __future__ import annotations

from rich.align import Align
from rich.text import Text
from textual import on
from textual.command import CommandList, CommandPalette
from textual.widgets import Input
from textual.widgets.option_list import Option
from textual.worker import Worker

from i18n import N_, _
from tui.plumbing.key_order import KeysInOrder
from tui.plumbing.ledger_calls import while_live

NO_MATCHES = N_("No matches found")


class Palette(CommandPalette):
    """Textual searches for what was typed in a worker, and until it is done the list shows
    the entries found before: in a burst (`ctrl+p record Enter`) Enter ran the first entry
    of the whole list (the help). Here the keys typed behind a search wait for it (in an
    app that keeps keys in order), and Enter always does (the scoreboard's too)."""

    _enter_waits = False

    def __init__(self) -> None:
        super().__init__(placeholder=_("Search for commands…"), id="--command-palette")

    def _searching(self) -> bool:
        return any(worker.node is self and worker.group == self._GATHER_COMMANDS_GROUP
                   and not worker.is_finished for worker in self.app.workers)

    # Before Textual's own handler (the subclass's run first): its search starts there.
    @on(Input.Changed)
    def _keys_wait_for_the_search(self) -> None:
        if isinstance(self.app, KeysInOrder):
            self.app.hold_keys(self, "search")  # dropped by itself once the palette goes

    @on(Input.Submitted)
    def _enter_waits_for_the_search(self, event: Input.Submitted) -> None:
        if self._searching():
            event.prevent_default()  # Textual's handler (its base class's) not yet
            event.stop()
            self._enter_waits = True

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != self._GATHER_COMMANDS_GROUP or self._searching():
            return
        if isinstance(self.app, KeysInOrder):
            self.app.release_keys(self, "search")
        if self._enter_waits:
            self._enter_waits = False
            self._select_or_command()

    # Textual's own method (textual/command.py), its words translated: a search that finds
    # nothing says so after a moment; an empty search (discovering) says nothing.
    def _start_no_matches_countdown(self, search_value: str) -> None:
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:
                self.query_one(CommandList).add_option(Option(
                    Align.center(Text(_(NO_MATCHES), style="not bold")), disabled=True,
                    id=self._NO_MATCHES))
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN,
                                                while_live(self, show_no_matches))
