"""The footer builds its keys again only when what they show changed, and shows what
Textual's own footer shows (tui/widgets/footer.py, issue 28)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer as TextualFooter
from textual.widgets import Input
from textual.widgets._footer import FooterKey

from tui.widgets.footer import Footer


class Board(Screen):
    BINDINGS = [Binding("f2", "open", "Open"), Binding("f3", "delete", "Delete"),
                Binding("f4", "hidden", "Hidden", show=False)]
    games = 2  # 0: nothing to open or delete; -1: still loading, so both greyed

    def __init__(self, footer: type) -> None:
        super().__init__()
        self.footer = footer

    def compose(self) -> ComposeResult:
        yield Input(id="one")
        yield Input(id="two")
        yield self.footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("open", "delete"):
            return None if self.games < 0 else self.games > 0
        return True


class BoardApp(App):
    def __init__(self, footer: type) -> None:
        super().__init__()
        self.footer = footer

    def on_mount(self) -> None:
        self.push_screen(Board(self.footer))


def shown(app: App) -> list[tuple[str, str, list[str]]]:
    """Each key in the footer: its key, its words and its classes."""
    return [(key.key, key.description, sorted(key.classes))
            for key in app.screen.query(FooterKey)]


async def test_the_keys_are_built_again_only_when_what_they_show_changed():
    ours, textuals = BoardApp(Footer), BoardApp(TextualFooter)
    async with ours.run_test() as pilot, textuals.run_test() as textual_pilot:
        await pilot.pause()
        await textual_pilot.pause()
        assert [k for k, _words, _classes in shown(ours)] == ["f2", "f3", "ctrl+p"]
        assert shown(ours) == shown(textuals)  # the same words and look as Textual's

        built = list(ours.screen.query(FooterKey))
        for _ in range(3):  # focus moves and bindings asked again, the keys the same
            ours.screen.focus_next()
            ours.screen.refresh_bindings()
            await pilot.pause()
        assert list(ours.screen.query(FooterKey)) == built  # the very same widgets

        for games in (-1, 0, 3):
            for app, driver in ((ours, pilot), (textuals, textual_pilot)):
                app.screen.games = games
                app.screen.refresh_bindings()
                await driver.pause()
            assert shown(ours) == shown(textuals), f"games={games}"
        assert ours.screen.query(FooterKey).first().key == "f2"
        assert list(ours.screen.query(FooterKey)) != built  # built again when they changed


async def test_greyed_keys_come_back_when_enabled():
    app = BoardApp(Footer)
    async with app.run_test() as pilot:
        await pilot.pause()
        app.screen.games = -1
        app.screen.refresh_bindings()
        await pilot.pause()
        assert [c for k, _w, c in shown(app) if k == "f2"] == [["-disabled"]]
        app.screen.games = 1
        app.screen.refresh_bindings()
        await pilot.pause()
        assert [c for k, _w, c in shown(app) if k == "f2"] == [[]]
