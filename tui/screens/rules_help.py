"""The rules screen: rules/README.md (every rule and option, with worked examples) in a
Markdown viewer with its table of contents. Opened with `r` from the help screen (F1), at
the section of the game the screen underneath says it shows (`game_shown`).

The reference has some thirty tables. Textual's Markdown table is a grid of one widget per
cell, which takes seconds to lay out; here each table is drawn as one Rich table instead,
and the document is loaded after the screen's first frame, so `r` answers at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rich import box
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Header, Markdown, MarkdownViewer
from textual.widgets._markdown import MarkdownTable
from textual.widgets.markdown import MarkdownTableOfContents

import rules
from tui.ledger_calls import while_live
from tui.screens.base import ScreenFeatures, WarledgerScreen
from tui.widgets.footer import Footer

README = Path(rules.__file__).parent / "README.md"


def rules_text() -> str:
    """The players' rules reference, shipped inside the `rules` package."""
    try:
        return README.read_text(encoding="utf-8")
    except OSError:
        return "# Rules and options\n\nThe rules reference (rules/README.md) is missing."


def game_of(screen: object) -> str | None:
    """The game a screen says it shows (a game registered in tui.games), or None."""
    game = screen.game_shown if isinstance(screen, ScreenFeatures) else None
    return game if section_of(game) else None


def section_of(game: str | None) -> str | None:
    """The heading anchor of `game`'s section in README.md."""
    from tui.games import screens_of

    entry = screens_of(game) if game else None
    return entry.rules_section if entry else None


class RulesTable(MarkdownTable):
    """A Markdown table drawn as one Rich table (same cells, inline styles kept)."""

    def compose(self) -> ComposeResult:
        self._headers, self._rows = self._get_headers_and_rows()
        self._table: Table | None = None
        return []

    def render(self) -> Table:
        if self._table is None:
            table = Table(box=box.SQUARE, header_style="bold", border_style="dim",
                          show_edge=True, expand=False)
            for header in self._headers:
                table.add_column(self._text(header), overflow="fold")
            for row in self._rows:
                table.add_row(*(self._text(cell) for cell in row))
            self._table = table
        return self._table

    def _text(self, content: Content) -> Text:
        text = Text(content.plain)
        for span in content.spans:
            style = span.style
            if isinstance(style, str) and style.startswith("."):
                style = self.get_component_rich_style(style[1:], partial=True)
            if isinstance(style, Style | str):
                text.stylize(style, span.start, span.end)
        return text


class RulesMarkdown(Markdown):
    """Markdown with the light table."""

    BLOCKS = {**Markdown.BLOCKS, "table_open": RulesTable}


class RulesViewer(MarkdownViewer):
    """MarkdownViewer (table of contents on the left) over RulesMarkdown."""

    def compose(self) -> Iterable[Widget]:
        markdown = RulesMarkdown(open_links=False, id="rules-document")
        markdown.can_focus = True
        yield markdown
        yield MarkdownTableOfContents(markdown)


class RulesScreen(WarledgerScreen[None]):
    """Every rule and option of every game; `game` (a tag) opens at its section."""

    DEFAULT_CSS = """
    RulesScreen RulesViewer { height: 1fr; }
    RulesScreen MarkdownTableOfContents { width: 36; }
    RulesScreen MarkdownTableOfContents > Tree { width: 1fr; overflow-x: hidden; }
    """
    BINDINGS = [Binding("escape", "close", "Close", id="close")]
    AUTO_FOCUS = "#rules-document"  # focused while still empty: focusing later restyles it all
    HELP_TITLE = "Rules and options"

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        self.game = game if section_of(game) else None
        self.loaded = False

    @property
    def game_shown(self) -> str | None:
        return self.game

    def compose(self) -> ComposeResult:
        yield Header()
        yield RulesViewer(show_table_of_contents=True, id="rules")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "Rules and options"
        viewer = self.query_one(RulesViewer)
        viewer.loading = True
        self.call_after_refresh(while_live(self, self.load))

    async def load(self) -> None:
        """Fill in the reference after the first frame, then go to the game's section."""
        viewer = self.query_one(RulesViewer)
        await viewer.document.update(rules_text())
        viewer.loading = False
        if section := section_of(self.game):
            self.call_after_refresh(while_live(self, viewer.document.goto_anchor), section)
        self.loaded = True

    def action_close(self) -> None:
        self.dismiss(None)
