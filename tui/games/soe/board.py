"""Board profiles: the VP printed on each of the 11 regions of a group's board, entered once
and kept for every later game that uses the board."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker

from i18n import N_, _, ngettext
from rules.soe import KNOWN_VALUES, REGIONS, default_regions
from rules.soe import regions_missing_values as missing_regions  # setup.py imports it here
from rules.soe.regions import shown
from tui.games.soe.labels import places, region_rows
from tui.plumbing.ledger_calls import LedgerCalls
from tui.screens.base import GRID_HEIGHT, GRID_WIDTH, WarledgerScreen
from tui.screens.dialogs import ConfirmDialog
from tui.text.literal import TYPED_TEXT, literal, visible
from tui.widgets.footer import Footer
from tui.widgets.header import Header
from tui.widgets.number_grid import NumberGrid

# Offered when a group has no profile yet; stored the first time it is saved or used. A
# profile's name is the group's (stored, in any language): this one is never translated.
BUILTIN_PROFILE = "Struggle of Empires (2004)"
PLACES = ("1", "2", "3")  # the keys of the columns of places() (labels.py)


def builtin_regions() -> dict[str, list[int]]:
    """The rules' default regions (only German States 8/5/3), as a profile stores them."""
    return {r: list(v) for r, v in default_regions().items()}


def unlike_print(regions: Mapping[str, Sequence[int]],
                 kept: Mapping[str, Sequence[int]] | None = None) -> str:
    """The question to ask before saving values of a region unlike those printed on the
    published board (German States 8/5/3, the only ones known), or "" when there is none:
    the region is not among `regions`, its values are the printed ones, or they are the
    ones `kept` already (the group said yes to them before)."""
    for region, printed in KNOWN_VALUES.items():
        if region not in regions:
            continue
        typed = tuple(regions[region])
        if typed == printed or (kept is not None and typed == tuple(kept.get(region, ()))):
            continue
        said = {"region": shown(region), "printed": "/".join(map(str, printed))}
        if typed:
            # TRANSLATORS: {printed} and {typed} are VP values (8/5/3).
            return _("{region} is printed {printed} on the published board: save {typed} "
                     "anyway?").format(typed="/".join(map(str, typed)), **said)
        return _("{region} is printed {printed} on the published board: save it without "
                 "values anyway?").format(**said)
    return ""


def confirm_unlike_print(screen: Screen, question: str, then: Callable[[], None]) -> None:
    """Ask `question` (unlike_print's) over `screen`; `then()` only when the table says yes."""
    screen.app.push_screen(ConfirmDialog(question, yes=_("Save anyway"), no=_("Go back")),
                           lambda yes: then() if yes else None)


class RegionValues(NumberGrid):
    """The grid of printed values: Enter goes on to the next region. Only the save key
    saves, so an Enter meant to open a board never stores one."""

    BINDINGS = [Binding("enter", "submit", N_("Next region"), show=False)]

    def action_submit(self) -> None:
        self.next_row()


class BoardProfileScreen(LedgerCalls, WarledgerScreen[str | None]):
    """Edit a board profile; dismisses with the name last saved here, or None."""

    LEAST_SIZE = (GRID_WIDTH, GRID_HEIGHT)  # a row of the form needs 76 columns
    HELP_TITLE = N_("Board profiles: the VP printed on your board")
    AUTO_FOCUS = "#values"
    BINDINGS = [
        Binding("ctrl+s", "save", N_("Save board"), id="save", priority=True),
        Binding("ctrl+n", "new_profile", N_("New board"), id="new_board"),
        Binding("escape", "back", N_("Back"), id="back"),
    ]

    def __init__(self, name: str | None = None) -> None:
        super().__init__()
        self.opening = name
        self.showing: str | None = name
        self.profiles: dict[str, dict[str, list[int]]] = {}
        self.saved: str | None = None
        # A save on its way to the database, and whether Back was pressed behind it.
        self.saving: Worker | None = None
        self.leave_when_saved = False
        # The name and values typed on this screen before it was made again (`again`).
        self.typed_before: tuple[str, dict[str, list[int]]] | None = None

    @property
    def game_shown(self) -> str:
        return "soe"  # the boards of Struggle of Empires

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="board-body"):
            with Vertical(id="board-list"):
                yield Static(_("Boards"), classes="title")
                yield OptionList(id="profiles")
                yield Static(_("Enter opens a board"), classes="hint")
            # Under 30 rows its hint and buttons are below the grid: it scrolls to them.
            with VerticalScroll(id="board-editor", can_focus=False):
                yield Static("", id="board-title", classes="title")
                with Horizontal(classes="setup-row"):
                    yield Label(_("Name"), classes="setup-label")
                    yield Input(restrict=TYPED_TEXT, id="profile-name", compact=True,
                                placeholder=_("e.g. our 2004 copy"))
                yield RegionValues(region_rows(REGIONS), places(), id="values")
                yield Static("", id="missing", classes="message -warning")
                yield Static("", id="message", classes="message -error")
                with Horizontal(classes="setup-buttons"):
                    # TRANSLATORS: a button; {key} is its key (ctrl+s).
                    yield Button(_("Save ({key})").format(key=self.key_of("save")), id="save",
                                 variant="primary")
                    # TRANSLATORS: a button; {key} is its key (esc).
                    yield Button(_("Back ({key})").format(key=self.key_of("back")), id="back")
                yield Static(_("Type the VP printed beside each region, highest first; 0 "
                               "means not printed (most regions print 2 or 3 values). Only "
                               "German States 8/5/3 (2004 edition) is public: copy the rest "
                               "from your own board."), classes="hint")
        yield Footer()

    def again(self) -> BoardProfileScreen:
        """This screen made again (in another language), with what was typed in it."""
        screen = BoardProfileScreen(self.showing)
        screen.saved = self.saved
        screen.typed_before = (self.query_one("#profile-name", Input).value, self.grid_regions())
        return screen

    def on_mount(self) -> None:
        self.list_profiles({})  # the built-in board until the stored ones are read
        self.open_profile(self.opening or self.profile_names()[0])
        self.put_back_typing()

        def listed(profiles: dict) -> None:
            self.list_profiles(profiles)
            self.open_profile(self.opening or self.profile_names()[0])
            self.put_back_typing()
            self.typed_before = None

        self.call_ledger(lambda ledger: ledger.board_profiles(), listed)

    def put_back_typing(self) -> None:
        if self.typed_before is not None:
            name, regions = self.typed_before
            self.query_one("#profile-name", Input).value = name
            self.show_values(regions)

    def ledger_failed(self, message: str, error: BaseException) -> None:
        self.show_message(message)

    # ------------------------------------------------------------ profiles

    def list_profiles(self, profiles: dict[str, dict[str, list[int]]]) -> None:
        self.profiles = profiles
        options = self.query_one("#profiles", OptionList)
        options.clear_options()
        for name in self.profile_names():
            # TRANSLATORS: {name}: a board profile's name, not saved yet.
            label = name if name in self.profiles else _("{name} (new)").format(name=name)
            options.add_option(Option(literal(label), id=name))

    def profile_names(self) -> list[str]:
        return list(self.profiles) or [BUILTIN_PROFILE]

    def open_profile(self, name: str) -> None:
        """Show a stored profile (the built-in one when it is not stored yet)."""
        self.showing = name  # the one this screen made again opens (`again`)
        self.show_values(self.profiles.get(name) or (builtin_regions()
                                                     if name == BUILTIN_PROFILE else {}))
        self.query_one("#profile-name", Input).value = visible(name)
        self.query_one("#board-title", Static).update(literal(board_title(name)))
        if name in self.profile_names():
            self.query_one("#profiles", OptionList).highlighted = \
                self.profile_names().index(name)
        self.show_message("")

    def show_values(self, regions: dict[str, list[int]]) -> None:
        grid = self.query_one("#values", NumberGrid)
        for region in REGIONS:
            values = list(regions.get(region, []))
            for i, column in enumerate(PLACES):
                grid.set_value(region, column, values[i] if i < len(values) else 0)

    def grid_regions(self) -> dict[str, list[int]]:
        """Region -> printed values, trailing zeros (not printed) dropped."""
        grid = self.query_one("#values", NumberGrid)
        regions = {}
        for region in REGIONS:
            values = [int(grid.value(region, c)) for c in PLACES]
            while values and values[-1] == 0:
                values.pop()
            regions[region] = values
        return regions

    # ------------------------------------------------------------ reacting

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None  # each option's id is its name (list_profiles)
        self.open_profile(event.option.id)
        if event.option.id not in self.profiles:  # the "(new)" entry: opened, not saved
            # TRANSLATORS: {key} saves (ctrl+s).
            self.show_message(_("A new board, not saved yet: type its values, then {key} "
                                "saves it").format(key=self.key_of("save")), "warning")
        self.query_one("#values", NumberGrid).focus()

    def on_number_grid_changed(self, event: NumberGrid.Changed) -> None:
        missing = missing_regions(self.grid_regions())
        self.query_one("#missing", Static).update(
            literal(_("Still without values: {regions}").format(
                regions=", ".join(shown(r) for r in missing)) if missing else ""))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one("#values", NumberGrid).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        elif event.button.id == "back":
            self.action_back()

    def show_message(self, text: str, kind: str = "error") -> None:
        message = self.query_one("#message", Static)
        message.update(literal(text))
        message.set_classes(f"message -{kind}")

    # ------------------------------------------------------------ actions

    def action_save(self) -> None:
        name = self.query_one("#profile-name", Input).value.strip()
        if not name:
            self.show_message(_("Give the board a name first (e.g. the edition or the "
                                "owner)"))
            self.query_one("#profile-name", Input).focus()
            return
        regions = self.grid_regions()

        def save(ledger) -> tuple[str, dict[str, dict[str, list[int]]]]:
            stored = ledger.save_board_profile(name, regions)
            return stored, ledger.board_profiles()

        def go_on() -> None:
            self.leave_when_saved = False
            self.saving = self.call_ledger(save,
                                           lambda saved: self.saved_as(*saved, regions))

        question = unlike_print(regions, self.profiles.get(name))
        if question:
            confirm_unlike_print(self, question, go_on)
        else:
            go_on()

    def saved_as(self, name: str, profiles: dict, regions: dict[str, list[int]]) -> None:
        self.saved = name
        self.list_profiles(profiles)
        self.query_one("#profiles", OptionList).highlighted = self.profile_names().index(name)
        self.query_one("#board-title", Static).update(literal(board_title(name)))
        missing = missing_regions(regions)
        if missing:
            # TRANSLATORS: {name}: the board profile's name.
            said = ngettext("Saved {name}. {n} region still lacks values.",
                            "Saved {name}. {n} regions still lack values.",
                            len(missing)).format(name=name, n=len(missing))
        else:
            said = _("Saved {name}. Every region has its values.").format(name=name)
        self.show_message(said, "ok")
        if self.leave_when_saved:
            self.dismiss(self.saved)

    def action_new_profile(self) -> None:
        """A fresh profile from the public values, to be named and filled in."""
        self.show_values(builtin_regions())
        name = self.query_one("#profile-name", Input)
        name.value = "" if self.profiles else BUILTIN_PROFILE
        self.query_one("#board-title", Static).update(_("New board"))
        self.show_message(_("Name the board, then type its values"), "warning")
        name.focus()

    def action_back(self) -> None:
        if self.saving is not None and self.saving.is_running:
            # ctrl+s then Escape in one burst: back once the board is stored, with it
            # chosen, as typed (a save that fails stays here to say why).
            self.leave_when_saved = True
            return
        self.dismiss(self.saved)

    # ------------------------------------------------------------ help

    def help_text(self) -> str:
        key = self.key_of
        # TRANSLATORS: {save} and {new_board} are keys (ctrl+s, ctrl+n).
        return _("Each region of the board prints 2 or 3 VP values, highest first: most "
                 "control markers takes the first, second the next, third (if printed) the "
                 "last. Only German States 8/5/3 (2004 edition) is public; the other regions "
                 "differ by edition, so copy them from your group's own board once and save: "
                 "every later game on this board uses them. In the grid, digits type a value, "
                 "+/- step it, Tab or the arrows move, Enter goes to the next region, 0 means "
                 "not printed; {save} saves. A game cannot reach scoring while a region has no "
                 "values. To keep a second board (another edition) beside the first, press "
                 "{new_board} or type a new name, then save.").format(
            save=key("save"), new_board=key("new_board"))

    def commands(self):
        key = self.key_of
        # TRANSLATORS: palette entries; {key} is the entry's key (ctrl+s).
        yield SystemCommand(_("Save board profile"), _("Keep these region values under this "
                                                       "name ({key})").format(key=key("save")),
                            self.action_save)
        yield SystemCommand(_("New board profile"), _("Start another board from the public "
                                                      "values ({key})").format(
            key=key("new_board")), self.action_new_profile)
        yield SystemCommand(_("Back"), _("Leave the board profiles ({key})").format(
            key=key("back")), self.action_back)


def board_title(name: str) -> str:
    # TRANSLATORS: {name}: a board profile's name.
    return _("Board: {name}").format(name=name)
