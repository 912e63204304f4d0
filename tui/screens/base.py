"""What every warledger screen tells the app, said the same way by each: its help (title
and words), its entries in the command palette, the game it shows, and its keys by name.

The app and the help screen ask these methods; they never look for attributes that might
be there. Plain screens inherit `WarledgerScreen`, dialogs `WarledgerModal`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, TypeVar

from textual.app import SystemCommand
from textual.message import Message
from textual.screen import ModalScreen, Screen

from tui.keys import key_of

ResultType = TypeVar("ResultType")


class ScreenFeatures:
    """The questions the app and the help ask a screen; the defaults say nothing."""

    HELP_TITLE: ClassVar[str] = "Keys"

    @property
    def game_shown(self) -> str | None:
        """The game this screen is about ("soe", "risk"), or None: the rules reference
        opens at its section."""
        return None

    def help_text(self) -> str:
        """What the screen (or its current step) expects, in a few sentences."""
        return ""

    def commands(self) -> Iterable[SystemCommand]:
        """The screen's entries in the command palette (ctrl+p), as they make sense now."""
        return ()

    def key_of(self, binding_id: str) -> str:
        """The key this screen binds to `binding_id`, as written ('x', 'ctrl+s')."""
        return key_of(self, binding_id)  # type: ignore[arg-type]


class WarledgerScreen(ScreenFeatures, Screen[ResultType]):
    """A full screen of warledger."""


class WarledgerModal(ScreenFeatures, ModalScreen[ResultType]):
    """A dialog (or the help) over another screen."""


class FirstFrame(Message, bubble=False):
    """The app's first frame is on the terminal: slow work (opening the database) may
    start. The app sends it to the screen it shows first."""
