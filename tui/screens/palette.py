"""The command palette in the reader's language: Textual's, with its placeholder and its
"No matches found" through the catalogs (Textual writes both in English), and keys that
act on the entries found for what was typed before them, not on the list before it."""

from __future__ import annotations

from textual import on
from textual.widgets import Input
from textual.worker import Worker

from i18n import N_, _
from tui.compat.textual import PaletteInsides
from tui.plumbing.key_order import KeysInOrder
from tui.plumbing.ledger_calls import while_live

NO_MATCHES = N_("No matches found")


class Palette(PaletteInsides):
    """Textual searches for what was typed in a worker, and until it is done the list shows
    the entries found before: in a burst (`ctrl+p record Enter`) Enter ran the first entry
    of the whole list (the help). Here the keys typed behind a search wait for it (in an
    app that keeps keys in order), and Enter always does (the scoreboard's too)."""

    _enter_waits = False

    def __init__(self) -> None:
        super().__init__(placeholder=_("Search for commands…"), id="--command-palette")

    # Before Textual's own handler (the subclass's run first): its search starts there.
    @on(Input.Changed)
    def _keys_wait_for_the_search(self) -> None:
        if isinstance(self.app, KeysInOrder):
            self.app.hold_keys(self, "search")  # dropped by itself once the palette goes

    @on(Input.Submitted)
    def _enter_waits_for_the_search(self, event: Input.Submitted) -> None:
        if self.searching():
            event.prevent_default()  # Textual's handler (its base class's) not yet
            event.stop()
            self._enter_waits = True

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if not self.is_search(event.worker) or self.searching():
            return
        if isinstance(self.app, KeysInOrder):
            self.app.release_keys(self, "search")
        if self._enter_waits:
            self._enter_waits = False
            self.select_or_command()

    # Textual's own words when a search finds nothing, translated; shown by its timer, whose
    # callback stops once the palette is going.
    def no_matches_words(self) -> str:
        return _(NO_MATCHES)

    def timer_callback(self, callback):
        return while_live(self, callback)
