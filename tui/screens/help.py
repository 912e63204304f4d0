"""Help: the keys that work on the screen underneath now, and what its current step expects.

The keys come from the screen's active bindings, the same source the footer reads: what
the footer shows (dimmed when not possible now), and the hidden keys that have an id and
work now. So help, footer and the words of the screens never disagree about a key.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from i18n import N_, _
from tui.plumbing.keys import binding_face, keys_face
from tui.screens.base import ScreenFeatures, WarledgerModal
from tui.text.literal import literal, words
from tui.widgets.themed import follow_theme, part_style


@dataclass(frozen=True)
class KeyRow:
    """One line of the help: the key(s), what they do (in the reader's language), and
    whether they work now."""

    keys: str
    what: str
    enabled: bool = True


def active_keys(screen: Screen) -> list[KeyRow]:
    """The keys of `screen` now, one row per action, in the order Textual tries them
    (the focused widget, the screen, then the app)."""
    rows: dict[tuple[int, str], tuple[list[str], Binding, bool]] = {}
    for key, (node, binding, enabled, _tooltip) in screen.active_bindings.items():
        if not binding.description or binding.system:
            continue
        if not (binding.show or (enabled and binding.id)):
            continue  # hidden and nameless: a widget's own key (a table's cursor keys)
        keys, _binding, _enabled = rows.setdefault((id(node), binding.action), ([], binding, enabled))
        keys.append(key)
    return [KeyRow(binding.key_display or keys_face(keys),
                   _(binding.tooltip or binding.description), enabled)
            for keys, binding, enabled in rows.values()]


def own_keys(bindings: list[Binding], listed: list[KeyRow]) -> list[KeyRow]:
    """The help's own keys, each row without the keys `listed` already gives the screen
    below (f1 and ? are that screen's "This help", esc its Back): every key is listed once,
    with one meaning."""
    taken = {face for row in listed for face in row.keys.split(" / ")}
    rows = []
    for binding in bindings:
        keys = [face for face in binding_face(binding).split(" / ") if face not in taken]
        if keys:
            rows.append(KeyRow(" / ".join(keys), _(binding.tooltip or binding.description)))
    return rows


class KeyList(Static):
    """Keys and what they do, in two columns; app.tcss colours the keys."""

    COMPONENT_CLASSES = {"key-list--key", "key-list--off"}

    def __init__(self, rows: list[KeyRow], **kwargs) -> None:
        super().__init__(**kwargs)
        self.rows = rows

    def on_mount(self) -> None:
        self.show_keys()
        follow_theme(self, self.show_keys)

    def show_keys(self) -> None:
        key, off = part_style(self, "key-list--key"), part_style(self, "key-list--off")
        table = Table(box=None, show_header=False, padding=(0, 2))
        table.add_column(style=key, no_wrap=True)
        table.add_column()
        for row in self.rows:
            table.add_row(literal(row.keys, "" if row.enabled else off),
                          literal(row.what, "" if row.enabled else off))
        self.update(table)


class HelpScreen(WarledgerModal[None]):
    """The keys of `below` as they stand when help is opened, with its own words about the
    current step; then the keys of the help itself."""

    HELP_TITLE = N_("Help")
    # "o", not "r": no screen binds it (home's r is a new Risk game), so the help never
    # lists one key for two things.
    BINDINGS = [Binding("o", "rules", N_("Rules and options"), id="rules",
                        tooltip=N_("Rules and options, with worked examples")),
                Binding("escape,f1,question_mark,q", "close", N_("Close"), id="close",
                        tooltip=N_("Close this help"))]

    def __init__(self, below: Screen) -> None:
        super().__init__()
        self.below = below
        # Read now, while `below` is the screen in front with its focus.
        self.rows = active_keys(below)
        self.rows += own_keys([b for b in self.BINDINGS if isinstance(b, Binding)],
                              listed=self.rows)
        features = below if isinstance(below, ScreenFeatures) else ScreenFeatures()
        self.heading = _(features.HELP_TITLE)
        self.about = features.help_text()

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="help"):
            yield Static(words((self.heading, "bold")))
            if self.about:
                yield Static(literal(self.about), classes="hint")
            yield KeyList(self.rows, id="help-keys")

    def action_close(self) -> None:
        self.dismiss(None)

    def action_rules(self) -> None:
        from tui.screens.rules_help import RulesScreen, game_of

        below, app = self.below, self.app
        self.dismiss(None)
        if not isinstance(below, RulesScreen):  # help over the rules: back to them
            app.push_screen(RulesScreen(game_of(below)))
