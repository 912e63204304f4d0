"""What every warledger screen tells the app, said the same way by each: its help (title
and words), its entries in the command palette, the game it shows, and its keys by name.

The app and the help screen ask these methods; they never look for attributes that might
be there. Plain screens inherit `WarledgerScreen`, dialogs `WarledgerModal`; both say, in a
window too small for them, how big it must be (`SizedScreen`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from textual import events, on
from textual.app import SystemCommand
from textual.geometry import Size
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from i18n import N_, _
from tui.plumbing.keys import key_of

if TYPE_CHECKING:
    from textual import getters
    from textual.app import App
    from textual.worker import Worker

    from storage.ledger import Ledger
    from storage.listing import Page
    from tui.plumbing.drafts import DraftKeeper

ResultType = TypeVar("ResultType")
T = TypeVar("T")

# The smallest window a seated player's screens work in: a phone's SSH app in portrait is
# about 40x30, a phone's page 40 to 50 columns, and landscape with the soft keyboard up
# leaves few rows (issue 45). In a smaller one a screen shows only how big the window must
# be.
MIN_WIDTH, MIN_HEIGHT = 40, 20
# Under GRID_WIDTH columns a screen is -pocket: the game screen's full grid (a power's
# armies, fleets, forts and tax tokens side by side) needs 76, and the footer keeps only a
# screen's first keys (pocket_keys). The screens that set a game up need GRID_WIDTH x
# GRID_HEIGHT (the new-game rows need 76 columns; at 22 rows a game of 7 still shows its
# totals and 7 of the 11 regions; an 80x24 terminal under tmux is 80x23).
GRID_WIDTH, GRID_HEIGHT = 76, 22
WIDE_FROM = 120  # columns: from here on a screen is -wide (WarledgerApp's breakpoints)


class SizeNotice(Static):
    """All a screen shows while the window is too small: the size it is, the size it needs.
    It holds the focus meanwhile (and only then: hidden, it never takes a key), so what is
    typed reaches nothing hidden; the app's priority keys, ctrl+q among them, still work."""

    def show_size(self, size: Size, least: tuple[int, int] = (MIN_WIDTH, MIN_HEIGHT)) -> None:
        self.update(_("Make the window at least {width}x{height}\n"
                      "(it is {now_width}x{now_height} now)").format(
            width=least[0], height=least[1], now_width=size.width, now_height=size.height))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()


def breakpoint_classes(screen: Screen, size: Size) -> dict[str, bool]:
    """The breakpoint classes `screen` has at `size`, each on or off, as Textual gives them
    at a resize (Screen._on_resize): per axis, the class of the largest breakpoint reached."""
    app = screen.app
    axes = ((screen.HORIZONTAL_BREAKPOINTS, app.HORIZONTAL_BREAKPOINTS, size.width),
            (screen.VERTICAL_BREAKPOINTS, app.VERTICAL_BREAKPOINTS, size.height))
    classes: dict[str, bool] = {}
    for own, apps, dimension in axes:
        breakpoints = (apps if own is None else own) or []
        classes.update((name, False) for _at, name in breakpoints)
        reached = [(at, name) for at, name in breakpoints if dimension >= at]
        if reached:
            classes[max(reached)[1]] = True
    return classes


def pocket_classes(size: Size) -> dict[str, bool]:
    """-pocket under GRID_WIDTH columns (a phone's screen): app.tcss gives the game screen
    its narrow layout then, and the footer only the screen's first keys."""
    return {"-pocket": size.width < GRID_WIDTH}


class Table(Protocol):
    """What the screens ask of the app that shows them (tui.app.WarledgerApp): the one app
    that pushes them, which the screens cannot import (it imports them)."""

    player: str | None  # the connected player over SSH; None at a shared screen
    drawn: bool  # the first frame is on the terminal
    drafts: DraftKeeper

    @property
    def ledger(self) -> Ledger: ...

    def games_read_already(self) -> Page | None: ...

    def open_game(self, session_id: int) -> None: ...

    def show_game(self, game: Any, draft: dict[str, Any] | None = None, *,
                  instead: bool = False) -> None: ...

    def screen_for(self, game: Any, draft: dict[str, Any] | None = None) -> Screen[Any]: ...

    def as_seen_by_player(self, sub_title: str) -> str: ...

    def hold_keys(self, owner: object, why: str = "") -> None: ...

    def release_keys(self, owner: object, why: str = "") -> None: ...

    def call_ledger(self, work: Callable[[Ledger], T], then: Callable[[T], Any] | None = None,
                    *, group: str = "ledger", quiet: bool = False) -> Worker[Any]: ...


if TYPE_CHECKING:
    class TableApp(App[object], Table):
        """For the type checker only: the app every warledger screen is shown by."""


class SizedScreen(Screen[ResultType]):
    """A screen that, in a window under its LEAST_SIZE, shows only its SizeNotice (app.tcss:
    -too-small), and is itself again, the focus where it was, once it grows."""

    # Columns and rows the screen needs (the screens that set a game up: GRID_WIDTH x
    # GRID_HEIGHT).
    LEAST_SIZE: ClassVar[tuple[int, int]] = (MIN_WIDTH, MIN_HEIGHT)

    if TYPE_CHECKING:
        # Textual's way of typing `self.app` as the app's own class (textual.getters.app),
        # for the type checker only: at run time `app` stays Textual's own property.
        app = getters.app(TableApp)

    _focus_before_notice: Widget | None = None
    _shown_once = False

    def on_compose(self) -> None:
        # Runs before Textual composes the screen (the subclass's handler first). Textual
        # gives a screen its breakpoint classes (-narrow, -short...) at its first resize,
        # after every widget was styled as it mounted, and then styles them all again: a
        # sixth of the CPU of opening a game. Given now, they are there as the widgets mount
        # and the first resize changes nothing.
        self.update_classes({**breakpoint_classes(self, self.app.size),
                             **pocket_classes(self.app.size)})

    # Handlers through @on, not named on_mount/on_resize: Textual runs every class's own
    # (here in the same turn), and the screens' on_mount and on_resize need not share
    # these signatures.
    @on(events.Mount)
    async def _mount_size_notice(self) -> None:
        await self.mount(SizeNotice(id="size-notice"))
        self.fit_window(self.app.size)

    @on(events.ScreenResume)
    def styled_once(self, event: events.ScreenResume) -> None:
        # Runs before Textual's own handler (Screen's, further down the classes). A screen
        # shown for the first time has just styled every widget as it mounted them; Textual
        # styles them all again when it shows it (2% of the CPU of the dialogs' tests, issue
        # 28). Shown again later, the screen is styled anew (a theme may have changed).
        if not self._shown_once:
            self._shown_once = True
            event.refresh_styles = False

    @on(events.Resize)
    def _fit_on_resize(self, event: events.Resize) -> None:
        self.fit_window(event.size)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # While the notice shows, what the screen focuses (a list just loaded) gets the
        # focus once the window is big enough; the notice keeps it meanwhile.
        if self.has_class("-too-small") and not isinstance(event.widget, SizeNotice):
            self._focus_before_notice = event.widget
            self.query_one(SizeNotice).focus()

    def fit_window(self, size: Size) -> None:
        notices = self.query(SizeNotice)
        if not notices:
            return  # not mounted yet: on_mount fits it
        notice = notices.first()
        notice.show_size(size, self.LEAST_SIZE)
        pocket = pocket_classes(size)
        if pocket["-pocket"] != self.has_class("-pocket"):
            self.update_classes(pocket)
            self.refresh_bindings()  # the footer shows the screen's first keys, or all
        elif (size.width < WIDE_FROM) != self.has_class("-narrow"):
            self.refresh_bindings()  # -narrow comes with Textual's breakpoints: its keys
        least_width, least_height = self.LEAST_SIZE
        small = size.width < least_width or size.height < least_height
        if small == self.has_class("-too-small"):
            return
        self.set_class(small, "-too-small")
        notice.can_focus = small
        if small:
            self._focus_before_notice = self.focused
            notice.focus()
        else:
            before, self._focus_before_notice = self._focus_before_notice, None
            if before is not None and before.is_attached:
                before.focus()
            else:
                self.focus_next()


class ScreenFeatures:
    """The questions the app and the help ask a screen; the defaults say nothing."""

    # The help's heading for this screen: a message id (the help shows it through `_()`).
    HELP_TITLE: ClassVar[str] = N_("Keys")

    @property
    def game_shown(self) -> str | None:
        """The tag of the game this screen is about, or None: the rules reference opens at
        its section."""
        return None

    def help_text(self) -> str:
        """What the screen (or its current step) expects, in a few sentences (in the
        reader's language: through `_()`)."""
        return ""

    def commands(self) -> Iterable[SystemCommand]:
        """The screen's entries in the command palette (ctrl+p), as they make sense now."""
        return ()

    def pocket_keys(self) -> tuple[str, ...] | None:
        """The ids of the keys the footer shows under GRID_WIDTH columns, most important
        first (the help and the palette have the rest); None: every key."""
        return None

    def narrow_keys(self) -> tuple[str, ...] | None:
        """The ids of the keys the footer shows from GRID_WIDTH to WIDE_FROM columns, in
        their order, where every key would not fit at 80 (the help and the palette have
        the rest); None: every key."""
        return None

    def key_of(self, binding_id: str) -> str:
        """The key this screen binds to `binding_id`, as written ('x', 'ctrl+s')."""
        return key_of(self, binding_id)  # type: ignore[arg-type]

    def again(self) -> Screen | None:
        """This screen made anew, as it stands (its form's typing kept), to show it in
        another language; None closes it (a dialog)."""
        return None

    def unsaved_draft(self) -> Callable[[Ledger], None] | None:
        """What keeps the typing not written yet (the draft of the last keys, its write in
        flight), for the app to run as it quits; None when there is none."""
        return None


class WarledgerScreen(ScreenFeatures, SizedScreen[ResultType]):
    """A full screen of warledger."""


class WarledgerModal(ScreenFeatures, SizedScreen[ResultType], ModalScreen[ResultType]):
    """A dialog (or the help) over another screen."""


class FirstFrame(Message, bubble=False):
    """The app's first frame is on the terminal: slow work (opening the database) may
    start. The app sends it to the screen it shows first."""
