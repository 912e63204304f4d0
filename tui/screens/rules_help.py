"""The rules screen: the players' rules guide (every rule and option, with worked examples)
in a Markdown viewer with its table of contents. Opened with `o` from the help screen (F1),
at the section of the game the screen underneath says it shows (`game_shown`).

The guide is read in the reader's language: rules/README.<language>.md (README.ro.md), else
rules/README.md, the English one. The translations keep the English one's structure, heading
for heading (tests/test_rules_guide_ro.py), so the two games' headings are the same anchors
and a language switch opens the other guide at the same heading.

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
from textual.widgets import Markdown, MarkdownViewer
from textual.widgets.markdown import MarkdownTableOfContents

import rules
from i18n import N_, SOURCE, _, language
from tui.compat.textual import MarkdownTable, table_cells
from tui.plumbing.ledger_calls import while_live
from tui.screens.base import ScreenFeatures, WarledgerScreen
from tui.screens.registry import screens_of
from tui.widgets.footer import Footer
from tui.widgets.header import Header

README = Path(rules.__file__).parent / "README.md"
TITLE = N_("Rules and options")


def guide_path(code: str | None = None) -> Path:
    """The rules guide in language `code` (the reader's by default), shipped inside the
    `rules` package; the English one when there is none in that language."""
    code = language() if code is None else code
    if code != SOURCE and (translated := README.with_name(f"README.{code}.md")).is_file():
        return translated
    return README


def rules_text() -> str:
    """The players' rules guide in the reader's language."""
    path = guide_path()
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        shown = path.relative_to(README.parent.parent).as_posix()
        return "# {title}\n\n{missing}".format(
            title=_(TITLE), missing=_("The rules reference ({file}) is missing.").format(file=shown))


def game_of(screen: object) -> str | None:
    """The game a screen says it shows (a game registered in tui.games), or None."""
    game = screen.game_shown if isinstance(screen, ScreenFeatures) else None
    return game if section_of(game) else None


def section_of(game: str | None) -> str | None:
    """The heading anchor of `game`'s section in README.md."""
    entry = screens_of(game) if game else None
    return entry.rules_section if entry else None


class RulesTable(MarkdownTable):
    """A Markdown table drawn as one Rich table (same cells, inline styles kept)."""

    def compose(self) -> ComposeResult:
        self.headings, self.cells = table_cells(self)
        self._table: Table | None = None
        return []

    def render(self) -> Table:
        if self._table is None:
            table = Table(box=box.SQUARE, header_style="bold", border_style="dim",
                          show_edge=True, expand=False)
            for header in self.headings:
                table.add_column(self._text(header), overflow="fold")
            for row in self.cells:
                table.add_row(*(self._text(cell) for cell in row))
            self._table = table
        return self._table

    def _text(self, content: Content) -> Text:
        text = Text(content.plain)
        for span in content.spans:
            style: object = span.style  # Textual's, or a component's (Rich's) below
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


# A heading this many lines below the top of the view is still the one the reader is at.
AT_TOP_LINES = 3


class RulesScreen(WarledgerScreen[None]):
    """Every rule and option of every game; `game` (a tag) opens at its section."""

    DEFAULT_CSS = """
    RulesScreen RulesViewer { height: 1fr; }
    RulesScreen MarkdownTableOfContents { width: 36; }
    RulesScreen MarkdownTableOfContents > Tree { width: 1fr; overflow-x: hidden; }
    """
    BINDINGS = [Binding("escape", "close", N_("Close"), id="close")]
    AUTO_FOCUS = "#rules-document"  # focused while still empty: focusing later restyles it all
    HELP_TITLE = TITLE

    def __init__(self, game: str | None = None, heading: int | None = None) -> None:
        """`heading`: the place in the guide's table of contents to open at (a language
        switch keeps it), rather than the game's section."""
        super().__init__()
        self.game = game if section_of(game) else None
        self.heading = heading
        self.loaded = False

    @property
    def game_shown(self) -> str | None:
        return self.game

    def compose(self) -> ComposeResult:
        yield Header()
        yield RulesViewer(show_table_of_contents=True, id="rules")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = _(TITLE)
        viewer = self.query_one(RulesViewer)
        viewer.loading = True
        self.call_after_refresh(while_live(self, self.load))

    async def load(self) -> None:
        """Fill in the reference after the first frame, then go to the game's section."""
        viewer = self.query_one(RulesViewer)
        document = viewer.document
        await document.update(rules_text())
        viewer.loading = False
        contents = document.table_of_contents
        if self.heading is not None and 0 <= self.heading < len(contents):
            block = document.query_one(f"#{contents[self.heading][2]}")
            self.call_after_refresh(while_live(self, block.scroll_visible), top=True,
                                    animate=False)
        elif section := section_of(self.game):
            self.call_after_refresh(while_live(self, document.goto_anchor), section)
        self.loaded = True

    def heading_shown(self) -> int | None:
        """The place in the table of contents of the heading the reader is at: the first one
        in the view's first lines, else the last one above the view; None before the guide
        is loaded. A scroll to a heading can stop a line or two short of it (the guide laid
        out again meanwhile): the reader is still at that heading, not at the one before."""
        if not self.loaded:
            return None
        viewer = self.query_one(RulesViewer)
        document = viewer.document
        top = viewer.scroll_y - document.virtual_region.y
        shown = None
        for index, (_level, _title, block_id) in enumerate(document.table_of_contents):
            y = document.query_one(f"#{block_id}").virtual_region.y
            if y > top + AT_TOP_LINES:
                break
            shown = index
            if y >= top:
                break
        return shown

    def again(self) -> RulesScreen:
        """The guide in the language now shown, at the heading the reader was at."""
        return RulesScreen(self.game, self.heading_shown())

    def action_close(self) -> None:
        self.dismiss(None)
