"""The command palette in the reader's language: Textual's, with its placeholder and its
"No matches found" through the catalogs (Textual writes both in English)."""

from __future__ import annotations

from rich.align import Align
from rich.text import Text
from textual.command import CommandList, CommandPalette
from textual.widgets.option_list import Option

from i18n import N_, _

NO_MATCHES = N_("No matches found")


class Palette(CommandPalette):
    def __init__(self) -> None:
        super().__init__(placeholder=_("Search for commands…"), id="--command-palette")

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

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)
