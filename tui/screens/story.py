"""What the league and the screens of the group's story (a player, head to head, balance)
share: which games count (a game, a group, a season), how a rating, a rate and a count
are written, and the frame of a story screen (its filter line, its loading, Escape).

Group and season names are player text: they reach the screen only through tui.text.literal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from i18n import N_, _, language
from rules.ratings import ALL, PROVISIONAL_BELOW, Rating
from tui.plumbing.ledger_calls import LedgerCalls
from tui.screens.base import WIDE_FROM, WarledgerScreen
from tui.text.formatting import game_name, rating_words
from tui.text.literal import filled, literal, visible
from tui.widgets.footer import Footer
from tui.widgets.header import Header

# Fewer games than this behind a figure of the balance: it is shown dimmed.
FEW_GAMES = PROVISIONAL_BELOW


@dataclass(frozen=True)
class Counted:
    """Which finished games count: one game's (its tag) or every game's, one group's or
    every group's, one season's (of the group) or all time."""

    game: str | None = None
    group: str | None = None
    season: str | None = None

    @property
    def scope(self) -> str:
        """The ratings' scope: the game's own, or across every game (rules.ratings.ALL)."""
        return self.game or ALL

    def which(self, narrow: bool = False) -> Text:
        """'all games · all groups · all time', 'Risk only · Our table · Spring 2026'."""
        # TRANSLATORS: which games count: "all games · all groups · all time".
        return filled(_("{games} · {group} · {season}"),
                      games=which_games(self.game, narrow),
                      group=_("all groups") if self.group is None else self.group,
                      season=_("all time") if self.season is None else self.season)

    def where(self) -> Text:
        """'all groups · all time', 'Our table · Spring 2026': the group's story counts
        every game of the group and season."""
        # TRANSLATORS: which group and season count: "all groups · all time".
        return filled(_("{group} · {season}"),
                      group=_("all groups") if self.group is None else self.group,
                      season=_("all time") if self.season is None else self.season)


def in_palette(name: str) -> str:
    """A group's or a season's name inside a palette entry's title: Textual's palette
    reads a title as markup (its matcher's highlight), so the name's brackets are escaped
    there (and its control characters shown as escapes), and only there."""
    from textual.markup import escape

    return escape(visible(name))


def which_games(game: str | None, narrow: bool = False) -> str:
    """'all games', 'Risk only'; a game's short name on a narrow screen."""
    if not game:
        return _("all games")
    return _("{game} only").format(game=game_name(game, short=narrow))


def scope_name(scope: str) -> str:
    """A ratings' scope in words: 'every game', 'Struggle of Empires'."""
    return _("every game") if scope == ALL else game_name(scope)


def percent(rate: float) -> str:
    """'50%' (Romanian '50 %')."""
    from babel.numbers import format_percent

    return format_percent(rate, locale=language())


def rating_text(rating: Rating | None) -> Text:
    """A rating in a table's cell, right-aligned (tui.text.formatting.rating_words); '—' for
    none."""
    if rating is None:
        return literal("—", justify="right")
    return literal(rating_words(rating), justify="right")


def ahead_of(ahead: int, games: int) -> str:
    """'5/8': finished ahead 5 times in 8 games together."""
    # TRANSLATORS: a head-to-head cell: {ahead} times finished ahead in {games} games
    # together ("5/8").
    return _("{ahead}/{games}").format(ahead=ahead, games=games)


class StoryScreen(LedgerCalls, WarledgerScreen[None]):
    """A screen of the group's story: its title and filter line, a message line, what the
    screen shows (`compose_body`), loaded through the ledger (`load`, then `show`)."""

    BINDINGS = [Binding("escape", "back", N_("Back"), id="back")]

    def __init__(self, counted: Counted) -> None:
        super().__init__()
        self.counted = counted

    @property
    def game_shown(self) -> str | None:
        return self.counted.game

    @property
    def narrow(self) -> bool:
        return self.app.size.width < WIDE_FROM

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="story-title", classes="title")
        yield Static("", id="story-message", classes="message -error")
        yield from self.compose_body()
        yield Footer()

    def compose_body(self) -> ComposeResult:
        return ()

    def title_line(self) -> Text:
        """The screen's title with which games count."""
        return self.counted.where()

    def on_mount(self) -> None:
        self.query_one("#story-title", Static).update(self.title_line())
        self.query_one("#story-message", Static).display = False  # until something fails
        self.call_ledger(self.load, self.show)

    def on_resize(self) -> None:
        self.query_one("#story-title", Static).update(self.title_line())

    def load(self, ledger) -> Any:
        """The screen's data (in a worker thread)."""
        raise NotImplementedError

    def show(self, got: Any) -> None:
        raise NotImplementedError

    def ledger_failed(self, message: str, error: BaseException) -> None:
        said = self.query_one("#story-message", Static)
        said.update(literal(message))
        said.display = True

    def action_back(self) -> None:
        self.dismiss(None)
